//! Proves every committed vector on the cpu prover, from a witness file, a .wtns buffer
//! and an assignment, and checks each proof with Host::verify: valid, public
//! inputs equal to snarkjs's public.json, and rejected once a public input changes.
//! snarkjs's own proof.json verifies too, and with r = s = 0 (det/) zkpipe's proof is
//! byte for byte snarkjs's.
mod common;
use common::*;
use zkpipe::{Host, KeySource, Partition, Proof, PublicInputs, Scalar};

fn cpu_host() -> Host {
    Host::builder().set("prover", "cpu").set("log_level", "warn").set("workers_per_device", 1).set("synthesis_threads", 2).build().expect("cpu host")
}

#[test]
fn every_vector_proves_and_verifies() {
    let host = cpu_host();
    for dir in vector_dirs() {
        let name = dir.display();
        let zkey = dir.join("circuit.zkey");
        let key = host.load_key(KeySource::path(&zkey)).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The same key from its bytes, as a second key of the host: verify uses the one it is given.
        let from_bytes = host.load_key(KeySource::bytes(read(&zkey))).unwrap();
        let wtns = read(dir.join("witness.wtns"));
        let expected_public = PublicInputs::from_snarkjs_json(&read_text(dir.join("public.json"))).unwrap();

        let assignment = wtns_assignment(&wtns);
        assert_eq!(assignment.len(), key.info.n_vars as usize, "{name}");
        let proofs: Vec<(Proof, PublicInputs)> = host.scope(|s| {
            let job = s
                .job(&key)
                .partition(Partition::witness_file(dir.join("witness.wtns")))
                .partition(Partition::witness_buffer(&wtns[..]))
                .partition(Partition::assignment(&assignment[..]))
                .submit()
                .unwrap();
            let mut got: Vec<_> = job.completions().collect();
            let summary = job.wait().unwrap();
            assert_eq!((summary.succeeded, summary.failed), (3, 0), "{name}");
            got.sort_by_key(|c| c.partition);
            got.into_iter()
                .map(|c| {
                    c.result.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert!(c.self_checked && !c.simulated, "{name}");
                    (c.proof.unwrap(), c.public_inputs.unwrap())
                })
                .collect()
        });
        assert_eq!(proofs.len(), 3);
        for (proof, public) in &proofs {
            assert_eq!(public, &expected_public, "{name}: public inputs differ from snarkjs's");
            assert_eq!(Some(proof.curve()), key.info.curve);
            assert!(host.verify(&key, proof, public).unwrap(), "{name}: Host::verify rejects zkpipe's proof");
            assert!(host.verify(&from_bytes, proof, public).unwrap(), "{name}: the key from bytes rejects it");
            let mut tampered = public.clone();
            tampered.0[0] = Scalar::from_u64(u64::from(tampered.0[0].0[0]) + 1);
            assert!(!host.verify(&key, proof, &tampered).unwrap(), "{name}: a tampered public input verifies");
            // Through snarkjs's JSON and back, the proof is unchanged and still valid.
            assert_eq!(&Proof::from_snarkjs_json(&proof.to_snarkjs_json()).unwrap(), proof);
        }
        let snarkjs = Proof::from_snarkjs_json(&read_text(dir.join("proof.json"))).unwrap();
        assert!(host.verify(&key, &snarkjs, &expected_public).unwrap(), "{name}: snarkjs's proof.json does not verify");
    }
}

#[test]
fn fixed_randomness_reproduces_snarkjs_bytes() {
    let host = cpu_host();
    let mut checked = 0;
    for dir in vector_dirs().into_iter().filter(|d| d.join("det/proof.json").exists()) {
        let key = host.load_key(KeySource::path(dir.join("circuit.zkey"))).unwrap();
        let job = host
            .job(&key)
            .partition(Partition::witness_file(dir.join("witness.wtns")))
            .fixed_randomness(&[(Scalar::ZERO, Scalar::ZERO)])
            .submit()
            .unwrap();
        let c = job.completions().next().unwrap();
        c.result.unwrap();
        let snarkjs = Proof::from_snarkjs_json(&read_text(dir.join("det/proof.json"))).unwrap();
        assert_eq!(c.proof.unwrap(), snarkjs, "{}", dir.display());
        checked += 1;
    }
    assert_eq!(checked, 4, "the four det/ folders of tests/groth16/data");
}

#[test]
fn inputs_need_a_witness_generator_that_exists() {
    // KeySource::witness_generator and Partition::input_json reach the host (the end-to-end
    // path, a generator built from circom's output, is tests/witness/circom_witness.sh's):
    // a generator file that does not exist fails the load, and an input partition of a key
    // loaded without one is refused at submit, naming what is missing.
    let host = cpu_host();
    let dir = vector_dirs().into_iter().next().expect("a vector");
    let zkey = dir.join("circuit.zkey");
    let missing = dir.join("no-such.witness.so");
    let err = host.load_key(KeySource::path(&zkey).witness_generator(&missing)).unwrap_err();
    assert_eq!(err.status(), Some(zkpipe::Status::NotFound), "{err}");
    assert!(err.to_string().contains("no-such.witness.so"), "{err}");
    let key = host.load_key(KeySource::path(&zkey)).unwrap();
    let err = host
        .scope(|s| s.job(&key).partition(Partition::input_json(&b"{\"x\": \"3\"}"[..])).submit().map(|_| ()))
        .unwrap_err();
    assert_eq!(err.status(), Some(zkpipe::Status::InvalidArgument), "{err}");
    assert!(err.to_string().contains("has no witness generator"), "{err}");
}
