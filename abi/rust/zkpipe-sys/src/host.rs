//! zkp_host.h: the host API callers link against (libzkpipe), its job, completion,
//! summary and statistics records.
use crate::common::*;
use crate::prover::*;
use std::ffi::{c_char, c_void};

/// Opaque: a host, owned by the caller from zkp_host_create to zkp_host_destroy.
#[repr(C)]
pub struct zkp_host_t {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_partition_t {
    pub header: zkp_struct_header_t,
    pub witness: zkp_witness_t,
    pub synthesized: *const zkp_synthesized_t,
}

pub const ZKP_COMPLETION_SIMULATED: u32 = 1;
pub const ZKP_COMPLETION_SELF_CHECKED: u32 = 2;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_completion_t {
    pub header: zkp_struct_header_t,
    pub job_id: u64,
    pub partition: u32,
    pub status: zkp_status_t,
    pub message: *const c_char,
    pub gpu_index: i32,
    pub worker: u32,
    pub gpu_duration_ns: u64,
    pub synthesis_ns: u64,
    pub queue_wait_ns: u64,
    pub total_ns: u64,
    pub curve: zkp_curve_t,
    pub flags: u32,
    pub proof: *const u8,
    pub proof_size: usize,
    pub public_inputs: *const u8,
    pub public_size: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zkp_job_summary_t {
    pub header: zkp_struct_header_t,
    pub job_id: u64,
    pub status: zkp_status_t,
    pub partitions: u32,
    pub succeeded: u32,
    pub failed: u32,
    pub cancelled: u32,
    pub wall_ns: u64,
}

pub type zkp_partition_callback_t = Option<unsafe extern "C" fn(user_data: *mut c_void, record: *const zkp_completion_t)>;
pub type zkp_job_callback_t = Option<unsafe extern "C" fn(user_data: *mut c_void, summary: *const zkp_job_summary_t)>;
pub type zkp_input_callback_t = Option<unsafe extern "C" fn(user_data: *mut c_void, partition: u32)>;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_job_t {
    pub header: zkp_struct_header_t,
    pub key_id: u64,
    pub partitions: *const zkp_partition_t,
    pub partition_count: u32,
    pub gpu_index: i32,
    pub priority: i32,
    pub randomness: *const u8,
    pub on_partition: zkp_partition_callback_t,
    pub on_job: zkp_job_callback_t,
    pub user_data: *mut c_void,
    /// Added after the first release: present when `header.struct_size` covers it.
    pub on_input_released: zkp_input_callback_t,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zkp_host_stats_t {
    pub header: zkp_struct_header_t,
    pub jobs_submitted: u64,
    pub jobs_finished: u64,
    pub partitions_succeeded: u64,
    pub partitions_failed: u64,
    pub pending: u32,
    pub synthesizing: u32,
    pub waiting: u32,
    pub proving: u32,
    pub budget_total_bytes: u64,
    pub budget_used_bytes: u64,
    pub budget_peak_bytes: u64,
    pub device_count: u32,
    pub workers_per_device: u32,
    /// Added after the first release: stalls the admission watchdog reported.
    pub admission_stalls: u64,
    /// Added after admission_stalls: the time between the pipeline's last two admissions.
    pub admission_interval_ns: u64,
    /// Added after admission_interval_ns: device processes restarted (isolation = process).
    pub device_restarts: u64,
    /// Added after device_restarts: devices quarantined now after a device error.
    pub devices_quarantined: u32,
}

pub type zkp_shutdown_mode_t = u32;
pub const ZKP_SHUTDOWN_DRAIN: zkp_shutdown_mode_t = 0;
pub const ZKP_SHUTDOWN_CANCEL: zkp_shutdown_mode_t = 1;

extern "C" {
    pub fn zkp_host_abi_version() -> u32;
    pub fn zkp_host_create(
        config_path: *const c_char,
        overrides: *const *const c_char,
        override_count: usize,
        out: *mut *mut zkp_host_t,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    pub fn zkp_host_load_key(host: *mut zkp_host_t, source: *const zkp_key_source_t, key_id: *mut u64, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_key_info(host: *mut zkp_host_t, key_id: u64, out: *mut zkp_key_info_t, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_submit(host: *mut zkp_host_t, job: *const zkp_job_t, job_id: *mut u64, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_cancel(host: *mut zkp_host_t, job_id: u64, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_wait(host: *mut zkp_host_t, job_id: u64, timeout_ms: i64, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_stats(host: *mut zkp_host_t, out: *mut zkp_host_stats_t, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_device_info(host: *mut zkp_host_t, gpu_index: u32, out: *mut zkp_device_info_t, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_pacer_status(host: *mut zkp_host_t, buf: *mut c_char, capacity: usize, needed: *mut usize, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_shutdown(host: *mut zkp_host_t, mode: zkp_shutdown_mode_t, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_destroy(host: *mut zkp_host_t, mode: zkp_shutdown_mode_t);
    /// Added after the first release: ZKP_OK if the proof verifies, ZKP_ERR_INVALID_PROOF if not.
    pub fn zkp_host_verify(
        host: *mut zkp_host_t,
        key_id: u64,
        proof: *const u8,
        proof_size: usize,
        public_inputs: *const u8,
        public_size: usize,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    /// Added after the first release: drops key `key_id` (ZKP_ERR_INVALID_ARGUMENT while
    /// partitions of it are in flight, ZKP_ERR_NOT_FOUND for an unknown key).
    pub fn zkp_host_unload_key(host: *mut zkp_host_t, key_id: u64, err: *mut zkp_error_t) -> zkp_status_t;
}
