//! Field elements and curves as the ABI encodes them.
use crate::decimal;
use crate::error::{Error, Result};
use std::fmt;
use zkpipe_sys as sys;

/// A scalar-field element: 32 bytes, standard form (not Montgomery), little-endian,
/// less than the curve's group order r (zkp_prover.h); in a [`Synthesized`](crate::Synthesized)
/// marked Montgomery, the Montgomery form's four little-endian u64 limbs instead.
/// `#[repr(transparent)]`, so a `&[Scalar]` is the byte array the ABI reads, passed
/// without a copy.
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Scalar(pub [u8; 32]);

impl Scalar {
    pub const ZERO: Scalar = Scalar([0; 32]);
    pub const ONE: Scalar = Scalar::from_u64(1);

    pub const fn from_u64(v: u64) -> Scalar {
        let le = v.to_le_bytes();
        let mut b = [0u8; 32];
        let mut i = 0;
        while i < 8 {
            b[i] = le[i];
            i += 1;
        }
        Scalar(b)
    }

    /// A decimal number, as snarkjs writes scalars in JSON ("33").
    pub fn from_decimal(s: &str) -> Result<Scalar> {
        let mut b = [0u8; 32];
        decimal::parse_le(s, &mut b)?;
        Ok(Scalar(b))
    }

    pub fn to_decimal(&self) -> String {
        decimal::format_le(&self.0)
    }

    /// The scalars of `bytes` (a multiple of 32 long), e.g. a little-endian dump of A·w.
    pub fn vec_from_bytes(bytes: &[u8]) -> Result<Vec<Scalar>> {
        if !bytes.len().is_multiple_of(32) {
            return Err(Error::Decode(format!("{} bytes is not a whole number of 32-byte scalars", bytes.len())));
        }
        Ok(bytes.chunks_exact(32).map(|c| Scalar(c.try_into().expect("32-byte chunk"))).collect())
    }

    /// `bytes` (a multiple of 32 long) seen as scalars, without a copy: e.g. the memory of
    /// a `&[blstrs::Scalar]` (Montgomery form) or an mmap of a dump.
    pub fn slice_from_bytes(bytes: &[u8]) -> Result<&[Scalar]> {
        if !bytes.len().is_multiple_of(32) {
            return Err(Error::Decode(format!("{} bytes is not a whole number of 32-byte scalars", bytes.len())));
        }
        // SAFETY: Scalar is repr(transparent) over [u8; 32]: alignment 1, any bytes valid.
        Ok(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<Scalar>(), bytes.len() / 32) })
    }

    /// The bytes of `scalars`, without a copy.
    pub fn slice_as_bytes(scalars: &[Scalar]) -> &[u8] {
        // SAFETY: Scalar is repr(transparent) over [u8; 32]: same size, alignment 1.
        unsafe { std::slice::from_raw_parts(scalars.as_ptr().cast::<u8>(), scalars.len() * 32) }
    }
}

impl fmt::Debug for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Scalar({})", self.to_decimal())
    }
}

impl From<u64> for Scalar {
    fn from(v: u64) -> Scalar {
        Scalar::from_u64(v)
    }
}

/// A pairing-friendly curve zkpipe proves on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Curve {
    /// snarkjs "bn128", a.k.a. alt_bn128.
    Bn254,
    /// snarkjs "bls12381".
    Bls12_381,
}

impl Curve {
    pub fn from_raw(raw: sys::zkp_curve_t) -> Option<Curve> {
        match raw {
            sys::ZKP_CURVE_BN254 => Some(Curve::Bn254),
            sys::ZKP_CURVE_BLS12_381 => Some(Curve::Bls12_381),
            _ => None,
        }
    }

    pub fn raw(self) -> sys::zkp_curve_t {
        match self {
            Curve::Bn254 => sys::ZKP_CURVE_BN254,
            Curve::Bls12_381 => sys::ZKP_CURVE_BLS12_381,
        }
    }

    /// The name snarkjs writes in proof.json's "curve".
    pub fn snarkjs_name(self) -> &'static str {
        match self {
            Curve::Bn254 => "bn128",
            Curve::Bls12_381 => "bls12381",
        }
    }

    pub fn from_snarkjs_name(name: &str) -> Option<Curve> {
        match name {
            "bn128" | "bn254" => Some(Curve::Bn254),
            "bls12381" | "bls12-381" => Some(Curve::Bls12_381),
            _ => None,
        }
    }

    /// Bytes of one base-field coordinate (n8q).
    pub fn coordinate_size(self) -> usize {
        match self {
            Curve::Bn254 => 32,
            Curve::Bls12_381 => 48,
        }
    }

    /// Bytes of one proof: A (G1) | B (G2) | C (G1), 8 coordinates.
    pub fn proof_size(self) -> usize {
        8 * self.coordinate_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_view_their_bytes_in_place() {
        let s = [Scalar::from_u64(1), Scalar::from_u64(0x0102)];
        let bytes = Scalar::slice_as_bytes(&s);
        assert_eq!(bytes.len(), 64);
        assert_eq!(bytes.as_ptr(), s.as_ptr().cast());
        assert_eq!((bytes[0], bytes[32], bytes[33]), (1, 2, 1));
        assert_eq!(Scalar::vec_from_bytes(bytes).unwrap(), s);
        assert!(Scalar::vec_from_bytes(&bytes[..40]).is_err());
        let view = Scalar::slice_from_bytes(bytes).unwrap();
        assert_eq!((view.as_ptr(), view), (s.as_ptr(), &s[..]));
        assert!(Scalar::slice_from_bytes(&bytes[..40]).is_err());
    }

    #[test]
    fn proof_sizes_match_the_abi() {
        assert_eq!(Curve::Bn254.proof_size(), sys::ZKP_PROOF_SIZE_BN254 as usize);
        assert_eq!(Curve::Bls12_381.proof_size(), sys::ZKP_PROOF_SIZE_BLS12_381 as usize);
        for c in [Curve::Bn254, Curve::Bls12_381] {
            assert_eq!(Curve::from_raw(c.raw()), Some(c));
            assert_eq!(Curve::from_snarkjs_name(c.snarkjs_name()), Some(c));
        }
    }
}
