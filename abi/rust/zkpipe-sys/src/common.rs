//! zkp_common.h: status codes, the error record, curves, the struct header, options,
//! log levels and the services the host offers plugins.
use std::ffi::{c_char, c_void};

pub const ZKP_ABI_VERSION: u32 = 1;

pub type zkp_status_t = i32;
pub const ZKP_OK: zkp_status_t = 0;
pub const ZKP_ERR_INVALID_ARGUMENT: zkp_status_t = 1;
pub const ZKP_ERR_NOT_FOUND: zkp_status_t = 2;
pub const ZKP_ERR_ABI_MISMATCH: zkp_status_t = 3;
pub const ZKP_ERR_BAD_INPUT: zkp_status_t = 4;
pub const ZKP_ERR_UNSATISFIED_WITNESS: zkp_status_t = 5;
pub const ZKP_ERR_OUT_OF_MEMORY: zkp_status_t = 6;
pub const ZKP_ERR_DEVICE: zkp_status_t = 7;
pub const ZKP_ERR_BUDGET_EXHAUSTED: zkp_status_t = 8;
pub const ZKP_ERR_CANCELLED: zkp_status_t = 9;
pub const ZKP_ERR_SHORT_BUFFER: zkp_status_t = 10;
pub const ZKP_ERR_UNSUPPORTED: zkp_status_t = 11;
pub const ZKP_ERR_INTERNAL: zkp_status_t = 12;
pub const ZKP_ERR_TIMEOUT: zkp_status_t = 13;
/// Added after the first release: a proof that was checked and does not verify (zkp_host_verify).
pub const ZKP_ERR_INVALID_PROOF: zkp_status_t = 14;
/// Added after ZKP_ERR_INVALID_PROOF: the device is unusable for good in this process (a
/// sticky fault broke its context); with isolation = process the host restarts its process.
pub const ZKP_ERR_DEVICE_LOST: zkp_status_t = 15;
pub const ZKP_STATUS_COUNT: zkp_status_t = 16;

/// zkp_status_name, which C defines `static inline` (so libzkpipe exports no symbol for it).
pub fn zkp_status_name(s: zkp_status_t) -> &'static str {
    match s {
        ZKP_OK => "ok",
        ZKP_ERR_INVALID_ARGUMENT => "invalid argument",
        ZKP_ERR_NOT_FOUND => "not found",
        ZKP_ERR_ABI_MISMATCH => "ABI mismatch",
        ZKP_ERR_BAD_INPUT => "bad input",
        ZKP_ERR_UNSATISFIED_WITNESS => "unsatisfied witness",
        ZKP_ERR_OUT_OF_MEMORY => "out of memory",
        ZKP_ERR_DEVICE => "device error",
        ZKP_ERR_BUDGET_EXHAUSTED => "budget exhausted",
        ZKP_ERR_CANCELLED => "cancelled",
        ZKP_ERR_SHORT_BUFFER => "short buffer",
        ZKP_ERR_UNSUPPORTED => "unsupported",
        ZKP_ERR_INTERNAL => "internal error",
        ZKP_ERR_TIMEOUT => "timeout",
        ZKP_ERR_INVALID_PROOF => "invalid proof",
        ZKP_ERR_DEVICE_LOST => "device lost",
        _ => "unknown status",
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct zkp_struct_header_t {
    pub struct_size: u32,
    pub struct_version: u32,
}

impl zkp_struct_header_t {
    /// ZKP_HEADER_INIT(T): the header of a T at layout version 1.
    pub const fn of<T>() -> Self {
        Self { struct_size: std::mem::size_of::<T>() as u32, struct_version: 1 }
    }
}

pub const ZKP_ERROR_MESSAGE_CAPACITY: usize = 1024;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct zkp_error_t {
    pub header: zkp_struct_header_t,
    pub status: zkp_status_t,
    pub message: [c_char; ZKP_ERROR_MESSAGE_CAPACITY],
}

impl zkp_error_t {
    /// An empty record with its header set, ready to pass as `err`.
    pub const fn new() -> Self {
        Self { header: zkp_struct_header_t::of::<Self>(), status: ZKP_OK, message: [0; ZKP_ERROR_MESSAGE_CAPACITY] }
    }
}

impl Default for zkp_error_t {
    fn default() -> Self {
        Self::new()
    }
}

pub type zkp_curve_t = u32;
pub const ZKP_CURVE_UNKNOWN: zkp_curve_t = 0;
pub const ZKP_CURVE_BN254: zkp_curve_t = 1;
pub const ZKP_CURVE_BLS12_381: zkp_curve_t = 2;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_option_t {
    pub key: *const c_char,
    pub value: *const c_char,
}

pub type zkp_log_level_t = i32;
pub const ZKP_LOG_TRACE: zkp_log_level_t = 0;
pub const ZKP_LOG_DEBUG: zkp_log_level_t = 1;
pub const ZKP_LOG_INFO: zkp_log_level_t = 2;
pub const ZKP_LOG_WARN: zkp_log_level_t = 3;
pub const ZKP_LOG_ERROR: zkp_log_level_t = 4;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_host_services_t {
    pub header: zkp_struct_header_t,
    pub host_data: *mut c_void,
    pub log: Option<unsafe extern "C" fn(host_data: *mut c_void, level: zkp_log_level_t, message: *const c_char)>,
    pub now_ns: Option<unsafe extern "C" fn(host_data: *mut c_void) -> u64>,
}
