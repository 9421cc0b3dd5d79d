//! Little-endian unsigned integers of any width to and from decimal strings, the way
//! snarkjs writes field elements and coordinates in JSON.
use crate::error::{Error, Result};

/// Writes the decimal number `s` into `out` (little-endian), failing if it has a
/// non-digit or does not fit.
pub(crate) fn parse_le(s: &str, out: &mut [u8]) -> Result<()> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return Err(Error::Decode(format!("{s:?} is not a decimal number")));
    }
    out.fill(0);
    for digit in s.bytes().map(|c| c - b'0') {
        // out = out * 10 + digit, byte by byte with carry.
        let mut carry = digit as u32;
        for b in out.iter_mut() {
            let v = *b as u32 * 10 + carry;
            *b = v as u8;
            carry = v >> 8;
        }
        if carry != 0 {
            return Err(Error::Decode(format!("{s} does not fit in {} bytes", out.len())));
        }
    }
    Ok(())
}

/// The decimal string of the little-endian number `bytes`.
pub(crate) fn format_le(bytes: &[u8]) -> String {
    let mut n = bytes.to_vec();
    let mut digits = Vec::new();
    // Repeated division by 10, most significant byte first.
    while n.iter().any(|&b| b != 0) {
        let mut rem = 0u32;
        for b in n.iter_mut().rev() {
            let v = (rem << 8) | *b as u32;
            *b = (v / 10) as u8;
            rem = v % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    digits.reverse();
    String::from_utf8(digits).expect("ASCII digits")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_numbers_wider_than_u128() {
        // 2^254 - 1 + a few: exercises every byte.
        let r = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
        let mut b = [0u8; 32];
        parse_le(r, &mut b).unwrap();
        assert_eq!(b[31], 0x30); // r = 0x30644e72...
        assert_eq!(format_le(&b), r);
        parse_le("0", &mut b).unwrap();
        assert_eq!(format_le(&b), "0");
        parse_le("258", &mut b).unwrap();
        assert_eq!((b[0], b[1]), (2, 1));
    }

    #[test]
    fn refuses_what_is_not_a_number_or_does_not_fit() {
        let mut b = [0u8; 1];
        assert!(parse_le("256", &mut b).is_err());
        assert!(parse_le("12a", &mut b).is_err());
        assert!(parse_le("", &mut b).is_err());
        assert!(parse_le("-1", &mut b).is_err());
        parse_le("255", &mut b).unwrap();
        assert_eq!(b[0], 255);
    }
}
