//! supraseal-c2's Rust API on zkpipe: what bellperson's supraseal prover (and Curio's
//! cuzk) calls, over a zkpipe host and a bellperson key.
//!
//! It follows `supraseal-c2` as Curio forks it (extern/supraseal-c2/src/lib.rs, which
//! adds `gpu_index` and the split start/finish to supranational/supra_seal's
//! c2/src/lib.rs): [`SRS`], [`Assignment`], [`generate_groth16_proof`],
//! [`generate_groth16_proofs`], [`start_groth16_proof`] → [`PendingProof`] →
//! [`finish_groth16_proof`], [`drop_pending_proof`]. Argument names and order are
//! supraseal's. The scalars of a, b, c and the assignments are in Montgomery form, as
//! supraseal takes them; every circuit becomes one partition of one job, a
//! [`Synthesized`] with the split assignment, the three densities and
//! [`Synthesized::in_montgomery_form`].
//!
//! ```no_run
//! use zkpipe::supraseal::{generate_groth16_proofs, Assignment, SRS};
//! use zkpipe::{Density, Scalar};
//! # fn main() -> Result<(), zkpipe::Error> {
//! # let (a, b, c) = (vec![Scalar::ZERO; 8], vec![Scalar::ZERO; 8], vec![Scalar::ZERO; 8]);
//! # let (inp, aux) = (vec![Scalar::ONE; 2], vec![Scalar::ONE; 5]);
//! # let (a_aux, b_inp, b_aux) = (vec![0b10101u64], vec![0b01u64], vec![0b01010u64]);
//! # let (r, s) = (Scalar::from_u64(1), Scalar::from_u64(2));
//! // A bellperson ProvingAssignment's vectors, borrowed where they are.
//! let ones = |words: &[u64], bits: usize| Density::new(words, bits as u64).popcount() as usize;
//! let assignment = Assignment {
//!     a_aux_density: &a_aux, a_aux_bit_len: aux.len(), a_aux_popcount: ones(&a_aux, aux.len()),
//!     b_inp_density: &b_inp, b_inp_bit_len: inp.len(), b_inp_popcount: ones(&b_inp, inp.len()),
//!     b_aux_density: &b_aux, b_aux_bit_len: aux.len(), b_aux_popcount: ones(&b_aux, aux.len()),
//!     a: &a, b: &b, c: &c, abc_size: a.len(),
//!     inp_assignment_data: &inp, inp_assignment_size: inp.len(),
//!     aux_assignment_data: &aux, aux_assignment_size: aux.len(),
//! };
//! let srs = SRS::try_new("/var/tmp/filecoin-proof-parameters/v28-stacked-proof-of-replication.params", true)?;
//! let proofs = generate_groth16_proofs(&[assignment], &[r], &[s], &srs)?;
//! let bytes: [u8; 192] = proofs[0].to_bellperson_bytes()?; // what bellperson's Proof::write writes
//!
//! // Split: start returns once the job is submitted; the scope waits for what it started.
//! let proofs = srs.scope(|scope| {
//!     let pending = scope.start(&[assignment], &[r], &[s], 0)?; // device 0
//!     // ... synthesize the next partition here ...
//!     pending.finish()
//! })?;
//! # Ok(()) }
//! ```
//!
//! bellperson keeps its vectors as blstrs Scalars; their memory is the Montgomery form
//! zkpipe reads, and [`Scalar::slice_from_bytes`] of it (`slice::from_raw_parts(v.as_ptr()
//! .cast::<u8>(), v.len() * 32)`) views them as [`Scalar`]s without a copy.
//!
//! # Every difference, documented
//!
//! - **`SRS::try_new(path, cache)`**: the SRS is a zkpipe [`Host`] (its own prover, pacer,
//!   memory budget and threads) with the parameters loaded as a
//!   [`KeyFormat::Bellperson`] key, kept alive by the SRS and its clones. The host is
//!   built from zkpipe's defaults (an INI file is not read; the default prover is `cpu`);
//!   [`SRS::try_new_with`] takes a [`HostBuilder`] (`.set("prover", "cuda")`, budgets,
//!   workers), [`SRS::on_host`] a host you built. `cache = true` maps to what it means in
//!   supraseal's `create_SRS`: a process-wide cache of the last four SRSs, least recently
//!   used evicted, keyed here by path *and* host configuration; a second `try_new` of a
//!   cached one shares its host and key instead of loading the file again. The cache
//!   lock is held while a key loads (as supraseal's is), and a cached SRS's host lives
//!   until it is evicted or pushed out, even with no handle left (as supraseal's cache
//!   keeps its SRS). `cache = false` loads a host nothing else shares. Errors are
//!   [`Error`]s, not `cuda::Error`; a path that is not UTF-8 is accepted (supraseal
//!   unwraps `to_str()`).
//! - **`SRS::evict`** removes every cached SRS of this path; **`Clone`** shares the host
//!   and key (supraseal's refcount); **drop** of the last clone drains and destroys the
//!   host, which frees the key. There is no `Default` (a null SRS).
//! - **`Assignment`** has supraseal's fields, in its order, as borrowed slices instead of
//!   raw pointers: `a`, `b`, `c` must hold at least `abc_size` scalars, the assignment
//!   data at least their sizes, each density bitmap `ceil(bit_len / 64)` words (the
//!   first that many are read). What supraseal's C++ `assert`s (the bit lengths equal
//!   the assignment sizes) and what it trusts (the popcounts) is checked here, before
//!   anything reaches C, as an [`Error::InvalidArgument`] naming the circuit and field.
//!   zkpipe recomputes the popcounts itself; a popcount that disagrees with the key's
//!   query length is the host's `BadInput`.
//! - **`generate_groth16_proof`** takes `&[&[Scalar]]` per circuit (not `&[*const S]`)
//!   and `&[u64]` bitmaps (supraseal's `D`, which it asserts is 64 bits), returns the
//!   proofs (`Result<Vec<Proof>>`, one per circuit, in circuit order) instead of writing
//!   a `&mut [PR]`, and has no `gpu_mtx`: zkpipe never keeps a process-wide current
//!   device, and its host queues proofs per device itself. Concurrent calls on one SRS
//!   share its host: the pacer admits their circuits within the host's memory budget and
//!   the scheduler runs them (supraseal serializes its callers on `gpu_mtx`, or an
//!   internal mutex without one). `gpu_index`: -1 lets the host's scheduler choose a
//!   device for each circuit (supraseal's -1 spreads them), `n >= 0` runs every circuit
//!   on device n (out of range: an error, not a clamp).
//! - **`r_s`, `s_s`** are standard-form scalars (`PrimeField::to_repr()` of a blstrs
//!   Scalar, little-endian), as zkpipe's job randomness (`zkp_job_t.randomness`) is;
//!   supraseal reads blstrs memory (Montgomery form). One pair per circuit, checked.
//! - **`generate_groth16_proofs`** runs on any device (Curio's passes -1 too); for one
//!   device use [`ProofScope::start`]. An empty `provers` is an error, not a no-op.
//! - **`start_groth16_proof`** needs a [`ProofScope`] (from [`SRS::scope`]) where supraseal
//!   takes `&SRS` and `gpu_mtx`: the pending proof borrows the caller's buffers, and the
//!   scope, which waits for every proof started in it before it returns, is what makes
//!   that borrow safe (the [`Host::scope`] rule: a leaked handle cannot free buffers a
//!   running job reads). supraseal's start runs the GPU kernels before it returns and
//!   leaves the b_g2 MSM (on the CPU) and the epilogue to `finalize`; here start returns
//!   once the job is submitted, and the whole proof runs in the host's pipeline while
//!   the caller goes on. Errors in start are `Result`s, not panics.
//! - **[`SRS::start_released`]** is the split as Curio's cuzk uses it, without a scope: it
//!   returns once zkpipe reads none of the buffers (the cuda prover: each circuit's device
//!   work has ended; the epilogue goes on), with a `PendingProof<'static>` that keeps the
//!   SRS's host alive. The supraseal-c2 crate's `start_groth16_proof` is built on it.
//! - **`finish_groth16_proof`** consumes the [`PendingProof`] and returns its proofs
//!   (`finalize_groth16_proof_c` writes a `proofs` array). **`drop_pending_proof`** is
//!   safe: it is the pending proof's drop, which cancels the job (circuits not yet on a
//!   device complete as cancelled; the scope still waits for those that are).
//! - **Proofs** are zkpipe [`Proof`]s (BLS12-381, uncompressed standard form);
//!   [`Proof::to_bellperson_bytes`] gives bellperson's 192-byte compressed encoding.
//!   supraseal writes blst affine points (Montgomery form) into bellperson's `Proof`.
//! - **Errors** never panic: every check above and every host failure is a
//!   [`Result`]; a failed circuit's error names it (`circuit 3: ...`).
//! - **Not mirrored**: `alloc_gpu_mutex`/`free_gpu_mutex` (no mutex exists to share).
use crate::completion::Completion;
use crate::error::{Error, Result};
use crate::host::{Host, HostBuilder, Key, KeyFormat, KeySource};
use crate::job::Job;
use crate::partition::{Density, Partition, Synthesized};
use crate::proof::Proof;
use crate::scalar::Scalar;
use crate::scope::Scope;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How many SRSs `cache = true` keeps: supraseal's `SRS_cache::lookup` evicts past four
/// (groth16_srs.cuh, `list.size() > 3`).
const CACHED_SRS: usize = 4;

/// Most recently used first.
static CACHE: Mutex<Vec<SRS>> = Mutex::new(Vec::new());

/// Groth16 parameters loaded for proving: a zkpipe host holding the key. Cheap to clone
/// (the clones share the host and key); `Send + Sync`.
#[allow(clippy::upper_case_acronyms)] // supraseal's name
#[derive(Clone)]
pub struct SRS {
    inner: Arc<SrsInner>,
}

struct SrsInner {
    path: PathBuf,
    // The configuration the host was built with; `None` for a caller's host (never cached).
    builder: Option<HostBuilder>,
    key: Key,
    host: Host,
}

impl SRS {
    /// Loads bellperson parameters into a host built from zkpipe's defaults; `cache`:
    /// share the process-wide cached SRS of this path (see the module docs).
    pub fn try_new(srs_path: impl Into<PathBuf>, cache: bool) -> Result<SRS> {
        SRS::try_new_with(srs_path, cache, Host::builder())
    }

    /// As [`try_new`](Self::try_new), on a host built by `host`; the cache is keyed by
    /// path and this configuration.
    pub fn try_new_with(srs_path: impl Into<PathBuf>, cache: bool, host: HostBuilder) -> Result<SRS> {
        let path = srs_path.into();
        if !cache {
            return SRS::load(path, host);
        }
        let mut cached = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = cached.iter().position(|s| s.inner.path == path && s.inner.builder.as_ref() == Some(&host)) {
            let srs = cached.remove(i);
            cached.insert(0, srs.clone());
            return Ok(srs);
        }
        let srs = SRS::load(path, host)?;
        cached.insert(0, srs.clone());
        let keep = CACHED_SRS.min(cached.len());
        let evicted = cached.split_off(keep);
        drop(cached);
        // Outside the lock: dropping the last handle of a host drains it.
        drop(evicted);
        Ok(srs)
    }

    fn load(path: PathBuf, builder: HostBuilder) -> Result<SRS> {
        let host = builder.clone().build()?;
        let key = host.load_key(KeySource::path(&path).format(KeyFormat::Bellperson))?;
        Ok(SRS { inner: Arc::new(SrsInner { path, builder: Some(builder), key, host }) })
    }

    /// Loads `key` into a host the caller built; never cached. The key's format is the
    /// source's (bellperson parameters: [`KeyFormat::Bellperson`]).
    pub fn on_host(host: Host, key: KeySource) -> Result<SRS> {
        let path = match &key.source {
            crate::host::Source::Path(p) => p.clone(),
            _ => PathBuf::new(),
        };
        let key = host.load_key(key)?;
        Ok(SRS { inner: Arc::new(SrsInner { path, builder: None, key, host }) })
    }

    /// Removes every cached SRS of this path from the process-wide cache; this SRS and
    /// its clones stay usable.
    pub fn evict(&self) {
        let mut cached = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        let (evicted, kept) = std::mem::take(&mut *cached).into_iter().partition(|s| s.inner.path == self.inner.path);
        *cached = kept;
        drop(cached);
        // Outside the lock: dropping the last handle of a host drains it.
        drop::<Vec<SRS>>(evicted);
    }

    /// The host the parameters are loaded on (stats, device info, shutdown).
    pub fn host(&self) -> &Host {
        &self.inner.host
    }

    pub fn key(&self) -> &Key {
        &self.inner.key
    }

    /// The parameter file (empty for [`on_host`](Self::on_host) with bytes).
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `f` with a [`ProofScope`] for split proofs that borrow their inputs, then
    /// waits for every proof started in it (even if `f` panics) before returning. Not
    /// from a completion callback of this SRS's host (see [`Host::scope`]).
    pub fn scope<'env, T>(&'env self, f: impl for<'scope> FnOnce(ProofScope<'scope, 'env>) -> T) -> T {
        self.inner.host.scope(|scope| f(ProofScope { scope, srs: self }))
    }

    /// Starts proving `provers` (as [`ProofScope::start`]) and returns once zkpipe reads none
    /// of their buffers any more ([`Job::wait_inputs_released`]): the proofs are still being
    /// finished, and the caller may free or refill the buffers, which is Curio's cuzk split
    /// (the next partition's synthesis under this one's epilogue). The pending proof
    /// borrows nothing; it keeps this SRS's host alive until it is finished or dropped.
    ///
    /// On a prover that says when an input is read (the cuda prover: when a circuit's device
    /// work has ended; the cpu prover: when its arithmetic has), this returns before the
    /// epilogue; on any other, when every circuit has completed. A circuit released early is
    /// not retried on another device: a failure after it is [`PendingProof::finish`]'s error.
    pub fn start_released(&self, provers: &[Assignment<'_>], r_s: &[Scalar], s_s: &[Scalar], gpu_index: i32) -> Result<PendingProof<'static>> {
        check_circuits(provers, r_s, s_s, gpu_index)?;
        let randomness: Vec<(Scalar, Scalar)> = r_s.iter().copied().zip(s_s.iter().copied()).collect();
        // SAFETY (the two lifetime extensions): the job reads the partitions' buffers only
        // until every input is released, and this returns after that (wait_inputs_released
        // below; each partition is released exactly once, at the latest just before its
        // completion, so the wait ends); the job state drops the extended references later
        // without reading through them. The host reference is to this SRS's host, which the
        // returned value keeps alive (its `srs` field, dropped after its job).
        let partitions: Vec<Partition<'static>> =
            provers.iter().map(|p| unsafe { std::mem::transmute::<Partition<'_>, Partition<'static>>(p.partition()) }).collect();
        let host: &'static Host = unsafe { &*(self.host() as *const Host) };
        let mut job = host.job(self.key()).partitions(partitions).fixed_randomness(&randomness);
        if let Ok(device) = u32::try_from(gpu_index) {
            job = job.gpu_index(device);
        }
        let job = job.submit()?;
        job.wait_inputs_released();
        Ok(PendingProof { job: Some(job), circuits: provers.len(), _srs: Some(self.clone()) })
    }
}

impl std::fmt::Debug for SRS {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SRS").field("path", &self.inner.path).field("key", &self.inner.key).finish_non_exhaustive()
    }
}

/// One circuit's synthesized inputs, as supraseal's `Assignment` (c2/src/lib.rs), its
/// fields in its order, borrowed. Scalars in Montgomery form; densities as bellperson's
/// `DensityTracker` bit vectors (bit i of word i/64, LSB first). bellperson fills it
/// with `a_aux_bit_len = b_aux_bit_len = aux_assignment_size`, `b_inp_bit_len =
/// inp_assignment_size`, each popcount the number of set bits.
#[derive(Clone, Copy, Debug)]
pub struct Assignment<'a> {
    // Density of queries
    pub a_aux_density: &'a [u64],
    pub a_aux_bit_len: usize,
    pub a_aux_popcount: usize,

    pub b_inp_density: &'a [u64],
    pub b_inp_bit_len: usize,
    pub b_inp_popcount: usize,

    pub b_aux_density: &'a [u64],
    pub b_aux_bit_len: usize,
    pub b_aux_popcount: usize,

    // Evaluations of A, B, C polynomials
    pub a: &'a [Scalar],
    pub b: &'a [Scalar],
    pub c: &'a [Scalar],
    pub abc_size: usize,

    // Assignments of variables
    pub inp_assignment_data: &'a [Scalar],
    pub inp_assignment_size: usize,

    pub aux_assignment_data: &'a [Scalar],
    pub aux_assignment_size: usize,
}

impl<'a> Assignment<'a> {
    /// Everything zkpipe cannot check itself, or would report less precisely: lengths,
    /// bit lengths, popcounts. `circuit` prefixes the error.
    pub fn check(&self, circuit: usize) -> Result<()> {
        let err = |m: String| Error::InvalidArgument(format!("circuit {circuit}: {m}"));
        for (field, data, size, size_name) in [
            ("a", self.a, self.abc_size, "abc_size"),
            ("b", self.b, self.abc_size, "abc_size"),
            ("c", self.c, self.abc_size, "abc_size"),
            ("inp_assignment_data", self.inp_assignment_data, self.inp_assignment_size, "inp_assignment_size"),
            ("aux_assignment_data", self.aux_assignment_data, self.aux_assignment_size, "aux_assignment_size"),
        ] {
            if data.len() < size {
                return Err(err(format!("{field} has {} scalars, fewer than {size_name} {size}", data.len())));
            }
        }
        let densities = [
            ("a_aux", self.a_aux_density, self.a_aux_bit_len, self.a_aux_popcount, self.aux_assignment_size, "aux_assignment_size"),
            ("b_inp", self.b_inp_density, self.b_inp_bit_len, self.b_inp_popcount, self.inp_assignment_size, "inp_assignment_size"),
            ("b_aux", self.b_aux_density, self.b_aux_bit_len, self.b_aux_popcount, self.aux_assignment_size, "aux_assignment_size"),
        ];
        for (name, words, bit_len, popcount, size, size_name) in densities {
            let density = Density::new(words, bit_len as u64);
            density.check(&format!("{name}_density")).map_err(|e| err(inner_message(e)))?;
            if bit_len != size {
                return Err(err(format!("{name}_bit_len is {bit_len}, not {size_name} {size}")));
            }
            let set = density.popcount();
            if set != popcount as u64 {
                return Err(err(format!("{name}_popcount is {popcount}, but {name}_density has {set} bits set")));
            }
        }
        Ok(())
    }

    /// The partition zkpipe proves: the first abc_size / size scalars, Montgomery form.
    fn partition(&self) -> Partition<'a> {
        let density = |words, bit_len: usize| Density::new(words, bit_len as u64);
        Synthesized::new(&self.a[..self.abc_size], &self.b[..self.abc_size], &self.c[..self.abc_size], &self.inp_assignment_data[..self.inp_assignment_size])
            .with_aux_assignment(&self.aux_assignment_data[..self.aux_assignment_size])
            .with_densities(
                density(self.a_aux_density, self.a_aux_bit_len),
                density(self.b_inp_density, self.b_inp_bit_len),
                density(self.b_aux_density, self.b_aux_bit_len),
            )
            .in_montgomery_form()
            .into()
    }
}

fn inner_message(e: Error) -> String {
    match e {
        Error::InvalidArgument(m) => m,
        other => other.to_string(),
    }
}

/// Proofs may be started here that borrow their inputs for `'scope`; see [`SRS::scope`].
#[derive(Clone, Copy)]
pub struct ProofScope<'scope, 'env: 'scope> {
    scope: &'scope Scope<'scope, 'env>,
    srs: &'env SRS,
}

impl<'scope, 'env> ProofScope<'scope, 'env> {
    pub fn srs(&self) -> &'env SRS {
        self.srs
    }

    /// Checks every argument, then submits one job of one partition per circuit, with
    /// `(r_s[i], s_s[i])` for circuit i; `gpu_index` -1 for any device.
    pub fn start(&self, provers: &[Assignment<'scope>], r_s: &[Scalar], s_s: &[Scalar], gpu_index: i32) -> Result<PendingProof<'scope>> {
        check_circuits(provers, r_s, s_s, gpu_index)?;
        let randomness: Vec<(Scalar, Scalar)> = r_s.iter().copied().zip(s_s.iter().copied()).collect();
        let mut job = self.scope.job(self.srs.key()).partitions(provers.iter().map(Assignment::partition)).fixed_randomness(&randomness);
        if let Ok(device) = u32::try_from(gpu_index) {
            job = job.gpu_index(device);
        }
        Ok(PendingProof { job: Some(job.submit()?), circuits: provers.len(), _srs: None })
    }
}

fn check_circuits(provers: &[Assignment<'_>], r_s: &[Scalar], s_s: &[Scalar], gpu_index: i32) -> Result<()> {
    if provers.is_empty() {
        return Err(Error::InvalidArgument("no circuits to prove".into()));
    }
    for (name, len) in [("r_s", r_s.len()), ("s_s", s_s.len())] {
        if len != provers.len() {
            return Err(Error::InvalidArgument(format!("{name} has {len} scalars for {} circuits", provers.len())));
        }
    }
    if gpu_index < -1 {
        return Err(Error::InvalidArgument(format!("gpu_index {gpu_index}: -1 is any device, else a device index")));
    }
    provers.iter().enumerate().try_for_each(|(i, p)| p.check(i))
}

/// Proofs started by [`start_groth16_proof`] / [`ProofScope::start`], running in the
/// host. `Send`, so another thread of the scope may finish them. Dropping it without
/// [`finish_groth16_proof`] cancels the job.
#[must_use = "dropping a pending proof cancels it"]
pub struct PendingProof<'scope> {
    job: Option<Job<'scope>>,
    circuits: usize,
    // SRS::start_released: the SRS whose host `job` refers to, kept alive; dropped after `job`
    // (fields drop in declaration order, after Drop::drop has cancelled an unfinished job).
    _srs: Option<SRS>,
}

impl PendingProof<'_> {
    /// Waits for every circuit and returns the proofs in circuit order; the first
    /// failure (in circuit order) is the error.
    pub fn finish(mut self) -> Result<Vec<Proof>> {
        let job = self.job.take().expect("a pending proof holds its job until finish or drop");
        let mut done: Vec<Option<Completion>> = vec![None; self.circuits];
        for c in job.completions() {
            if let Some(slot) = done.get_mut(c.partition as usize) {
                *slot = Some(c);
            }
        }
        job.wait()?;
        done.into_iter()
            .enumerate()
            .map(|(i, c)| {
                let c = c.ok_or_else(|| Error::InvalidArgument(format!("circuit {i}: the host delivered no completion")))?;
                match c.result {
                    Err(Error::Host { status, message }) => Err(Error::Host { status, message: format!("circuit {i}: {message}") }),
                    Err(e) => Err(e),
                    Ok(()) if c.simulated => Err(Error::InvalidArgument(format!("circuit {i}: the host's prover is a simulation; there is no proof"))),
                    Ok(()) => c.proof.ok_or_else(|| Error::Decode(format!("circuit {i}: the completion carries no proof"))),
                }
            })
            .collect()
    }
}

impl Drop for PendingProof<'_> {
    fn drop(&mut self) {
        if let Some(job) = self.job.take() {
            // NotFound: the job already finished, nothing to cancel.
            let _ = job.cancel();
        }
    }
}

/// supraseal's flat arguments as one [`Assignment`] per circuit, checked.
#[allow(clippy::too_many_arguments)]
fn assignments<'a>(
    ntt_a_scalars: &[&'a [Scalar]],
    ntt_b_scalars: &[&'a [Scalar]],
    ntt_c_scalars: &[&'a [Scalar]],
    ntt_scalars_actual_size: usize,
    input_assignments: &[&'a [Scalar]],
    aux_assignments: &[&'a [Scalar]],
    input_assignments_size: usize,
    aux_assignments_size: usize,
    a_aux_density_bv: &'a [u64],
    b_g1_input_density_bv: &'a [u64],
    b_g1_aux_density_bv: &'a [u64],
    a_aux_total_density: usize,
    b_g1_input_total_density: usize,
    b_g1_aux_total_density: usize,
    num_circuits: usize,
) -> Result<Vec<Assignment<'a>>> {
    for (name, len) in [
        ("ntt_a_scalars", ntt_a_scalars.len()),
        ("ntt_b_scalars", ntt_b_scalars.len()),
        ("ntt_c_scalars", ntt_c_scalars.len()),
        ("input_assignments", input_assignments.len()),
        ("aux_assignments", aux_assignments.len()),
    ] {
        if len != num_circuits {
            return Err(Error::InvalidArgument(format!("{name} has {len} circuits, not num_circuits {num_circuits}")));
        }
    }
    Ok((0..num_circuits)
        .map(|c| Assignment {
            a_aux_density: a_aux_density_bv,
            a_aux_bit_len: aux_assignments_size,
            a_aux_popcount: a_aux_total_density,
            b_inp_density: b_g1_input_density_bv,
            b_inp_bit_len: input_assignments_size,
            b_inp_popcount: b_g1_input_total_density,
            b_aux_density: b_g1_aux_density_bv,
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
        .collect())
}

/// Proves `num_circuits` circuits of one shape (shared sizes and density bitmaps, as
/// bellperson's batch has them) and waits for the proofs, in circuit order.
#[allow(clippy::too_many_arguments)] // supraseal's signature
pub fn generate_groth16_proof(
    ntt_a_scalars: &[&[Scalar]],
    ntt_b_scalars: &[&[Scalar]],
    ntt_c_scalars: &[&[Scalar]],
    ntt_scalars_actual_size: usize,
    input_assignments: &[&[Scalar]],
    aux_assignments: &[&[Scalar]],
    input_assignments_size: usize,
    aux_assignments_size: usize,
    a_aux_density_bv: &[u64],
    b_g1_input_density_bv: &[u64],
    b_g1_aux_density_bv: &[u64],
    a_aux_total_density: usize,
    b_g1_input_total_density: usize,
    b_g1_aux_total_density: usize,
    num_circuits: usize,
    r_s: &[Scalar],
    s_s: &[Scalar],
    srs: &SRS,
    gpu_index: i32,
) -> Result<Vec<Proof>> {
    let provers = assignments(
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
    )?;
    srs.scope(|s| s.start(&provers, r_s, s_s, gpu_index)?.finish())
}

/// Proves each [`Assignment`] (any shapes) on any device and waits for the proofs, in
/// circuit order.
pub fn generate_groth16_proofs(provers: &[Assignment<'_>], r_s: &[Scalar], s_s: &[Scalar], srs: &SRS) -> Result<Vec<Proof>> {
    srs.scope(|s| s.start(provers, r_s, s_s, -1)?.finish())
}

/// Starts proving, as [`generate_groth16_proof`], and returns once the job is submitted;
/// `scope` (from [`SRS::scope`]) takes the place of supraseal's `srs` and `gpu_mtx`.
#[allow(clippy::too_many_arguments)] // supraseal's signature
pub fn start_groth16_proof<'scope>(
    ntt_a_scalars: &[&'scope [Scalar]],
    ntt_b_scalars: &[&'scope [Scalar]],
    ntt_c_scalars: &[&'scope [Scalar]],
    ntt_scalars_actual_size: usize,
    input_assignments: &[&'scope [Scalar]],
    aux_assignments: &[&'scope [Scalar]],
    input_assignments_size: usize,
    aux_assignments_size: usize,
    a_aux_density_bv: &'scope [u64],
    b_g1_input_density_bv: &'scope [u64],
    b_g1_aux_density_bv: &'scope [u64],
    a_aux_total_density: usize,
    b_g1_input_total_density: usize,
    b_g1_aux_total_density: usize,
    num_circuits: usize,
    r_s: &[Scalar],
    s_s: &[Scalar],
    scope: ProofScope<'scope, '_>,
    gpu_index: i32,
) -> Result<PendingProof<'scope>> {
    let provers = assignments(
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
    )?;
    scope.start(&provers, r_s, s_s, gpu_index)
}

/// Waits for a pending proof and returns its proofs ([`PendingProof::finish`]).
pub fn finish_groth16_proof(pending: PendingProof<'_>) -> Result<Vec<Proof>> {
    pending.finish()
}

/// Abandons a pending proof: its drop, which cancels the job.
pub fn drop_pending_proof(pending: PendingProof<'_>) {
    drop(pending);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two inputs, five aux; B holds input 0 and aux 1, 3; A holds aux 0, 2, 4.
    struct Circuit {
        abc: Vec<Scalar>,
        inp: Vec<Scalar>,
        aux: Vec<Scalar>,
        a_aux: [u64; 1],
        b_inp: [u64; 1],
        b_aux: [u64; 1],
    }

    fn circuit() -> Circuit {
        Circuit { abc: vec![Scalar::ONE; 8], inp: vec![Scalar::ONE; 2], aux: vec![Scalar::ONE; 5], a_aux: [0b10101], b_inp: [0b01], b_aux: [0b01010] }
    }

    fn assignment(c: &Circuit) -> Assignment<'_> {
        Assignment {
            a_aux_density: &c.a_aux,
            a_aux_bit_len: 5,
            a_aux_popcount: 3,
            b_inp_density: &c.b_inp,
            b_inp_bit_len: 2,
            b_inp_popcount: 1,
            b_aux_density: &c.b_aux,
            b_aux_bit_len: 5,
            b_aux_popcount: 2,
            a: &c.abc,
            b: &c.abc,
            c: &c.abc,
            abc_size: 8,
            inp_assignment_data: &c.inp,
            inp_assignment_size: 2,
            aux_assignment_data: &c.aux,
            aux_assignment_size: 5,
        }
    }

    fn refused(a: Assignment<'_>) -> String {
        match a.check(3) {
            Err(Error::InvalidArgument(m)) => m,
            other => panic!("expected InvalidArgument, got {other:?}"),
        }
    }

    #[test]
    fn a_consistent_assignment_passes() {
        let c = circuit();
        assignment(&c).check(0).unwrap();
        // Longer buffers than the sizes are fine: only the first abc_size / size are read.
        let longer = Assignment { abc_size: 6, ..assignment(&c) };
        longer.check(0).unwrap();
    }

    #[test]
    fn a_density_shorter_than_its_bit_length_names_the_field() {
        let c = circuit();
        let long = Assignment { b_aux_bit_len: 65, aux_assignment_size: 65, a_aux_bit_len: 65, ..assignment(&c) };
        let m = refused(long);
        // aux_assignment_data has 5 < 65 scalars: the sizes are checked first.
        assert!(m.contains("aux_assignment_data"), "{m}");
        let aux = vec![Scalar::ONE; 65];
        let a_aux = [0b10101, 0];
        let long = Assignment { a_aux_density: &a_aux, a_aux_bit_len: 65, b_aux_bit_len: 65, aux_assignment_size: 65, aux_assignment_data: &aux, ..assignment(&c) };
        let m = refused(long);
        assert!(m.starts_with("circuit 3: b_aux_density has 1 words (64 bits) for a bit length of 65"), "{m}");
        let none: [u64; 0] = [];
        let m = refused(Assignment { b_inp_density: &none, ..assignment(&c) });
        assert!(m.contains("b_inp_density has 0 words"), "{m}");
    }

    #[test]
    fn mismatched_lengths_name_the_field() {
        let c = circuit();
        let short = &c.abc[..7];
        assert!(refused(Assignment { b: short, ..assignment(&c) }).contains("b has 7 scalars, fewer than abc_size 8"));
        assert!(refused(Assignment { inp_assignment_size: 3, ..assignment(&c) }).contains("inp_assignment_data"));
        let m = refused(Assignment { b_inp_bit_len: 1, ..assignment(&c) });
        assert!(m.contains("b_inp_bit_len is 1, not inp_assignment_size 2"), "{m}");
        let m = refused(Assignment { a_aux_popcount: 2, ..assignment(&c) });
        assert!(m.contains("a_aux_popcount is 2, but a_aux_density has 3 bits set"), "{m}");
        // Bits past bit_len do not count.
        let b_aux = [0b1101010];
        assignment(&c).check(0).unwrap();
        Assignment { b_aux_density: &b_aux, ..assignment(&c) }.check(0).unwrap();
    }

    #[test]
    fn circuits_randomness_and_device_are_checked_together() {
        let c = circuit();
        let p = [assignment(&c), assignment(&c)];
        let r = [Scalar::ONE; 2];
        check_circuits(&p, &r, &r, -1).unwrap();
        let e = check_circuits(&p, &r[..1], &r, 0).unwrap_err();
        assert!(e.to_string().contains("r_s has 1 scalars for 2 circuits"), "{e}");
        let e = check_circuits(&p, &r, &r[..1], 0).unwrap_err();
        assert!(e.to_string().contains("s_s has 1"), "{e}");
        assert!(check_circuits(&p, &r, &r, -2).unwrap_err().to_string().contains("gpu_index -2"));
        assert!(check_circuits(&[], &[], &[], -1).is_err());
        let bad = [assignment(&c), Assignment { abc_size: 9, ..assignment(&c) }];
        assert!(check_circuits(&bad, &r, &r, -1).unwrap_err().to_string().contains("circuit 1: a has 8 scalars"));
    }

    #[test]
    fn flat_arguments_become_one_assignment_per_circuit() {
        let (c0, c1) = (circuit(), circuit());
        let (a, inp, aux) = ([&c0.abc[..], &c1.abc[..]], [&c0.inp[..], &c1.inp[..]], [&c0.aux[..], &c1.aux[..]]);
        let p = assignments(&a, &a, &a, 8, &inp, &aux, 2, 5, &c0.a_aux, &c0.b_inp, &c0.b_aux, 3, 1, 2, 2).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].aux_assignment_data.as_ptr(), c1.aux.as_ptr());
        assert_eq!((p[0].a_aux_bit_len, p[0].b_inp_bit_len, p[0].b_aux_popcount), (5, 2, 2));
        p.iter().enumerate().try_for_each(|(i, a)| a.check(i)).unwrap();
        let e = assignments(&a, &a[..1], &a, 8, &inp, &aux, 2, 5, &c0.a_aux, &c0.b_inp, &c0.b_aux, 3, 1, 2, 2).unwrap_err();
        assert!(e.to_string().contains("ntt_b_scalars has 1 circuits, not num_circuits 2"), "{e}");
    }

    #[test]
    fn the_partition_borrows_the_prefixes_in_montgomery_form() {
        let c = circuit();
        let Partition(crate::partition::Input::Synthesized(s)) = Assignment { abc_size: 6, ..assignment(&c) }.partition() else {
            panic!("a synthesized partition");
        };
        assert!(s.montgomery);
        assert_eq!((s.a.len(), s.a.as_ptr()), (6, c.abc.as_ptr()));
        assert_eq!(s.aux_assignment.as_deref().map(|a| a.as_ptr()), Some(c.aux.as_ptr()));
        assert_eq!(s.b_aux_density, Some(Density::new(&c.b_aux[..], 5)));
        assert!(matches!(s.a, std::borrow::Cow::Borrowed(_)));
    }
}
