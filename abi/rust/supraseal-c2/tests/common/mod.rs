//! What the integration tests share: the bellperson vectors (ZKPIPE_BELLPERSON_VECTORS, as
//! the zkpipe crate's supraseal test reads them), a caller that holds them the way
//! bellperson's prover does (blstrs Scalars as Montgomery `[u64; 4]`, u64 density words,
//! proofs in an uninitialised Vec of blst affine points), and the test's own Montgomery
//! arithmetic (independent of the crate's) to read those proofs back.
#![allow(dead_code)] // each test file uses part of it
use std::path::{Path, PathBuf};
use std::sync::Once;
use supraseal_c2::Assignment;
use zkpipe::{Curve, Proof, PublicInputs, Scalar};

/// Points the crate at tests/cpu.ini (the cpu prover, two threads) unless the environment
/// names a config. Every test calls it first: the variable is set before any host exists.
pub fn use_test_config() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var_os(supraseal_c2::CONFIG_ENV).is_none() {
            std::env::set_var(supraseal_c2::CONFIG_ENV, cpu_ini());
        }
    });
}

pub fn cpu_ini() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cpu.ini")
}

const R: [u64; 4] = [0xffff_ffff_0000_0001, 0x53bd_a402_fffe_5bfe, 0x3339_d808_09a1_d805, 0x73ed_a753_299d_7d48];
const P: [u64; 6] = [0xb9fe_ffff_ffff_aaab, 0x1eab_fffe_b153_ffff, 0x6730_d2a0_f6b0_f624, 0x6477_4b84_f385_12bf, 0x4b1b_a7b6_434b_acd7, 0x1a01_11ea_397f_e69a];

/// x·2 mod m (`double`) or x/2 mod m, for x < m < 2^(64N−1), m odd; little-endian limbs,
/// u128 carries.
fn step<const N: usize>(x: [u64; N], m: &[u64; N], double: bool) -> [u64; N] {
    let below = |a: &[u64; N]| a.iter().rev().cmp(m.iter().rev()) == std::cmp::Ordering::Less;
    if double {
        let mut out: [u64; N] = std::array::from_fn(|i| (x[i] << 1) | if i > 0 { x[i - 1] >> 63 } else { 0 });
        if !below(&out) {
            let mut borrow = 0i128;
            for i in 0..N {
                let d = out[i] as i128 - m[i] as i128 - borrow;
                out[i] = d as u64;
                borrow = i128::from(d < 0);
            }
        }
        out
    } else {
        let (mut v, mut top) = (x, 0u64);
        if x[0] & 1 == 1 {
            let mut carry = 0u128;
            for i in 0..N {
                let sum = v[i] as u128 + m[i] as u128 + carry;
                v[i] = sum as u64;
                carry = sum >> 64;
            }
            top = carry as u64;
        }
        std::array::from_fn(|i| (v[i] >> 1) | (if i + 1 < N { v[i + 1] } else { top } << 63))
    }
}

pub fn fr_to_montgomery(x: [u64; 4]) -> [u64; 4] {
    (0..256).fold(x, |v, _| step(v, &R, true))
}

pub fn fr_from_montgomery(x: [u64; 4]) -> [u64; 4] {
    (0..256).fold(x, |v, _| step(v, &R, false))
}

pub fn fp_from_montgomery(x: [u64; 6]) -> [u64; 6] {
    (0..384).fold(x, |v, _| step(v, &P, false))
}

pub fn limbs(s: &Scalar) -> [u64; 4] {
    std::array::from_fn(|i| u64::from_le_bytes(s.0[8 * i..8 * i + 8].try_into().unwrap()))
}

pub fn scalar(l: [u64; 4]) -> Scalar {
    let mut b = [0u8; 32];
    for (chunk, v) in b.chunks_exact_mut(8).zip(l) {
        chunk.copy_from_slice(&v.to_le_bytes());
    }
    Scalar(b)
}

/// blst_p1_affine and blst_p2_affine (blstrs G1Affine, G2Affine): Fp as six limbs,
/// Montgomery form; Fp2 as c0, c1.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct G1 {
    pub x: [u64; 6],
    pub y: [u64; 6],
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct G2 {
    pub x: [[u64; 6]; 2],
    pub y: [[u64; 6]; 2],
}

/// bellperson's `Proof<Bls12>`, `#[repr(C)]`: a, b, c.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BellpersonProof {
    pub a: G1,
    pub b: G2,
    pub c: G1,
}

impl BellpersonProof {
    /// As zkpipe encodes proofs: every coordinate standard form, 48 bytes little-endian.
    pub fn to_zkpipe(self) -> Proof {
        let coordinates = [self.a.x, self.a.y, self.b.x[0], self.b.x[1], self.b.y[0], self.b.y[1], self.c.x, self.c.y];
        let bytes: Vec<u8> = coordinates.iter().flat_map(|c| fp_from_montgomery(*c)).flat_map(u64::to_le_bytes).collect();
        Proof::from_bytes(Curve::Bls12_381, &bytes).unwrap()
    }
}

/// `n` proofs' room, uninitialised, as bellperson's prover makes it.
pub fn proof_room(n: usize) -> Vec<BellpersonProof> {
    let mut proofs = Vec::with_capacity(n);
    #[allow(clippy::uninit_vec)] // bellperson's prover does exactly this before calling supraseal
    unsafe {
        proofs.set_len(n)
    };
    proofs
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
}

fn scalars(bytes: &[u8]) -> Vec<[u64; 4]> {
    assert!(bytes.len().is_multiple_of(32));
    bytes.chunks_exact(32).map(|c| std::array::from_fn(|i| u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap()))).collect()
}

fn words(bytes: &[u8]) -> Vec<u64> {
    assert!(bytes.len().is_multiple_of(8));
    bytes.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().unwrap())).collect()
}

/// One synthesized circuit as bellperson's `ProvingAssignment` owns it.
#[derive(Clone)]
pub struct Circuit {
    pub a: Vec<[u64; 4]>,
    pub b: Vec<[u64; 4]>,
    pub c: Vec<[u64; 4]>,
    pub input: Vec<[u64; 4]>,
    pub aux: Vec<[u64; 4]>,
    pub a_aux_density: Vec<u64>,
    pub b_input_density: Vec<u64>,
    pub b_aux_density: Vec<u64>,
}

fn popcount(words: &[u64], bits: usize) -> usize {
    (0..bits).filter(|i| words.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)).count()
}

impl Circuit {
    /// What bellperson's `From<&ProvingAssignment>` fills in: raw pointers into the vectors.
    pub fn assignment(&self) -> Assignment<[u64; 4]> {
        Assignment {
            a_aux_density: self.a_aux_density.as_ptr().cast(),
            a_aux_bit_len: self.aux.len(),
            a_aux_popcount: popcount(&self.a_aux_density, self.aux.len()),
            b_inp_density: self.b_input_density.as_ptr().cast(),
            b_inp_bit_len: self.input.len(),
            b_inp_popcount: popcount(&self.b_input_density, self.input.len()),
            b_aux_density: self.b_aux_density.as_ptr().cast(),
            b_aux_bit_len: self.aux.len(),
            b_aux_popcount: popcount(&self.b_aux_density, self.aux.len()),
            a: self.a.as_ptr(),
            b: self.b.as_ptr(),
            c: self.c.as_ptr(),
            abc_size: self.a.len(),
            inp_assignment_data: self.input.as_ptr(),
            inp_assignment_size: self.input.len(),
            aux_assignment_data: self.aux.as_ptr(),
            aux_assignment_size: self.aux.len(),
        }
    }

    /// The public inputs a verifier takes: the inputs after the constant 1, standard form.
    pub fn public(&self) -> PublicInputs {
        PublicInputs(self.input[1..].iter().map(|v| scalar(fr_from_montgomery(*v))).collect())
    }
}

pub struct Vectors {
    pub params: PathBuf,
    pub circuit: Circuit,
    /// r and s of proof.bellperson, standard form.
    pub r: [u64; 4],
    pub s: [u64; 4],
    pub proof_bellperson: Vec<u8>,
}

/// The vectors of ZKPIPE_BELLPERSON_VECTORS (tests/bellperson_prover/dump_synthesis.cpp
/// writes them; CTest sets the variable); `None`, saying so, without it.
pub fn vectors(test: &str) -> Option<Vectors> {
    let Some(dir) = std::env::var_os("ZKPIPE_BELLPERSON_VECTORS").map(PathBuf::from) else {
        eprintln!("\n*** skipped: ZKPIPE_BELLPERSON_VECTORS not set ({test} proved nothing) ***\n");
        return None;
    };
    let r_s = scalars(&read(&dir, "r_s.bin"));
    assert_eq!(r_s.len(), 2, "r_s.bin is r then s");
    Some(Vectors {
        params: dir.join("circuit.params"),
        circuit: Circuit {
            a: scalars(&read(&dir, "a.bin")),
            b: scalars(&read(&dir, "b.bin")),
            c: scalars(&read(&dir, "c.bin")),
            input: scalars(&read(&dir, "input.bin")),
            aux: scalars(&read(&dir, "aux.bin")),
            a_aux_density: words(&read(&dir, "a_aux_density.bin")),
            b_input_density: words(&read(&dir, "b_input_density.bin")),
            b_aux_density: words(&read(&dir, "b_aux_density.bin")),
        },
        r: r_s[0],
        s: r_s[1],
        proof_bellperson: read(&dir, "proof.bellperson"),
    })
}

/// zkpipe's own proofs for the same inputs and (r, s) (standard form), through the zkpipe
/// crate on a cpu host, with the host and key to verify against.
pub struct Reference {
    pub srs: zkpipe::supraseal::SRS,
}

impl Reference {
    pub fn new(v: &Vectors) -> Reference {
        let host = zkpipe::Host::builder().config(cpu_ini());
        Reference { srs: zkpipe::supraseal::SRS::try_new_with(&v.params, false, host).unwrap() }
    }

    pub fn proofs(&self, circuits: &[Circuit], r: &[[u64; 4]], s: &[[u64; 4]]) -> Vec<Proof> {
        let as_scalars = |v: &[u64; 4]| Scalar::slice_from_bytes(bytes_of(std::slice::from_ref(v))).unwrap()[0];
        let owned: Vec<[Vec<Scalar>; 5]> = circuits
            .iter()
            .map(|c| {
                let conv = |v: &Vec<[u64; 4]>| v.iter().map(as_scalars).collect::<Vec<_>>();
                [conv(&c.a), conv(&c.b), conv(&c.c), conv(&c.input), conv(&c.aux)]
            })
            .collect();
        let assignments: Vec<zkpipe::supraseal::Assignment> = circuits
            .iter()
            .zip(&owned)
            .map(|(c, [a, b, cc, inp, aux])| zkpipe::supraseal::Assignment {
                a_aux_density: &c.a_aux_density,
                a_aux_bit_len: aux.len(),
                a_aux_popcount: popcount(&c.a_aux_density, aux.len()),
                b_inp_density: &c.b_input_density,
                b_inp_bit_len: inp.len(),
                b_inp_popcount: popcount(&c.b_input_density, inp.len()),
                b_aux_density: &c.b_aux_density,
                b_aux_bit_len: aux.len(),
                b_aux_popcount: popcount(&c.b_aux_density, aux.len()),
                a,
                b,
                c: cc,
                abc_size: a.len(),
                inp_assignment_data: inp,
                inp_assignment_size: inp.len(),
                aux_assignment_data: aux,
                aux_assignment_size: aux.len(),
            })
            .collect();
        let (r, s): (Vec<Scalar>, Vec<Scalar>) = (r.iter().map(|v| scalar(*v)).collect(), s.iter().map(|v| scalar(*v)).collect());
        zkpipe::supraseal::generate_groth16_proofs(&assignments, &r, &s, &self.srs).unwrap()
    }

    pub fn verifies(&self, proof: &Proof, circuit: &Circuit) -> bool {
        self.srs.host().verify(self.srs.key(), proof, &circuit.public()).unwrap()
    }
}

fn bytes_of(v: &[[u64; 4]]) -> &[u8] {
    // SAFETY: u64 arrays have no padding; any byte view of them is valid.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

/// The message of a panic `f` raises (None if it returns).
pub fn panic_message(f: impl FnOnce()) -> Option<String> {
    let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).err()?;
    Some(payload.downcast_ref::<String>().cloned().or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default())
}

/// bellperson's flat call (`generate_groth16_proof`) for `circuits` of one shape, in the
/// form of the crate's feature set (Curio's adds gpu_mtx and gpu_index).
pub fn generate_flat(circuits: &[Circuit], r: &[[u64; 4]], s: &[[u64; 4]], proofs: &mut [BellpersonProof], srs: &supraseal_c2::SRS, gpu_index: i32) {
    let first = &circuits[0];
    let ptrs = |f: fn(&Circuit) -> *const [u64; 4]| circuits.iter().map(f).collect::<Vec<_>>();
    let (a, b, c) = (ptrs(|c| c.a.as_ptr()), ptrs(|c| c.b.as_ptr()), ptrs(|c| c.c.as_ptr()));
    let (inp, aux) = (ptrs(|c| c.input.as_ptr()), ptrs(|c| c.aux.as_ptr()));
    let (n_inp, n_aux) = (first.input.len(), first.aux.len());
    #[cfg(not(feature = "cuzk"))]
    {
        assert_eq!(gpu_index, -1, "upstream's form has no gpu_index");
        supraseal_c2::generate_groth16_proof(
            &a,
            &b,
            &c,
            first.a.len(),
            &inp,
            &aux,
            n_inp,
            n_aux,
            &first.a_aux_density,
            &first.b_input_density,
            &first.b_aux_density,
            popcount(&first.a_aux_density, n_aux),
            popcount(&first.b_input_density, n_inp),
            popcount(&first.b_aux_density, n_aux),
            circuits.len(),
            r,
            s,
            proofs,
            srs,
        );
    }
    #[cfg(feature = "cuzk")]
    supraseal_c2::generate_groth16_proof(
        &a,
        &b,
        &c,
        first.a.len(),
        &inp,
        &aux,
        n_inp,
        n_aux,
        &first.a_aux_density,
        &first.b_input_density,
        &first.b_aux_density,
        popcount(&first.a_aux_density, n_aux),
        popcount(&first.b_input_density, n_inp),
        popcount(&first.b_aux_density, n_aux),
        circuits.len(),
        r,
        s,
        proofs,
        srs,
        std::ptr::null_mut(),
        gpu_index,
    );
}
