//! zkp_host.h's log sink: the process's log lines, delivered to the caller's logger.
use crate::common::*;
use std::ffi::{c_char, c_void};

/// One log line; its pointers are owned by the host, valid during the callback.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct zkp_log_record_t {
    pub header: zkp_struct_header_t,
    pub level: zkp_log_level_t,
    pub logger: *const c_char,
    pub message: *const c_char,
    pub message_size: usize,
    pub unix_time_ns: u64,
}

pub type zkp_log_callback_t = Option<unsafe extern "C" fn(user_data: *mut c_void, record: *const zkp_log_record_t)>;

extern "C" {
    /// Added after the first release: routes the process's log lines to `callback` (NULL: stderr).
    pub fn zkp_host_set_log_sink(
        callback: zkp_log_callback_t,
        user_data: *mut c_void,
        min_level: zkp_log_level_t,
        err: *mut zkp_error_t,
    ) -> zkp_status_t;
}
