//! The crate called as bellperson's cuda-supraseal prover calls it (raw pointers into its
//! own vectors, proofs into uninitialised blst memory), on the committed bellperson vectors
//! and the cpu prover: batches of one and three, each proof valid (zkpipe's verifier, the
//! pairing check of `Host::verify`, on the same parameters), byte for byte zkpipe's own
//! proof for the same (r, s), and bellperson's compressed bytes where (r, s) are the
//! vectors'. Needs ZKPIPE_BELLPERSON_VECTORS (CTest sets it); without it each test says it
//! is skipped and passes.
mod common;
use common::*;
use supraseal_c2::{generate_groth16_proofs, Assignment, SRS};

/// (r, s) in Montgomery form (blstrs memory) for circuit i: the vectors' own for circuit 0
/// (so that proof.bellperson applies), others after it.
fn randomness(v: &Vectors, n: usize) -> (Vec<[u64; 4]>, Vec<[u64; 4]>) {
    let pick = |base: [u64; 4], i: usize| if i == 0 { base } else { [7 + 2 * i as u64, 0, 0, 0] };
    ((0..n).map(|i| pick(v.r, i)).collect(), (0..n).map(|i| pick(v.s, i)).collect())
}

fn montgomery(v: &[[u64; 4]]) -> Vec<[u64; 4]> {
    v.iter().map(|x| fr_to_montgomery(*x)).collect()
}

/// Every proof verifies, equals zkpipe's for the same (r, s), and circuit 0's is bellperson's.
fn check(v: &Vectors, reference: &Reference, circuits: &[Circuit], r: &[[u64; 4]], s: &[[u64; 4]], proofs: &[BellpersonProof], how: &str) {
    let expected = reference.proofs(circuits, r, s);
    assert_eq!(proofs.len(), circuits.len(), "{how}");
    for (i, (proof, circuit)) in proofs.iter().zip(circuits).enumerate() {
        let got = proof.to_zkpipe();
        assert!(reference.verifies(&got, circuit), "{how}: proof {i} does not verify");
        assert_eq!(got, expected[i], "{how}: proof {i} is not zkpipe's for the same (r, s)");
        if r[i] == v.r && s[i] == v.s {
            assert_eq!(got.to_bellperson_bytes().unwrap().to_vec(), v.proof_bellperson, "{how}: proof {i} is not proof.bellperson");
        }
    }
}

#[test]
fn batches_of_one_and_three_prove_verify_and_match_zkpipe() {
    use_test_config();
    let Some(v) = vectors("batches_of_one_and_three_prove_verify_and_match_zkpipe") else { return };
    let srs = SRS::try_new(v.params.clone(), false).unwrap();
    let reference = Reference::new(&v);
    for n in [1, 3] {
        // Each circuit owns its vectors, as each ProvingAssignment does.
        let circuits: Vec<Circuit> = (0..n).map(|_| v.circuit.clone()).collect();
        let (r, s) = randomness(&v, n);
        let (r_mont, s_mont) = (montgomery(&r), montgomery(&s));

        let provers: Vec<Assignment<[u64; 4]>> = circuits.iter().map(Circuit::assignment).collect();
        let mut proofs = proof_room(n);
        generate_groth16_proofs(&provers, &r_mont, &s_mont, &mut proofs, &srs);
        check(&v, &reference, &circuits, &r, &s, &proofs, &format!("generate_groth16_proofs, {n} circuits"));

        let mut flat = proof_room(n);
        generate_flat(&circuits, &r_mont, &s_mont, &mut flat, &srs, -1);
        check(&v, &reference, &circuits, &r, &s, &flat, &format!("generate_groth16_proof, {n} circuits"));
        assert_eq!(flat, proofs, "the two entry points agree");
    }
    let stats = reference.srs.host().stats().unwrap();
    assert_eq!(stats.device_count, 1, "the reference ran on the cpu prover");
}

#[test]
fn bellpersons_zero_randomness_proves_and_verifies() {
    use_test_config();
    let Some(v) = vectors("bellpersons_zero_randomness_proves_and_verifies") else { return };
    // bellperson passes zeros when the caller does not randomize.
    let srs = SRS::try_new(v.params.clone(), true).unwrap();
    let circuits = vec![v.circuit.clone(), v.circuit.clone()];
    let zero = vec![[0u64; 4]; 2];
    let provers: Vec<Assignment<[u64; 4]>> = circuits.iter().map(Circuit::assignment).collect();
    let mut proofs = proof_room(2);
    generate_groth16_proofs(&provers, &zero, &zero, &mut proofs, &srs);
    check(&v, &Reference::new(&v), &circuits, &zero, &zero, &proofs, "r = s = 0");
    assert_eq!(proofs[0], proofs[1], "no randomness, the same proof");
}

#[test]
fn a_cached_srs_outlives_its_file_until_evicted() {
    use_test_config();
    let Some(v) = vectors("a_cached_srs_outlives_its_file_until_evicted") else { return };
    let copy = std::env::temp_dir().join(format!("supraseal-c2-cached-{}.params", std::process::id()));
    std::fs::copy(&v.params, &copy).unwrap();
    let first = SRS::try_new(copy.clone(), true).unwrap();
    std::fs::remove_file(&copy).unwrap();
    // supraseal's cache answers by path without opening the file again.
    let again = SRS::try_new(copy.clone(), true).unwrap();
    let e = SRS::try_new(copy.clone(), false).map(drop).unwrap_err();
    assert_eq!(e.code, 2, "{e}");
    first.evict();
    let e = SRS::try_new(copy.clone(), true).map(drop).unwrap_err();
    assert_eq!(e.code, 2, "evicted: the file is read again: {e}");

    // An evicted SRS and its clones still prove.
    let provers = [v.circuit.assignment()];
    let r = [fr_to_montgomery(v.r)];
    let s = [fr_to_montgomery(v.s)];
    let mut proofs = proof_room(1);
    generate_groth16_proofs(&provers, &r, &s, &mut proofs, &again.clone());
    assert_eq!(proofs[0].to_zkpipe().to_bellperson_bytes().unwrap().to_vec(), v.proof_bellperson);
}
