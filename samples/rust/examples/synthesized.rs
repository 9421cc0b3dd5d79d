//! Caller-synthesized partitions, the way a bellperson caller (a Filecoin prover) submits
//! them: it has run synthesis itself, so for each partition it holds A·w, B·w, C·w on the
//! domain and the full assignment, and hands zkpipe borrowed views of them (no copies)
//! in one job of several partitions, then collects the proofs in partition order.
//!
//! Here "synthesis" reads what snarkjs computed for a committed circuit
//! (tests/groth16/data/<circuit>/det/*_eval.bin and witness.wtns); a bellperson caller
//! evaluates its own constraint system instead. Every proof is checked with the crate's
//! Verifier and its public inputs against snarkjs's public.json.
//!
//! Usage: synthesized [CIRCUIT_DIR] [PARTITIONS]
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use zkpipe::{Host, KeySource, Partition, Proof, PublicInputs, Scalar, Verifier};

/// One partition's synthesized inputs, owned by the caller.
struct Synthesis {
    a: Vec<Scalar>,
    b: Vec<Scalar>,
    c: Vec<Scalar>,
    assignment: Vec<Scalar>,
}

fn synthesize(dir: &Path) -> Result<Synthesis, Box<dyn std::error::Error>> {
    let eval = |m: &str| -> Result<Vec<Scalar>, Box<dyn std::error::Error>> {
        Ok(Scalar::vec_from_bytes(&std::fs::read(dir.join(format!("det/{m}_eval.bin")))?)?)
    };
    Ok(Synthesis { a: eval("a")?, b: eval("b")?, c: eval("c")?, assignment: wtns_assignment(&std::fs::read(dir.join("witness.wtns"))?)? })
}

/// The assignment of a snarkjs .wtns file: section 1 says n8 and n_vars, section 2 holds the values.
fn wtns_assignment(b: &[u8]) -> Result<Vec<Scalar>, Box<dyn std::error::Error>> {
    let u32_at = |i: usize| -> Result<usize, Box<dyn std::error::Error>> { Ok(u32::from_le_bytes(b.get(i..i + 4).ok_or("short .wtns")?.try_into()?) as usize) };
    if b.get(..4) != Some(b"wtns") {
        return Err("not a .wtns file".into());
    }
    let (mut at, mut n_vars) = (12, 0);
    for _ in 0..u32_at(8)? {
        let (kind, size) = (u32_at(at)?, u32_at(at + 4)?); // section sizes here fit in 32 bits
        at += 12;
        match kind {
            1 => n_vars = u32_at(at + 4 + u32_at(at)?)?,
            2 => return Ok(Scalar::vec_from_bytes(b.get(at..at + n_vars * 32).ok_or("short witness section")?)?),
            _ => {}
        }
        at += size;
    }
    Err("no witness section".into())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/groth16/data/chain7_bn128"));
    let partitions: usize = args.next().map_or(Ok(4), |n| n.parse())?;
    let zkey = dir.join("circuit.zkey");

    let host = Host::builder().set("prover", "cpu").set("log_level", "warn").build()?;
    let key = host.load_key(KeySource::path(&zkey))?;
    let inputs: Vec<Synthesis> = (0..partitions).map(|_| synthesize(&dir)).collect::<Result<_, _>>()?;

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

    let verifier = Verifier::new("cpu", KeySource::path(&zkey))?;
    let expected = PublicInputs::from_snarkjs_json(&std::fs::read_to_string(dir.join("public.json"))?)?;
    for c in &results {
        c.result.clone()?;
        let (proof, public): (&Proof, &PublicInputs) = (c.proof.as_ref().ok_or("no proof")?, c.public_inputs.as_ref().ok_or("no public inputs")?);
        if public != &expected || !verifier.verify(proof, public)? {
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
