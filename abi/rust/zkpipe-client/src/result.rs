//! A job's results (zkp_client_result_t), copied out of the library's record, which is freed here.
use crate::ffi;
use std::ffi::{c_char, CStr};
use std::time::Duration;
use zkpipe::{Curve, Error, Proof, PublicInputs, Result, Status};

/// One finished partition: every field of the host's completion, and the proof.
#[derive(Clone, Debug)]
pub struct PartitionResult {
    pub partition: u32,
    /// `Err(Error::Host { status, message })` if this partition failed or was cancelled.
    pub result: Result<()>,
    /// The device that ran it; `None` if it never reached one.
    pub gpu_index: Option<u32>,
    pub worker: u32,
    /// Device time measured by the server's worker.
    pub gpu_duration: Duration,
    pub synthesis: Duration,
    pub queue_wait: Duration,
    /// Submit to completion, on the server.
    pub total: Duration,
    pub curve: Option<Curve>,
    /// The prover is a simulation: there is no proof.
    pub simulated: bool,
    /// The proof was verified before delivery.
    pub self_checked: bool,
    pub proof: Option<Proof>,
    /// `Some` whenever the partition succeeded, an empty list for a circuit without public
    /// signals; `None` if it failed or was cancelled.
    pub public_inputs: Option<PublicInputs>,
    /// proof.json as snarkjs writes it; "" on failure.
    pub proof_json: String,
    /// public.json as snarkjs writes it; "" on failure.
    pub public_json: String,
}

/// A job's partitions: by partition index from a prove, in completion order from an await.
#[derive(Clone, Debug)]
pub struct JobResult {
    pub job_id: u64,
    pub partitions: Vec<PartitionResult>,
}

impl JobResult {
    /// Every partition succeeded.
    pub fn is_success(&self) -> bool {
        self.partitions.iter().all(|p| p.result.is_ok())
    }

    /// Copies `raw` and frees it.
    ///
    /// # Safety
    /// `raw` is a result zkp_client_prove or zkp_client_await returned, not freed yet.
    pub(crate) unsafe fn take(raw: *mut ffi::zkp_client_result_t) -> Result<JobResult> {
        struct Free(*mut ffi::zkp_client_result_t);
        impl Drop for Free {
            fn drop(&mut self) {
                unsafe { ffi::zkp_client_result_free(self.0) }
            }
        }
        let guard = Free(raw);
        let count = ffi::zkp_client_result_count(guard.0);
        let partitions = (0..count)
            .map(|i| PartitionResult::from_raw(&*ffi::zkp_client_result_partition(guard.0, i)))
            .collect::<Result<Vec<_>>>()?;
        Ok(JobResult { job_id: ffi::zkp_client_result_job_id(guard.0), partitions })
    }
}

impl PartitionResult {
    /// # Safety
    /// `p` and what it points to are valid (they are until its result is freed).
    unsafe fn from_raw(p: &ffi::zkp_client_partition_t) -> Result<PartitionResult> {
        // The library writes its own sizeof; fewer bytes than this crate reads is a drifted layout.
        if (p.header.struct_size as usize) < std::mem::size_of::<ffi::zkp_client_partition_t>() {
            return Err(Error::Decode(format!(
                "zkp_client_partition_t has struct_size {}, this crate reads {}",
                p.header.struct_size,
                std::mem::size_of::<ffi::zkp_client_partition_t>()
            )));
        }
        let bytes = |ptr: *const u8, n: usize| if ptr.is_null() || n == 0 { None } else { Some(std::slice::from_raw_parts(ptr, n)) };
        let curve = Curve::from_raw(p.curve);
        let proof = match (curve, bytes(p.proof, p.proof_size)) {
            (Some(curve), Some(b)) => Some(Proof::from_bytes(curve, b)?),
            _ => None,
        };
        // NULL and 0 bytes for no public signals: an empty list on success (issue 39).
        let public_inputs = if p.status == zkpipe::sys::ZKP_OK {
            Some(PublicInputs::from_bytes(bytes(p.public_inputs, p.public_inputs_size).unwrap_or(&[]))?)
        } else {
            None
        };
        Ok(PartitionResult {
            partition: p.partition,
            result: match Status::from_code(p.status) {
                None => Ok(()),
                Some(status) => Err(Error::Host { status, message: text(p.message) }),
            },
            gpu_index: u32::try_from(p.gpu_index).ok(),
            worker: p.worker,
            gpu_duration: Duration::from_nanos(p.gpu_duration_ns),
            synthesis: Duration::from_nanos(p.synthesis_ns),
            queue_wait: Duration::from_nanos(p.queue_wait_ns),
            total: Duration::from_nanos(p.total_ns),
            curve,
            simulated: p.flags & zkpipe::sys::ZKP_COMPLETION_SIMULATED != 0,
            self_checked: p.flags & zkpipe::sys::ZKP_COMPLETION_SELF_CHECKED != 0,
            proof,
            public_inputs,
            proof_json: text(p.proof_json),
            public_json: text(p.public_json),
        })
    }
}

unsafe fn text(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}
