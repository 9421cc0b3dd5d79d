#![doc = include_str!("../README.md")]
// The signatures are supraseal-c2's, item for item: callers compile against them unchanged.
#![allow(clippy::too_many_arguments)]

mod config;
mod field;
mod prove;
mod srs_file;

pub use config::CONFIG_ENV;
use std::path::PathBuf;
use std::sync::Mutex;

/// supraseal's error type (sppark's `Error`, which `sppark::cuda_error!()` names
/// `cuda::Error`): a code and an optional message. Upstream's module is private; this one is
/// public so that the type can be named.
pub mod cuda {
    use std::fmt;

    /// `code` is an errno value where supraseal has one (2 for a parameter file that does
    /// not exist, 22 for one whose sections do not fit in it, ...); the message is what
    /// [`Display`](fmt::Display) and `String::from` give, `sppark::Error #<code>` without one.
    pub struct Error {
        pub code: i32,
        str: Option<String>,
    }

    impl Error {
        pub(crate) fn new(code: i32, message: String) -> Error {
            Error { code, str: if message.is_empty() { None } else { Some(message) } }
        }
    }

    impl From<&Error> for String {
        fn from(status: &Error) -> Self {
            match &status.str {
                Some(message) => message.clone(),
                None => format!("sppark::Error #{}", status.code),
            }
        }
    }

    impl From<Error> for String {
        fn from(status: Error) -> Self {
            String::from(&status)
        }
    }

    impl fmt::Display for Error {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(&String::from(self))
        }
    }

    impl fmt::Debug for Error {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.debug_struct("Error").field("code", &self.code).field("str", &self.str).finish()
        }
    }

    impl std::error::Error for Error {}
}

/// Which zkpipe prover the SRSs of this process run on (`"cuda"`, `"cpu"`, or what the
/// [`CONFIG_ENV`] file names), choosing it on first use as [`SRS::try_new`] does. Not in
/// upstream's API: for operators and tests.
pub fn zkpipe_prover() -> Result<String, cuda::Error> {
    config::host_config().map(|c| c.prover.clone())
}

/// Groth16 parameters loaded for proving: a zkpipe host (configured by the [`CONFIG_ENV`]
/// file) holding the bellperson parameter file as a key. Clones share it; the last one
/// dropped (cache entries count) drains and destroys the host.
#[allow(clippy::upper_case_acronyms)] // supraseal's name
#[derive(Default)]
pub struct SRS {
    inner: Option<Loaded>,
}

#[derive(Clone)]
struct Loaded {
    path: String,
    srs: zkpipe::supraseal::SRS,
}

/// supraseal's `SRS_cache`: the four most recently used SRSs by path, most recent first.
static CACHE: Mutex<Vec<Loaded>> = Mutex::new(Vec::new());
const CACHED: usize = 4;

fn from_zkpipe(e: zkpipe::Error) -> cuda::Error {
    use zkpipe::Status;
    // errno values, as supraseal's sppark_error codes are.
    let code = match e.status() {
        Some(Status::NotFound) => 2,                                  // ENOENT
        Some(Status::OutOfMemory | Status::BudgetExhausted) => 12,    // ENOMEM
        Some(Status::Device | Status::DeviceLost) => 19,              // ENODEV
        Some(Status::Unsupported) => 95,                              // ENOTSUP
        Some(Status::Cancelled) => 125,                               // ECANCELED
        Some(Status::Timeout) => 110,                                 // ETIMEDOUT
        Some(Status::Internal | Status::Unknown(_)) => srs_file::EIO, // EIO
        _ => srs_file::EINVAL,                                        // EINVAL: arguments, inputs, keys
    };
    cuda::Error::new(code, format!("zkpipe: {e}"))
}

fn load(path: &str) -> Result<Loaded, cuda::Error> {
    srs_file::check(path)?;
    let config = config::host_config()?;
    let srs = zkpipe::supraseal::SRS::try_new_with(path, false, config.builder.clone()).map_err(from_zkpipe)?;
    Ok(Loaded { path: path.to_string(), srs })
}

fn lookup(path: &str) -> Result<Loaded, cuda::Error> {
    let mut list = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = list.iter().position(|l| l.path == path) {
        let hit = list.remove(i);
        list.insert(0, hit.clone());
        return Ok(hit);
    }
    // As supraseal: the least recently used goes before the new one loads (even if it fails).
    let pushed_out = if list.len() >= CACHED { list.pop() } else { None };
    let loaded = load(path);
    if let Ok(l) = &loaded {
        list.insert(0, l.clone());
    }
    drop(list);
    // Outside the lock: the last handle of a host drains it.
    drop(pushed_out);
    loaded
}

impl SRS {
    /// Loads a bellperson parameter file. `cache`: share the process-wide cached SRS of this
    /// path if there is one, else load it and cache it (four paths at most, least recently
    /// used pushed out), as supraseal's `create_SRS`.
    ///
    /// Panics where supraseal's does: a path that is not UTF-8 or holds a NUL byte.
    pub fn try_new(srs_path: PathBuf, cache: bool) -> Result<Self, cuda::Error> {
        let path = srs_path.to_str().unwrap();
        std::ffi::CString::new(path).unwrap();
        let loaded = if cache { lookup(path)? } else { load(path)? };
        Ok(SRS { inner: Some(loaded) })
    }

    /// Removes every cached SRS of this path from the cache; this one and its clones stay
    /// usable.
    pub fn evict(&self) {
        let Some(this) = &self.inner else { return };
        let mut list = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let (evicted, kept): (Vec<Loaded>, Vec<Loaded>) = std::mem::take(&mut *list).into_iter().partition(|l| l.path == this.path);
        *list = kept;
        drop(list);
        drop(evicted);
    }

    fn loaded(&self) -> Result<&zkpipe::supraseal::SRS, cuda::Error> {
        self.inner
            .as_ref()
            .map(|l| &l.srs)
            .ok_or_else(|| cuda::Error::new(srs_file::EINVAL, "supraseal-c2 (zkpipe): the SRS holds no parameters (SRS::default())".into()))
    }
}

impl Clone for SRS {
    fn clone(&self) -> Self {
        SRS { inner: self.inner.clone() }
    }
}

impl Drop for SRS {
    fn drop(&mut self) {
        // The host and key go with the last clone (cache entries included).
        self.inner = None;
    }
}

/// One circuit's synthesized inputs, supraseal's `Assignment` field for field: density bit
/// vectors as u64 words (bit i of word i/64, LSB first; bellperson's `DensityTracker`
/// `bv.as_raw_slice()`), the a, b, c evaluations and the two assignments as blstrs Scalars
/// (Montgomery form), each valid for its length until the call that reads it returns.
#[repr(C)]
pub struct Assignment<Scalar> {
    // Density of queries
    pub a_aux_density: *const usize,
    pub a_aux_bit_len: usize,
    pub a_aux_popcount: usize,

    pub b_inp_density: *const usize,
    pub b_inp_bit_len: usize,
    pub b_inp_popcount: usize,

    pub b_aux_density: *const usize,
    pub b_aux_bit_len: usize,
    pub b_aux_popcount: usize,

    // Evaluations of A, B, C polynomials
    pub a: *const Scalar,
    pub b: *const Scalar,
    pub c: *const Scalar,
    pub abc_size: usize,

    // Assignments of variables
    pub inp_assignment_data: *const Scalar,
    pub inp_assignment_size: usize,

    pub aux_assignment_data: *const Scalar,
    pub aux_assignment_size: usize,
}

/// Proves every circuit of `provers` in one zkpipe job (one partition each) with `r_s[i]`,
/// `s_s[i]` (blstrs Scalars), and writes proof i into `proofs[i]` as blst affine points
/// (bellperson's `Proof`: G1, G2, G1, Montgomery form). Panics as supraseal does: on lengths
/// that disagree, and with the error's message when proving fails.
pub fn generate_groth16_proofs<S, PR>(provers: &[Assignment<S>], r_s: &[S], s_s: &[S], proofs: &mut [PR], srs: &SRS) {
    let num_circuits = provers.len();

    assert_eq!(r_s.len(), num_circuits);
    assert_eq!(s_s.len(), num_circuits);
    assert_eq!(proofs.len(), num_circuits);

    if let Err(err) = prove::into(provers, r_s, s_s, proofs, srs, -1) {
        panic!("{}", String::from(err));
    }
}

/// supraseal's flat arguments, one circuit shape for the batch (sizes and density bit
/// vectors shared), as one [`Assignment`] per circuit.
fn flat_assignments<S, D>(
    ntt_a_scalars: &[*const S],
    ntt_b_scalars: &[*const S],
    ntt_c_scalars: &[*const S],
    ntt_scalars_actual_size: usize,
    input_assignments: &[*const S],
    aux_assignments: &[*const S],
    input_assignments_size: usize,
    aux_assignments_size: usize,
    a_aux_density_bv: &[D],
    b_g1_input_density_bv: &[D],
    b_g1_aux_density_bv: &[D],
    a_aux_total_density: usize,
    b_g1_input_total_density: usize,
    b_g1_aux_total_density: usize,
    num_circuits: usize,
) -> Vec<Assignment<S>> {
    (0..num_circuits)
        .map(|c| Assignment {
            a_aux_density: a_aux_density_bv.as_ptr().cast(),
            a_aux_bit_len: aux_assignments_size,
            a_aux_popcount: a_aux_total_density,
            b_inp_density: b_g1_input_density_bv.as_ptr().cast(),
            b_inp_bit_len: input_assignments_size,
            b_inp_popcount: b_g1_input_total_density,
            b_aux_density: b_g1_aux_density_bv.as_ptr().cast(),
            b_aux_bit_len: aux_assignments_size,
            b_aux_popcount: b_g1_aux_total_density,
            a: ntt_a_scalars[c],
            b: ntt_b_scalars[c],
            c: ntt_c_scalars[c],
            abc_size: ntt_scalars_actual_size,
            inp_assignment_data: input_assignments[c],
            inp_assignment_size: input_assignments_size,
            aux_assignment_data: aux_assignments[c],
            aux_assignment_size: aux_assignments_size,
        })
        .collect()
}

/// The length checks of supraseal's flat entry points, in its order.
fn check_lengths<S>(
    ntt_a_scalars: &[*const S],
    ntt_b_scalars: &[*const S],
    ntt_c_scalars: &[*const S],
    input_assignments: &[*const S],
    aux_assignments: &[*const S],
    r_s: &[S],
    s_s: &[S],
    num_circuits: usize,
) {
    assert_eq!(ntt_a_scalars.len(), num_circuits);
    assert_eq!(ntt_b_scalars.len(), num_circuits);
    assert_eq!(ntt_c_scalars.len(), num_circuits);
    assert_eq!(input_assignments.len(), num_circuits);
    assert_eq!(aux_assignments.len(), num_circuits);
    assert_eq!(r_s.len(), num_circuits);
    assert_eq!(s_s.len(), num_circuits);
}

/// The density checks that follow them. `assert!` prints its expression, so the names are
/// supraseal's and the message is the one its callers see.
fn check_densities<D>(a_aux_density_bv: &[D], b_g1_aux_density_bv: &[D], aux_assignments_size: usize) {
    let bv_element_size: usize = std::mem::size_of::<D>() * 8;
    assert!(bv_element_size == 64, "only 64-bit elements in bit vectors are supported");
    assert!(a_aux_density_bv.len() * bv_element_size >= aux_assignments_size);
    assert!(b_g1_aux_density_bv.len() * bv_element_size >= aux_assignments_size);
}

/// `generate_groth16_proof`, in upstream's form and (with `$extra`) in Curio's: one body for both,
/// since the two differ only in their trailing arguments and the device they name.
macro_rules! flat_entry_point {
    ($(#[$doc:meta])* ($($extra:ident: $ty:ty),*) => $gpu_index:expr) => {
        $(#[$doc])*
        #[allow(unused_variables)] // gpu_mtx: accepted, not used
        pub fn generate_groth16_proof<S, D, PR>(
            ntt_a_scalars: &[*const S],
            ntt_b_scalars: &[*const S],
            ntt_c_scalars: &[*const S],
            ntt_scalars_actual_size: usize,
            input_assignments: &[*const S],
            aux_assignments: &[*const S],
            input_assignments_size: usize,
            aux_assignments_size: usize,
            a_aux_density_bv: &[D],
            b_g1_input_density_bv: &[D],
            b_g1_aux_density_bv: &[D],
            a_aux_total_density: usize,
            b_g1_input_total_density: usize,
            b_g1_aux_total_density: usize,
            num_circuits: usize,
            r_s: &[S],
            s_s: &[S],
            proofs: &mut [PR],
            srs: &SRS,
            $($extra: $ty),*
        ) {
            check_lengths(ntt_a_scalars, ntt_b_scalars, ntt_c_scalars, input_assignments, aux_assignments, r_s, s_s, num_circuits);
            assert_eq!(proofs.len(), num_circuits);
            check_densities(a_aux_density_bv, b_g1_aux_density_bv, aux_assignments_size);
            let provers = flat_assignments(
                ntt_a_scalars,
                ntt_b_scalars,
                ntt_c_scalars,
                ntt_scalars_actual_size,
                input_assignments,
                aux_assignments,
                input_assignments_size,
                aux_assignments_size,
                a_aux_density_bv,
                b_g1_input_density_bv,
                b_g1_aux_density_bv,
                a_aux_total_density,
                b_g1_input_total_density,
                b_g1_aux_total_density,
                num_circuits,
            );
            if let Err(err) = prove::into(&provers, r_s, s_s, proofs, srs, $gpu_index) {
                panic!("{}", String::from(err));
            }
        }
    };
}

#[cfg(not(feature = "cuzk"))]
flat_entry_point! {
    /// Proves `num_circuits` circuits of one shape (bellperson's batch: shared sizes and
    /// density bit vectors) in one zkpipe job, and writes the proofs into `proofs`, as
    /// [`generate_groth16_proofs`].
    () => -1
}

#[cfg(feature = "cuzk")]
flat_entry_point! {
    /// Curio's form: as the default feature's, with `gpu_mtx` (accepted, not used: zkpipe's
    /// host schedules its devices itself) and `gpu_index` (-1: any device; n ≥ 0: every
    /// circuit on zkpipe device n).
    (gpu_mtx: *mut core::ffi::c_void, gpu_index: i32) => gpu_index
}

/// A mutex for Curio's `gpu_mtx` arguments; free it with [`free_gpu_mutex`]. Nothing here
/// locks it: zkpipe's host queues each device's work itself.
#[cfg(feature = "cuzk")]
pub fn alloc_gpu_mutex() -> *mut core::ffi::c_void {
    Box::into_raw(Box::new(Mutex::new(()))).cast()
}

/// Frees a mutex from [`alloc_gpu_mutex`].
///
/// # Safety
/// `ptr` comes from [`alloc_gpu_mutex`] and is not freed yet (null: nothing happens).
#[cfg(feature = "cuzk")]
pub unsafe fn free_gpu_mutex(ptr: *mut core::ffi::c_void) {
    if !ptr.is_null() {
        drop(Box::from_raw(ptr.cast::<Mutex<()>>()));
    }
}

/// Starts proving as [`generate_groth16_proof`] and returns a handle for
/// [`finish_groth16_proof`] (or [`drop_pending_proof`]) once zkpipe reads none of the inputs
/// any more, so the caller may free every input then (Curio frees a, b, c and r, s after
/// start, the rest after finish): on the cuda prover when each circuit's device work has
/// ended, before the CPU epilogue, which finish waits for (with the cpu prover, when each
/// circuit's arithmetic has; with a prover that cannot tell, when the proofs are done).
#[cfg(feature = "cuzk")]
pub fn start_groth16_proof<S, D>(
    ntt_a_scalars: &[*const S],
    ntt_b_scalars: &[*const S],
    ntt_c_scalars: &[*const S],
    ntt_scalars_actual_size: usize,
    input_assignments: &[*const S],
    aux_assignments: &[*const S],
    input_assignments_size: usize,
    aux_assignments_size: usize,
    a_aux_density_bv: &[D],
    b_g1_input_density_bv: &[D],
    b_g1_aux_density_bv: &[D],
    a_aux_total_density: usize,
    b_g1_input_total_density: usize,
    b_g1_aux_total_density: usize,
    num_circuits: usize,
    r_s: &[S],
    s_s: &[S],
    srs: &SRS,
    gpu_mtx: *mut core::ffi::c_void,
    gpu_index: i32,
) -> *mut core::ffi::c_void {
    let _ = gpu_mtx;
    check_lengths(ntt_a_scalars, ntt_b_scalars, ntt_c_scalars, input_assignments, aux_assignments, r_s, s_s, num_circuits);
    check_densities(a_aux_density_bv, b_g1_aux_density_bv, aux_assignments_size);
    let provers = flat_assignments(
        ntt_a_scalars,
        ntt_b_scalars,
        ntt_c_scalars,
        ntt_scalars_actual_size,
        input_assignments,
        aux_assignments,
        input_assignments_size,
        aux_assignments_size,
        a_aux_density_bv,
        b_g1_input_density_bv,
        b_g1_aux_density_bv,
        a_aux_total_density,
        b_g1_input_total_density,
        b_g1_aux_total_density,
        num_circuits,
    );
    match prove::start(&provers, r_s, s_s, srs, gpu_index) {
        Ok(pending) => Box::into_raw(Box::new(pending)).cast(),
        Err(err) => panic!("{}", String::from(err)),
    }
}

/// Writes the proofs of a [`start_groth16_proof`] handle into `proofs` (blst affine points,
/// 384 bytes each) and frees the handle, which must not be used again.
#[cfg(feature = "cuzk")]
#[allow(clippy::not_unsafe_ptr_arg_deref)] // Curio's signature: a safe fn taking the handle
pub fn finish_groth16_proof<PR>(handle: *mut core::ffi::c_void, proofs: &mut [PR]) {
    assert!(!handle.is_null(), "finish_groth16_proof: a null pending proof handle");
    // SAFETY: a non-null handle comes from start_groth16_proof and is consumed here.
    let pending = unsafe { Box::from_raw(handle.cast::<Option<prove::Pending>>()) };
    if let Err(err) = prove::finish(*pending).and_then(|done| prove::write(&done, proofs)) {
        panic!("{}", String::from(err));
    }
}

/// Frees a [`start_groth16_proof`] handle without writing its proofs.
///
/// # Safety
/// `handle` comes from [`start_groth16_proof`] and was neither finished nor dropped (null:
/// nothing happens).
#[cfg(feature = "cuzk")]
pub unsafe fn drop_pending_proof(handle: *mut core::ffi::c_void) {
    if !handle.is_null() {
        drop(Box::from_raw(handle.cast::<Option<prove::Pending>>()));
    }
}
