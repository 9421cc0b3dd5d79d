#!/usr/bin/env python3
"""Generate tests/core/known_vectors.hpp: independent reference values for the ff/ec tests.

Run once (python3 gen_known_vectors.py > known_vectors.hpp); the output is committed.
Everything is computed here from first principles with Python integers (affine curve
arithmetic, Fermat inversions), so the C++ code under test shares no code with it.
Spec constants (moduli, generators, cofactors) are quoted from their sources and checked
here (generator on curve, [r]G = O, [h*r]P = O for random P, ...) before being emitted.
"""
import random
import sys

# ---------------------------------------------------------------------------- fields

class Fq2:
    """Fq[u]/(u^2 + 1)."""
    def __init__(self, q, a, b=0):
        self.q, self.a, self.b = q, a % q, b % q
    def __add__(s, o): return Fq2(s.q, s.a + o.a, s.b + o.b)
    def __sub__(s, o): return Fq2(s.q, s.a - o.a, s.b - o.b)
    def __neg__(s): return Fq2(s.q, -s.a, -s.b)
    def __mul__(s, o):
        if isinstance(o, int): return Fq2(s.q, s.a * o, s.b * o)
        return Fq2(s.q, s.a * o.a - s.b * o.b, s.a * o.b + s.b * o.a)
    def __eq__(s, o): return s.a == o.a and s.b == o.b
    def is_zero(s): return s.a == 0 and s.b == 0
    def inv(s):
        n = pow(s.a * s.a + s.b * s.b, s.q - 2, s.q)
        return Fq2(s.q, s.a * n, -s.b * n)
    def conj(s): return Fq2(s.q, s.a, -s.b)
    def __pow__(s, e):
        r, b = Fq2(s.q, 1), s
        while e:
            if e & 1: r = r * b
            b = b * b
            e >>= 1
        return r

def sqrt_fq(x, q):
    assert q % 4 == 3
    r = pow(x, (q + 1) // 4, q)
    return r if r * r % q == x % q else None

def sqrt_fq2(x):
    """Square root in Fq2 via the norm: c0 = sqrt((a +- sqrt(a^2+b^2))/2), c1 = b/(2 c0)."""
    q = x.q
    n = sqrt_fq((x.a * x.a + x.b * x.b) % q, q)
    if n is None: return None
    inv2 = pow(2, q - 2, q)
    for sgn in (1, -1):
        c0 = sqrt_fq((x.a + sgn * n) * inv2 % q, q)
        if c0 is None or c0 == 0: continue
        c1 = x.b * pow(2 * c0, q - 2, q) % q
        y = Fq2(q, c0, c1)
        if y * y == x: return y
    return None

# ---------------------------------------------------------------------------- curves (affine)

class Curve:
    """y^2 = x^3 + b over Fq (ext=False) or Fq2 (ext=True). Points: None = infinity, else (x, y)."""
    def __init__(self, q, b, ext):
        self.q, self.b, self.ext = q, b, ext
    def el(self, v):
        return v if self.ext else v % self.q
    def inv(self, v): return v.inv() if self.ext else pow(v, self.q - 2, self.q)
    def zero(self, v): return v.is_zero() if self.ext else v % self.q == 0
    def on_curve(self, P):
        x, y = P
        return self.zero(self.sub(self.mul(y, y), self.add(self.mul(self.mul(x, x), x), self.b)))
    def add(self, a, b): return a + b if self.ext else (a + b) % self.q
    def sub(self, a, b): return a - b if self.ext else (a - b) % self.q
    def mul(self, a, b): return a * b if self.ext else (a * b) % self.q
    def neg(self, P): return None if P is None else (P[0], self.sub(self.el(0) if not self.ext else Fq2(self.q, 0), P[1]))
    def padd(self, P, Q):
        if P is None: return Q
        if Q is None: return P
        if P[0] == Q[0]:
            if self.zero(self.add(P[1], Q[1])): return None
            lam = self.mul(self.mul(self.mul(P[0], P[0]), 3), self.inv(self.add(P[1], P[1])))
        else:
            lam = self.mul(self.sub(Q[1], P[1]), self.inv(self.sub(Q[0], P[0])))
        x3 = self.sub(self.sub(self.mul(lam, lam), P[0]), Q[0])
        y3 = self.sub(self.mul(lam, self.sub(P[0], x3)), P[1])
        return (x3, y3)
    def smul(self, k, P):
        R = None
        if k < 0: k, P = -k, self.neg(P)
        while k:
            if k & 1: R = self.padd(R, P)
            P = self.padd(P, P)
            k >>= 1
        return R
    def random_point(self, rnd):
        while True:
            if self.ext:
                x = Fq2(self.q, rnd.randrange(self.q), rnd.randrange(self.q))
                y = sqrt_fq2(x * x * x + self.b)
            else:
                x = rnd.randrange(self.q)
                y = sqrt_fq((x * x * x + self.b) % self.q, self.q)
            if y is not None:
                P = (x, y)
                assert self.on_curve(P)
                return P

# ---------------------------------------------------------------------------- parameters

BN_Q = 21888242871839275222246405745257275088696311157297823662689037894645226208583
BN_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617
BN_X = 4965661367192848881  # BN seed; q and r are polynomials in it (EIP-197)
assert BN_Q == 36 * BN_X**4 + 36 * BN_X**3 + 24 * BN_X**2 + 6 * BN_X + 1
assert BN_R == 36 * BN_X**4 + 36 * BN_X**3 + 18 * BN_X**2 + 6 * BN_X + 1

BLS_Q = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
BLS_R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
BLS_Z = -0xd201000000010000  # BLS12-381 seed (draft-irtf-cfrg-pairing-friendly-curves §4.2.1)
assert BLS_R == BLS_Z**4 - BLS_Z**2 + 1
assert BLS_Q == (BLS_Z - 1) ** 2 * BLS_R // 3 + BLS_Z

# Generators. BN254 G1 = (1, 2) and G2 from EIP-197; BLS12-381 from the zcash spec
# (zkcrypto/pairing src/bls12_381/README.md), the same values as the IETF draft.
BN_G1 = (1, 2)
BN_G2 = (Fq2(BN_Q, 10857046999023057135944570762232829481370756359578518086990519993285655852781,
                 11559732032986387107991004021392285783925812861821192530917403151452391805634),
         Fq2(BN_Q, 8495653923123431417604973247489272438418190587263600148770280649306958101930,
                 4082367875863433681332203403145435568316851327593401208105741076214120093531))
BLS_G1 = (0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb,
          0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1)
BLS_G2 = (Fq2(BLS_Q, 0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
                  0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e),
          Fq2(BLS_Q, 0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
                  0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be))

BN_XI = Fq2(BN_Q, 9, 1)
BLS_XI = Fq2(BLS_Q, 1, 1)
BN_B2 = Fq2(BN_Q, 3) * BN_XI.inv()  # D-type twist: b / xi
BLS_B2 = Fq2(BLS_Q, 4) * BLS_XI     # M-type twist: b * xi

# Cofactors: BN254 G2 h = 2q - r; BLS12-381 h1 = (z-1)^2/3 and h2 from the IETF draft §4.2.1.
BN_H2 = 2 * BN_Q - BN_R
BLS_H1 = (BLS_Z - 1) ** 2 // 3
BLS_H2 = (BLS_Z**8 - 4 * BLS_Z**7 + 5 * BLS_Z**6 - 4 * BLS_Z**4 + 6 * BLS_Z**3 - 4 * BLS_Z**2 - 4 * BLS_Z + 13) // 9
assert BLS_H1 == 0x396c8c005555e1568c00aaab0000aaab
assert BLS_H2 == 0x5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5

CURVES = {
    "bn254_g1": (Curve(BN_Q, 3, False), BN_G1, 1),
    "bn254_g2": (Curve(BN_Q, BN_B2, True), BN_G2, BN_H2),
    "bls12_381_g1": (Curve(BLS_Q, 4, False), BLS_G1, BLS_H1),
    "bls12_381_g2": (Curve(BLS_Q, BLS_B2, True), BLS_G2, BLS_H2),
}
R_OF = {"bn254": BN_R, "bls12_381": BLS_R}

# ---------------------------------------------------------------------------- emit helpers

out = []
def emit(s=""): out.append(s)
def hx(v): return '"0x%x"' % v
def dec(v): return '"%d"' % v
def fq2s(v): return "{%s, %s}" % (dec(v.a), dec(v.b))

rnd = random.Random(20240531)

# ---------------------------------------------------------------------------- field vectors

emit("// Generated by tests/core/gen_known_vectors.py; do not edit. Decimal strings, standard form.")
emit("#pragma once")
emit("#include <array>")
emit("#include <string_view>")
emit("")
emit("namespace zkp::test_vectors {")
emit("")
emit("struct FieldVector {  // a op b for random a, b and e")
emit("  std::string_view a, b, sum, diff, prod, sqr, inv_a, e, pow_a_e, a_mont_hex;")
emit("};")
emit("struct FieldConstants { std::string_view r1, r2, r3; unsigned long long inv; };")
emit("")

FIELDS = {"bn254_fq": BN_Q, "bn254_fr": BN_R, "bls12_381_fq": BLS_Q, "bls12_381_fr": BLS_R}
LIMBS = {"bn254_fq": 4, "bn254_fr": 4, "bls12_381_fq": 6, "bls12_381_fr": 4}
for name, p in FIELDS.items():
    R = 1 << (64 * LIMBS[name])
    emit("inline constexpr FieldConstants k_%s_constants{%s, %s, %s, 0x%xULL};" % (
        name, dec(R % p), dec(R * R % p), dec(R**3 % p), (-pow(p, -1, 1 << 64)) % (1 << 64)))
    emit("inline constexpr std::array<FieldVector, 4> k_%s_vectors{{" % name)
    edge = [(p - 1, p - 1), (1, p - 1)]
    for i in range(4):
        a, b = edge[i] if i < 2 else (rnd.randrange(1, p), rnd.randrange(p))
        e = rnd.randrange(1 << 64) if i % 2 == 0 else rnd.randrange(p)
        emit("  {%s, %s, %s, %s, %s, %s, %s, %s, %s, %s}," % (
            dec(a), dec(b), dec((a + b) % p), dec((a - b) % p), dec(a * b % p), dec(a * a % p),
            dec(pow(a, p - 2, p)), dec(e), dec(pow(a, e, p)), hx(a * R % p)))
    emit("}};")
emit("")

# Roots of unity: ffjavascript's Fr.w[s] = nqr^t with nqr the smallest non-residue >= 2.
FFJS_W = {  # printed by ffjavascript 0.3.1 (buildBn128 / buildBls12381, Fr.w[Fr.s])
    "bn254": (28, 19103219067921713944291392827692070036145651957329286315305642004821462161904),
    "bls12_381": (32, 937917089079007706106976984802249742464848817460758522850752807661925904159),
}
for curve, (s, w) in FFJS_W.items():
    r = R_OF[curve]
    nqr = next(g for g in range(2, 100) if pow(g, (r - 1) // 2, r) == r - 1)
    assert nqr == 5 and (r - 1) % (1 << s) == 0 and ((r - 1) >> s) % 2 == 1
    assert pow(nqr, (r - 1) >> s, r) == w, curve
    emit("inline constexpr std::string_view k_%s_fr_w_s = %s;  // Fr.w[%d] in ffjavascript" % (curve, dec(w), s))
    emit("inline constexpr std::string_view k_%s_fr_w_10 = %s;  // Fr.w[10]" % (curve, dec(pow(w, 1 << (s - 10), r))))
emit("")

emit("struct Fq2Vector { std::array<std::string_view, 2> a, b, prod, sqr, inv_a, a_times_xi; };")
for curve, q, xi in (("bn254", BN_Q, BN_XI), ("bls12_381", BLS_Q, BLS_XI)):
    emit("inline constexpr std::array<Fq2Vector, 2> k_%s_fq2_vectors{{" % curve)
    for _ in range(2):
        a = Fq2(q, rnd.randrange(q), rnd.randrange(q))
        b = Fq2(q, rnd.randrange(q), rnd.randrange(q))
        emit("  {%s, %s, %s, %s, %s, %s}," % (fq2s(a), fq2s(b), fq2s(a * b), fq2s(a * a), fq2s(a.inv()), fq2s(a * xi)))
    emit("}};")
emit("")

# ---------------------------------------------------------------------------- curve vectors

def pt(P, ext):
    if ext: return "{%s, %s}" % (fq2s(P[0]), fq2s(P[1]))
    return "{%s, %s}" % (dec(P[0]), dec(P[1]))

emit("// Points: {x, y} for G1, {{x.c0, x.c1}, {y.c0, y.c1}} for G2.")
emit("template <class Coord> struct PointVector { Coord x, y; };")
emit("using G1Coord = std::string_view;")
emit("using G2Coord = std::array<std::string_view, 2>;")
emit("template <class Coord> struct ScalarMulVector { std::string_view k; PointVector<Coord> kg; };")
emit("")
emit("inline constexpr G2Coord k_bn254_g2_b = %s;  // 3 / (9 + u)" % fq2s(BN_B2))
emit("")
for name, (E, G, h) in CURVES.items():
    curve = name.rsplit("_", 1)[0]
    r = R_OF[curve]
    ext = E.ext
    coord = "G2Coord" if ext else "G1Coord"
    assert E.on_curve(G) and E.smul(r, G) is None, name
    # Cofactor check: [h*r]P = O for random points, so h*r is a multiple of every point order.
    for _ in range(2):
        assert E.smul(h * r, E.random_point(rnd)) is None, name
    emit("inline constexpr PointVector<%s> k_%s_generator = %s;" % (coord, name, pt(G, ext)))
    emit("inline constexpr std::array<ScalarMulVector<%s>, 3> k_%s_scalar_mul{{" % (coord, name))
    for k in (2, r - 1, rnd.randrange(r)):
        emit("  {%s, %s}," % (dec(k), pt(E.smul(k, G), ext)))
    emit("}};")
    if h != 1:
        # An on-curve point outside the prime-order subgroup, and its cofactor-cleared image.
        while True:
            P = E.random_point(rnd)
            if E.smul(r, P) is not None: break
        hP = E.smul(h, P)
        assert hP is not None and E.smul(r, hP) is None
        emit("inline constexpr PointVector<%s> k_%s_off_subgroup = %s;" % (coord, name, pt(P, ext)))
        emit("inline constexpr PointVector<%s> k_%s_off_subgroup_times_h = %s;" % (coord, name, pt(hP, ext)))
    emit("")

# Endomorphism eigenvalues used by the fast subgroup checks, verified on the generators.
# BLS12-381 G1: phi(x, y) = (beta x, y) acts as [-z^2] (Scott, ePrint 2021/1130 sec. 4) for the
# square of the beta that EIP-2537's fast_subgroup_checks.md lists (that one acts as [z^2 - 1]).
BETA_EIP2537 = 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac
BLS_BETA = BETA_EIP2537**2 % BLS_Q
E1 = CURVES["bls12_381_g1"][0]
assert pow(BLS_BETA, 3, BLS_Q) == 1 and BLS_BETA != 1
assert (BLS_BETA * BLS_G1[0] % BLS_Q, BLS_G1[1]) == E1.smul(-BLS_Z**2, BLS_G1)
emit("inline constexpr std::string_view k_bls12_381_beta = %s;  // cube root of unity, phi = [-z^2] on G1" % hx(BLS_BETA))
# psi = untwist o Frobenius o twist on G2: psi(x, y) = (conj(x) cx, conj(y) cy) acts as [q mod r].
for name, xi, q, r, dtype in (("bn254_g2", BN_XI, BN_Q, BN_R, True), ("bls12_381_g2", BLS_XI, BLS_Q, BLS_R, False)):
    E, G, _ = CURVES[name]
    cx = xi ** ((q - 1) // 3)
    cy = xi ** ((q - 1) // 2)
    if not dtype: cx, cy = cx.inv(), cy.inv()
    psiG = (G[0].conj() * cx, G[1].conj() * cy)
    assert E.on_curve(psiG) and psiG == E.smul(q % r, G), name
    emit("inline constexpr G2Coord k_%s_psi_cx = %s;" % (name, fq2s(cx)))
    emit("inline constexpr G2Coord k_%s_psi_cy = %s;" % (name, fq2s(cy)))
assert BN_Q % BN_R == 6 * BN_X**2 % BN_R
assert BLS_Q % BLS_R == BLS_Z % BLS_R

emit("")
emit("}  // namespace zkp::test_vectors")
print("\n".join(out))
