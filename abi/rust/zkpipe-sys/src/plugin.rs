//! zkp_plugin.h: the one symbol a plugin exports and the version negotiation.
use crate::common::*;
use std::ffi::{c_char, c_void, CStr};

pub const ZKP_ABI_VERSION_MIN_SUPPORTED: u32 = 1;
pub const ZKP_PLUGIN_ENTRY_SYMBOL: &CStr = c"zkp_plugin_entry";

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct zkp_plugin_entry_t {
    pub header: zkp_struct_header_t,
    pub abi_version_min: u32,
    pub abi_version_max: u32,
    pub name: *const c_char,
    pub version: *const c_char,
    pub description: *const c_char,
    pub init: Option<unsafe extern "C" fn(abi_version: u32, err: *mut zkp_error_t) -> zkp_status_t>,
    pub deinit: Option<unsafe extern "C" fn()>,
    pub get_factory: Option<unsafe extern "C" fn(factory_id: *const c_char) -> *const c_void>,
}
