//! Checking proofs against a key, outside any host: the C host API has no verify, so
//! the crate drives a prover plugin's `verify` (zkp_prover.h) itself, through the
//! plugin ABI. The `cpu` prover implements it with the pairing.
use crate::error::{call, Error, Result, Status};
use crate::host::{cstring, KeySource, Source};
use crate::plugin_library::Library;
use crate::proof::{Proof, PublicInputs};
use std::ffi::{c_char, c_void};
use std::ptr;
use zkpipe_sys as sys;

/// A proving key loaded into a prover plugin, for checking proofs.
///
/// A `Verifier` opens its own instance of the plugin. zkpipe's plugins accept being
/// initialised by a host and a verifier in one process (their init only checks the
/// ABI version); a third-party plugin with process-wide init state may not.
pub struct Verifier {
    prover: *mut sys::zkp_prover_t,
    key: *mut sys::zkp_key_t,
    _key_bytes: Option<std::sync::Arc<[u8]>>,
    library: Library,
}

// SAFETY: verify is [any-thread] in zkp_prover.h; load and free happen in new and drop.
unsafe impl Send for Verifier {}
unsafe impl Sync for Verifier {}

unsafe extern "C" fn log(_: *mut c_void, _: sys::zkp_log_level_t, _: *const c_char) {}
unsafe extern "C" fn now_ns(_: *mut c_void) -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
static SERVICES: HostServices = HostServices(sys::zkp_host_services_t {
    header: sys::zkp_struct_header_t::of::<sys::zkp_host_services_t>(),
    host_data: ptr::null_mut(),
    log: Some(log),
    now_ns: Some(now_ns),
});
struct HostServices(sys::zkp_host_services_t);
// SAFETY: immutable, and host_data is null.
unsafe impl Sync for HostServices {}

impl Verifier {
    /// Opens prover plugin `prover` ("cpu", or a path to a .so) and loads `key` into it.
    pub fn new(prover: &str, key: KeySource) -> Result<Verifier> {
        let library = Library::open("prover", prover)?;
        let entry = library.entry;
        if entry.abi_version_min > sys::ZKP_ABI_VERSION || entry.abi_version_max < sys::ZKP_ABI_VERSION {
            return Err(Error::host(Status::AbiMismatch, format!("plugin {prover} speaks ABI {}..{}", entry.abi_version_min, entry.abi_version_max)));
        }
        let init = entry.init.ok_or_else(|| Error::host(Status::AbiMismatch, "plugin has no init"))?;
        call(|err| unsafe { init(sys::ZKP_ABI_VERSION, err) })?;
        Self::create(prover, library, key).inspect_err(|_| {
            if let Some(deinit) = entry.deinit {
                unsafe { deinit() };
            }
        })
    }

    // After init: on failure the caller runs deinit, unless a Verifier exists (its Drop does).
    fn create(prover: &str, library: Library, key: KeySource) -> Result<Verifier> {
        let entry = library.entry;
        let factory = match entry.get_factory {
            Some(get) => unsafe { get(sys::ZKP_PROVER_FACTORY_ID.as_ptr()).cast::<sys::zkp_prover_factory_t>() },
            None => ptr::null(),
        };
        let create = unsafe { factory.as_ref() }.and_then(|f| f.create);
        let create = create.ok_or_else(|| Error::host(Status::NotFound, format!("plugin {prover} has no prover factory")))?;
        let mut raw = ptr::null_mut();
        call(|err| unsafe { create(&SERVICES.0, ptr::null(), 0, &mut raw, err) })?;
        let mut v = Verifier { prover: raw, key: ptr::null_mut(), _key_bytes: None, library };
        if v.table().flags & sys::ZKP_PROVER_FLAG_VERIFY == 0 || v.table().verify.is_none() {
            return Err(Error::host(Status::Unsupported, format!("prover {prover} cannot verify")));
        }
        let mut source = sys::zkp_key_source_t { header: sys::zkp_struct_header_t::of::<sys::zkp_key_source_t>(), path: ptr::null(), data: ptr::null(), size: 0, format: key.format.raw() };
        let path;
        match key.source {
            Source::Path(p) => {
                path = cstring(p.as_os_str().as_encoded_bytes(), "key path")?;
                source.path = path.as_ptr();
            }
            Source::Bytes(b) => {
                (source.data, source.size) = (b.as_ptr().cast(), b.len());
                v._key_bytes = Some(b);
            }
            Source::None => return Err(Error::InvalidArgument("a Verifier needs a key".into())),
        }
        let key_load = v.table().key_load.ok_or_else(|| Error::host(Status::AbiMismatch, "prover has no key_load"))?;
        let mut key = ptr::null_mut();
        call(|err| unsafe { key_load(v.prover, &source, -1, &mut key, err) })?;
        v.key = key;
        Ok(v)
    }

    fn table(&self) -> &sys::zkp_prover_t {
        // SAFETY: created by the factory, valid until destroy in drop.
        unsafe { &*self.prover }
    }

    /// Checks `proof` against the key: `Ok(true)` valid, `Ok(false)` invalid, `Err` if it
    /// could not check (a malformed point, a proof of another curve, ...).
    pub fn verify(&self, proof: &Proof, public: &PublicInputs) -> Result<bool> {
        let verify = self.table().verify.expect("checked in new");
        let mut valid = 0i32;
        let (p, s) = (proof.as_bytes(), public.as_bytes());
        call(|err| unsafe { verify(self.prover, self.key, p.as_ptr(), p.len(), s.as_ptr(), s.len(), &mut valid, err) })?;
        Ok(valid == 1)
    }
}

impl Drop for Verifier {
    fn drop(&mut self) {
        let t = *self.table();
        unsafe {
            if let (Some(free), false) = (t.key_free, self.key.is_null()) {
                free(self.prover, self.key);
            }
            if let Some(destroy) = t.destroy {
                destroy(self.prover);
            }
            if let Some(deinit) = self.library.entry.deinit {
                deinit();
            }
        }
    }
}
