//! Safe Rust API for zkpipe, a Groth16 proving engine.
//!
//! A [`Host`] owns one prover plugin and one pacer plugin, chosen by configuration, and
//! runs the proving pipeline. Load a key, submit a job of partitions (witness files,
//! witness buffers, assignments, or a/b/c you synthesized yourself), and receive one
//! [`Completion`] per partition — through an iterator or a closure — and a [`Summary`].
//!
//! ```
//! use zkpipe::{Host, KeySource, Partition};
//!
//! # fn main() -> Result<(), zkpipe::Error> {
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../samples/circuits/multiplier_bn128");
//! let host = Host::builder().set("prover", "cpu").set("workers_per_device", 1).build()?;
//! let key = host.load_key(KeySource::path(format!("{dir}/circuit.zkey")))?;
//!
//! let job = host.job(&key).partition(Partition::witness_file(format!("{dir}/witness.wtns"))).submit()?;
//! let completion = job.completions().next().expect("one partition, one completion");
//! completion.result?;
//! assert!(job.wait()?.is_success());
//!
//! // A partition that succeeded has its public inputs: an empty list if the circuit has none.
//! let (proof, public) = (completion.proof.unwrap(), completion.public_inputs.unwrap());
//! println!("{}", proof.to_snarkjs_json()); // proof.json, as snarkjs writes it
//! assert_eq!(public.to_snarkjs_json(), "[\n \"33\"\n]\n");
//! assert!(host.verify(&key, &proof, &public)?); // the host's prover checks it, on the key it holds
//! let mut tampered = public.clone();
//! tampered.0[0] = zkpipe::Scalar::from_u64(34);
//! assert!(!host.verify(&key, &proof, &tampered)?); // Ok(false): checked, and it does not verify
//! # Ok(()) }
//! ```
//!
//! Buffers the host reads must outlive the job (the rule of `zkp_job_t`). Owned data
//! (`Vec`, files) moves into the job and is freed when its summary arrives; borrowed data
//! (`&[Scalar]`, `&[u8]`, no copies) can only be submitted inside [`Host::scope`], which
//! waits for its jobs before the borrow ends:
//!
//! ```
//! use zkpipe::{Host, KeySource, Partition};
//! # fn main() -> Result<(), zkpipe::Error> {
//! let host = Host::builder().set("prover", "sim").set("prover.gpu_ms", 1).build()?;
//! let key = host.load_key(KeySource::simulated())?;
//! let mut durations = Vec::new();
//! host.scope(|s| {
//!     s.job(&key)
//!         .partitions((0..4).map(|_| Partition::simulated()))
//!         .on_completion(|c| durations.push(c.gpu_duration)) // borrows `durations`
//!         .submit()
//!         .map(drop)
//! })?;
//! assert_eq!(durations.len(), 4); // the scope waited for the job
//! # Ok(()) }
//! ```
//!
//! Filecoin: a bellperson parameter file loads as a key with
//! [`KeySource::format`]`(`[`KeyFormat::Bellperson`]`)`, and its partitions are
//! [`Synthesized`] the way bellperson keeps them (inputs and aux apart, three
//! [`Density`] bitmaps, Montgomery form), borrowed in place. [`supraseal`] puts
//! supraseal-c2's Rust API (`SRS`, `generate_groth16_proof`, ...) on top, and
//! [`Proof::to_bellperson_bytes`] writes proofs as bellperson does.
//!
//! Threads: [`Host`] is `Send + Sync` (every host function is
//! `[any-thread]`); [`Job`] is `Send`. Callbacks run on the host's single completion
//! thread, one at a time; a panic there is caught and reported by [`Job::wait`], never
//! unwound into C.

mod callbacks;
mod compressed;
mod completion;
mod decimal;
mod error;
mod host;
mod job;
mod json;
mod log;
mod partition;
mod proof;
mod scalar;
mod scope;
pub mod supraseal;

pub use completion::{Completion, Summary};
pub use error::{Error, Result, Status};
pub use host::{DeviceInfo, Host, HostBuilder, Key, KeyFormat, KeyInfo, KeySource, Stats};
pub use job::{Job, JobBuilder};
pub use log::{reset_log_sink, set_log_sink, Level};
pub use partition::{Density, Partition, Synthesized};
pub use proof::{Proof, PublicInputs, BELLPERSON_PROOF_SIZE};
pub use scalar::{Curve, Scalar};
pub use scope::Scope;
/// The raw C ABI, for what this crate does not wrap.
pub use zkpipe_sys as sys;
