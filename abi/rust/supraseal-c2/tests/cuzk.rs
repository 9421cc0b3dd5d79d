//! Curio's fork (feature `cuzk`), called as cuzk's bellperson fork calls it: two GPU-worker
//! threads each start a batch on their device with their own gpu mutex, free a, b, c and
//! r, s right after start (as `prove_start` does; the assignments too, which the crate's
//! start releases as well), and hand the pending handle to another
//! thread, which finishes it into uninitialised proof memory. Every proof verifies and is
//! zkpipe's own for the same (r, s). Also: the fork's `generate_groth16_proof` with a
//! device, a dropped pending proof, and the finish-side checks.
#![cfg(feature = "cuzk")]
mod common;
use common::*;
use supraseal_c2::{alloc_gpu_mutex, drop_pending_proof, finish_groth16_proof, free_gpu_mutex, start_groth16_proof, SRS};

/// The fork's raw handle, moved between threads as cuzk's `PendingProofHandle` does.
struct Handle(*mut core::ffi::c_void);
// SAFETY: the crate's pending proof owns plain data; it is finished or dropped once.
unsafe impl Send for Handle {}

struct GpuMutex(*mut core::ffi::c_void);
// SAFETY: the mutex is only passed back to the crate.
unsafe impl Send for GpuMutex {}
unsafe impl Sync for GpuMutex {}

/// cuzk's `prove_start`: pointers into the circuits, start, then drop a, b, c and r, s.
fn start(mut circuits: Vec<Circuit>, r: Vec<[u64; 4]>, s: Vec<[u64; 4]>, srs: &SRS, mtx: &GpuMutex, gpu_index: i32) -> (Handle, Vec<Circuit>) {
    let first = circuits[0].clone();
    let ptrs = |f: fn(&Circuit) -> *const [u64; 4]| circuits.iter().map(f).collect::<Vec<_>>();
    let (a, b, c) = (ptrs(|c| c.a.as_ptr()), ptrs(|c| c.b.as_ptr()), ptrs(|c| c.c.as_ptr()));
    let (inp, aux) = (ptrs(|c| c.input.as_ptr()), ptrs(|c| c.aux.as_ptr()));
    let p = first.assignment();
    let handle = start_groth16_proof(
        &a,
        &b,
        &c,
        first.a.len(),
        &inp,
        &aux,
        first.input.len(),
        first.aux.len(),
        &first.a_aux_density,
        &first.b_input_density,
        &first.b_aux_density,
        p.a_aux_popcount,
        p.b_inp_popcount,
        p.b_aux_popcount,
        circuits.len(),
        &r,
        &s,
        srs,
        mtx.0,
        gpu_index,
    );
    // `release_abc` and `drop(r_s)`, and beyond cuzk: the assignments too (the crate's start
    // returns once zkpipe reads no input; `first`, whose densities it was given, is dropped
    // on return). Overwritten first, so a later read would show in the proofs.
    for circuit in &mut circuits {
        for v in [&mut circuit.a, &mut circuit.b, &mut circuit.c, &mut circuit.input, &mut circuit.aux] {
            v.fill([u64::MAX; 4]);
            *v = Vec::new();
        }
    }
    drop((r, s));
    (Handle(handle), circuits)
}

#[test]
fn start_and_finish_on_two_threads_match_zkpipe() {
    use_test_config();
    let Some(v) = vectors("start_and_finish_on_two_threads_match_zkpipe") else { return };
    let srs = SRS::try_new(v.params.clone(), true).unwrap();
    let reference = Reference::new(&v);
    let (mtx0, mtx1) = (GpuMutex(alloc_gpu_mutex()), GpuMutex(alloc_gpu_mutex()));
    assert!(!mtx0.0.is_null() && mtx0.0 != mtx1.0);
    // Worker 0: three circuits on device 0, r = 3 + i, s = 5 + i. Worker 1: one, any device.
    let batches: [(usize, i32, u64); 2] = [(3, 0, 3), (1, -1, 20)];
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|t| {
        for (w, (n, gpu_index, base)) in batches.into_iter().enumerate() {
            let (srs, tx, v) = (&srs, tx.clone(), &v);
            let mtx = if w == 0 { &mtx0 } else { &mtx1 };
            t.spawn(move || {
                let r: Vec<[u64; 4]> = (0..n as u64).map(|i| [base + i, 0, 0, 0]).collect();
                let s: Vec<[u64; 4]> = (0..n as u64).map(|i| [base + 2 + i, 0, 0, 0]).collect();
                let mont = |x: &Vec<[u64; 4]>| x.iter().map(|v| fr_to_montgomery(*v)).collect::<Vec<_>>();
                let (handle, rest) = start(vec![v.circuit.clone(); n], mont(&r), mont(&s), srs, mtx, gpu_index);
                tx.send((w, handle, rest, r, s)).unwrap();
            });
        }
        drop(tx);
        // The finishing thread: whichever batch is started first is finished first.
        let finisher = t.spawn(move || {
            let mut done = Vec::new();
            for (w, handle, rest, r, s) in rx {
                let mut proofs = proof_room(rest.len());
                finish_groth16_proof(handle.0, &mut proofs);
                done.push((w, proofs, r, s));
            }
            done
        });
        let mut done = finisher.join().unwrap();
        done.sort_by_key(|d| d.0);
        assert_eq!(done.len(), 2);
        for (w, proofs, r, s) in done {
            let circuits = vec![v.circuit.clone(); proofs.len()];
            let expected = reference.proofs(&circuits, &r, &s);
            for (i, p) in proofs.iter().enumerate() {
                let got = p.to_zkpipe();
                assert!(reference.verifies(&got, &v.circuit), "worker {w}, proof {i} does not verify");
                assert_eq!(got, expected[i], "worker {w}, proof {i} is not zkpipe's");
                if r[i] == v.r && s[i] == v.s {
                    assert_eq!(got.to_bellperson_bytes().unwrap().to_vec(), v.proof_bellperson);
                }
            }
        }
    });
    unsafe {
        free_gpu_mutex(mtx0.0);
        free_gpu_mutex(mtx1.0);
        free_gpu_mutex(std::ptr::null_mut());
    }
}

#[test]
fn the_forks_flat_call_pins_a_device_and_pending_proofs_can_be_dropped() {
    use_test_config();
    let Some(v) = vectors("the_forks_flat_call_pins_a_device_and_pending_proofs_can_be_dropped") else { return };
    let srs = SRS::try_new(v.params.clone(), false).unwrap();
    let (r, s) = (vec![fr_to_montgomery(v.r); 2], vec![fr_to_montgomery(v.s); 2]);
    for gpu_index in [0, -1] {
        let mut proofs = proof_room(2);
        generate_flat(&[v.circuit.clone(), v.circuit.clone()], &r, &s, &mut proofs, &srs, gpu_index);
        for p in &proofs {
            assert_eq!(p.to_zkpipe().to_bellperson_bytes().unwrap().to_vec(), v.proof_bellperson, "gpu_index {gpu_index}");
        }
    }
    // Device 1 of a one-device (cpu) host: the job fails, and start panics with zkpipe's reason.
    let mtx = GpuMutex(std::ptr::null_mut());
    let m = panic_message(|| drop(start(vec![v.circuit.clone()], r[..1].to_vec(), s[..1].to_vec(), &srs, &mtx, 1))).unwrap();
    assert!(m.starts_with("zkpipe: "), "{m}");

    let (handle, _) = start(vec![v.circuit.clone()], r[..1].to_vec(), s[..1].to_vec(), &srs, &mtx, -1);
    unsafe { drop_pending_proof(handle.0) };
    unsafe { drop_pending_proof(std::ptr::null_mut()) };

    // finish: a proof type of the wrong size, or too little room, panics (and frees the handle).
    let (handle, _) = start(vec![v.circuit.clone(); 2], r.clone(), s.clone(), &srs, &mtx, -1);
    let m = panic_message(|| finish_groth16_proof(handle.0, &mut vec![[0u64; 40]; 2])).unwrap();
    assert!(m.contains("a proof is 320 bytes"), "{m}");
    let (handle, _) = start(vec![v.circuit.clone(); 2], r.clone(), s.clone(), &srs, &mtx, -1);
    let m = panic_message(|| finish_groth16_proof(handle.0, &mut proof_room(1))).unwrap();
    assert!(m.contains("2 proofs to write into room for 1"), "{m}");
    let m = panic_message(|| finish_groth16_proof::<BellpersonProof>(std::ptr::null_mut(), &mut [])).unwrap();
    assert!(m.contains("null pending proof handle"), "{m}");
}
