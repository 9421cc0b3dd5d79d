//! zkp_pacer.h: the pacing strategy table (factory id "zkp.pacer/1") and its records.
use crate::common::*;
use std::ffi::{c_char, c_void, CStr};

pub const ZKP_PACER_FACTORY_ID: &CStr = c"zkp.pacer/1";
pub const ZKP_PACER_WAIT_FOR_EVENT: u64 = u64::MAX;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zkp_pacer_facts_t {
    pub header: zkp_struct_header_t,
    pub device_count: u32,
    pub workers_per_device: u32,
    pub synthesis_threads: u32,
    pub budget_bytes: u64,
    pub start_ns: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zkp_pipeline_state_t {
    pub header: zkp_struct_header_t,
    pub now_ns: u64,
    pub pending: u32,
    pub synthesizing: u32,
    pub waiting: u32,
    pub proving: u32,
    pub budget_used_bytes: u64,
    pub budget_total_bytes: u64,
    pub next_partition_bytes: u64,
}

pub type zkp_pacer_event_kind_t = u32;
pub const ZKP_PACER_EVENT_ADMITTED: zkp_pacer_event_kind_t = 1;
pub const ZKP_PACER_EVENT_SYNTHESIS_DONE: zkp_pacer_event_kind_t = 2;
pub const ZKP_PACER_EVENT_GPU_START: zkp_pacer_event_kind_t = 3;
pub const ZKP_PACER_EVENT_GPU_DONE: zkp_pacer_event_kind_t = 4;
pub const ZKP_PACER_EVENT_FAILED: zkp_pacer_event_kind_t = 5;
pub const ZKP_PACER_EVENT_REQUEUED: zkp_pacer_event_kind_t = 6;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zkp_pacer_event_t {
    pub header: zkp_struct_header_t,
    pub kind: zkp_pacer_event_kind_t,
    pub job_id: u64,
    pub partition: u32,
    pub gpu_index: i32,
    pub worker: u32,
    pub gpu_duration_ns: u64,
    pub synthesis_ns: u64,
    pub bytes: u64,
    pub state: zkp_pipeline_state_t,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_pacer_t {
    pub header: zkp_struct_header_t,
    pub impl_: *mut c_void,
    pub name: *const c_char,
    pub destroy: Option<unsafe extern "C" fn(self_: *mut zkp_pacer_t)>,
    pub on_event: Option<unsafe extern "C" fn(self_: *mut zkp_pacer_t, event: *const zkp_pacer_event_t)>,
    pub next_admission_ns: Option<unsafe extern "C" fn(self_: *mut zkp_pacer_t, state: *const zkp_pipeline_state_t) -> u64>,
    pub status_line: Option<unsafe extern "C" fn(self_: *mut zkp_pacer_t, buf: *mut c_char, capacity: usize) -> usize>,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_pacer_factory_t {
    pub header: zkp_struct_header_t,
    pub options_help: *const c_char,
    pub create: Option<
        unsafe extern "C" fn(
            host: *const zkp_host_services_t,
            facts: *const zkp_pacer_facts_t,
            options: *const zkp_option_t,
            option_count: usize,
            out: *mut *mut zkp_pacer_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
}
