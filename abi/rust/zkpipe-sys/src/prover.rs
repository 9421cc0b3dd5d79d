//! zkp_prover.h: the prover backend table (factory id "zkp.prover/1") and the records
//! it shares with the host API: devices, key sources, keys, witnesses, synthesized inputs.
use crate::common::*;
use std::ffi::{c_char, c_void, CStr};

pub const ZKP_PROVER_FACTORY_ID: &CStr = c"zkp.prover/1";

pub const ZKP_SCALAR_SIZE: u32 = 32;
pub const ZKP_PROOF_SIZE_BN254: u32 = 256;
pub const ZKP_PROOF_SIZE_BLS12_381: u32 = 384;

/// Opaque, owned by the prover.
#[repr(C)]
pub struct zkp_key_t {
    _private: [u8; 0],
}
/// Opaque, owned by the prover.
#[repr(C)]
pub struct zkp_synthesis_t {
    _private: [u8; 0],
}
/// Opaque, owned by the prover.
#[repr(C)]
pub struct zkp_prove_op_t {
    _private: [u8; 0],
}

pub const ZKP_PROVER_FLAG_SIMULATED: u32 = 1;
pub const ZKP_PROVER_FLAG_GPU: u32 = 2;
pub const ZKP_PROVER_FLAG_VERIFY: u32 = 4;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_device_info_t {
    pub header: zkp_struct_header_t,
    pub name: [c_char; 128],
    pub memory_bytes: u64,
    pub memory_free_bytes: u64,
    pub partitions_started: u64,
    pub partitions_proved: u64,
    pub busy_ns: u64,
}

pub type zkp_key_format_t = u32;
pub const ZKP_KEY_FORMAT_ZKEY: zkp_key_format_t = 0;
pub const ZKP_KEY_FORMAT_BELLPERSON: zkp_key_format_t = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_key_source_t {
    pub header: zkp_struct_header_t,
    pub path: *const c_char,
    pub data: *const c_void,
    pub size: usize,
    /// Added after the first release: ZKP_KEY_FORMAT_*.
    pub format: zkp_key_format_t,
    /// Added after `format`: the host's witness generator plugin for the key's circuit, or NULL.
    pub witness_generator: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zkp_key_info_t {
    pub header: zkp_struct_header_t,
    pub curve: zkp_curve_t,
    pub n_vars: u32,
    pub n_public: u32,
    pub domain_size: u32,
    pub synthesis_bytes: u64,
    pub proof_size: u32,
    pub public_size: u32,
    /// Added after the first release: bytes `synthesize_into` needs for this key (0: it cannot).
    pub synthesized_bytes: u64,
    /// Added after `synthesized_bytes`: device memory the key holds on each device it is on.
    pub device_bytes: u64,
}

pub type zkp_witness_kind_t = u32;
pub const ZKP_WITNESS_NONE: zkp_witness_kind_t = 0;
pub const ZKP_WITNESS_WTNS_FILE: zkp_witness_kind_t = 1;
pub const ZKP_WITNESS_WTNS_BUFFER: zkp_witness_kind_t = 2;
pub const ZKP_WITNESS_ASSIGNMENT: zkp_witness_kind_t = 3;
pub const ZKP_WITNESS_INPUT_JSON: zkp_witness_kind_t = 4;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_witness_t {
    pub header: zkp_struct_header_t,
    pub kind: zkp_witness_kind_t,
    pub path: *const c_char,
    pub data: *const c_void,
    pub size: usize,
}

pub const ZKP_SYNTHESIZED_MONTGOMERY: u32 = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_synthesized_t {
    pub header: zkp_struct_header_t,
    pub a: *const u8,
    pub b: *const u8,
    pub c: *const u8,
    pub abc_length: u64,
    pub assignment: *const u8,
    pub assignment_length: u64,
    /// Added after the first release (present when header.struct_size covers them).
    pub flags: u32,
    pub aux_assignment: *const u8,
    pub aux_assignment_length: u64,
    pub a_aux_density: *const u64,
    pub a_aux_bit_len: u64,
    pub b_input_density: *const u64,
    pub b_input_bit_len: u64,
    pub b_aux_density: *const u64,
    pub b_aux_bit_len: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_prove_input_t {
    pub header: zkp_struct_header_t,
    pub synthesis: *const zkp_synthesis_t,
    pub external: *const zkp_synthesized_t,
    pub randomness: *const u8,
    /// Added after the first release (`ZKP_PROVE_INPUT_*`); 0 for an older host's struct.
    pub flags: u32,
}

pub const ZKP_PROVE_INPUT_FINAL: u32 = 1;

pub const ZKP_PROVE_OUTPUT_VERIFIED: u32 = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_prove_output_t {
    pub header: zkp_struct_header_t,
    pub proof: *mut u8,
    pub proof_capacity: usize,
    pub proof_size: usize,
    pub public_inputs: *mut u8,
    pub public_capacity: usize,
    pub public_size: usize,
    pub gpu_index: i32,
    pub gpu_duration_ns: u64,
    pub epilogue_ns: u64,
    pub msm_ns: u64,
    pub ntt_ns: u64,
    pub flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_prover_t {
    pub header: zkp_struct_header_t,
    pub impl_: *mut c_void,
    pub name: *const c_char,
    pub flags: u32,
    pub destroy: Option<unsafe extern "C" fn(self_: *mut zkp_prover_t)>,
    pub device_count: Option<unsafe extern "C" fn(self_: *const zkp_prover_t) -> u32>,
    pub device_info: Option<
        unsafe extern "C" fn(self_: *const zkp_prover_t, gpu_index: u32, out: *mut zkp_device_info_t, err: *mut zkp_error_t) -> zkp_status_t,
    >,
    pub key_load: Option<
        unsafe extern "C" fn(
            self_: *mut zkp_prover_t,
            source: *const zkp_key_source_t,
            gpu_index: i32,
            out: *mut *mut zkp_key_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
    pub key_info: Option<
        unsafe extern "C" fn(self_: *const zkp_prover_t, key: *const zkp_key_t, out: *mut zkp_key_info_t, err: *mut zkp_error_t) -> zkp_status_t,
    >,
    pub key_free: Option<unsafe extern "C" fn(self_: *mut zkp_prover_t, key: *mut zkp_key_t)>,
    pub synthesize: Option<
        unsafe extern "C" fn(
            self_: *mut zkp_prover_t,
            key: *const zkp_key_t,
            witness: *const zkp_witness_t,
            out: *mut *mut zkp_synthesis_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
    pub synthesis_free: Option<unsafe extern "C" fn(self_: *mut zkp_prover_t, synthesis: *mut zkp_synthesis_t)>,
    pub prove_start: Option<
        unsafe extern "C" fn(
            self_: *mut zkp_prover_t,
            key: *const zkp_key_t,
            input: *const zkp_prove_input_t,
            gpu_index: i32,
            worker: u32,
            op: *mut *mut zkp_prove_op_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
    pub prove_finish: Option<
        unsafe extern "C" fn(self_: *mut zkp_prover_t, op: *mut zkp_prove_op_t, out: *mut zkp_prove_output_t, err: *mut zkp_error_t) -> zkp_status_t,
    >,
    pub verify: Option<
        unsafe extern "C" fn(
            self_: *const zkp_prover_t,
            key: *const zkp_key_t,
            proof: *const u8,
            proof_size: usize,
            public_inputs: *const u8,
            public_size: usize,
            valid: *mut i32,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
    /// Added after the first release: present when `header.struct_size` covers it.
    pub synthesize_into: Option<
        unsafe extern "C" fn(
            self_: *mut zkp_prover_t,
            key: *const zkp_key_t,
            witness: *const zkp_witness_t,
            buffer: *mut u8,
            buffer_size: usize,
            out: *mut zkp_synthesized_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
    /// Added after `synthesize_into`: present when `header.struct_size` covers it.
    pub prove_wait: Option<unsafe extern "C" fn(self_: *mut zkp_prover_t, op: *mut zkp_prove_op_t, err: *mut zkp_error_t) -> zkp_status_t>,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct zkp_prover_facts_t {
    pub header: zkp_struct_header_t,
    pub workers_per_device: u32,
    pub synthesis_threads: u32,
    pub ops_per_worker: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_prover_factory_t {
    pub header: zkp_struct_header_t,
    pub options_help: *const c_char,
    pub create: Option<
        unsafe extern "C" fn(
            host: *const zkp_host_services_t,
            options: *const zkp_option_t,
            option_count: usize,
            out: *mut *mut zkp_prover_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
    pub create_with_facts: Option<
        unsafe extern "C" fn(
            host: *const zkp_host_services_t,
            facts: *const zkp_prover_facts_t,
            options: *const zkp_option_t,
            option_count: usize,
            out: *mut *mut zkp_prover_t,
            err: *mut zkp_error_t,
        ) -> zkp_status_t,
    >,
}
