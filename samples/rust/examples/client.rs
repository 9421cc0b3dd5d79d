//! A client of `zkpipe serve` from Rust (the zkpipe-client crate): load a key on the server,
//! prove a witness there, check what came back, and write proof.json and public.json. It
//! starts no server: tests/client/with_serve.sh does, and passes where it listens
//! (ZKPIPE_CLIENT_SOCKET, ZKPIPE_CLIENT_TCP and ZKPIPE_CLIENT_TOKEN_FILE), the vector to
//! prove (ZKPIPE_CLIENT_KEY, ZKPIPE_CLIENT_WITNESS) and the folder for the proof
//! (ZKPIPE_CLIENT_OUT), which it then checks with `zkpipe verify`.
use std::process::ExitCode;
use zkpipe::{KeyFormat, Proof, PublicInputs};
use zkpipe_client::{Client, UNAUTHENTICATED};

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("{name} is not set (tests/client/with_serve.sh sets it)"))
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // The unix socket needs no token: its file mode is the access control.
    let client = Client::builder().address(env("ZKPIPE_CLIENT_SOCKET")?).connect()?;
    println!("serving: {}", client.health()?);

    let key = client.load_key(env("ZKPIPE_CLIENT_KEY")?, KeyFormat::Zkey)?;
    println!("key {}: {:?}, {} variables, {} public", key.key_id, key.curve, key.n_vars, key.n_public);

    let witness = std::fs::read(env("ZKPIPE_CLIENT_WITNESS")?)?;
    let job = client.prove(key.key_id, &[&witness])?;
    let p = job.partitions.first().ok_or("the job has no partition")?;
    p.result.clone()?;
    println!(
        "job {} partition {}: gpu_index {:?}, gpu_duration {:.1} ms, total {:.1} ms",
        job.job_id,
        p.partition,
        p.gpu_index,
        p.gpu_duration.as_secs_f64() * 1e3,
        p.total.as_secs_f64() * 1e3
    );
    // The proof bytes say what the server's snarkjs JSON says.
    let proof = p.proof.as_ref().ok_or("no proof bytes")?;
    let public = p.public_inputs.as_ref().ok_or("no public inputs")?;
    if &Proof::from_snarkjs_json(&p.proof_json)? != proof || &PublicInputs::from_snarkjs_json(&p.public_json)? != public {
        return Err("the proof bytes and the server's snarkjs JSON disagree".into());
    }
    let out = std::path::PathBuf::from(env("ZKPIPE_CLIENT_OUT")?);
    std::fs::write(out.join("proof.json"), &p.proof_json)?;
    std::fs::write(out.join("public.json"), &p.public_json)?;

    // TCP: every call carries the bearer token, or the server refuses it.
    let tcp = env("ZKPIPE_CLIENT_TCP")?;
    let anonymous = Client::builder().address(&tcp).connect()?;
    match anonymous.health() {
        Err(e) if e.status() == Some(UNAUTHENTICATED) => println!("TCP without the token: refused ({e})"),
        other => return Err(format!("TCP without the token: {other:?}, expected unauthenticated").into()),
    }
    let authorized = Client::builder().address(&tcp).token_file(env("ZKPIPE_CLIENT_TOKEN_FILE")?).connect()?;
    let status = authorized.status()?;
    println!("over TCP with the token: prover {}, {} keys, {} partitions proved", status.prover, status.keys_loaded, status.partitions_succeeded);
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("client: {e}");
            ExitCode::FAILURE
        }
    }
}
