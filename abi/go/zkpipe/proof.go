package zkpipe

import (
	"encoding/json"
	"fmt"
	"math/big"
)

// CoordinateSize is the bytes of one base-field coordinate: 32 (BN254) or 48 (BLS12-381).
func (c Curve) CoordinateSize() int {
	if c == CurveBLS12381 {
		return 48
	}
	return 32
}

// SnarkjsName is the curve's name in snarkjs's proof.json.
func (c Curve) SnarkjsName() string {
	switch c {
	case CurveBN254:
		return "bn128"
	case CurveBLS12381:
		return "bls12381"
	}
	return "unknown"
}

// leToDecimal reads a little-endian unsigned number.
func leToDecimal(le []byte) string {
	be := make([]byte, len(le))
	for i, b := range le {
		be[len(le)-1-i] = b
	}
	return new(big.Int).SetBytes(be).String()
}

// decimalToLE writes a decimal number into n little-endian bytes.
func decimalToLE(s string, n int) ([]byte, error) {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok || v.Sign() < 0 || v.BitLen() > 8*n {
		return nil, fmt.Errorf("zkpipe: %q is not a number of %d bytes", s, n)
	}
	out := make([]byte, n)
	v.FillBytes(out)
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

type snarkjsProof struct {
	PiA      []string   `json:"pi_a"`
	PiB      [][]string `json:"pi_b"`
	PiC      []string   `json:"pi_c"`
	Protocol string     `json:"protocol"`
	Curve    string     `json:"curve"`
}

// ProofToSnarkjsJSON writes a proof in the ABI's format (A | B | C, affine, little-endian;
// all zeros is the point at infinity) as snarkjs's proof.json.
func ProofToSnarkjsJSON(curve Curve, proof []byte) ([]byte, error) {
	n := curve.CoordinateSize()
	if len(proof) != 8*n {
		return nil, fmt.Errorf("zkpipe: a %s proof is %d bytes, not %d", curve.SnarkjsName(), 8*n, len(proof))
	}
	c := make([]string, 8)
	zero := func(from, to int) bool {
		for _, b := range proof[from*n : to*n] {
			if b != 0 {
				return false
			}
		}
		return true
	}
	for i := range c {
		c[i] = leToDecimal(proof[i*n : (i+1)*n])
	}
	g1 := func(x, y string, inf bool) []string {
		if inf {
			return []string{"0", "1", "0"}
		}
		return []string{x, y, "1"}
	}
	b := [][]string{{c[2], c[3]}, {c[4], c[5]}, {"1", "0"}}
	if zero(2, 6) {
		b = [][]string{{"0", "0"}, {"1", "0"}, {"0", "0"}}
	}
	p := snarkjsProof{g1(c[0], c[1], zero(0, 2)), b, g1(c[6], c[7], zero(6, 8)), "groth16", curve.SnarkjsName()}
	return json.MarshalIndent(p, "", " ")
}

// ProofFromSnarkjsJSON reads snarkjs's proof.json into the ABI's format.
func ProofFromSnarkjsJSON(data []byte) (Curve, []byte, error) {
	var p snarkjsProof
	if err := json.Unmarshal(data, &p); err != nil {
		return CurveUnknown, nil, err
	}
	curve := map[string]Curve{"bn128": CurveBN254, "bls12381": CurveBLS12381}[p.Curve]
	if curve == CurveUnknown || p.Protocol != "groth16" || len(p.PiA) != 3 || len(p.PiC) != 3 || len(p.PiB) != 3 {
		return CurveUnknown, nil, fmt.Errorf("zkpipe: not a groth16 proof.json of a known curve")
	}
	n := curve.CoordinateSize()
	out := make([]byte, 0, 8*n)
	put := func(s string) error {
		b, err := decimalToLE(s, n)
		out = append(out, b...)
		return err
	}
	var coords []string
	for _, pt := range [][]string{p.PiA, p.PiB[0], p.PiB[1], p.PiC} {
		coords = append(coords, pt[0], pt[1])
	}
	// Infinity (z = 0) is all zeros in the ABI's format.
	if p.PiA[2] == "0" {
		coords[0], coords[1] = "0", "0"
	}
	if len(p.PiB[2]) == 2 && p.PiB[2][0] == "0" && p.PiB[2][1] == "0" {
		coords[2], coords[3], coords[4], coords[5] = "0", "0", "0", "0"
	}
	if p.PiC[2] == "0" {
		coords[6], coords[7] = "0", "0"
	}
	for _, s := range coords {
		if err := put(s); err != nil {
			return CurveUnknown, nil, err
		}
	}
	return curve, out, nil
}

// PublicToSnarkjsJSON writes public inputs (32-byte scalars) as snarkjs's public.json.
func PublicToSnarkjsJSON(public []byte) ([]byte, error) {
	if len(public)%ScalarSize != 0 {
		return nil, fmt.Errorf("zkpipe: %d bytes is not a whole number of scalars", len(public))
	}
	out := []string{}
	for i := 0; i < len(public); i += ScalarSize {
		out = append(out, leToDecimal(public[i:i+ScalarSize]))
	}
	return json.MarshalIndent(out, "", " ")
}

// PublicFromSnarkjsJSON reads snarkjs's public.json into 32-byte scalars.
func PublicFromSnarkjsJSON(data []byte) ([]byte, error) {
	var values []string
	if err := json.Unmarshal(data, &values); err != nil {
		return nil, err
	}
	var out []byte
	for _, v := range values {
		b, err := decimalToLE(v, ScalarSize)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}
