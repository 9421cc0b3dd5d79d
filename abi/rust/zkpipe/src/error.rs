//! The error type: the host's status as an enum, with the message it wrote.
use std::ffi::CStr;
use std::fmt;
use zkpipe_sys as sys;

/// A failure class of the C API (`zkp_status_t`, zkp_common.h). Codes are only ever
/// appended there, so one this crate does not know yet arrives as `Unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    InvalidArgument,
    NotFound,
    AbiMismatch,
    BadInput,
    UnsatisfiedWitness,
    OutOfMemory,
    Device,
    BudgetExhausted,
    Cancelled,
    ShortBuffer,
    Unsupported,
    Internal,
    Timeout,
    /// A proof that was checked and does not verify ([`Host::verify`](crate::Host::verify)
    /// reports it as `Ok(false)`).
    InvalidProof,
    /// The device is unusable for good in the process that proved on it (a sticky fault).
    DeviceLost,
    Unknown(i32),
}

impl Status {
    /// The status of a C code; `None` for `ZKP_OK`.
    pub fn from_code(code: sys::zkp_status_t) -> Option<Status> {
        Some(match code {
            sys::ZKP_OK => return None,
            sys::ZKP_ERR_INVALID_ARGUMENT => Status::InvalidArgument,
            sys::ZKP_ERR_NOT_FOUND => Status::NotFound,
            sys::ZKP_ERR_ABI_MISMATCH => Status::AbiMismatch,
            sys::ZKP_ERR_BAD_INPUT => Status::BadInput,
            sys::ZKP_ERR_UNSATISFIED_WITNESS => Status::UnsatisfiedWitness,
            sys::ZKP_ERR_OUT_OF_MEMORY => Status::OutOfMemory,
            sys::ZKP_ERR_DEVICE => Status::Device,
            sys::ZKP_ERR_BUDGET_EXHAUSTED => Status::BudgetExhausted,
            sys::ZKP_ERR_CANCELLED => Status::Cancelled,
            sys::ZKP_ERR_SHORT_BUFFER => Status::ShortBuffer,
            sys::ZKP_ERR_UNSUPPORTED => Status::Unsupported,
            sys::ZKP_ERR_INTERNAL => Status::Internal,
            sys::ZKP_ERR_TIMEOUT => Status::Timeout,
            sys::ZKP_ERR_INVALID_PROOF => Status::InvalidProof,
            sys::ZKP_ERR_DEVICE_LOST => Status::DeviceLost,
            other => Status::Unknown(other),
        })
    }

    /// The C code of this status.
    pub fn code(self) -> sys::zkp_status_t {
        match self {
            Status::InvalidArgument => sys::ZKP_ERR_INVALID_ARGUMENT,
            Status::NotFound => sys::ZKP_ERR_NOT_FOUND,
            Status::AbiMismatch => sys::ZKP_ERR_ABI_MISMATCH,
            Status::BadInput => sys::ZKP_ERR_BAD_INPUT,
            Status::UnsatisfiedWitness => sys::ZKP_ERR_UNSATISFIED_WITNESS,
            Status::OutOfMemory => sys::ZKP_ERR_OUT_OF_MEMORY,
            Status::Device => sys::ZKP_ERR_DEVICE,
            Status::BudgetExhausted => sys::ZKP_ERR_BUDGET_EXHAUSTED,
            Status::Cancelled => sys::ZKP_ERR_CANCELLED,
            Status::ShortBuffer => sys::ZKP_ERR_SHORT_BUFFER,
            Status::Unsupported => sys::ZKP_ERR_UNSUPPORTED,
            Status::Internal => sys::ZKP_ERR_INTERNAL,
            Status::Timeout => sys::ZKP_ERR_TIMEOUT,
            Status::InvalidProof => sys::ZKP_ERR_INVALID_PROOF,
            Status::DeviceLost => sys::ZKP_ERR_DEVICE_LOST,
            Status::Unknown(code) => code,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(sys::zkp_status_name(self.code()))
    }
}

/// Everything that can fail in this crate.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A call into zkpipe failed: its status and the message the host wrote
    /// ("circuit.zkey: section 7 is 4096 bytes, ...").
    Host { status: Status, message: String },
    /// An argument this crate refused before calling zkpipe (a NUL in a string, a
    /// slice longer than the ABI can describe, ...).
    InvalidArgument(String),
    /// A proof or public-input encoding that does not parse.
    Decode(String),
    /// A completion callback panicked; the panic was caught on the completion thread
    /// (it never unwinds into C) and the callback was not called again for that job.
    CallbackPanicked(String),
}

impl Error {
    /// The host status of a `Host` error.
    pub fn status(&self) -> Option<Status> {
        match self {
            Error::Host { status, .. } => Some(*status),
            _ => None,
        }
    }

    pub(crate) fn host(status: Status, message: impl Into<String>) -> Error {
        Error::Host { status, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Host { status, message } if message.is_empty() => write!(f, "{status}"),
            Error::Host { status, message } => write!(f, "{status}: {message}"),
            Error::InvalidArgument(m) => write!(f, "invalid argument: {m}"),
            Error::Decode(m) => write!(f, "cannot decode: {m}"),
            Error::CallbackPanicked(m) => write!(f, "completion callback panicked: {m}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Runs one fallible C call with a fresh error record and turns its status into a Result.
pub(crate) fn call(f: impl FnOnce(*mut sys::zkp_error_t) -> sys::zkp_status_t) -> Result<()> {
    let mut err = sys::zkp_error_t::new();
    let code = f(&mut err);
    match Status::from_code(code) {
        None => Ok(()),
        Some(status) => Err(Error::host(status, message_of(&err))),
    }
}

fn message_of(err: &sys::zkp_error_t) -> String {
    // The callee NUL-terminates; the last byte is forced to NUL in case one did not.
    let mut bytes = err.message;
    bytes[sys::ZKP_ERROR_MESSAGE_CAPACITY - 1] = 0;
    unsafe { CStr::from_ptr(bytes.as_ptr()) }.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_through_status() {
        for code in 1..sys::ZKP_STATUS_COUNT + 3 {
            let status = Status::from_code(code).unwrap();
            assert_eq!(status.code(), code);
            assert_eq!(status.to_string(), sys::zkp_status_name(code));
        }
        assert_eq!(Status::from_code(sys::ZKP_OK), None);
        assert_eq!(Status::from_code(99), Some(Status::Unknown(99)));
    }

    #[test]
    fn call_carries_the_message_the_callee_wrote() {
        let r = call(|err| {
            let err = unsafe { &mut *err };
            for (d, s) in err.message.iter_mut().zip(b"key.zkey: truncated\0") {
                *d = *s as std::ffi::c_char;
            }
            sys::ZKP_ERR_BAD_INPUT
        });
        let e = r.unwrap_err();
        assert_eq!(e, Error::host(Status::BadInput, "key.zkey: truncated"));
        assert_eq!(e.to_string(), "bad input: key.zkey: truncated");
        assert!(call(|_| sys::ZKP_OK).is_ok());
    }
}
