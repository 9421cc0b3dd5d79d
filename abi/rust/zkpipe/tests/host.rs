//! The host API's behaviour through the safe crate, on the simulated prover (and the cpu
//! prover for caller-synthesized inputs): pinning, callbacks, panics, cancellation,
//! errors, threads, and when a job's state is freed.
mod common;
use common::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use zkpipe::{Error, Host, Job, KeySource, Partition, Proof, PublicInputs, Scalar, Status};

fn sim_host(devices: u32, gpu_ms: u32) -> Host {
    Host::builder()
        .set("prover", "sim")
        .set("log_level", "warn")
        .set("prover.devices", devices)
        .set("prover.gpu_ms", gpu_ms)
        .set("workers_per_device", 2)
        .build()
        .unwrap()
}

#[test]
fn types_are_send_and_sync_as_documented() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<Host>();
    send_sync::<zkpipe::Key>();
    send_sync::<zkpipe::Proof>();
    send_sync::<Error>();
    send::<Job<'static>>();
    send::<zkpipe::Completion>();
}

#[test]
fn a_pinned_job_runs_every_partition_on_its_device() {
    let host = sim_host(2, 5);
    let key = host.load_key(KeySource::simulated()).unwrap();
    let job = host.job(&key).gpu_index(1).priority(3).partitions((0..6).map(|_| Partition::simulated())).submit().unwrap();
    let mut seen = [0u32; 6];
    for c in job.completions() {
        c.result.unwrap();
        assert_eq!(c.gpu_index, Some(1));
        assert!(c.simulated && c.proof.is_none());
        assert!(c.gpu_duration >= Duration::from_millis(4), "{:?}", c.gpu_duration);
        seen[c.partition as usize] += 1;
    }
    assert_eq!(seen, [1; 6]);
    let summary = job.wait().unwrap();
    assert!(summary.is_success());
    assert_eq!((summary.partitions, summary.succeeded, summary.job_id), (6, 6, job.id()));
    assert_eq!(host.device_info(1).unwrap().partitions_proved, 6);
    assert_eq!(host.device_info(0).unwrap().partitions_proved, 0);
}

#[test]
fn a_closure_gets_every_completion_and_its_state_is_freed_at_the_summary() {
    struct SetOnDrop(Arc<AtomicBool>);
    impl Drop for SetOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let host = sim_host(1, 1);
    let key = host.load_key(KeySource::simulated()).unwrap();
    let (calls, dropped) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicBool::new(false)));
    let guard = SetOnDrop(Arc::clone(&dropped));
    let counter = Arc::clone(&calls);
    let job = host
        .job(&key)
        .partitions((0..4).map(|_| Partition::simulated()))
        .on_completion(move |_| {
            let _keep = &guard; // the closure owns the guard, as it would own buffers
            counter.fetch_add(1, Ordering::SeqCst);
        })
        .submit()
        .unwrap();
    assert_eq!(job.completions().count(), 0, "a closure job has no channel");
    job.wait().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    assert!(dropped.load(Ordering::SeqCst), "the job state outlived its summary");
}

#[test]
fn a_panicking_closure_is_caught_called_once_and_reported() {
    let host = sim_host(1, 1);
    let key = host.load_key(KeySource::simulated()).unwrap();
    let calls = Arc::new(AtomicU32::new(0));
    let c = Arc::clone(&calls);
    let job = host
        .job(&key)
        .partitions((0..3).map(|_| Partition::simulated()))
        .on_completion(move |completion| {
            c.fetch_add(1, Ordering::SeqCst);
            panic!("bad partition {}", completion.partition);
        })
        .submit()
        .unwrap();
    match job.wait() {
        Err(Error::CallbackPanicked(m)) => assert!(m.starts_with("bad partition"), "{m}"),
        other => panic!("expected CallbackPanicked, got {other:?}"),
    }
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    // The host carries on.
    let again = host.job(&key).partition(Partition::simulated()).submit().unwrap();
    assert!(again.wait().unwrap().is_success());
}

#[test]
fn cancel_completes_pending_partitions_as_cancelled() {
    let host = sim_host(1, 40);
    let key = host.load_key(KeySource::simulated()).unwrap();
    let job = host.job(&key).partitions((0..20).map(|_| Partition::simulated())).submit().unwrap();
    job.cancel().unwrap();
    let cancelled = job.completions().filter(|c| matches!(&c.result, Err(e) if e.status() == Some(Status::Cancelled))).count();
    let summary = job.wait().unwrap();
    assert!(summary.cancelled > 0 && summary.cancelled as usize == cancelled, "{summary:?}");
    assert_eq!(summary.status, Some(Status::Cancelled));
    assert_eq!(job.cancel().unwrap_err().status(), Some(Status::NotFound));
}

#[test]
fn errors_carry_the_status_and_the_hosts_message() {
    let e = Host::builder().set("no_such_key", 1).build().err().unwrap();
    assert_eq!(e.status(), Some(Status::InvalidArgument));
    assert!(e.to_string().contains("no_such_key"), "{e}");

    let host = Host::builder().set("prover", "cpu").set("log_level", "warn").build().unwrap();
    let e = host.load_key(KeySource::path("/nonexistent/circuit.zkey")).unwrap_err();
    assert!(matches!(&e, Error::Host { message, .. } if message.contains("/nonexistent/circuit.zkey")), "{e}");

    let sim = sim_host(2, 1);
    let key = sim.load_key(KeySource::simulated()).unwrap();
    let e = sim.job(&key).gpu_index(2).partition(Partition::simulated()).submit().err().unwrap();
    assert_eq!(e.status(), Some(Status::InvalidArgument), "{e}");
    let e = sim.job(&key).partition(Partition::simulated()).fixed_randomness(&[]).submit().err().unwrap();
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
}

#[test]
fn one_host_serves_many_threads() {
    let host = Arc::new(sim_host(2, 2));
    let key = host.load_key(KeySource::simulated()).unwrap();
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (host, key) = (Arc::clone(&host), key.clone());
            std::thread::spawn(move || host.job(&key).partitions((0..5).map(|_| Partition::simulated())).submit().unwrap().wait().unwrap())
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap().succeeded, 5);
    }
    let stats = host.stats().unwrap();
    assert_eq!((stats.jobs_submitted, stats.jobs_finished, stats.partitions_succeeded), (4, 4, 20));
    assert_eq!((stats.pending, stats.proving, stats.budget_used_bytes), (0, 0, 0));
}

#[test]
fn caller_synthesized_partitions_are_proved_in_place() {
    // det/ holds snarkjs's A·w, B·w, C·w on the domain for the committed witness.
    let dir = repo().join("tests/groth16/data/chain7_bn128");
    let host = Host::builder().set("prover", "cpu").set("log_level", "warn").build().unwrap();
    let key = host.load_key(KeySource::path(dir.join("circuit.zkey"))).unwrap();
    let [a, b, c] = ["a", "b", "c"].map(|m| Scalar::vec_from_bytes(&read(dir.join(format!("det/{m}_eval.bin")))).unwrap());
    let assignment = wtns_assignment(&read(dir.join("witness.wtns")));
    let proofs = Mutex::new(Vec::new());
    host.scope(|s| {
        s.job(&key)
            .partitions((0..2).map(|_| Partition::synthesized(&a[..], &b[..], &c[..], &assignment[..])))
            .on_completion(|c| proofs.lock().unwrap().push(c))
            .submit()
            .unwrap();
    });
    let proofs = proofs.into_inner().unwrap();
    assert_eq!(proofs.len(), 2);
    let expected = PublicInputs::from_snarkjs_json(&read_text(dir.join("public.json"))).unwrap();
    for c in proofs {
        c.result.unwrap();
        assert_eq!(c.public_inputs.as_ref(), Some(&expected));
        assert!(host.verify(&key, c.proof.as_ref().unwrap(), &expected).unwrap());
    }
    let short = &a[..a.len() - 1];
    let e = host.scope(|s| s.job(&key).partition(Partition::synthesized(short, &b[..], &c[..], &assignment[..])).submit().err());
    assert!(matches!(e, Some(Error::InvalidArgument(_))), "{e:?}");
}

#[test]
fn host_queries_answer() {
    let host = sim_host(2, 1);
    assert_eq!(Host::abi_version(), zkpipe::sys::ZKP_ABI_VERSION);
    assert!(!host.device_info(0).unwrap().name.is_empty());
    assert!(!host.pacer_status().unwrap().is_empty());
    let stats = host.stats().unwrap();
    assert_eq!((stats.device_count, stats.workers_per_device), (2, 2));
    let key = host.load_key(KeySource::simulated()).unwrap();
    host.shutdown(false).unwrap();
    let e = host.job(&key).partition(Partition::simulated()).submit().err().unwrap();
    assert_eq!(e.status(), Some(Status::Cancelled), "{e}");
}

#[test]
fn a_scope_waits_for_its_jobs_even_when_its_closure_panics() {
    let host = sim_host(1, 20);
    let key = host.load_key(KeySource::simulated()).unwrap();
    let wtns_like = vec![0u8; 64]; // borrowed by the job below; the sim prover ignores it
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        host.scope(|s| {
            s.job(&key).partitions((0..3).map(|_| Partition::witness_buffer(&wtns_like[..]))).submit().unwrap();
            panic!("the caller fails after submitting");
        })
    }));
    assert!(unwound.is_err());
    // The scope returned (by unwinding) only after the job had finished.
    let stats = host.stats().unwrap();
    assert_eq!((stats.jobs_finished, stats.partitions_succeeded + stats.partitions_failed), (1, 3));
    drop(wtns_like);
}

#[test]
fn waiting_inside_a_callback_is_refused_not_deadlocked() {
    let host = Arc::new(sim_host(1, 1));
    let key = host.load_key(KeySource::simulated()).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let inner = Arc::clone(&host);
    let job = host
        .job(&key)
        .partition(Partition::simulated())
        .on_completion(move |_| tx.send(inner.wait_all()).unwrap())
        .submit()
        .unwrap();
    job.wait().unwrap();
    let refused = rx.recv().unwrap().unwrap_err();
    assert_eq!(refused.status(), Some(Status::InvalidArgument), "{refused}");
}

#[test]
fn verify_goes_through_the_host_and_names_what_is_wrong() {
    let dir = repo().join("samples/circuits/multiplier_bn128");
    let host = Host::builder().set("prover", "cpu").set("log_level", "warn").set("workers_per_device", 1).build().unwrap();
    let key = host.load_key(KeySource::path(dir.join("circuit.zkey"))).unwrap();
    let job = host.job(&key).partition(Partition::witness_file(dir.join("witness.wtns"))).submit().unwrap();
    let c = job.completions().next().unwrap();
    c.result.unwrap();
    let (proof, public) = (c.proof.unwrap(), c.public_inputs.unwrap());
    assert!(host.verify(&key, &proof, &public).unwrap());

    // Checked and invalid: Ok(false). A flipped bit of A, and another public input.
    let mut bytes = proof.as_bytes().to_vec();
    bytes[0] ^= 1;
    let tampered = Proof::from_bytes(proof.curve(), &bytes).unwrap();
    assert!(!host.verify(&key, &tampered, &public).unwrap());
    let other = PublicInputs(vec![Scalar::from_u64(34)]);
    assert!(!host.verify(&key, &proof, &other).unwrap());

    // Could not check: Err with the status that says why.
    let unknown = zkpipe::Key { id: key.id + 100, info: key.info.clone() };
    assert_eq!(host.verify(&unknown, &proof, &public).unwrap_err().status(), Some(Status::NotFound));
    let two = PublicInputs(vec![Scalar::from_u64(33), Scalar::from_u64(1)]);
    let e = host.verify(&key, &proof, &two).unwrap_err();
    assert_eq!(e.status(), Some(Status::BadInput), "{e}");
    assert!(e.to_string().contains("2 public input(s)"), "{e}");
    let bls = Proof::from_bytes(zkpipe::Curve::Bls12_381, &[0u8; 384]).unwrap();
    let e = host.verify(&key, &bls, &public).unwrap_err();
    assert_eq!(e.status(), Some(Status::BadInput), "{e}");

    // Threads share the host: every call answers the same.
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..4 {
                    assert!(host.verify(&key, &proof, &public).unwrap());
                    assert!(!host.verify(&key, &tampered, &public).unwrap());
                }
            });
        }
    });

    // The simulated prover has nothing to check with.
    let sim = sim_host(1, 1);
    let sim_key = sim.load_key(KeySource::simulated()).unwrap();
    assert_eq!(sim.verify(&sim_key, &proof, &public).unwrap_err().status(), Some(Status::Unsupported));
}

#[test]
fn a_circuit_without_public_signals_gives_an_empty_list() {
    // The simulated prover's key has no public signals (n_public 0), as a circuit without any:
    // a partition that succeeds has an empty list of public inputs, not None (issue 39: the
    // crate's example unwrapped it and panicked on such a circuit); one that fails has None.
    let host = sim_host(1, 1);
    let key = host.load_key(KeySource::simulated()).unwrap();
    assert_eq!((key.info.n_public, key.info.public_size), (0, 0));
    assert_eq!(key.info.device_bytes, 0); // key_info's latest field comes through: the sim prover has no device
    let job = host
        .job(&key)
        .partition(Partition::simulated())
        .partition(Partition::witness_buffer(&b"unsatisfied"[..])) // the sim prover's failure hook
        .submit()
        .unwrap();
    let mut got: Vec<_> = job.completions().collect();
    job.wait().unwrap();
    got.sort_by_key(|c| c.partition);
    got[0].result.as_ref().unwrap();
    let public = got[0].public_inputs.clone().expect("a partition that succeeded has its public inputs");
    assert!(public.values().is_empty());
    assert_eq!(PublicInputs::from_snarkjs_json(&public.to_snarkjs_json()).unwrap(), public);
    assert_eq!(got[1].result.as_ref().unwrap_err().status(), Some(Status::UnsatisfiedWitness));
    assert!(got[1].public_inputs.is_none());
}

#[test]
fn unload_key_drops_the_key() {
    let host = sim_host(1, 1);
    let key = host.load_key(KeySource::simulated()).unwrap();
    let kept = host.load_key(KeySource::simulated()).unwrap();
    assert!(host.job(&key).partition(Partition::simulated()).submit().unwrap().wait().unwrap().is_success());
    host.unload_key(&key).unwrap();
    assert_eq!(host.key_info(key.id).unwrap_err().status(), Some(Status::NotFound));
    let refused = host.job(&key).partition(Partition::simulated()).submit().err().expect("a job with an unloaded key");
    assert_eq!(refused.status(), Some(Status::NotFound), "{refused}");
    assert_eq!(host.unload_key(&key).unwrap_err().status(), Some(Status::NotFound)); // once only
    // The other key is untouched.
    assert!(host.job(&kept).partition(Partition::simulated()).submit().unwrap().wait().unwrap().is_success());
}
