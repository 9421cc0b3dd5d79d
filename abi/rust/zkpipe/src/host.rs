//! The host: one prover and one pacer, chosen by configuration, and the keys loaded on it.
use crate::error::{call, Error, Result, Status};
use crate::proof::{Proof, PublicInputs};
use crate::scalar::Curve;
use std::ffi::{c_char, CStr, CString};
use std::path::{Path, PathBuf};
use std::ptr::{self, NonNull};
use std::sync::{Arc, Mutex};
use zkpipe_sys as sys;

/// Builds a [`Host`]: an optional INI file, then `key=value` overrides applied after it
/// (the keys of `zkpipe --help`; unknown keys are errors).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostBuilder {
    config: Option<PathBuf>,
    overrides: Vec<String>,
}

impl HostBuilder {
    /// Reads this INI file first.
    pub fn config(mut self, path: impl AsRef<Path>) -> Self {
        self.config = Some(path.as_ref().to_path_buf());
        self
    }

    /// Sets one key (`"prover"`, `"workers_per_device"`, `"prover.devices"`, ...).
    pub fn set(mut self, key: &str, value: impl ToString) -> Self {
        self.overrides.push(format!("{key}={}", value.to_string()));
        self
    }

    /// Creates the host: loads its plugins and starts its threads.
    pub fn build(self) -> Result<Host> {
        let config = self.config.map(|p| cstring(p.as_os_str().as_encoded_bytes(), "config path")).transpose()?;
        let overrides = self.overrides.iter().map(|o| cstring(o.as_bytes(), "override")).collect::<Result<Vec<_>>>()?;
        let ptrs: Vec<*const c_char> = overrides.iter().map(|s| s.as_ptr()).collect();
        let mut raw = ptr::null_mut();
        call(|err| unsafe {
            sys::zkp_host_create(config.as_ref().map_or(ptr::null(), |c| c.as_ptr()), ptrs.as_ptr(), ptrs.len(), &mut raw, err)
        })?;
        let raw = NonNull::new(raw).ok_or_else(|| Error::InvalidArgument("zkp_host_create returned no host".into()))?;
        Ok(Host { raw, key_buffers: Mutex::new(Vec::new()) })
    }
}

pub(crate) fn cstring(bytes: &[u8], what: &str) -> Result<CString> {
    CString::new(bytes).map_err(|_| Error::InvalidArgument(format!("the {what} contains a NUL byte")))
}

/// A zkpipe host. Every method may be called from any thread at the same time
/// (`[any-thread]` in zkp_host.h), so `Host` is `Send + Sync`; share it with an `Arc`.
///
/// Dropping it drains: every submitted partition finishes and its callbacks run, then
/// the host is destroyed. Do not drop the last reference to a host inside one of its own
/// completion callbacks (the C API cannot wait for itself there).
pub struct Host {
    raw: NonNull<sys::zkp_host_t>,
    // .zkey buffers handed to load_key: the prover may read them until the key is freed,
    // which happens when the host is destroyed.
    key_buffers: Mutex<Vec<Arc<[u8]>>>,
}

// SAFETY: zkp_host.h tags every function [any-thread]; the host does its own locking.
unsafe impl Send for Host {}
unsafe impl Sync for Host {}

impl Host {
    pub fn builder() -> HostBuilder {
        HostBuilder::default()
    }

    /// The ABI version the linked libzkpipe implements.
    pub fn abi_version() -> u32 {
        unsafe { sys::zkp_host_abi_version() }
    }

    pub(crate) fn raw(&self) -> *mut sys::zkp_host_t {
        self.raw.as_ptr()
    }

    /// Loads a proving key on every device.
    pub fn load_key(&self, source: KeySource) -> Result<Key> {
        let mut raw = sys::zkp_key_source_t {
            header: sys::zkp_struct_header_t::of::<sys::zkp_key_source_t>(),
            path: ptr::null(),
            data: ptr::null(),
            size: 0,
            format: source.format.raw(),
            witness_generator: ptr::null(),
        };
        let generator = source.witness_generator.as_ref().map(|g| cstring(g.as_os_str().as_encoded_bytes(), "witness generator path")).transpose()?;
        if let Some(g) = &generator {
            raw.witness_generator = g.as_ptr();
        }
        let path;
        match &source.source {
            Source::Path(p) => {
                path = cstring(p.as_os_str().as_encoded_bytes(), "key path")?;
                raw.path = path.as_ptr();
            }
            Source::Bytes(b) => {
                raw.data = b.as_ptr().cast();
                raw.size = b.len();
            }
            Source::None => {}
        }
        let mut id = 0u64;
        call(|err| unsafe { sys::zkp_host_load_key(self.raw(), &raw, &mut id, err) })?;
        if let Source::Bytes(b) = source.source {
            self.key_buffers.lock().unwrap_or_else(|e| e.into_inner()).push(b);
        }
        Ok(Key { id, info: self.key_info(id)? })
    }

    /// Unloads `key` (`zkp_host_unload_key`): later jobs and [`key_info`](Self::key_info)
    /// with it fail with [`Status::NotFound`], and the prover frees it once nothing holds it.
    /// Refused with [`Status::InvalidArgument`], the key kept, while partitions of a job that
    /// uses it have not all completed; [`Status::NotFound`] for a key this host does not hold
    /// (unloaded already, or another host's). Key ids are never reused. The bytes of a key
    /// loaded with [`KeySource::bytes`] stay with the host until it is dropped (the prover may
    /// read them until it frees the key).
    pub fn unload_key(&self, key: &Key) -> Result<()> {
        call(|err| unsafe { sys::zkp_host_unload_key(self.raw(), key.id, err) })
    }

    /// Describes a loaded key.
    pub fn key_info(&self, key_id: u64) -> Result<KeyInfo> {
        let mut raw = sys::zkp_key_info_t { header: sys::zkp_struct_header_t::of::<sys::zkp_key_info_t>(), ..Default::default() };
        call(|err| unsafe { sys::zkp_host_key_info(self.raw(), key_id, &mut raw, err) })?;
        Ok(KeyInfo {
            curve: Curve::from_raw(raw.curve),
            n_vars: raw.n_vars,
            n_public: raw.n_public,
            domain_size: raw.domain_size,
            synthesis_bytes: raw.synthesis_bytes,
            device_bytes: raw.device_bytes,
            proof_size: raw.proof_size,
            public_size: raw.public_size,
        })
    }

    /// Checks `proof` and its public inputs against `key` with the host's prover
    /// (`zkp_host_verify`: the pairing of the host's self-check, on the key it already
    /// holds): `Ok(true)` valid, `Ok(false)` a proof that does not verify, `Err` if it
    /// could not check: a key this host did not load ([`Status::NotFound`]), a proof or
    /// a number of public inputs that is not the key's ([`Status::BadInput`]), a prover
    /// that cannot verify, such as `sim` ([`Status::Unsupported`]). `key` must come from
    /// this host's [`load_key`](Self::load_key): key ids are per host.
    pub fn verify(&self, key: &Key, proof: &Proof, public: &PublicInputs) -> Result<bool> {
        let (p, s) = (proof.as_bytes(), public.as_bytes());
        match call(|err| unsafe { sys::zkp_host_verify(self.raw(), key.id, p.as_ptr(), p.len(), s.as_ptr(), s.len(), err) }) {
            Ok(()) => Ok(true),
            Err(e) if e.status() == Some(Status::InvalidProof) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Counters and gauges of the pipeline.
    pub fn stats(&self) -> Result<Stats> {
        let mut raw = sys::zkp_host_stats_t { header: sys::zkp_struct_header_t::of::<sys::zkp_host_stats_t>(), ..Default::default() };
        call(|err| unsafe { sys::zkp_host_stats(self.raw(), &mut raw, err) })?;
        Ok(Stats {
            jobs_submitted: raw.jobs_submitted,
            jobs_finished: raw.jobs_finished,
            partitions_succeeded: raw.partitions_succeeded,
            partitions_failed: raw.partitions_failed,
            pending: raw.pending,
            synthesizing: raw.synthesizing,
            waiting: raw.waiting,
            proving: raw.proving,
            budget_total_bytes: raw.budget_total_bytes,
            budget_used_bytes: raw.budget_used_bytes,
            budget_peak_bytes: raw.budget_peak_bytes,
            device_count: raw.device_count,
            workers_per_device: raw.workers_per_device,
            admission_stalls: raw.admission_stalls,
            admission_interval_ns: raw.admission_interval_ns,
            device_restarts: raw.device_restarts,
            devices_quarantined: raw.devices_quarantined,
        })
    }

    /// Describes device `gpu_index` of the host's prover.
    pub fn device_info(&self, gpu_index: u32) -> Result<DeviceInfo> {
        let mut raw: sys::zkp_device_info_t = unsafe { std::mem::zeroed() };
        raw.header = sys::zkp_struct_header_t::of::<sys::zkp_device_info_t>();
        call(|err| unsafe { sys::zkp_host_device_info(self.raw(), gpu_index, &mut raw, err) })?;
        raw.name[raw.name.len() - 1] = 0;
        Ok(DeviceInfo {
            name: unsafe { CStr::from_ptr(raw.name.as_ptr()) }.to_string_lossy().into_owned(),
            memory_bytes: raw.memory_bytes,
            memory_free_bytes: raw.memory_free_bytes,
            partitions_started: raw.partitions_started,
            partitions_proved: raw.partitions_proved,
            busy_ns: raw.busy_ns,
        })
    }

    /// The pacer's one-line status.
    pub fn pacer_status(&self) -> Result<String> {
        let mut buf = vec![0u8; 256];
        loop {
            let mut needed = 0usize;
            call(|err| unsafe { sys::zkp_host_pacer_status(self.raw(), buf.as_mut_ptr().cast(), buf.len(), &mut needed, err) })?;
            if needed < buf.len() {
                buf.truncate(needed);
                return Ok(String::from_utf8_lossy(&buf).into_owned());
            }
            buf = vec![0u8; needed + 1];
        }
    }

    /// Stops accepting jobs, then drains (`cancel == false`) or cancels the work in flight
    /// and waits for it. Later submits fail with [`Status::Cancelled`](crate::Status).
    pub fn shutdown(&self, cancel: bool) -> Result<()> {
        let mode = if cancel { sys::ZKP_SHUTDOWN_CANCEL } else { sys::ZKP_SHUTDOWN_DRAIN };
        call(|err| unsafe { sys::zkp_host_shutdown(self.raw(), mode, err) })
    }

    /// Waits until every job submitted so far has finished and its callbacks returned.
    pub fn wait_all(&self) -> Result<()> {
        call(|err| unsafe { sys::zkp_host_wait(self.raw(), 0, -1, err) })
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        unsafe { sys::zkp_host_destroy(self.raw(), sys::ZKP_SHUTDOWN_DRAIN) };
    }
}

/// Where a proving key comes from, and its file format (default [`KeyFormat::Zkey`]):
/// `KeySource::path("circuit.params").format(KeyFormat::Bellperson)`.
#[derive(Clone, Debug)]
pub struct KeySource {
    pub(crate) source: Source,
    pub(crate) format: KeyFormat,
    pub(crate) witness_generator: Option<PathBuf>,
}

#[derive(Clone, Debug)]
pub(crate) enum Source {
    Path(PathBuf),
    Bytes(Arc<[u8]>),
    None,
}

/// The file format of a proving key (`zkp_key_source_t.format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyFormat {
    /// A snarkjs Groth16 .zkey (BN254 or BLS12-381).
    #[default]
    Zkey,
    /// bellperson/Filecoin Groth16 parameters (BLS12-381): the verifying key, then ic, h,
    /// l, a, b_g1, b_g2, uncompressed. Partitions of such a key are caller-synthesized
    /// ([`Synthesized`](crate::Synthesized) with density bitmaps).
    Bellperson,
}

impl KeyFormat {
    pub(crate) fn raw(self) -> sys::zkp_key_format_t {
        match self {
            KeyFormat::Zkey => sys::ZKP_KEY_FORMAT_ZKEY,
            KeyFormat::Bellperson => sys::ZKP_KEY_FORMAT_BELLPERSON,
        }
    }
}

impl KeySource {
    fn of(source: Source) -> KeySource {
        KeySource { source, format: KeyFormat::Zkey, witness_generator: None }
    }

    /// A key file (.zkey unless [`format`](Self::format) says otherwise).
    pub fn path(path: impl AsRef<Path>) -> KeySource {
        KeySource::of(Source::Path(path.as_ref().to_path_buf()))
    }

    /// Key bytes in memory; the host keeps them alive as long as it holds the key.
    pub fn bytes(bytes: impl Into<Arc<[u8]>>) -> KeySource {
        KeySource::of(Source::Bytes(bytes.into()))
    }

    /// No key at all: what the simulated prover (`prover=sim`) takes.
    pub fn simulated() -> KeySource {
        KeySource::of(Source::None)
    }

    /// The file format of the path or bytes.
    pub fn format(mut self, format: KeyFormat) -> KeySource {
        self.format = format;
        self
    }

    /// The circuit's witness generator plugin (`zkpipe witness build`'s output,
    /// `zkp_key_source_t.witness_generator`): partitions of this key may then be inputs
    /// ([`Partition::input_json`](crate::Partition::input_json)), whose witness the host
    /// computes. Loading fails if the generator is not of the key's circuit.
    pub fn witness_generator(mut self, path: impl AsRef<Path>) -> KeySource {
        self.witness_generator = Some(path.as_ref().to_path_buf());
        self
    }
}

/// A key loaded on a host: its id and what the prover says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub id: u64,
    pub info: KeyInfo,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyInfo {
    /// `None` for a simulated key.
    pub curve: Option<Curve>,
    /// Wires, including the constant 1 at index 0.
    pub n_vars: u32,
    /// Public outputs + public inputs, without the constant.
    pub n_public: u32,
    pub domain_size: u32,
    /// Host bytes one synthesized partition holds (what admission reserves).
    pub synthesis_bytes: u64,
    /// Device memory the key holds on each device it is loaded on (0 without devices).
    pub device_bytes: u64,
    pub proof_size: u32,
    pub public_size: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub name: String,
    pub memory_bytes: u64,
    pub memory_free_bytes: u64,
    pub partitions_started: u64,
    pub partitions_proved: u64,
    pub busy_ns: u64,
}

/// Counters and gauges of a host's pipeline (zkp_host_stats_t).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub jobs_submitted: u64,
    pub jobs_finished: u64,
    pub partitions_succeeded: u64,
    /// Includes cancelled partitions.
    pub partitions_failed: u64,
    /// Partitions submitted and not yet admitted.
    pub pending: u32,
    pub synthesizing: u32,
    /// Synthesized, in the GPU queue.
    pub waiting: u32,
    pub proving: u32,
    pub budget_total_bytes: u64,
    pub budget_used_bytes: u64,
    /// The highest budget_used_bytes seen.
    pub budget_peak_bytes: u64,
    pub device_count: u32,
    pub workers_per_device: u32,
    /// Stretches in which partitions waited, the budget had room and the pacer admitted
    /// nothing for longer than the host's admission watchdog allows (a pacer bug, logged).
    pub admission_stalls: u64,
    /// The time between the pipeline's last two admissions (0 before two).
    pub admission_interval_ns: u64,
    /// Device processes restarted after they died or were killed (isolation = process).
    pub device_restarts: u64,
    /// Devices quarantined now after a device error (no unpinned work while another is usable).
    pub devices_quarantined: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_source_carries_its_format_to_the_abi() {
        let zkey = KeySource::path("circuit.zkey");
        assert_eq!((zkey.format, zkey.format.raw()), (KeyFormat::Zkey, sys::ZKP_KEY_FORMAT_ZKEY));
        let params = KeySource::bytes(vec![0u8; 4]).format(KeyFormat::Bellperson);
        assert_eq!(params.format.raw(), sys::ZKP_KEY_FORMAT_BELLPERSON);
        assert!(matches!(params.source, Source::Bytes(ref b) if b.len() == 4));
    }
}
