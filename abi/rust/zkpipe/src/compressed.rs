//! BLS12-381 points in the compressed encoding of zkcrypto's bls12_381 crate and blst,
//! which bellperson writes proofs in (`Proof::write`: A 48 | B 96 | C 48 bytes).
//!
//! The encoding (bls12_381 `G1Affine::to_compressed`, `G2Affine::to_compressed`): x
//! big-endian, a G2 x as c1 then c0; the top three bits of the first byte are flags,
//! free because p < 2^381: 0x80 compressed (always set here), 0x40 the point at infinity
//! (then every other bit is zero), 0x20 y is the lexicographically larger of y and −y.
//! An Fp element is the larger one when it exceeds p − itself; an Fp2 element when its
//! c1 is, or c1 is zero and c0 is (bls12_381 `Fp2::lexicographically_largest`). Only
//! comparisons are needed: the compressor already knows y.
use crate::error::{Error, Result};
use std::cmp::Ordering;

const FP_BYTES: usize = 48;
const LIMBS: usize = FP_BYTES / 8;
/// p, the BLS12-381 base-field modulus, little-endian 64-bit limbs.
const P: [u64; LIMBS] = [
    0xb9fe_ffff_ffff_aaab,
    0x1eab_fffe_b153_ffff,
    0x6730_d2a0_f6b0_f624,
    0x6477_4b84_f385_12bf,
    0x4b1b_a7b6_434b_acd7,
    0x1a01_11ea_397f_e69a,
];
const FLAG_COMPRESSED: u8 = 0x80;
const FLAG_INFINITY: u8 = 0x40;
const FLAG_LARGER_Y: u8 = 0x20;

pub(crate) const G1_COMPRESSED: usize = FP_BYTES;
pub(crate) const G2_COMPRESSED: usize = 2 * FP_BYTES;

/// An Fp element as little-endian limbs, known to be < p.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Fp([u64; LIMBS]);

fn compare(a: &[u64; LIMBS], b: &[u64; LIMBS]) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

impl Fp {
    /// From zkpipe's form (48 bytes, little-endian, standard form); `what` names the
    /// coordinate in the error if it is not < p.
    fn from_le(bytes: &[u8], what: &str) -> Result<Fp> {
        let mut limbs = [0u64; LIMBS];
        for (l, chunk) in limbs.iter_mut().zip(bytes.chunks_exact(8)) {
            *l = u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
        }
        if compare(&limbs, &P) != Ordering::Less {
            return Err(Error::Decode(format!("{what} is not a BLS12-381 base-field element (not < p)")));
        }
        Ok(Fp(limbs))
    }

    fn is_zero(&self) -> bool {
        self.0 == [0; LIMBS]
    }

    /// p − self (p for zero, which only the comparison below sees).
    fn p_minus(&self) -> [u64; LIMBS] {
        let mut out = [0u64; LIMBS];
        let mut borrow = false;
        for i in 0..LIMBS {
            let (d, b1) = P[i].overflowing_sub(self.0[i]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            (out[i], borrow) = (d, b1 || b2);
        }
        out
    }

    fn lexicographically_largest(&self) -> bool {
        compare(&self.0, &self.p_minus()) == Ordering::Greater
    }

    fn write_be(&self, out: &mut [u8]) {
        for (chunk, limb) in out.chunks_exact_mut(8).zip(self.0.iter().rev()) {
            chunk.copy_from_slice(&limb.to_be_bytes());
        }
    }
}

/// A G1 point in zkpipe's form (x | y, 96 bytes; all zeros for infinity), compressed.
pub(crate) fn g1(point: &[u8], what: &str) -> Result<[u8; G1_COMPRESSED]> {
    let mut out = [0u8; G1_COMPRESSED];
    if point.iter().all(|&b| b == 0) {
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return Ok(out);
    }
    let x = Fp::from_le(&point[..FP_BYTES], &format!("{what}.x"))?;
    let y = Fp::from_le(&point[FP_BYTES..2 * FP_BYTES], &format!("{what}.y"))?;
    x.write_be(&mut out);
    out[0] |= FLAG_COMPRESSED | if y.lexicographically_largest() { FLAG_LARGER_Y } else { 0 };
    Ok(out)
}

/// A G2 point in zkpipe's form (x.c0 | x.c1 | y.c0 | y.c1, 192 bytes; all zeros for
/// infinity), compressed.
pub(crate) fn g2(point: &[u8], what: &str) -> Result<[u8; G2_COMPRESSED]> {
    let mut out = [0u8; G2_COMPRESSED];
    if point.iter().all(|&b| b == 0) {
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return Ok(out);
    }
    let coordinate = |i: usize, name: &str| Fp::from_le(&point[i * FP_BYTES..(i + 1) * FP_BYTES], &format!("{what}.{name}"));
    let (x0, x1, y0, y1) = (coordinate(0, "x.c0")?, coordinate(1, "x.c1")?, coordinate(2, "y.c0")?, coordinate(3, "y.c1")?);
    x1.write_be(&mut out[..FP_BYTES]);
    x0.write_be(&mut out[FP_BYTES..]);
    let larger = y1.lexicographically_largest() || (y1.is_zero() && y0.lexicographically_largest());
    out[0] |= FLAG_COMPRESSED | if larger { FLAG_LARGER_Y } else { 0 };
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Big-endian hex (as curve constants are published) to bytes.
    pub(crate) fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    /// A published big-endian coordinate in zkpipe's little-endian form.
    pub(crate) fn le(s: &str) -> Vec<u8> {
        hex(s).into_iter().rev().collect()
    }

    /// p − v for a coordinate in zkpipe's form: the other y of the same x.
    pub(crate) fn negate(v: &[u8]) -> Vec<u8> {
        let limbs = Fp::from_le(v, "test").unwrap().p_minus();
        limbs.iter().flat_map(|l| l.to_le_bytes()).collect()
    }

    // The generators (IETF draft-irtf-cfrg-pairing-friendly-curves, section 4.2.1).
    pub(crate) const G1_X: &str = "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
    pub(crate) const G1_Y: &str = "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
    pub(crate) const G2_X0: &str = "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
    pub(crate) const G2_X1: &str = "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
    pub(crate) const G2_Y0: &str = "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";
    pub(crate) const G2_Y1: &str = "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be";
    // Their compressed encodings, as bls12_381's tests (g1.rs, g2.rs) and blst publish them.
    pub(crate) const G1_COMPRESSED_HEX: &str = "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
    pub(crate) const G2_COMPRESSED_HEX: &str = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";

    pub(crate) fn g1_generator() -> Vec<u8> {
        [le(G1_X), le(G1_Y)].concat()
    }

    pub(crate) fn g2_generator() -> Vec<u8> {
        [le(G2_X0), le(G2_X1), le(G2_Y0), le(G2_Y1)].concat()
    }

    #[test]
    fn the_generators_compress_as_published() {
        assert_eq!(g1(&g1_generator(), "g").unwrap().to_vec(), hex(G1_COMPRESSED_HEX));
        assert_eq!(g2(&g2_generator(), "g").unwrap().to_vec(), hex(G2_COMPRESSED_HEX));
    }

    #[test]
    fn the_other_y_sets_the_sort_flag_and_nothing_else() {
        let minus_g1 = [le(G1_X), negate(&le(G1_Y))].concat();
        let mut expected = hex(G1_COMPRESSED_HEX);
        expected[0] |= FLAG_LARGER_Y;
        assert_eq!(expected[0], 0xb7);
        assert_eq!(g1(&minus_g1, "g").unwrap().to_vec(), expected);

        let minus_g2 = [le(G2_X0), le(G2_X1), negate(&le(G2_Y0)), negate(&le(G2_Y1))].concat();
        let mut expected = hex(G2_COMPRESSED_HEX);
        expected[0] |= FLAG_LARGER_Y;
        assert_eq!(g2(&minus_g2, "g").unwrap().to_vec(), expected);
    }

    #[test]
    fn a_g2_y_with_zero_c1_is_ordered_by_c0() {
        // Not on the curve: the encoding only compares, it does not check the curve.
        let zero = vec![0u8; FP_BYTES];
        let small = [le(G2_X0), le(G2_X1), le(G1_Y), zero.clone()].concat();
        let large = [le(G2_X0), le(G2_X1), negate(&le(G1_Y)), zero].concat();
        assert_eq!(g2(&small, "b").unwrap()[0] & FLAG_LARGER_Y, 0);
        assert_eq!(g2(&large, "b").unwrap()[0] & FLAG_LARGER_Y, FLAG_LARGER_Y);
        // c1 decides when it is not zero, whatever c0 is.
        let c1_small = [le(G2_X0), le(G2_X1), negate(&le(G1_Y)), le(G1_Y)].concat();
        assert_eq!(g2(&c1_small, "b").unwrap()[0] & FLAG_LARGER_Y, 0);
    }

    #[test]
    fn infinity_is_the_infinity_flag_alone() {
        let g1_inf = g1(&[0; 96], "a").unwrap();
        assert_eq!((g1_inf[0], g1_inf[1..].iter().all(|&b| b == 0)), (0xc0, true));
        let g2_inf = g2(&[0; 192], "b").unwrap();
        assert_eq!((g2_inf[0], g2_inf[1..].iter().all(|&b| b == 0)), (0xc0, true));
    }

    #[test]
    fn a_coordinate_not_below_p_is_refused_by_name() {
        let p: Vec<u8> = P.iter().flat_map(|l| l.to_le_bytes()).collect();
        let e = g1(&[le(G1_X), p.clone()].concat(), "a").unwrap_err();
        assert!(e.to_string().contains("a.y"), "{e}");
        let e = g2(&[le(G2_X0), p, le(G2_Y0), le(G2_Y1)].concat(), "b").unwrap_err();
        assert!(e.to_string().contains("b.x.c1"), "{e}");
    }
}
