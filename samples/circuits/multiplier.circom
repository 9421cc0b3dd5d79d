pragma circom 2.0.0;
// The README's sample: c = a * b with a, b private and c public. One constraint, so every file
// in multiplier_bn128/ is small enough to read in a hex dump next to SNARKJS-FORMATS.md.
template Multiplier() {
    signal input a;
    signal input b;
    signal output c;
    c <== a * b;
}
component main = Multiplier();
