//! Safe Rust client of `zkpipe serve`, zkpipe's proving service, over libzkpipe_client's C API
//! (`zkpipe/zkp_client.h`; gRPC lives in that library, so this crate is std only).
//!
//! Connect to a server's unix socket or TCP address, load a key there (warm across calls and
//! clients), and prove: each partition's result carries the proof (as [`zkpipe::Proof`] and as
//! snarkjs JSON) and every field of the host's completion (device, durations, status).
//!
//! ```no_run
//! use zkpipe_client::Client;
//! use zkpipe::KeyFormat;
//!
//! # fn main() -> Result<(), zkpipe::Error> {
//! let client = Client::builder().address("unix:/run/zkpipe/zkpipe.sock").connect()?;
//! let key = client.load_key("/srv/keys/circuit.zkey", KeyFormat::Zkey)?; // a path on the server
//! let witness = std::fs::read("witness.wtns").expect("a witness");
//! let job = client.prove(key.key_id, &[&witness])?;
//! let partition = &job.partitions[0];
//! partition.result.clone()?; // this partition's own status
//! println!("{}", partition.proof_json); // proof.json, as snarkjs writes it
//! # Ok(()) }
//! ```
//! `samples/rust/examples/client.rs` is a complete program, run by CTest against a real server.
//!
//! Errors are the `zkpipe` crate's [`Error`]: `Error::Host { status, message }` with the
//! server's status (`NotFound` for an unknown key or job, `BadInput` for a malformed witness,
//! ...) or one of this crate's: [`UNAVAILABLE`] (no server answers) and [`UNAUTHENTICATED`]
//! (a TCP server refused the token). The message names the call, the gRPC code and the
//! server's words.
//!
//! Threads: [`Client`] is `Send + Sync`; one connection carries calls from many threads at
//! once (every `zkp_client_*` call but close is `[any-thread]`).

mod ffi;
mod key;
mod result;
mod status;

use std::ffi::{CStr, CString};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::time::Duration;

pub use key::RemoteKey;
pub use result::{JobResult, PartitionResult};
pub use status::ServerStatus;
pub use zkpipe::{Error, KeyFormat, Result, Status};
use zkpipe::sys;

/// No `zkpipe serve` answers at the address (nothing listens, a TLS mismatch, a server
/// shutting down). Try again later. `ZKP_CLIENT_ERR_UNAVAILABLE`.
pub const UNAVAILABLE: Status = Status::Unknown(ffi::ZKP_CLIENT_ERR_UNAVAILABLE);
/// The server refused the call's bearer token (none or a wrong one; TCP only).
/// `ZKP_CLIENT_ERR_UNAUTHENTICATED`.
pub const UNAUTHENTICATED: Status = Status::Unknown(ffi::ZKP_CLIENT_ERR_UNAUTHENTICATED);

/// How a job runs on the server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobOptions {
    /// The device to run on; `None`: any.
    pub gpu_index: Option<u32>,
    /// Higher first; FIFO among equals.
    pub priority: i32,
    /// The witnesses are the circuit's input.json texts, which the key's witness generator
    /// turns into witnesses ([`Client::load_key_with_generator`]).
    pub inputs: bool,
}

/// Where and how to connect ([`Client::builder`]).
#[derive(Clone, Debug, Default)]
pub struct ClientBuilder {
    address: String,
    token: Option<String>,
    token_file: Option<PathBuf>,
    tls_ca_file: Option<PathBuf>,
    tls_server_name: Option<String>,
    connect_timeout: Option<Duration>,
    call_timeout: Option<Duration>,
}

impl ClientBuilder {
    /// `"unix:PATH"` (or an absolute path) or `"HOST:PORT"`; not set: serve.socket's default.
    pub fn address(mut self, address: impl Into<String>) -> Self {
        self.address = address.into();
        self
    }
    /// The bearer token every call carries (a TCP server requires one).
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }
    /// The file holding the token (surrounding whitespace ignored), read at connect.
    pub fn token_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.token_file = Some(path.into());
        self
    }
    /// TLS, trusting the PEM certificates of `path` (the CA, or a self-signed server certificate).
    pub fn tls_ca_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.tls_ca_file = Some(path.into());
        self
    }
    /// The name the server's certificate must hold, when not the address's host.
    pub fn tls_server_name(mut self, name: impl Into<String>) -> Self {
        self.tls_server_name = Some(name.into());
        self
    }
    /// How long [`connect`](Self::connect) waits for the server (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = Some(timeout);
        self
    }
    /// Each call's deadline, a prove's included (default: none); past it a call fails with `Timeout`.
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = Some(timeout);
        self
    }

    /// Connects, waiting until the server answers (the token is checked by the first call).
    pub fn connect(self) -> Result<Client> {
        let address = c_string(&self.address, "address")?;
        let token = self.token.as_deref().map(|t| c_string(t, "token")).transpose()?;
        let token_file = self.token_file.as_deref().map(|p| c_path(p, "token_file")).transpose()?;
        let tls_ca_file = self.tls_ca_file.as_deref().map(|p| c_path(p, "tls_ca_file")).transpose()?;
        let tls_server_name = self.tls_server_name.as_deref().map(|n| c_string(n, "tls_server_name")).transpose()?;
        let mut options = ffi::new_struct!(ffi::zkp_client_options_t);
        options.address = address.as_ptr();
        options.token = token.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        options.token_file = token_file.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        options.tls_ca_file = tls_ca_file.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        options.tls_server_name = tls_server_name.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        options.connect_timeout_ms = millis(self.connect_timeout, "connect_timeout")?;
        options.call_timeout_ms = millis(self.call_timeout, "call_timeout")?;
        let mut raw = std::ptr::null_mut();
        call(|err| unsafe { ffi::zkp_client_connect(&options, &mut raw, err) })?;
        let raw = NonNull::new(raw).ok_or_else(|| Error::InvalidArgument("zkp_client_connect returned no handle".into()))?;
        Ok(Client { raw })
    }
}

/// A connection to one `zkpipe serve`. Closed when dropped.
pub struct Client {
    raw: NonNull<ffi::zkp_client_t>,
}

// SAFETY: zkp_client.h: every call on a handle but close is [any-thread]; close runs in Drop,
// which has the handle to itself.
unsafe impl Send for Client {}
unsafe impl Sync for Client {}

impl Drop for Client {
    fn drop(&mut self) {
        unsafe { ffi::zkp_client_close(self.raw.as_ptr()) }
    }
}

impl Client {
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// Loads the key file `path` (a path on the server's machine) on every device of the
    /// server, or finds it loaded: the same file and format give the same key, warm.
    pub fn load_key(&self, path: impl AsRef<Path>, format: KeyFormat) -> Result<RemoteKey> {
        let path = c_path(path.as_ref(), "path")?;
        let mut key = ffi::new_struct!(ffi::zkp_client_key_t);
        call(|err| unsafe { ffi::zkp_client_load_key(self.raw(), path.as_ptr(), raw_format(format), &mut key, err) })?;
        Ok(RemoteKey::from_raw(&key))
    }

    /// [`load_key`](Self::load_key) with the circuit's witness generator, a plugin file on the
    /// server's machine inside its `serve.generator_dirs`: jobs of the key may then send
    /// input.json texts ([`JobOptions::inputs`]).
    pub fn load_key_with_generator(&self, path: impl AsRef<Path>, format: KeyFormat, witness_generator: impl AsRef<Path>) -> Result<RemoteKey> {
        let path = c_path(path.as_ref(), "path")?;
        let generator = c_path(witness_generator.as_ref(), "witness_generator")?;
        let mut key = ffi::new_struct!(ffi::zkp_client_key_t);
        call(|err| unsafe {
            ffi::zkp_client_load_key_with_generator(self.raw(), path.as_ptr(), raw_format(format), generator.as_ptr(), &mut key, err)
        })?;
        Ok(RemoteKey::from_raw(&key))
    }

    /// Drops a key; refused while partitions of it are in flight.
    pub fn unload_key(&self, key_id: u64) -> Result<()> {
        call(|err| unsafe { ffi::zkp_client_unload_key(self.raw(), key_id, err) })
    }

    /// The keys the server holds.
    pub fn list_keys(&self) -> Result<Vec<RemoteKey>> {
        // The count, then the keys; another client may load one in between: ask again then.
        loop {
            let mut count = 0usize;
            match call(|err| unsafe { ffi::zkp_client_list_keys(self.raw(), std::ptr::null_mut(), 0, &mut count, err) }) {
                Ok(()) => return Ok(Vec::new()),
                Err(e) if e.status() == Some(Status::ShortBuffer) => {}
                Err(e) => return Err(e),
            }
            let mut keys = vec![ffi::new_struct!(ffi::zkp_client_key_t); count];
            match call(|err| unsafe { ffi::zkp_client_list_keys(self.raw(), keys.as_mut_ptr(), keys.len(), &mut count, err) }) {
                Ok(()) => return Ok(keys[..count].iter().map(RemoteKey::from_raw).collect()),
                Err(e) if e.status() == Some(Status::ShortBuffer) => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Proves one partition per witness (snarkjs .wtns bytes) on any device and waits for
    /// them. `Ok` when the server ran the job: each partition has its own `result`.
    pub fn prove(&self, key_id: u64, witnesses: &[&[u8]]) -> Result<JobResult> {
        self.prove_with(key_id, witnesses, JobOptions::default())
    }

    /// [`prove`](Self::prove) with a device and a priority.
    pub fn prove_with(&self, key_id: u64, witnesses: &[&[u8]], options: JobOptions) -> Result<JobResult> {
        let job = Job::new(key_id, witnesses, options)?;
        let mut raw = std::ptr::null_mut();
        call(|err| unsafe { ffi::zkp_client_prove(self.raw(), &job.raw, &mut raw, err) })?;
        unsafe { JobResult::take(raw) }
    }

    /// Queues a job and returns its id at once ([`await_job`](Self::await_job) waits for it).
    pub fn submit(&self, key_id: u64, witnesses: &[&[u8]], options: JobOptions) -> Result<u64> {
        let job = Job::new(key_id, witnesses, options)?;
        let mut job_id = 0u64;
        call(|err| unsafe { ffi::zkp_client_submit(self.raw(), &job.raw, &mut job_id, err) })?;
        Ok(job_id)
    }

    /// Waits for a submitted job: its partitions in completion order. `NotFound` for an
    /// unknown job. Giving up (a call timeout) cancels nothing.
    pub fn await_job(&self, job_id: u64) -> Result<JobResult> {
        let mut raw = std::ptr::null_mut();
        call(|err| unsafe { ffi::zkp_client_await(self.raw(), job_id, &mut raw, err) })?;
        unsafe { JobResult::take(raw) }
    }

    /// Cancels a job's pending partitions (those on a device finish first).
    pub fn cancel(&self, job_id: u64) -> Result<()> {
        call(|err| unsafe { ffi::zkp_client_cancel(self.raw(), job_id, err) })
    }

    /// The server's state.
    pub fn status(&self) -> Result<ServerStatus> {
        let mut raw = ffi::new_struct!(ffi::zkp_client_status_t);
        call(|err| unsafe { ffi::zkp_client_status(self.raw(), &mut raw, err) })?;
        Ok(ServerStatus::from_raw(&raw))
    }

    /// Whether the server accepts work (false once it shuts down).
    pub fn health(&self) -> Result<bool> {
        let mut serving = 0u32;
        call(|err| unsafe { ffi::zkp_client_health(self.raw(), &mut serving, err) })?;
        Ok(serving != 0)
    }

    fn raw(&self) -> *mut ffi::zkp_client_t {
        self.raw.as_ptr()
    }
}

/// A zkp_client_job_t and the pointer array it points to (the witnesses are borrowed).
struct Job {
    raw: ffi::zkp_client_job_t,
    _pointers: Vec<*const u8>,
    _sizes: Vec<usize>,
}

impl Job {
    fn new(key_id: u64, witnesses: &[&[u8]], options: JobOptions) -> Result<Job> {
        let gpu_index = match options.gpu_index {
            None => -1,
            Some(i) => i32::try_from(i).map_err(|_| Error::InvalidArgument(format!("gpu_index {i} is out of range")))?,
        };
        let pointers: Vec<*const u8> = witnesses.iter().map(|w| w.as_ptr()).collect();
        let sizes: Vec<usize> = witnesses.iter().map(|w| w.len()).collect();
        let mut raw = ffi::new_struct!(ffi::zkp_client_job_t);
        raw.key_id = key_id;
        raw.witnesses = pointers.as_ptr();
        raw.witness_sizes = sizes.as_ptr();
        raw.witness_count = witnesses.len();
        raw.gpu_index = gpu_index;
        raw.priority = options.priority;
        raw.flags = if options.inputs { ffi::ZKP_CLIENT_JOB_INPUTS } else { 0 };
        Ok(Job { raw, _pointers: pointers, _sizes: sizes })
    }
}

/// Runs one fallible C call with a fresh error record and turns its status into a Result
/// (the zkpipe crate's rule, for this library's calls).
fn call(f: impl FnOnce(*mut sys::zkp_error_t) -> sys::zkp_status_t) -> Result<()> {
    let mut err = sys::zkp_error_t::new();
    let code = f(&mut err);
    match Status::from_code(code) {
        None => Ok(()),
        Some(status) => {
            err.message[sys::ZKP_ERROR_MESSAGE_CAPACITY - 1] = 0; // in case the callee did not terminate it
            let message = unsafe { CStr::from_ptr(err.message.as_ptr()) }.to_string_lossy().into_owned();
            Err(Error::Host { status, message })
        }
    }
}

fn raw_format(format: KeyFormat) -> sys::zkp_key_format_t {
    match format {
        KeyFormat::Bellperson => sys::ZKP_KEY_FORMAT_BELLPERSON,
        _ => sys::ZKP_KEY_FORMAT_ZKEY,
    }
}

fn c_string(s: &str, what: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::InvalidArgument(format!("{what} holds a NUL byte")))
}

fn c_path(p: &Path, what: &str) -> Result<CString> {
    let text = p.to_str().ok_or_else(|| Error::InvalidArgument(format!("{what} {} is not UTF-8", p.display())))?;
    c_string(text, what)
}

fn millis(d: Option<Duration>, what: &str) -> Result<u32> {
    match d {
        None => Ok(0),
        // At least 1 ms: 0 means "the default" to the C API.
        Some(d) => u32::try_from(d.as_millis().max(1)).map_err(|_| Error::InvalidArgument(format!("{what} {d:?} is over u32 milliseconds"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_listening_is_unavailable_and_says_where() {
        let dir = std::env::temp_dir().join(format!("zkpipe-client-test-{}", std::process::id()));
        let address = format!("unix:{}/nothing.sock", dir.display());
        let e = Client::builder().address(&address).connect_timeout(Duration::from_millis(200)).connect().err().expect("no server");
        assert_eq!(e.status(), Some(UNAVAILABLE));
        assert!(e.to_string().contains("no zkpipe serve answers on") && e.to_string().contains("nothing.sock"), "{e}");
    }

    #[test]
    fn bad_options_are_refused_naming_the_field() {
        let e = Client::builder().address("unix:/x").token("t").token_file("/tmp/t").connect().err().unwrap();
        assert_eq!(e.status(), Some(Status::InvalidArgument));
        assert!(e.to_string().contains("token_file"), "{e}");
        let e = Client::builder().address("a\0b").connect().err().unwrap();
        assert_eq!(e, Error::InvalidArgument("address holds a NUL byte".into()));
        let e = Client::builder().address("unix:/x").token_file("/nonexistent/token").connect().err().unwrap();
        assert_eq!(e.status(), Some(Status::NotFound));
        assert!(e.to_string().contains("/nonexistent/token"), "{e}");
    }

    #[test]
    fn a_job_describes_its_witnesses() {
        let (a, b) = (vec![1u8, 2, 3], vec![4u8]);
        let job = Job::new(7, &[&a, &b], JobOptions { gpu_index: Some(1), priority: 3, inputs: true }).unwrap();
        assert_eq!((job.raw.key_id, job.raw.witness_count, job.raw.gpu_index, job.raw.priority), (7, 2, 1, 3));
        assert_eq!(job.raw.flags, ffi::ZKP_CLIENT_JOB_INPUTS); // the witnesses are input.json texts
        let sizes = unsafe { std::slice::from_raw_parts(job.raw.witness_sizes, 2) };
        assert_eq!(sizes, [3, 1]);
        assert_eq!(Job::new(1, &[&a], JobOptions::default()).unwrap().raw.gpu_index, -1);
        assert_eq!(Job::new(1, &[&a], JobOptions::default()).unwrap().raw.flags, 0);
        assert!(Job::new(1, &[&a], JobOptions { gpu_index: Some(u32::MAX), ..JobOptions::default() }).is_err());
    }
}
