//! A key the server holds (zkp_client_key_t).
use crate::ffi;
use std::time::Duration;
use zkpipe::{Curve, KeyFormat};

/// A key loaded on the server; `key_id` names it in every later call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteKey {
    pub key_id: u64,
    pub format: KeyFormat,
    pub curve: Option<Curve>,
    pub n_vars: u32,
    pub n_public: u32,
    pub domain_size: u32,
    pub proof_size: u32,
    pub synthesis_bytes: u64,
    /// Device memory the key holds on each device it is loaded on (0 without devices).
    pub device_bytes: u64,
    /// When the server loaded it, in milliseconds since the Unix epoch.
    pub loaded_unix_ms: u64,
    /// How long the server's load took.
    pub load_time: Duration,
    pub jobs_submitted: u64,
    /// From [`Client::load_key`](crate::Client::load_key): the key was loaded already (warm).
    pub already_loaded: bool,
}

impl RemoteKey {
    pub(crate) fn from_raw(k: &ffi::zkp_client_key_t) -> RemoteKey {
        RemoteKey {
            key_id: k.key_id,
            format: if k.format == zkpipe::sys::ZKP_KEY_FORMAT_BELLPERSON { KeyFormat::Bellperson } else { KeyFormat::Zkey },
            curve: Curve::from_raw(k.curve),
            n_vars: k.n_vars,
            n_public: k.n_public,
            domain_size: k.domain_size,
            proof_size: k.proof_size,
            synthesis_bytes: k.synthesis_bytes,
            device_bytes: k.device_bytes,
            loaded_unix_ms: k.loaded_unix_ms,
            load_time: Duration::from_nanos(k.load_ns),
            jobs_submitted: k.jobs_submitted,
            already_loaded: k.already_loaded != 0,
        }
    }
}
