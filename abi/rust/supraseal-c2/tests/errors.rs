//! Failing as supraseal fails: `SRS::try_new`'s error codes and messages for a missing or
//! truncated parameter file, the panics of lengths that disagree (supraseal's own asserts,
//! so the same messages), and the checks this crate adds where supraseal would read out of
//! bounds or abort (a wrong proof type, a circuit zkpipe refuses, an empty SRS).
mod common;
use common::*;
use std::path::PathBuf;
use supraseal_c2::{generate_groth16_proofs, Assignment, SRS};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("supraseal-c2-errors-{}-{name}", std::process::id()))
}

#[test]
fn a_missing_file_is_enoent_with_supraseals_message() {
    use_test_config();
    for cache in [false, true] {
        let e = SRS::try_new(PathBuf::from("/nonexistent/v28-stacked-proof-of-replication.params"), cache).map(drop).unwrap_err();
        assert_eq!(e.code, 2);
        assert_eq!(e.to_string(), "open(\"/nonexistent/v28-stacked-proof-of-replication.params\") failed: No such file or directory");
        assert_eq!(String::from(e), "open(\"/nonexistent/v28-stacked-proof-of-replication.params\") failed: No such file or directory");
    }
}

#[test]
fn a_truncated_file_is_einval_with_supraseals_message() {
    use_test_config();
    let Some(v) = vectors("a_truncated_file_is_einval_with_supraseals_message") else { return };
    let whole = std::fs::read(&v.params).unwrap();
    for cut in [10, 864, whole.len() / 3, whole.len() - 1] {
        let path = temp("truncated.params");
        std::fs::write(&path, &whole[..cut]).unwrap();
        let e = SRS::try_new(path.clone(), false).map(drop).unwrap_err();
        assert_eq!((e.code, e.to_string()), (22, "SRS file size/layout mismatch".to_string()), "cut at {cut}");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_file_that_is_not_parameters_is_zkpipes_error() {
    use_test_config();
    let Some(v) = vectors("a_file_that_is_not_parameters_is_zkpipes_error") else { return };
    // Sections that fit, points that are not on the curve: supraseal does not look; zkpipe does.
    let mut bytes = std::fs::read(&v.params).unwrap();
    bytes[..96].fill(0x11);
    let path = temp("garbled.params");
    std::fs::write(&path, &bytes).unwrap();
    let e = SRS::try_new(path.clone(), false).map(drop).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(e.code, 22, "{e}");
    assert!(e.to_string().starts_with("zkpipe: "), "{e}");
}

#[test]
#[should_panic] // supraseal unwraps `to_str()`
fn a_path_that_is_not_utf8_panics() {
    use std::os::unix::ffi::OsStrExt;
    let _ = SRS::try_new(PathBuf::from(std::ffi::OsStr::from_bytes(b"/tmp/\xff.params")), false);
}

const LEFT_RIGHT: &str = "assertion `left == right` failed\n  left: ";

#[test]
fn lengths_that_disagree_panic_with_supraseals_asserts() {
    use_test_config();
    let srs = SRS::default();
    let c = Circuit {
        a: vec![[0; 4]; 4],
        b: vec![[0; 4]; 4],
        c: vec![[0; 4]; 4],
        input: vec![[0; 4]; 2],
        aux: vec![[0; 4]; 3],
        a_aux_density: vec![0b101],
        b_input_density: vec![0b01],
        b_aux_density: vec![0b110],
    };
    let one = [[0u64; 4]];
    let two = [[0u64; 4]; 2];
    let provers = [c.assignment()];

    let m = panic_message(|| generate_groth16_proofs(&provers, &two, &one, &mut proof_room(1), &srs)).unwrap();
    assert_eq!(m, format!("{LEFT_RIGHT}2\n right: 1"));
    let m = panic_message(|| generate_groth16_proofs(&provers, &one, &[], &mut proof_room(1), &srs)).unwrap();
    assert_eq!(m, format!("{LEFT_RIGHT}0\n right: 1"));
    let m = panic_message(|| generate_groth16_proofs(&provers, &one, &one, &mut proof_room(3), &srs)).unwrap();
    assert_eq!(m, format!("{LEFT_RIGHT}3\n right: 1"));

    // The flat form: two circuits' randomness for one circuit's pointers.
    let m = panic_message(|| generate_flat(std::slice::from_ref(&c), &two, &two, &mut proof_room(2), &srs, -1)).unwrap();
    assert_eq!(m, format!("{LEFT_RIGHT}2\n right: 1"), "r_s is checked against num_circuits (1)");
    let m = panic_message(|| generate_flat(std::slice::from_ref(&c), &one, &one, &mut proof_room(2), &srs, -1)).unwrap();
    assert_eq!(m, format!("{LEFT_RIGHT}2\n right: 1"), "and the proofs");
    // A density shorter than the aux assignment.
    let mut short = c.clone();
    short.aux = vec![[0; 4]; 65];
    let m = panic_message(|| generate_flat(std::slice::from_ref(&short), &one, &one, &mut proof_room(1), &srs, -1)).unwrap();
    assert_eq!(m, "assertion failed: a_aux_density_bv.len() * bv_element_size >= aux_assignments_size");
}

#[cfg(not(feature = "cuzk"))]
#[test]
fn density_words_that_are_not_64_bits_panic_as_supraseal() {
    let srs = SRS::default();
    let p = [[0u64; 4]];
    let d32 = [0u32; 2];
    let m = panic_message(|| {
        supraseal_c2::generate_groth16_proof(
            &[p.as_ptr()],
            &[p.as_ptr()],
            &[p.as_ptr()],
            1,
            &[p.as_ptr()],
            &[p.as_ptr()],
            1,
            0,
            &d32,
            &d32,
            &d32,
            0,
            0,
            0,
            1,
            &p,
            &p,
            &mut proof_room(1),
            &srs,
        )
    })
    .unwrap();
    assert_eq!(m, "only 64-bit elements in bit vectors are supported");
}

#[test]
fn what_supraseal_cannot_catch_is_refused_with_a_message() {
    use_test_config();
    let empty = SRS::default();
    let none: [Assignment<[u64; 4]>; 0] = [];
    // No circuits: nothing to do, as supraseal.
    generate_groth16_proofs(&none, &[], &[], &mut proof_room(0), &empty);
    empty.evict();
    let _ = empty.clone();

    let Some(v) = vectors("what_supraseal_cannot_catch_is_refused_with_a_message") else { return };
    let srs = SRS::try_new(v.params.clone(), false).unwrap();
    let one = [[0u64; 4]];
    let provers = [v.circuit.assignment()];
    let m = panic_message(|| generate_groth16_proofs(&provers, &one, &one, &mut proof_room(1), &empty)).unwrap();
    assert!(m.contains("the SRS holds no parameters"), "{m}");

    // A proof type that is not 384 bytes: refused before anything is proved.
    let mut small = vec![[0u64; 47]; 1];
    let m = panic_message(|| generate_groth16_proofs(&provers, &one, &one, &mut small, &srs)).unwrap();
    assert!(m.contains("a proof is 376 bytes"), "{m}");
    // A scalar type that is not 32 bytes.
    let wide = [[0u64; 5]];
    let bad: Assignment<[u64; 5]> = Assignment {
        a: wide.as_ptr(),
        b: wide.as_ptr(),
        c: wide.as_ptr(),
        inp_assignment_data: wide.as_ptr(),
        aux_assignment_data: wide.as_ptr(),
        ..cast(&provers[0])
    };
    let m = panic_message(|| generate_groth16_proofs(&[bad], &wide, &wide, &mut proof_room(1), &srs)).unwrap();
    assert!(m.contains("a scalar is 40 bytes"), "{m}");

    // Bit lengths that are not the assignment sizes (supraseal's C++ asserts them): zkpipe's
    // check names the circuit and the field.
    let circuits = [v.circuit.clone(), v.circuit.clone()];
    let mut provers: Vec<Assignment<[u64; 4]>> = circuits.iter().map(Circuit::assignment).collect();
    provers[1].b_inp_bit_len -= 1;
    let m = panic_message(|| generate_groth16_proofs(&provers, &[[0; 4]; 2], &[[0; 4]; 2], &mut proof_room(2), &srs)).unwrap();
    assert!(m.contains("circuit 1: b_inp_bit_len"), "{m}");
    // A null pointer with scalars behind it.
    provers[1].b_inp_bit_len += 1;
    provers[0].c = std::ptr::null();
    let m = panic_message(|| generate_groth16_proofs(&provers, &[[0; 4]; 2], &[[0; 4]; 2], &mut proof_room(2), &srs)).unwrap();
    assert!(m.contains("circuit 0: c is null"), "{m}");
}

/// The same assignment over another scalar type (only the density fields are kept).
fn cast<S>(p: &Assignment<[u64; 4]>) -> Assignment<S> {
    Assignment {
        a_aux_density: p.a_aux_density,
        a_aux_bit_len: p.a_aux_bit_len,
        a_aux_popcount: p.a_aux_popcount,
        b_inp_density: p.b_inp_density,
        b_inp_bit_len: p.b_inp_bit_len,
        b_inp_popcount: p.b_inp_popcount,
        b_aux_density: p.b_aux_density,
        b_aux_bit_len: p.b_aux_bit_len,
        b_aux_popcount: p.b_aux_popcount,
        a: std::ptr::null(),
        b: std::ptr::null(),
        c: std::ptr::null(),
        abc_size: 0,
        inp_assignment_data: std::ptr::null(),
        inp_assignment_size: 0,
        aux_assignment_data: std::ptr::null(),
        aux_assignment_size: 0,
    }
}
