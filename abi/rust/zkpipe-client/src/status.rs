//! The server's state (zkp_client_status_t).
use crate::ffi;
use std::ffi::c_char;
use std::time::Duration;

/// What `zkpipe serve` reports of itself (its Status call; the counters are the host's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerStatus {
    /// The prover plugin's name ("cpu", "cuda", "sim").
    pub prover: String,
    pub version: String,
    pub simulated: bool,
    pub device_count: u32,
    pub keys_loaded: u32,
    pub jobs_open: u32,
    pub jobs_submitted: u64,
    pub jobs_finished: u64,
    pub partitions_succeeded: u64,
    pub partitions_failed: u64,
    pub pending: u32,
    pub synthesizing: u32,
    /// The GPU queue's depth.
    pub waiting: u32,
    pub proving: u32,
    pub budget_total_bytes: u64,
    pub budget_used_bytes: u64,
    pub budget_peak_bytes: u64,
    pub uptime: Duration,
}

impl ServerStatus {
    pub(crate) fn from_raw(s: &ffi::zkp_client_status_t) -> ServerStatus {
        ServerStatus {
            prover: name(&s.prover),
            version: name(&s.version),
            simulated: s.simulated != 0,
            device_count: s.device_count,
            keys_loaded: s.keys_loaded,
            jobs_open: s.jobs_open,
            jobs_submitted: s.jobs_submitted,
            jobs_finished: s.jobs_finished,
            partitions_succeeded: s.partitions_succeeded,
            partitions_failed: s.partitions_failed,
            pending: s.pending,
            synthesizing: s.synthesizing,
            waiting: s.waiting,
            proving: s.proving,
            budget_total_bytes: s.budget_total_bytes,
            budget_used_bytes: s.budget_used_bytes,
            budget_peak_bytes: s.budget_peak_bytes,
            uptime: Duration::from_millis(s.uptime_ms),
        }
    }
}

fn name(field: &[c_char; ffi::ZKP_CLIENT_NAME_CAPACITY]) -> String {
    // NUL-terminated by the library; the slice bounds the read if it were not.
    let bytes: Vec<u8> = field.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
