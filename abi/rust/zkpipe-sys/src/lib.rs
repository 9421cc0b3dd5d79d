//! Raw bindings to zkpipe's C ABI, version 1: one module per header of `abi/zkpipe/`,
//! every item named as in C and re-exported here. Written by hand; `tests/layout.rs`
//! compares every struct's size, alignment and field offsets, and every constant, with
//! what the C compiler sees in the headers.
//!
//! The headers are the specification (threads, ownership, lifetimes); this crate adds
//! nothing to them. The safe API is the `zkpipe` crate.
#![allow(non_camel_case_types)]

mod common;
mod host;
mod log;
mod pacer;
mod plugin;
mod prover;

pub use common::*;
pub use host::*;
pub use log::*;
pub use pacer::*;
pub use plugin::*;
pub use prover::*;
