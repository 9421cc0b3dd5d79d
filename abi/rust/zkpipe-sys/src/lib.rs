//! Raw bindings to zkpipe's C ABI, version 1: one module per header that `abi/zkpipe/zkpipe.h`
//! includes, every item named as in C and re-exported here (the client's header beside them,
//! `zkp_client.h`, is bound by the `zkpipe-client` crate; `zkp_queue.h` has no Rust binding). Written by hand; `tests/layout.rs`
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
mod witness;

pub use common::*;
pub use host::*;
pub use log::*;
pub use pacer::*;
pub use plugin::*;
pub use prover::*;
pub use witness::*;
