//! The records a job delivers: one [`Completion`] per partition, one [`Summary`] at the end.
use crate::error::{Error, Result, Status};
use crate::proof::{Proof, PublicInputs};
use crate::scalar::Curve;
use std::ffi::CStr;
use std::time::Duration;
use zkpipe_sys as sys;

/// One finished partition, copied out of the host's record (which is valid only during
/// the callback).
#[derive(Clone, Debug)]
pub struct Completion {
    pub job_id: u64,
    pub partition: u32,
    /// `Err(Error::Host { status, message })` if the partition failed or was cancelled.
    pub result: Result<()>,
    /// The device that ran it; `None` if it never reached one.
    pub gpu_index: Option<u32>,
    /// The worker within that device.
    pub worker: u32,
    /// Device time measured by the worker.
    pub gpu_duration: Duration,
    pub synthesis: Duration,
    pub queue_wait: Duration,
    /// Submit to completion.
    pub total: Duration,
    /// The prover is a simulation: there is no proof.
    pub simulated: bool,
    /// The proof was verified (by the host's self-check or the prover) before delivery.
    pub self_checked: bool,
    pub proof: Option<Proof>,
    /// The key's public signals as this partition computed them: `Some` whenever the partition
    /// succeeded, an empty list for a circuit without public signals (and from the simulated
    /// prover, whose keys have none); `None` if it failed or was cancelled.
    pub public_inputs: Option<PublicInputs>,
}

impl Completion {
    /// Copies a host record.
    ///
    /// # Safety
    /// `r` and the buffers it points to must be valid (they are during the callback).
    pub(crate) unsafe fn from_raw(r: &sys::zkp_completion_t) -> Completion {
        let message = if r.message.is_null() { String::new() } else { CStr::from_ptr(r.message).to_string_lossy().into_owned() };
        let bytes = |p: *const u8, n: usize| if p.is_null() || n == 0 { None } else { Some(std::slice::from_raw_parts(p, n)) };
        let curve = Curve::from_raw(r.curve);
        let proof = match (curve, bytes(r.proof, r.proof_size)) {
            (Some(curve), Some(b)) => Proof::from_bytes(curve, b).ok(),
            _ => None,
        };
        Completion {
            job_id: r.job_id,
            partition: r.partition,
            result: match Status::from_code(r.status) {
                None => Ok(()),
                Some(status) => Err(Error::Host { status, message }),
            },
            gpu_index: u32::try_from(r.gpu_index).ok(),
            worker: r.worker,
            gpu_duration: Duration::from_nanos(r.gpu_duration_ns),
            synthesis: Duration::from_nanos(r.synthesis_ns),
            queue_wait: Duration::from_nanos(r.queue_wait_ns),
            total: Duration::from_nanos(r.total_ns),
            simulated: r.flags & sys::ZKP_COMPLETION_SIMULATED != 0,
            self_checked: r.flags & sys::ZKP_COMPLETION_SELF_CHECKED != 0,
            proof,
            // The host hands out NULL and 0 bytes for no public signals: an empty list, not
            // "none" (a caller's unwrap panicked on such a circuit, issue 39).
            public_inputs: if r.status == sys::ZKP_OK { PublicInputs::from_bytes(bytes(r.public_inputs, r.public_size).unwrap_or(&[])).ok() } else { None },
        }
    }
}

/// A finished job: every partition completed, failed or was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub job_id: u64,
    /// `None` if every partition succeeded, else the first failure's status.
    pub status: Option<Status>,
    pub partitions: u32,
    pub succeeded: u32,
    pub failed: u32,
    pub cancelled: u32,
    /// Submit to the last completion.
    pub wall: Duration,
}

impl Summary {
    pub(crate) fn from_raw(s: &sys::zkp_job_summary_t) -> Summary {
        Summary {
            job_id: s.job_id,
            status: Status::from_code(s.status),
            partitions: s.partitions,
            succeeded: s.succeeded,
            failed: s.failed,
            cancelled: s.cancelled,
            wall: Duration::from_nanos(s.wall_ns),
        }
    }

    /// Every partition succeeded.
    pub fn is_success(&self) -> bool {
        self.status.is_none()
    }
}
