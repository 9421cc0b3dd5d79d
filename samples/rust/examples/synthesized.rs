//! Caller-synthesized partitions, the way a bellperson caller (a Filecoin prover) submits
//! them: it runs synthesis itself, evaluating each constraint's A, B and C linear
//! combinations over its assignment, and hands zkpipe borrowed views of A·w, B·w, C·w and
//! the assignment (no copies) in one job of several partitions, then collects the proofs
//! in partition order.
//!
//! Here the constraint system is a committed circom circuit's .r1cs and the assignment its
//! witness.wtns. The evaluation is arithmetic modulo the scalar field prime that the .r1cs
//! names, in std-only Rust. The rows are those of a zkey key (snarkjs's layout): the r1cs
//! constraints, then one row per input i (the constant 1 and the public wires) with
//! A = w_i and B = C = 0. Every proof is checked with `Host::verify` and its public inputs
//! against snarkjs's public.json; where the folder has snarkjs's own evaluations
//! (det/*_eval.bin) the rows computed here must equal them.
//!
//! Usage: synthesized [CIRCUIT_DIR] [PARTITIONS]
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use zkpipe::{Host, KeySource, Partition, Proof, PublicInputs, Scalar};

type Failure = Box<dyn std::error::Error>;

/// One partition's synthesized inputs, owned by the caller.
struct Synthesis {
    a: Vec<Scalar>,
    b: Vec<Scalar>,
    c: Vec<Scalar>,
    assignment: Vec<Scalar>,
}

/// The sections of an iden3 binary file (.r1cs, .wtns): magic, version, section count, then
/// (type u32, size u64, bytes) for each. Returns the bytes of section `kind`.
fn section<'a>(file: &'a [u8], magic: &[u8; 4], kind: u32) -> Result<&'a [u8], Failure> {
    if file.get(..4) != Some(magic) {
        return Err(format!("not a {} file", String::from_utf8_lossy(magic)).into());
    }
    let mut at = 12;
    for _ in 0..u32_at(file, 8)? {
        let (k, size) = (u32_at(file, at)?, usize::try_from(u64_at(file, at + 4)?)?);
        let body = file.get(at + 12..at + 12 + size).ok_or("a section runs past the end of the file")?;
        if k == kind {
            return Ok(body);
        }
        at += 12 + size;
    }
    Err(format!("no section {kind}").into())
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, Failure> {
    Ok(u32::from_le_bytes(b.get(at..at + 4).ok_or("truncated")?.try_into()?))
}

fn u64_at(b: &[u8], at: usize) -> Result<u64, Failure> {
    Ok(u64::from_le_bytes(b.get(at..at + 8).ok_or("truncated")?.try_into()?))
}

/// A scalar as four little-endian u64 limbs, and back.
fn limbs(s: &[u8]) -> [u64; 4] {
    std::array::from_fn(|i| u64::from_le_bytes(s[8 * i..8 * i + 8].try_into().expect("8 bytes")))
}

fn scalar(l: &[u64; 4]) -> Scalar {
    let mut s = Scalar([0; 32]);
    for (i, limb) in l.iter().enumerate() {
        s.0[8 * i..8 * i + 8].copy_from_slice(&limb.to_le_bytes());
    }
    s
}

/// Arithmetic modulo the r1cs's prime r (< 2^255: BN254 and BLS12-381), on values below r.
struct Field {
    r: [u64; 4],
    inv: u64,     // -r^-1 mod 2^64, for Montgomery reduction
    r2: [u64; 4], // 2^512 mod r: mont(mont(x, y), r2) = x·y mod r
}

impl Field {
    fn new(r: [u64; 4]) -> Field {
        // Newton's iteration doubles the correct low bits of r0^-1 each step: 1 → 64 in six.
        let mut inv = 1u64;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(r[0].wrapping_mul(inv)));
        }
        let mut f = Field { r, inv: inv.wrapping_neg(), r2: [1, 0, 0, 0] };
        for _ in 0..512 {
            f.r2 = f.add(&f.r2, &f.r2);
        }
        f
    }

    fn below_r(&self, x: &[u64; 4]) -> bool {
        x.iter().rev().cmp(self.r.iter().rev()) == std::cmp::Ordering::Less
    }

    /// x − r mod 2^256, for x ≥ r (or x + 2^256 when an addition carried out).
    fn sub_r(&self, x: &mut [u64; 4]) {
        let mut borrow = false;
        for (xi, ri) in x.iter_mut().zip(self.r) {
            let (d, b1) = xi.overflowing_sub(ri);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            (*xi, borrow) = (d, b1 || b2);
        }
    }

    fn add(&self, x: &[u64; 4], y: &[u64; 4]) -> [u64; 4] {
        let mut out = [0u64; 4];
        let mut carry = false;
        for ((o, xi), yi) in out.iter_mut().zip(x).zip(y) {
            let (s, c1) = xi.overflowing_add(*yi);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            (*o, carry) = (s, c1 || c2);
        }
        if carry || !self.below_r(&out) {
            self.sub_r(&mut out);
        }
        out
    }

    /// x·y·2^-256 mod r (CIOS Montgomery multiplication).
    fn mont(&self, x: &[u64; 4], y: &[u64; 4]) -> [u64; 4] {
        let mut t = [0u64; 6];
        for &yi in y {
            let mut c = 0u128;
            for (tj, xj) in t.iter_mut().zip(x) {
                let v = u128::from(*tj) + u128::from(*xj) * u128::from(yi) + c;
                (*tj, c) = (v as u64, v >> 64);
            }
            let v = u128::from(t[4]) + c;
            (t[4], t[5]) = (v as u64, (v >> 64) as u64);
            let q = t[0].wrapping_mul(self.inv);
            let mut c = (u128::from(t[0]) + u128::from(q) * u128::from(self.r[0])) >> 64;
            for j in 1..4 {
                let v = u128::from(t[j]) + u128::from(q) * u128::from(self.r[j]) + c;
                (t[j - 1], c) = (v as u64, v >> 64);
            }
            let v = u128::from(t[4]) + c;
            (t[3], t[4]) = (v as u64, t[5] + (v >> 64) as u64);
        }
        let mut out = [t[0], t[1], t[2], t[3]];
        if t[4] != 0 || !self.below_r(&out) {
            self.sub_r(&mut out);
        }
        out
    }

    fn mul(&self, x: &[u64; 4], y: &[u64; 4]) -> [u64; 4] {
        self.mont(&self.mont(x, y), &self.r2)
    }
}

/// A linear combination: (wire, coefficient) terms, the coefficient in standard form.
type Lc = Vec<(usize, [u64; 4])>;

/// The circuit of a .r1cs file: its field, how many public wires it has, and its
/// constraints A·w × B·w = C·w, as three linear combinations each.
struct R1cs {
    field: Field,
    n_public: usize,
    constraints: Vec<[Lc; 3]>,
}

fn read_r1cs(file: &[u8]) -> Result<R1cs, Failure> {
    let header = section(file, b"r1cs", 1)?;
    if u32_at(header, 0)? != 32 {
        return Err("only 32-byte scalar fields (BN254, BLS12-381)".into());
    }
    let field = Field::new(limbs(header.get(4..36).ok_or("truncated header")?));
    // After the prime: n_wires, n_pub_out, n_pub_in, n_prv_in (u32), n_labels (u64), m (u32).
    let n_public = (u32_at(header, 40)? + u32_at(header, 44)?) as usize;
    let m = u32_at(header, 60)? as usize;
    let body = section(file, b"r1cs", 2)?;
    let mut at = 0;
    let mut constraints = Vec::with_capacity(m);
    for _ in 0..m {
        let mut lc = || -> Result<Lc, Failure> {
            let n = u32_at(body, at)? as usize;
            at += 4;
            let mut terms = Vec::with_capacity(n);
            for _ in 0..n {
                let coefficient = limbs(body.get(at + 4..at + 36).ok_or("truncated constraint")?);
                terms.push((u32_at(body, at)? as usize, coefficient));
                at += 36;
            }
            Ok(terms)
        };
        constraints.push([lc()?, lc()?, lc()?]);
    }
    Ok(R1cs { field, n_public, constraints })
}

/// The assignment of a snarkjs .wtns file (section 2; its values are 32-byte scalars).
fn read_wtns(file: &[u8]) -> Result<Vec<Scalar>, Failure> {
    Ok(Scalar::vec_from_bytes(section(file, b"wtns", 2)?)?)
}

/// Synthesis as a bellperson caller runs it: A·w, B·w and C·w, one row per constraint, then
/// the input rows of a zkey key.
fn synthesize(r1cs: &R1cs, assignment: &[Scalar]) -> Result<Synthesis, Failure> {
    let w: Vec<[u64; 4]> = assignment.iter().map(|s| limbs(&s.0)).collect();
    let f = &r1cs.field;
    let eval = |lc: &Lc| -> Result<[u64; 4], Failure> {
        lc.iter().try_fold([0u64; 4], |acc, (wire, coefficient)| {
            let value = w.get(*wire).ok_or_else(|| format!("wire {wire} is not in the witness"))?;
            Ok(f.add(&acc, &f.mul(coefficient, value)))
        })
    };
    let rows = r1cs.constraints.len() + r1cs.n_public + 1;
    let (mut a, mut b, mut c) = (Vec::with_capacity(rows), Vec::with_capacity(rows), Vec::with_capacity(rows));
    for [la, lb, lc] in &r1cs.constraints {
        a.push(scalar(&eval(la)?));
        b.push(scalar(&eval(lb)?));
        c.push(scalar(&eval(lc)?));
    }
    for input in assignment.get(..=r1cs.n_public).ok_or("the witness has fewer wires than the public ones")? {
        a.push(*input);
        b.push(Scalar::ZERO);
        c.push(Scalar::ZERO);
    }
    Ok(Synthesis { a, b, c, assignment: assignment.to_vec() })
}

/// Where snarkjs's evaluations are at hand (det/), the rows computed here must be them.
fn check_against_snarkjs(dir: &Path, s: &Synthesis) -> Result<bool, Failure> {
    for (m, rows) in [("a", &s.a), ("b", &s.b), ("c", &s.c)] {
        let Ok(bytes) = std::fs::read(dir.join(format!("det/{m}_eval.bin"))) else { return Ok(false) };
        let snarkjs = Scalar::vec_from_bytes(&bytes)?;
        let (head, tail) = snarkjs.split_at(rows.len().min(snarkjs.len()));
        if head != &rows[..] || tail.iter().any(|x| *x != Scalar::ZERO) {
            return Err(format!("{m}·w differs from snarkjs's det/{m}_eval.bin").into());
        }
    }
    Ok(true)
}

fn run() -> Result<(), Failure> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/groth16/data/chain7_bn128"));
    let partitions: usize = args.next().map_or(Ok(4), |n| n.parse())?;

    let host = Host::builder().set("prover", "cpu").set("log_level", "warn").build()?;
    let key = host.load_key(KeySource::path(dir.join("circuit.zkey")))?;
    let r1cs = read_r1cs(&std::fs::read(dir.join("circuit.r1cs"))?)?;
    let assignment = read_wtns(&std::fs::read(dir.join("witness.wtns"))?)?;
    let inputs: Vec<Synthesis> = (0..partitions).map(|_| synthesize(&r1cs, &assignment)).collect::<Result<_, _>>()?;
    if let Some(first) = inputs.first() {
        if check_against_snarkjs(&dir, first)? {
            println!("A·w, B·w, C·w of {} constraints equal snarkjs's evaluations", r1cs.constraints.len());
        }
    }

    // The scope waits for the job before `inputs` can be dropped: the borrow checker keeps
    // the buffers alive for as long as the host reads them.
    let mut results = host.scope(|s| -> zkpipe::Result<_> {
        let job = s
            .job(&key)
            .partitions(inputs.iter().map(|i| Partition::synthesized(&i.a[..], &i.b[..], &i.c[..], &i.assignment[..])))
            .submit()?;
        let got: Vec<_> = job.completions().collect();
        job.wait()?;
        Ok(got)
    })?;
    results.sort_by_key(|c| c.partition);

    let expected = PublicInputs::from_snarkjs_json(&std::fs::read_to_string(dir.join("public.json"))?)?;
    for c in &results {
        c.result.clone()?;
        let (proof, public): (&Proof, &PublicInputs) = (c.proof.as_ref().ok_or("no proof")?, c.public_inputs.as_ref().ok_or("no public inputs")?);
        if public != &expected || !host.verify(&key, proof, public)? {
            return Err(format!("partition {}: the proof does not verify against public.json", c.partition).into());
        }
        println!("partition {}: {} proof, {:.1} ms on gpu_index {}, verified", c.partition, proof.as_bytes().len(), c.total.as_secs_f64() * 1e3, c.gpu_index.map_or(-1, i64::from));
    }
    if results.len() != partitions {
        return Err(format!("{} proofs for {partitions} partitions", results.len()).into());
    }
    println!("synthesized sample: {partitions} caller-synthesized partitions proved and verified");
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("synthesized sample failed: {e}");
            ExitCode::FAILURE
        }
    }
}
