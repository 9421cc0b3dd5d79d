//! The host's log lines in the caller's logger ([`set_log_sink`]).
//!
//! The host, its plugins and `zkpipe serve` write to one process-wide logger, so the sink is
//! per process, not per [`Host`](crate::Host): set it once, before the first host, to see the
//! lines of creating it too. With std only, the closure is the bridge: forward to `log`,
//! `tracing` or anything else there.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use zkpipe::{Host, Level};
//!
//! # fn main() -> Result<(), zkpipe::Error> {
//! let lines = Arc::new(Mutex::new(Vec::new()));
//! let seen = Arc::clone(&lines);
//! zkpipe::set_log_sink(Level::Info, move |level, message| seen.lock().unwrap().push((level, message.to_owned())))?;
//! drop(Host::builder().set("prover", "sim").set("log_level", "info").build()?);
//! zkpipe::reset_log_sink()?; // back to stderr; the closure is dropped
//! assert!(lines.lock().unwrap().iter().any(|(l, m)| *l == Level::Info && m.starts_with("host ready")));
//! # Ok(()) }
//! ```
use crate::error::{call, Error, Result};
use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;
use zkpipe_sys as sys;

/// A log line's level (ZKP_LOG_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Trace,
    Debug,
    Info,
    Warn,
    Error,
}

impl Level {
    fn code(self) -> sys::zkp_log_level_t {
        match self {
            Level::Trace => sys::ZKP_LOG_TRACE,
            Level::Debug => sys::ZKP_LOG_DEBUG,
            Level::Info => sys::ZKP_LOG_INFO,
            Level::Warn => sys::ZKP_LOG_WARN,
            Level::Error => sys::ZKP_LOG_ERROR,
        }
    }

    fn from_code(code: sys::zkp_log_level_t) -> Level {
        match code {
            sys::ZKP_LOG_TRACE => Level::Trace,
            sys::ZKP_LOG_DEBUG => Level::Debug,
            sys::ZKP_LOG_INFO => Level::Info,
            sys::ZKP_LOG_WARN => Level::Warn,
            _ => Level::Error,
        }
    }
}

type Sink = Box<dyn Fn(Level, &str) + Send + Sync>;

/// The installed closure. The host holds a pointer to the inner box (its address is stable);
/// it is dropped only after zkp_host_set_log_sink has returned for its successor, which
/// promises the old one is no longer running.
static INSTALLED: Mutex<Option<Box<Sink>>> = Mutex::new(None);

thread_local! {
    /// Set while this thread runs the closure: a set from inside it would wait for itself.
    static IN_SINK: Cell<bool> = const { Cell::new(false) };
}

unsafe extern "C" fn trampoline(user_data: *mut c_void, record: *const sys::zkp_log_record_t) {
    // SAFETY: user_data is the inner box INSTALLED holds, alive while the host may call it;
    // the record and its strings are valid during this call.
    let sink = &*(user_data as *const Sink);
    let record = &*record;
    let bytes = std::slice::from_raw_parts(record.message as *const u8, record.message_size);
    let message = String::from_utf8_lossy(bytes);
    IN_SINK.with(|f| f.set(true));
    // A panic must not unwind into C; the line is lost, the host carries on.
    let _ = catch_unwind(AssertUnwindSafe(|| sink(Level::from_code(record.level), &message)));
    IN_SINK.with(|f| f.set(false));
}

/// Routes the process's log lines at `min_level` and above (and at the host's `log_level`
/// and above, which filters first) to `sink` instead of stderr, replacing any previous sink.
///
/// `sink` runs on the thread that logged: any host thread, or yours inside a host call, and
/// on several threads at once. A slow sink slows the thread that logged (a GPU worker, the
/// completion thread); one that may block should queue the line and return. A panic in it is
/// caught and the line dropped. Calling this (or [`reset_log_sink`]) from inside the sink
/// fails with [`Error::InvalidArgument`].
pub fn set_log_sink<F>(min_level: Level, sink: F) -> Result<()>
where
    F: Fn(Level, &str) + Send + Sync + 'static,
{
    install(Some(Box::new(Box::new(sink))), min_level)
}

/// Sends the log lines to stderr again and drops the closure [`set_log_sink`] installed.
pub fn reset_log_sink() -> Result<()> {
    install(None, Level::Trace)
}

fn install(sink: Option<Box<Sink>>, min_level: Level) -> Result<()> {
    if IN_SINK.with(|f| f.get()) {
        return Err(Error::InvalidArgument("the log sink cannot be changed from inside the log sink".into()));
    }
    let mut installed = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    let (callback, user_data): (sys::zkp_log_callback_t, *mut c_void) = match &sink {
        Some(b) => (Some(trampoline), &**b as *const Sink as *mut c_void),
        None => (None, std::ptr::null_mut()),
    };
    // SAFETY: user_data points into `sink`, which INSTALLED keeps until the next install.
    call(|err| unsafe { sys::zkp_host_set_log_sink(callback, user_data, min_level.code(), err) })?;
    // The host no longer calls the previous closure: it may be dropped.
    *installed = sink;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_and_order() {
        for l in [Level::Trace, Level::Debug, Level::Info, Level::Warn, Level::Error] {
            assert_eq!(Level::from_code(l.code()), l);
        }
        assert!(Level::Debug < Level::Warn);
    }
}
