//! zkp_witness.h: the witness generator table (factory id "zkp.witness/1") and its record.
use crate::common::*;
use std::ffi::{c_char, c_void, CStr};

pub const ZKP_WITNESS_FACTORY_ID: &CStr = c"zkp.witness/1";

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_witness_circuit_t {
    pub header: zkp_struct_header_t,
    pub curve: zkp_curve_t,
    pub n_signals: u32,
    pub n_outputs: u32,
    pub n_inputs: u32,
    pub name: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_witness_generator_t {
    pub header: zkp_struct_header_t,
    pub impl_: *mut c_void,
    pub name: *const c_char,
    pub destroy: Option<unsafe extern "C" fn(self_: *mut zkp_witness_generator_t)>,
    pub circuit: Option<
        unsafe extern "C" fn(
            self_: *mut zkp_witness_generator_t,
            out: *mut zkp_witness_circuit_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
    pub calculate: Option<
        unsafe extern "C" fn(
            self_: *mut zkp_witness_generator_t,
            input: *const c_char,
            input_size: usize,
            out: *mut u8,
            capacity: usize,
            size: *mut usize,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_witness_factory_t {
    pub header: zkp_struct_header_t,
    pub options_help: *const c_char,
    pub create: Option<
        unsafe extern "C" fn(
            host: *const zkp_host_services_t,
            options: *const zkp_option_t,
            option_count: usize,
            out: *mut *mut zkp_witness_generator_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
}
