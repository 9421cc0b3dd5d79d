//! The state a submitted job hands the host as user_data, and the two `extern "C"`
//! functions the completion thread calls with it. A panic is caught here, on the Rust
//! side: unwinding into C is undefined behaviour.
use crate::completion::{Completion, Summary};
use crate::partition::Partition;
use std::any::Any;
use std::ffi::{c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex};
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

/// Owns everything the host reads for one job (the buffers, the raw records pointing
/// into them) until the job's summary arrives; on_job frees it.
pub(crate) struct JobState<'a> {
    pub partitions: Vec<Partition<'a>>,
    pub paths: Vec<CString>,
    pub synthesized: Vec<sys::zkp_synthesized_t>,
    pub sink: Sink<'a>,
    pub outcome: Arc<Mutex<Outcome>>,
}

// SAFETY: the raw pointers in `synthesized` point into `partitions`, which the state owns
// or borrows from data that is Sync ([u8], Scalar); the closure is Send; the state is
// used by one thread at a time (the submitter, then the completion thread).
unsafe impl Send for JobState<'_> {}

fn panic_message(p: Box<dyn Any + Send>) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a non-string panic payload".into())
}

pub(crate) unsafe extern "C" fn on_partition(user: *mut c_void, record: *const sys::zkp_completion_t) {
    // SAFETY: user is the JobState submit leaked; only the completion thread uses it now.
    let state = &mut *(user as *mut JobState<'static>);
    let completion = Completion::from_raw(&*record);
    match &mut state.sink {
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
