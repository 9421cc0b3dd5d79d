//! The state a submitted job hands the host as user_data, and the `extern "C"` functions the
//! host calls with it (the completion thread; a device's worker thread for an input released
//! early). A panic is caught here, on the Rust side: unwinding into C is undefined behaviour.
//! The callbacks share the state (`&JobState`, the sink behind a mutex): an input release may
//! run on a worker thread while the completion thread delivers another partition.
use crate::completion::{Completion, Summary};
use crate::partition::Partition;
use std::any::Any;
use std::ffi::{c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use zkpipe_sys as sys;

/// Where completions go.
pub(crate) enum Sink<'a> {
    Closure(Box<dyn FnMut(Completion) + Send + 'a>),
    Channel(mpsc::Sender<Completion>),
}

/// What the job handle reads once the summary has arrived.
#[derive(Default)]
pub(crate) struct Outcome {
    pub summary: Option<Summary>,
    pub panic: Option<String>,
}

/// How many of a job's partitions the host has said it reads no more of
/// (`zkp_job_t.on_input_released`).
#[derive(Default)]
pub(crate) struct Released {
    count: Mutex<u32>,
    changed: Condvar,
}

impl Released {
    fn note(&self) {
        *self.count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.changed.notify_all();
    }

    /// Blocks until `n` have been released.
    pub(crate) fn wait_for(&self, n: u32) {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        while *count < n {
            count = self.changed.wait(count).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Owns everything the host reads for one job (the buffers, the raw records pointing
/// into them) until the job's summary arrives; on_job frees it.
pub(crate) struct JobState<'a> {
    pub partitions: Vec<Partition<'a>>,
    pub paths: Vec<CString>,
    pub synthesized: Vec<sys::zkp_synthesized_t>,
    pub sink: Mutex<Sink<'a>>,
    pub outcome: Arc<Mutex<Outcome>>,
    pub released: Arc<Released>,
}

// SAFETY: the raw pointers in `synthesized` point into `partitions`, which the state owns
// or borrows from data that is Sync ([u8], Scalar); the closure is Send; the state is
// used by one thread at a time (the submitter, then the completion thread).
unsafe impl Send for JobState<'_> {}

fn panic_message(p: Box<dyn Any + Send>) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a non-string panic payload".into())
}

pub(crate) unsafe extern "C" fn on_input_released(user: *mut c_void, _partition: u32) {
    // SAFETY: user is the JobState submit leaked, shared with the other callbacks until on_job
    // (after every release) frees it.
    let state = &*(user as *const JobState<'static>);
    state.released.note();
}

pub(crate) unsafe extern "C" fn on_partition(user: *mut c_void, record: *const sys::zkp_completion_t) {
    // SAFETY: user is the JobState submit leaked; the sink is used by this thread only (the
    // completion thread), behind its mutex all the same.
    let state = &*(user as *const JobState<'static>);
    let completion = Completion::from_raw(&*record);
    let mut sink = state.sink.lock().unwrap_or_else(|e| e.into_inner());
    match &mut *sink {
        Sink::Closure(f) => {
            // After a panic the closure's state is suspect: it is not called again.
            if state.outcome.lock().unwrap_or_else(|e| e.into_inner()).panic.is_some() {
                return;
            }
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| f(completion))) {
                state.outcome.lock().unwrap_or_else(|e| e.into_inner()).panic = Some(panic_message(p));
            }
        }
        // The receiver may be gone (the handle was dropped); the completion is not wanted.
        Sink::Channel(tx) => drop(tx.send(completion)),
    }
}

pub(crate) unsafe extern "C" fn on_job(user: *mut c_void, summary: *const sys::zkp_job_summary_t) {
    // SAFETY: the last callback of the job: the state is taken back and freed.
    let state = Box::from_raw(user as *mut JobState<'static>);
    let outcome = Arc::clone(&state.outcome);
    // Dropping the state drops the caller's closure, whose Drop may panic too.
    let dropped = catch_unwind(AssertUnwindSafe(move || drop(state)));
    let mut o = outcome.lock().unwrap_or_else(|e| e.into_inner());
    if let (Err(p), None) = (dropped, &o.panic) {
        o.panic = Some(panic_message(p));
    }
    o.summary = Some(Summary::from_raw(&*summary));
}
