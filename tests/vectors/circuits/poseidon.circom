pragma circom 2.0.0;
// A circomlib hash: a chain of Poseidon(2) calls (~240 constraints each). circomlib's Poseidon
// constants are chosen for BN254; over BLS12-381's scalar field the circuit still compiles and
// proves (the constants are just field elements there), it is only not "the" Poseidon hash.
include "circomlib/circuits/poseidon.circom";
template PoseidonChain(N) {
    signal input preimage;   // private
    signal input salt;       // public
    signal output digest;
    component h[N];
    signal d[N + 1];
    d[0] <== preimage;
    for (var i = 0; i < N; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== d[i];
        h[i].inputs[1] <== salt;
        d[i + 1] <== h[i].out;
    }
    digest <== d[N];
}
component main {public [salt]} = PoseidonChain(3);
