//! zkpipe from Rust: a host with the simulated prover on two devices, one job pinned to
//! gpu_index 1, and every partition's completion (gpu_index, gpu_duration) received on
//! the Rust side. Exits non-zero if a completion is missing, duplicated or ran elsewhere.
use std::process::ExitCode;
use zkpipe::{Host, KeySource, Partition};

const PARTITIONS: usize = 6;
const PINNED_GPU: u32 = 1;

fn run() -> Result<(), Box<dyn std::error::Error>> {
    println!("zkpipe ABI version {}", Host::abi_version());
    let host = Host::builder()
        .set("prover", "sim")
        .set("pacer", "greedy")
        .set("prover.devices", 2)
        .set("prover.gpu_ms", 20)
        .set("workers_per_device", 2)
        .build()?;
    let key = host.load_key(KeySource::simulated())?;
    let job = host.job(&key).gpu_index(PINNED_GPU).partitions((0..PARTITIONS).map(|_| Partition::simulated())).submit()?;

    let mut seen = [0u32; PARTITIONS];
    for c in job.completions() {
        println!(
            "job {} partition {}: gpu_index {}, gpu_duration {:.1} ms",
            c.job_id,
            c.partition,
            c.gpu_index.map_or(-1, i64::from),
            c.gpu_duration.as_secs_f64() * 1e3
        );
        c.result?;
        if c.gpu_index != Some(PINNED_GPU) || c.gpu_duration.is_zero() {
            return Err(format!("partition {} ran on {:?} for {:?}", c.partition, c.gpu_index, c.gpu_duration).into());
        }
        seen[c.partition as usize] += 1;
    }
    let summary = job.wait()?;
    if seen != [1; PARTITIONS] || summary.succeeded as usize != PARTITIONS {
        return Err(format!("each partition must complete exactly once: {seen:?}, {summary:?}").into());
    }
    println!("rust sample: {PARTITIONS} completions on gpu_index {PINNED_GPU} (simulated device: no proofs)");
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rust sample failed: {e}");
            ExitCode::FAILURE
        }
    }
}
