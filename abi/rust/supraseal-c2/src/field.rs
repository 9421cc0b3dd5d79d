//! The two Montgomery conversions the crate needs between blst/blstrs memory and zkpipe's
//! standard form: BLS12-381 Fr out of Montgomery form (the r and s callers hand over as
//! blstrs Scalars, x·2^256 mod r) and Fp into it (the proof coordinates blst_p1_affine and
//! blst_p2_affine hold, x·2^384 mod p). Both by repeated modular halving or doubling: a few
//! hundred word operations per element, a handful of elements per proof.

/// r, the BLS12-381 group order (the scalar field), little-endian 64-bit limbs.
pub(crate) const FR_MODULUS: [u64; 4] = [0xffff_ffff_0000_0001, 0x53bd_a402_fffe_5bfe, 0x3339_d808_09a1_d805, 0x73ed_a753_299d_7d48];

/// p, the BLS12-381 base-field modulus, little-endian 64-bit limbs.
pub(crate) const FP_MODULUS: [u64; 6] =
    [0xb9fe_ffff_ffff_aaab, 0x1eab_fffe_b153_ffff, 0x6730_d2a0_f6b0_f624, 0x6477_4b84_f385_12bf, 0x4b1b_a7b6_434b_acd7, 0x1a01_11ea_397f_e69a];

fn at_least<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    a.iter().rev().cmp(b.iter().rev()) != std::cmp::Ordering::Less
}

/// a − b, wrapping; the caller knows a ≥ b.
fn sub<const N: usize>(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut borrow = false;
    for i in 0..N {
        let (d, b1) = a[i].overflowing_sub(b[i]);
        let (d, b2) = d.overflowing_sub(u64::from(borrow));
        out[i] = d;
        borrow = b1 || b2;
    }
    out
}

/// a + b and the carry out of the top limb.
fn add<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], bool) {
    let mut out = [0u64; N];
    let mut carry = false;
    for i in 0..N {
        let (s, c1) = a[i].overflowing_add(b[i]);
        let (s, c2) = s.overflowing_add(u64::from(carry));
        out[i] = s;
        carry = c1 || c2;
    }
    (out, carry)
}

/// 2x mod m for x < m, m odd and below 2^(64N−1) (true of p and r).
fn double_mod<const N: usize>(x: &[u64; N], m: &[u64; N]) -> [u64; N] {
    let (twice, _) = add(x, x);
    if at_least(&twice, m) {
        sub(&twice, m)
    } else {
        twice
    }
}

/// x/2 mod m for x < m, m odd and below 2^(64N−1): x is even, or x + m is.
fn halve_mod<const N: usize>(x: &[u64; N], m: &[u64; N]) -> [u64; N] {
    let (even, carry) = if x[0] & 1 == 0 { (*x, false) } else { add(x, m) };
    let mut out = [0u64; N];
    for i in 0..N {
        let high = if i + 1 < N { even[i + 1] } else { u64::from(carry) };
        out[i] = (even[i] >> 1) | (high << 63);
    }
    out
}

/// x mod m for any N-limb x, m above 2^(64N−2) (p and r: at most three subtractions).
fn reduce<const N: usize>(mut x: [u64; N], m: &[u64; N]) -> [u64; N] {
    while at_least(&x, m) {
        x = sub(&x, m);
    }
    x
}

/// The standard form of a blstrs Scalar's memory (Montgomery limbs): x·2^-256 mod r.
pub(crate) fn fr_from_montgomery(mont: [u64; 4]) -> [u64; 4] {
    let mut x = reduce(mont, &FR_MODULUS);
    for _ in 0..256 {
        x = halve_mod(&x, &FR_MODULUS);
    }
    x
}

/// The Montgomery form (x·2^384 mod p) of a standard-form base-field element x < p, as blst
/// keeps an Fp.
pub(crate) fn fp_to_montgomery(standard: [u64; 6]) -> [u64; 6] {
    let mut x = reduce(standard, &FP_MODULUS);
    for _ in 0..384 {
        x = double_mod(&x, &FP_MODULUS);
    }
    x
}

/// 32 little-endian bytes as four limbs.
pub(crate) fn limbs4(bytes: &[u8; 32]) -> [u64; 4] {
    std::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes")))
}

/// 48 little-endian bytes as six limbs.
pub(crate) fn limbs6(bytes: &[u8]) -> [u64; 6] {
    std::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes")))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Published constants: R mod p (blst's BLS12_381_ONE, zkcrypto bls12_381's Fp R) and
    // R mod r (bls12_381's Scalar R), i.e. the Montgomery form of 1.
    const FP_ONE_MONT: [u64; 6] =
        [0x7609_0000_0002_fffd, 0xebf4_000b_c40c_0002, 0x5f48_9857_53c7_58ba, 0x77ce_5853_7052_5745, 0x5c07_1a97_a256_ec6d, 0x15f6_5ec3_fa80_e493];
    const FR_ONE_MONT: [u64; 4] = [0x0000_0001_ffff_fffe, 0x5884_b7fa_0003_4802, 0x998c_4fef_ecbc_4ff5, 0x1824_b159_acc5_056f];

    #[test]
    fn one_converts_to_the_published_montgomery_constants() {
        assert_eq!(fp_to_montgomery([1, 0, 0, 0, 0, 0]), FP_ONE_MONT);
        assert_eq!(fr_from_montgomery(FR_ONE_MONT), [1, 0, 0, 0]);
    }

    #[test]
    fn zero_stays_zero_and_small_values_round_trip() {
        assert_eq!(fp_to_montgomery([0; 6]), [0; 6]);
        assert_eq!(fr_from_montgomery([0; 4]), [0; 4]);
        // 3·R mod r (python: hex(3 * 2**256 % r)).
        let three = [0x0000_0005_ffff_fffa, 0x098e_27ee_0009_d806, 0xcca4_efcf_c634_efe0, 0x486e_140d_064f_104e];
        assert_eq!(fr_from_montgomery(three), [3, 0, 0, 0]);
        // Halving undoes doubling on Fp too: p − 1 survives 384 of each.
        let p_minus_1 = sub(&FP_MODULUS, &[1, 0, 0, 0, 0, 0]);
        let mut x = fp_to_montgomery(p_minus_1);
        for _ in 0..384 {
            x = halve_mod(&x, &FP_MODULUS);
        }
        assert_eq!(x, p_minus_1);
    }

    #[test]
    fn unreduced_input_is_reduced_first() {
        // r itself is zero; r + 1 (Montgomery) equals 1 (Montgomery).
        assert_eq!(fr_from_montgomery(FR_MODULUS), [0; 4]);
        let (r_plus_one, _) = add(&FR_MODULUS, &FR_ONE_MONT);
        assert_eq!(fr_from_montgomery(r_plus_one), [1, 0, 0, 0]);
    }
}
