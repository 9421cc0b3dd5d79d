//! abi/zkpipe/zkp_client.h, declared by hand (repr(C), field for field). The library checks every
//! struct_size it is handed, and this crate checks every one it reads back
//! (`crate::checked`), so a layout that drifted fails loudly instead of reading garbage.
#![allow(non_camel_case_types)]
use std::ffi::c_char;
use zkpipe::sys::{zkp_curve_t, zkp_error_t, zkp_key_format_t, zkp_status_t, zkp_struct_header_t};

pub const ZKP_CLIENT_ERR_UNAVAILABLE: zkp_status_t = 512;
pub const ZKP_CLIENT_ERR_UNAUTHENTICATED: zkp_status_t = 513;
pub const ZKP_CLIENT_NAME_CAPACITY: usize = 64;

#[repr(C)]
pub struct zkp_client_t {
    _opaque: [u8; 0],
}

#[repr(C)]
pub struct zkp_client_result_t {
    _opaque: [u8; 0],
}

#[repr(C)]
pub struct zkp_client_options_t {
    pub header: zkp_struct_header_t,
    pub address: *const c_char,
    pub token: *const c_char,
    pub token_file: *const c_char,
    pub tls_ca_file: *const c_char,
    pub tls_server_name: *const c_char,
    pub connect_timeout_ms: u32,
    pub call_timeout_ms: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct zkp_client_key_t {
    pub header: zkp_struct_header_t,
    pub key_id: u64,
    pub format: zkp_key_format_t,
    pub curve: zkp_curve_t,
    pub n_vars: u32,
    pub n_public: u32,
    pub domain_size: u32,
    pub proof_size: u32,
    pub synthesis_bytes: u64,
    pub loaded_unix_ms: u64,
    pub load_ns: u64,
    pub jobs_submitted: u64,
    pub already_loaded: u32,
    pub reserved: u32,
    /// Added after `reserved`: what the key holds on each device it is loaded on.
    pub device_bytes: u64,
}

#[repr(C)]
pub struct zkp_client_job_t {
    pub header: zkp_struct_header_t,
    pub key_id: u64,
    pub witnesses: *const *const u8,
    pub witness_sizes: *const usize,
    pub witness_count: usize,
    pub gpu_index: i32,
    pub priority: i32,
    /// Added after `priority`: ZKP_CLIENT_JOB_*.
    pub flags: u32,
}

pub const ZKP_CLIENT_JOB_INPUTS: u32 = 1;

#[repr(C)]
pub struct zkp_client_partition_t {
    pub header: zkp_struct_header_t,
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
    pub public_inputs_size: usize,
    pub proof_json: *const c_char,
    pub public_json: *const c_char,
}

#[repr(C)]
pub struct zkp_client_status_t {
    pub header: zkp_struct_header_t,
    pub prover: [c_char; ZKP_CLIENT_NAME_CAPACITY],
    pub version: [c_char; ZKP_CLIENT_NAME_CAPACITY],
    pub simulated: u32,
    pub device_count: u32,
    pub keys_loaded: u32,
    pub jobs_open: u32,
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
    pub uptime_ms: u64,
}

/// A zeroed `$t` with its header set to this layout, as ZKP_HEADER_INIT does in C.
macro_rules! new_struct {
    ($t:ty) => {{
        // SAFETY: every struct of this module is plain data (integers, arrays, raw pointers)
        // for which all-zero bytes are a valid value.
        let mut value: $t = unsafe { std::mem::zeroed() };
        value.header = zkpipe::sys::zkp_struct_header_t::of::<$t>();
        value
    }};
}
pub(crate) use new_struct;

extern "C" {
    pub fn zkp_client_connect(options: *const zkp_client_options_t, out: *mut *mut zkp_client_t, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_client_close(client: *mut zkp_client_t);
    pub fn zkp_client_load_key(
        client: *mut zkp_client_t,
        path: *const c_char,
        format: zkp_key_format_t,
        out: *mut zkp_client_key_t,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    pub fn zkp_client_load_key_with_generator(
        client: *mut zkp_client_t,
        path: *const c_char,
        format: zkp_key_format_t,
        witness_generator: *const c_char,
        out: *mut zkp_client_key_t,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    pub fn zkp_client_unload_key(client: *mut zkp_client_t, key_id: u64, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_client_list_keys(
        client: *mut zkp_client_t,
        keys: *mut zkp_client_key_t,
        capacity: usize,
        count: *mut usize,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    pub fn zkp_client_prove(
        client: *mut zkp_client_t,
        job: *const zkp_client_job_t,
        out: *mut *mut zkp_client_result_t,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
    pub fn zkp_client_submit(client: *mut zkp_client_t, job: *const zkp_client_job_t, job_id: *mut u64, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_client_await(client: *mut zkp_client_t, job_id: u64, out: *mut *mut zkp_client_result_t, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_client_cancel(client: *mut zkp_client_t, job_id: u64, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_client_result_job_id(result: *const zkp_client_result_t) -> u64;
    pub fn zkp_client_result_count(result: *const zkp_client_result_t) -> usize;
    pub fn zkp_client_result_partition(result: *const zkp_client_result_t, i: usize) -> *const zkp_client_partition_t;
    pub fn zkp_client_result_free(result: *mut zkp_client_result_t);
    pub fn zkp_client_status(client: *mut zkp_client_t, out: *mut zkp_client_status_t, err: *mut zkp_error_t) -> zkp_status_t;
    pub fn zkp_client_health(client: *mut zkp_client_t, serving: *mut u32, err: *mut zkp_error_t) -> zkp_status_t;
}
