//! Proofs and public inputs: the ABI's bytes and snarkjs's proof.json / public.json.
use crate::compressed;
use crate::decimal;
use crate::error::{Error, Result};
use crate::json::Json;
use crate::scalar::{Curve, Scalar};

/// Bytes of a proof in bellperson's compressed encoding ([`Proof::to_bellperson_bytes`]).
pub const BELLPERSON_PROOF_SIZE: usize = 192;

/// A Groth16 proof in the ABI's byte format (zkp_prover.h): A (G1) | B (G2) | C (G1),
/// affine, each coordinate `curve.coordinate_size()` bytes little-endian in standard
/// form, a G2 coordinate c0 then c1, the point at infinity all zeros.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    curve: Curve,
    bytes: Vec<u8>,
}

impl Proof {
    /// A proof from its bytes; fails unless there are `curve.proof_size()` of them.
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<Proof> {
        if bytes.len() != curve.proof_size() {
            return Err(Error::Decode(format!("a {curve:?} proof is {} bytes, not {}", curve.proof_size(), bytes.len())));
        }
        Ok(Proof { curve, bytes: bytes.to_vec() })
    }

    pub fn curve(&self) -> Curve {
        self.curve
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The proof as bellperson writes it (`Proof::write`): A, B, C compressed, 48 + 96 +
    /// 48 bytes, in the zkcrypto/blst encoding (x big-endian, a G2 x as c1 then c0, flag
    /// bits 0x80 compressed, 0x40 infinity, 0x20 the larger y). BLS12-381 proofs only.
    pub fn to_bellperson_bytes(&self) -> Result<[u8; BELLPERSON_PROOF_SIZE]> {
        if self.curve != Curve::Bls12_381 {
            return Err(Error::Decode(format!("bellperson proofs are BLS12-381; this one is {:?}", self.curve)));
        }
        let n = self.curve.coordinate_size();
        let mut out = [0u8; BELLPERSON_PROOF_SIZE];
        let (a, rest) = out.split_at_mut(compressed::G1_COMPRESSED);
        let (b, c) = rest.split_at_mut(compressed::G2_COMPRESSED);
        a.copy_from_slice(&compressed::g1(&self.bytes[..2 * n], "A")?);
        b.copy_from_slice(&compressed::g2(&self.bytes[2 * n..6 * n], "B")?);
        c.copy_from_slice(&compressed::g1(&self.bytes[6 * n..], "C")?);
        Ok(out)
    }

    fn coordinates(&self) -> Vec<String> {
        self.bytes.chunks_exact(self.curve.coordinate_size()).map(decimal::format_le).collect()
    }

    /// The proof as snarkjs writes proof.json (`snarkjs groth16 verify` reads it).
    pub fn to_snarkjs_json(&self) -> String {
        let c = self.coordinates();
        let zero = |r: std::ops::Range<usize>| self.bytes[r].iter().all(|&b| b == 0);
        let n = self.curve.coordinate_size();
        // Projective z: 1 for a finite point, 0 (with y = 1) for infinity, as snarkjs has it.
        let g1 = |x: &str, y: &str, inf: bool| {
            if inf { "[\n  \"0\",\n  \"1\",\n  \"0\"\n ]".to_string() } else { format!("[\n  \"{x}\",\n  \"{y}\",\n  \"1\"\n ]") }
        };
        let pi_b = if zero(2 * n..6 * n) {
            "[\n  [\n   \"0\",\n   \"0\"\n  ],\n  [\n   \"1\",\n   \"0\"\n  ],\n  [\n   \"0\",\n   \"0\"\n  ]\n ]".to_string()
        } else {
            format!(
                "[\n  [\n   \"{}\",\n   \"{}\"\n  ],\n  [\n   \"{}\",\n   \"{}\"\n  ],\n  [\n   \"1\",\n   \"0\"\n  ]\n ]",
                c[2], c[3], c[4], c[5]
            )
        };
        format!(
            "{{\n \"pi_a\": {},\n \"pi_b\": {},\n \"pi_c\": {},\n \"protocol\": \"groth16\",\n \"curve\": \"{}\"\n}}\n",
            g1(&c[0], &c[1], zero(0..2 * n)),
            pi_b,
            g1(&c[6], &c[7], zero(6 * n..8 * n)),
            self.curve.snarkjs_name()
        )
    }

    /// A proof from snarkjs's proof.json (affine points with z = 1, or z = 0 for infinity).
    pub fn from_snarkjs_json(text: &str) -> Result<Proof> {
        let j = Json::parse(text)?;
        let curve_name = j.get("curve").and_then(Json::as_text).ok_or_else(|| Error::Decode("proof.json has no \"curve\"".into()))?;
        let curve = Curve::from_snarkjs_name(curve_name).ok_or_else(|| Error::Decode(format!("unknown curve {curve_name:?}")))?;
        if let Some(p) = j.get("protocol").and_then(Json::as_text) {
            if p != "groth16" {
                return Err(Error::Decode(format!("protocol {p:?} is not groth16")));
            }
        }
        let n = curve.coordinate_size();
        let mut bytes = vec![0u8; curve.proof_size()];
        let field = |name: &str| j.get(name).and_then(Json::as_array).ok_or_else(|| Error::Decode(format!("proof.json has no array {name:?}")));
        let mut put = |slot: usize, v: &Json| -> Result<()> {
            let text = v.as_text().ok_or_else(|| Error::Decode("a coordinate is not a string".into()))?;
            decimal::parse_le(text, &mut bytes[slot * n..(slot + 1) * n])
        };
        for (name, first) in [("pi_a", 0), ("pi_c", 6)] {
            let p = field(name)?;
            match p.get(2).and_then(Json::as_text) {
                Some("1") => {
                    put(first, &p[0])?;
                    put(first + 1, &p[1])?;
                }
                Some("0") => {} // infinity: all zeros
                _ => return Err(Error::Decode(format!("{name} is not an affine point [x, y, \"1\"]"))),
            }
        }
        let b = field("pi_b")?;
        let pair = |i: usize| b.get(i).and_then(Json::as_array).filter(|p| p.len() == 2);
        let (x, y, z) = match (pair(0), pair(1), pair(2)) {
            (Some(x), Some(y), Some(z)) => (x, y, z),
            _ => return Err(Error::Decode("pi_b is not three pairs".into())),
        };
        match (z[0].as_text(), z[1].as_text()) {
            (Some("1"), Some("0")) => {
                for (i, v) in x.iter().chain(y).enumerate() {
                    put(2 + i, v)?;
                }
            }
            (Some("0"), Some("0")) => {}
            _ => return Err(Error::Decode("pi_b is not an affine point".into())),
        }
        Ok(Proof { curve, bytes })
    }
}

/// The public signals of a proof (outputs, then public inputs; without the constant 1),
/// as the host delivers them: n_public scalars.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PublicInputs(pub Vec<Scalar>);

impl PublicInputs {
    /// From the ABI's bytes: 32 per scalar, little-endian.
    pub fn from_bytes(bytes: &[u8]) -> Result<PublicInputs> {
        Scalar::vec_from_bytes(bytes).map(PublicInputs)
    }

    pub fn as_bytes(&self) -> &[u8] {
        Scalar::slice_as_bytes(&self.0)
    }

    pub fn values(&self) -> &[Scalar] {
        &self.0
    }

    /// As snarkjs writes public.json: an array of decimal strings.
    pub fn to_snarkjs_json(&self) -> String {
        let items: Vec<String> = self.0.iter().map(|s| format!(" \"{}\"", s.to_decimal())).collect();
        format!("[\n{}\n]\n", items.join(",\n"))
    }

    pub fn from_snarkjs_json(text: &str) -> Result<PublicInputs> {
        let j = Json::parse(text)?;
        let items = j.as_array().ok_or_else(|| Error::Decode("public.json is not an array".into()))?;
        items
            .iter()
            .map(|v| v.as_text().ok_or_else(|| Error::Decode("a public signal is not a string".into())).and_then(Scalar::from_decimal))
            .collect::<Result<_>>()
            .map(PublicInputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SNARKJS_PROOF: &str = include_str!("../../../../samples/circuits/multiplier_bn128/proof.json");

    #[test]
    fn snarkjs_json_round_trips_through_bytes() {
        let p = Proof::from_snarkjs_json(SNARKJS_PROOF).unwrap();
        assert_eq!(p.curve(), Curve::Bn254);
        assert_eq!(p.as_bytes().len(), 256);
        let again = Proof::from_snarkjs_json(&p.to_snarkjs_json()).unwrap();
        assert_eq!(again, p);
        assert_eq!(Proof::from_bytes(Curve::Bn254, p.as_bytes()).unwrap(), p);
        // The first coordinate, as snarkjs wrote it, lands little-endian in bytes 0..32.
        let first = SNARKJS_PROOF.split('"').nth(3).unwrap();
        assert_eq!(decimal::format_le(&p.as_bytes()[..32]), first);
    }

    #[test]
    fn the_point_at_infinity_is_all_zeros() {
        let p = Proof::from_bytes(Curve::Bls12_381, &[0; 384]).unwrap();
        let json = p.to_snarkjs_json();
        assert!(json.contains("\"bls12381\""));
        assert_eq!(Proof::from_snarkjs_json(&json).unwrap(), p);
    }

    #[test]
    fn refuses_wrong_sizes_and_shapes() {
        assert!(Proof::from_bytes(Curve::Bn254, &[0; 384]).is_err());
        assert!(Proof::from_snarkjs_json(&SNARKJS_PROOF.replace("bn128", "ed25519")).is_err());
        assert!(Proof::from_snarkjs_json(&SNARKJS_PROOF.replace("groth16", "plonk")).is_err());
        assert!(Proof::from_snarkjs_json("{\"curve\": \"bn128\"}").is_err());
    }

    #[test]
    fn bellperson_bytes_compress_a_b_and_c_in_order() {
        use crate::compressed::tests::*;
        // A = g1, B = g2, C = -g1: C differs from A in the sort flag only.
        let minus_g1 = [le(G1_X), negate(&le(G1_Y))].concat();
        let p = Proof::from_bytes(Curve::Bls12_381, &[g1_generator(), g2_generator(), minus_g1].concat()).unwrap();
        let bytes = p.to_bellperson_bytes().unwrap();
        let mut c = hex(G1_COMPRESSED_HEX);
        c[0] |= 0x20;
        assert_eq!(bytes.to_vec(), [hex(G1_COMPRESSED_HEX), hex(G2_COMPRESSED_HEX), c].concat());
        let bn = Proof::from_snarkjs_json(SNARKJS_PROOF).unwrap();
        assert!(bn.to_bellperson_bytes().is_err());
    }

    #[test]
    fn public_inputs_round_trip() {
        let p = PublicInputs::from_snarkjs_json("[\n \"33\",\n \"7\"\n]").unwrap();
        assert_eq!(p.values(), [Scalar::from_u64(33), Scalar::from_u64(7)]);
        assert_eq!(PublicInputs::from_bytes(p.as_bytes()).unwrap(), p);
        assert_eq!(PublicInputs::from_snarkjs_json(&p.to_snarkjs_json()).unwrap(), p);
        assert!(PublicInputs::from_snarkjs_json("[1x]").is_err());
    }
}
