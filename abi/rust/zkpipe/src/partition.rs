//! What one partition of a job proves: a witness for the prover to synthesize, or inputs
//! the caller synthesized itself.
use crate::scalar::Scalar;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// One partition of a job. Data is borrowed (`&'a [u8]`, `&'a [Scalar]`: the host
/// reads it in place, no copy) or owned (a `Vec`, moved into the job). Either way the
/// job keeps it alive until its summary arrives; borrowed data can only be submitted
/// inside [`Host::scope`](crate::Host::scope), which waits for its jobs before the
/// borrow ends.
#[derive(Clone, Debug)]
pub struct Partition<'a>(pub(crate) Input<'a>);

#[derive(Clone, Debug)]
pub(crate) enum Input<'a> {
    Simulated,
    WtnsFile(PathBuf),
    WtnsBuffer(Cow<'a, [u8]>),
    Assignment(Cow<'a, [Scalar]>),
    Synthesized(Synthesized<'a>),
}

/// Inputs a caller synthesized itself (the bellperson path, zkp_synthesized_t):
/// A·w, B·w and C·w evaluated on the domain (rows past their length are zero), and the
/// full assignment, whose first element is 1.
#[derive(Clone, Debug)]
pub struct Synthesized<'a> {
    pub a: Cow<'a, [Scalar]>,
    pub b: Cow<'a, [Scalar]>,
    pub c: Cow<'a, [Scalar]>,
    pub assignment: Cow<'a, [Scalar]>,
}

impl<'a> Partition<'a> {
    /// A snarkjs .wtns file, read by the prover when the partition is synthesized.
    pub fn witness_file(path: impl AsRef<Path>) -> Partition<'static> {
        Partition(Input::WtnsFile(path.as_ref().to_path_buf()))
    }

    /// The bytes of a .wtns file.
    pub fn witness_buffer(wtns: impl Into<Cow<'a, [u8]>>) -> Partition<'a> {
        Partition(Input::WtnsBuffer(wtns.into()))
    }

    /// The full assignment, n_vars scalars (index 0 is the constant 1).
    pub fn assignment(values: impl Into<Cow<'a, [Scalar]>>) -> Partition<'a> {
        Partition(Input::Assignment(values.into()))
    }

    /// Caller-synthesized a, b, c and assignment; the host skips synthesis.
    pub fn synthesized(
        a: impl Into<Cow<'a, [Scalar]>>,
        b: impl Into<Cow<'a, [Scalar]>>,
        c: impl Into<Cow<'a, [Scalar]>>,
        assignment: impl Into<Cow<'a, [Scalar]>>,
    ) -> Partition<'a> {
        Partition(Input::Synthesized(Synthesized { a: a.into(), b: b.into(), c: c.into(), assignment: assignment.into() }))
    }

    /// No witness: what the simulated prover (`prover=sim`) takes.
    pub fn simulated() -> Partition<'static> {
        Partition(Input::Simulated)
    }
}
