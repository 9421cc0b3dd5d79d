//! Hand-written bindings for the parts of abi/zkpipe/zkp_host.h this sample uses.
//! Layouts mirror the C structs field for field (#[repr(C)]); every struct starts with
//! its {struct_size, struct_version} header.
#![allow(non_camel_case_types, dead_code)]

use std::os::raw::{c_char, c_void};

pub type zkp_status_t = i32;
pub const ZKP_OK: zkp_status_t = 0;
pub const ZKP_WITNESS_NONE: u32 = 0;
pub const ZKP_SHUTDOWN_DRAIN: u32 = 0;
pub const ZKP_COMPLETION_SIMULATED: u32 = 1;
pub const ZKP_ERROR_MESSAGE_CAPACITY: usize = 1024;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct zkp_struct_header_t {
    pub struct_size: u32,
    pub struct_version: u32,
}

impl zkp_struct_header_t {
    pub fn of<T>() -> Self {
        Self { struct_size: std::mem::size_of::<T>() as u32, struct_version: 1 }
    }
}

#[repr(C)]
pub struct zkp_error_t {
    pub header: zkp_struct_header_t,
    pub status: zkp_status_t,
    pub message: [c_char; ZKP_ERROR_MESSAGE_CAPACITY],
}

#[repr(C)]
pub struct zkp_key_source_t {
    pub header: zkp_struct_header_t,
    pub path: *const c_char,
    pub data: *const c_void,
    pub size: usize,
}

#[repr(C)]
pub struct zkp_witness_t {
    pub header: zkp_struct_header_t,
    pub kind: u32,
    pub path: *const c_char,
    pub data: *const c_void,
    pub size: usize,
}

#[repr(C)]
pub struct zkp_partition_t {
    pub header: zkp_struct_header_t,
    pub witness: zkp_witness_t,
    pub synthesized: *const c_void,
}

#[repr(C)]
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
    pub curve: u32,
    pub flags: u32,
    pub proof: *const u8,
    pub proof_size: usize,
    pub public_inputs: *const u8,
    pub public_size: usize,
}

#[repr(C)]
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

pub type zkp_partition_callback_t = Option<unsafe extern "C" fn(*mut c_void, *const zkp_completion_t)>;
pub type zkp_job_callback_t = Option<unsafe extern "C" fn(*mut c_void, *const zkp_job_summary_t)>;

#[repr(C)]
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
}

#[repr(C)]
pub struct zkp_host_t {
    _private: [u8; 0],
}

extern "C" {
    pub fn zkp_host_abi_version() -> u32;
    pub fn zkp_host_create(
        config_path: *const c_char,
        overrides: *const *const c_char,
        override_count: usize,
        out: *mut *mut zkp_host_t,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    pub fn zkp_host_load_key(
        host: *mut zkp_host_t,
        source: *const zkp_key_source_t,
        key_id: *mut u64,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    pub fn zkp_host_submit(
        host: *mut zkp_host_t,
        job: *const zkp_job_t,
        job_id: *mut u64,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    pub fn zkp_host_wait(host: *mut zkp_host_t, job_id: u64, timeout_ms: i64, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_host_destroy(host: *mut zkp_host_t, mode: u32);
}
