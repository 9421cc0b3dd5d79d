//! What one partition of a job proves: a witness for the prover to synthesize, or inputs
//! the caller synthesized itself.
use crate::error::{Error, Result};
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
    Json(Cow<'a, [u8]>),
    Synthesized(Synthesized<'a>),
}

/// Inputs a caller synthesized itself (the bellperson path, zkp_synthesized_t):
/// A·w, B·w and C·w evaluated on the domain (rows past their length are zero), and the
/// assignment, inputs first (the first is 1), then aux.
///
/// [`Partition::synthesized`] gives the zkey form: one full assignment, standard-form
/// scalars, no density. bellperson's form, for a [`KeyFormat::Bellperson`](crate::KeyFormat)
/// key, adds to [`Synthesized::new`] what its `ProvingAssignment` holds, all borrowed:
///
/// ```
/// use zkpipe::{Density, Partition, Scalar, Synthesized};
/// # let (a, b, c) = (vec![Scalar::ZERO; 4], vec![Scalar::ZERO; 4], vec![Scalar::ZERO; 4]);
/// # let (input, aux) = (vec![Scalar::ONE; 2], vec![Scalar::ONE; 3]);
/// # let (a_aux, b_input, b_aux) = ([0b101u64], [0b01u64], [0b110u64]);
/// let p: Partition = Synthesized::new(&a[..], &b[..], &c[..], &input[..])
///     .with_aux_assignment(&aux[..])
///     .with_densities(Density::new(&a_aux[..], 3), Density::new(&b_input[..], 2), Density::new(&b_aux[..], 3))
///     .in_montgomery_form()
///     .into();
/// ```
#[derive(Clone, Debug)]
pub struct Synthesized<'a> {
    pub a: Cow<'a, [Scalar]>,
    pub b: Cow<'a, [Scalar]>,
    pub c: Cow<'a, [Scalar]>,
    /// Every variable, or only the inputs when `aux_assignment` is set.
    pub assignment: Cow<'a, [Scalar]>,
    /// The aux variables (after the inputs), as bellperson keeps them apart.
    pub aux_assignment: Option<Cow<'a, [Scalar]>>,
    /// Every scalar of a, b, c and the assignments is in Montgomery form (x·2^256 mod r,
    /// four little-endian u64 limbs: a blstrs Scalar's memory), not standard form.
    pub montgomery: bool,
    /// Aux variables in A; `None` means all (zkey keys take none of the three).
    pub a_aux_density: Option<Density<'a>>,
    /// Inputs in B.
    pub b_input_density: Option<Density<'a>>,
    /// Aux variables in B.
    pub b_aux_density: Option<Density<'a>>,
}

/// Which variables of one range (inputs or aux) a query of a bellperson key holds: bit i
/// of word i/64, least significant first, for variable i; `bit_len` bits, bits past it
/// ignored. bellperson's `DensityTracker` bit vector is this as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Density<'a> {
    pub words: Cow<'a, [u64]>,
    pub bit_len: u64,
}

impl<'a> Density<'a> {
    pub fn new(words: impl Into<Cow<'a, [u64]>>, bit_len: u64) -> Density<'a> {
        Density { words: words.into(), bit_len }
    }

    /// Set bits among the first `bit_len` (all of them if the words are too few).
    pub fn popcount(&self) -> u64 {
        let full = (self.bit_len / 64) as usize;
        let whole: u64 = self.words.iter().take(full).map(|w| u64::from(w.count_ones())).sum();
        let rest = self.bit_len % 64;
        match self.words.get(full) {
            Some(w) if rest > 0 => whole + u64::from((w & ((1u64 << rest) - 1)).count_ones()),
            _ => whole,
        }
    }

    /// Fails, naming `field`, unless the words hold `bit_len` bits.
    pub(crate) fn check(&self, field: &str) -> Result<()> {
        let bits = (self.words.len() as u64).saturating_mul(64);
        if bits < self.bit_len {
            return Err(Error::InvalidArgument(format!(
                "{field} has {} words ({bits} bits) for a bit length of {}",
                self.words.len(),
                self.bit_len
            )));
        }
        Ok(())
    }
}

impl<'a> Synthesized<'a> {
    /// a, b, c and the full assignment (or the inputs, with
    /// [`with_aux_assignment`](Self::with_aux_assignment)), standard form, no density.
    pub fn new(
        a: impl Into<Cow<'a, [Scalar]>>,
        b: impl Into<Cow<'a, [Scalar]>>,
        c: impl Into<Cow<'a, [Scalar]>>,
        assignment: impl Into<Cow<'a, [Scalar]>>,
    ) -> Synthesized<'a> {
        Synthesized {
            a: a.into(),
            b: b.into(),
            c: c.into(),
            assignment: assignment.into(),
            aux_assignment: None,
            montgomery: false,
            a_aux_density: None,
            b_input_density: None,
            b_aux_density: None,
        }
    }

    /// The aux variables apart; `assignment` then holds the inputs only.
    pub fn with_aux_assignment(mut self, aux: impl Into<Cow<'a, [Scalar]>>) -> Self {
        self.aux_assignment = Some(aux.into());
        self
    }

    /// The three density bitmaps of a bellperson synthesis.
    pub fn with_densities(mut self, a_aux: Density<'a>, b_input: Density<'a>, b_aux: Density<'a>) -> Self {
        (self.a_aux_density, self.b_input_density, self.b_aux_density) = (Some(a_aux), Some(b_input), Some(b_aux));
        self
    }

    /// Every scalar is in Montgomery form ([`montgomery`](Self::montgomery)).
    pub fn in_montgomery_form(mut self) -> Self {
        self.montgomery = true;
        self
    }

    /// What submit checks before anything reaches C; returns abc_length.
    pub(crate) fn check(&self) -> Result<u64> {
        let (a, b, c) = (self.a.len(), self.b.len(), self.c.len());
        if a != b || b != c {
            return Err(Error::InvalidArgument(format!("a, b and c must have one length; they have {a}, {b} and {c}")));
        }
        for (d, field) in [(&self.a_aux_density, "a_aux_density"), (&self.b_input_density, "b_input_density"), (&self.b_aux_density, "b_aux_density")] {
            if let Some(d) = d {
                d.check(field)?;
            }
        }
        Ok(a as u64)
    }
}

impl<'a> From<Synthesized<'a>> for Partition<'a> {
    fn from(s: Synthesized<'a>) -> Partition<'a> {
        Partition(Input::Synthesized(s))
    }
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

    /// The circuit's input (input.json text, as snarkjs and rapidsnark take it): the host
    /// computes the witness with the key's witness generator
    /// ([`KeySource::witness_generator`](crate::KeySource::witness_generator)) during synthesis.
    pub fn input_json(json: impl Into<Cow<'a, [u8]>>) -> Partition<'a> {
        Partition(Input::Json(json.into()))
    }

    /// Caller-synthesized a, b, c and the full assignment, standard form; the host skips
    /// synthesis. bellperson's form (split assignment, density, Montgomery) is a
    /// [`Synthesized`] turned into a partition with `.into()`.
    pub fn synthesized(
        a: impl Into<Cow<'a, [Scalar]>>,
        b: impl Into<Cow<'a, [Scalar]>>,
        c: impl Into<Cow<'a, [Scalar]>>,
        assignment: impl Into<Cow<'a, [Scalar]>>,
    ) -> Partition<'a> {
        Synthesized::new(a, b, c, assignment).into()
    }

    /// No witness: what the simulated prover (`prover=sim`) takes.
    pub fn simulated() -> Partition<'static> {
        Partition(Input::Simulated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn popcount_counts_only_the_first_bit_len_bits() {
        let words = [u64::MAX, 0b1011];
        assert_eq!(Density::new(&words[..], 128).popcount(), 67);
        assert_eq!(Density::new(&words[..], 66).popcount(), 66);
        assert_eq!(Density::new(&words[..], 64).popcount(), 64);
        assert_eq!(Density::new(&words[..], 3).popcount(), 3);
        assert_eq!(Density::new(&words[..], 0).popcount(), 0);
        assert_eq!(Density::new(&words[..], 500).popcount(), 67, "past the words: what there is");
    }

    #[test]
    fn a_synthesized_partition_is_one_from_either_constructor() {
        let v = [Scalar::ONE; 2];
        let Partition(Input::Synthesized(s)) = Partition::synthesized(&v[..], &v[..], &v[..], &v[..]) else { panic!("synthesized") };
        assert!(!s.montgomery && s.aux_assignment.is_none() && s.a_aux_density.is_none());
        let Partition(Input::Synthesized(s)) = Synthesized::new(&v[..], &v[..], &v[..], &v[..]).in_montgomery_form().into() else { panic!("synthesized") };
        assert!(s.montgomery);
    }
}
