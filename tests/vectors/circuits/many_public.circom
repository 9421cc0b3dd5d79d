pragma circom 2.0.0;
// Many public inputs (32) and two outputs: exercises IC length, public.json ordering (outputs
// first) and the extra A rows snarkjs adds per public signal.
// acc absorbs each input through an x^5 S-box keyed by a private s; ROUNDS passes make it a few
// hundred constraints.
template ManyPublic(N, ROUNDS) {
    signal input in[N];   // public
    signal input s;       // private
    signal output acc_out;
    signal output sum_out;
    signal acc[ROUNDS * N + 1];
    signal t2[ROUNDS * N];
    signal t4[ROUNDS * N];
    signal t5[ROUNDS * N];
    acc[0] <== s;
    for (var r = 0; r < ROUNDS; r++) {
        for (var i = 0; i < N; i++) {
            var j = r * N + i;
            t2[j] <== (acc[j] + in[i] + j) * (acc[j] + in[i] + j);
            t4[j] <== t2[j] * t2[j];
            t5[j] <== t4[j] * (acc[j] + in[i] + j);
            acc[j + 1] <== t5[j] * s;
        }
    }
    acc_out <== acc[ROUNDS * N];
    var sum = 0;
    for (var i = 0; i < N; i++) { sum += in[i]; }
    sum_out <== sum * s;
}
component main {public [in]} = ManyPublic(32, 4);
