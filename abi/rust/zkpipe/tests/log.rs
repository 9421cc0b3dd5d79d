//! set_log_sink through the safe crate: the host's own lines arrive with their level, the
//! minimum level filters, a panicking sink does not reach C, a set from inside the sink is
//! refused, and reset drops the closure. One test: the sink is per process, and the test
//! harness runs tests of one file on several threads at once.
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use zkpipe::{Error, Host, Level};

fn create_sim_host() {
    drop(Host::builder().set("prover", "sim").set("log_level", "info").build().unwrap());
}

#[test]
fn the_hosts_lines_reach_the_closure() {
    let lines: Arc<Mutex<Vec<(Level, String)>>> = Arc::default();
    let seen = Arc::clone(&lines);
    zkpipe::set_log_sink(Level::Trace, move |l, m| seen.lock().unwrap().push((l, m.to_owned()))).unwrap();
    create_sim_host();
    assert!(
        lines.lock().unwrap().iter().any(|(l, m)| *l == Level::Info && m.starts_with("host ready: prover 'sim")),
        "{:?}",
        lines.lock().unwrap()
    );

    // min_level Warn: the same host writes no line below it.
    let low = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&low);
    zkpipe::set_log_sink(Level::Warn, move |l, _| {
        if l < Level::Warn {
            counted.fetch_add(1, Ordering::SeqCst);
        }
    })
    .unwrap();
    create_sim_host();
    assert_eq!(low.load(Ordering::SeqCst), 0);

    // A panic is caught on the host's side of the closure; the host carries on.
    zkpipe::set_log_sink(Level::Trace, |_, _| panic!("a sink that panics")).unwrap();
    create_sim_host();

    // From inside the sink, a set is refused rather than waiting for itself.
    let refused: Arc<Mutex<Option<Error>>> = Arc::default();
    let slot = Arc::clone(&refused);
    zkpipe::set_log_sink(Level::Trace, move |_, _| {
        if let Err(e) = zkpipe::reset_log_sink() {
            *slot.lock().unwrap() = Some(e);
        }
    })
    .unwrap();
    create_sim_host();
    assert!(matches!(*refused.lock().unwrap(), Some(Error::InvalidArgument(_))));

    // reset drops the closure (and with it its clone of `lines`).
    let before = Arc::strong_count(&lines);
    let held = Arc::clone(&lines);
    zkpipe::set_log_sink(Level::Trace, move |_, _| drop(held.lock())).unwrap();
    assert_eq!(Arc::strong_count(&lines), before + 1);
    zkpipe::reset_log_sink().unwrap();
    assert_eq!(Arc::strong_count(&lines), before);
}
