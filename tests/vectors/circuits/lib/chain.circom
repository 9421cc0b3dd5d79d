pragma circom 2.0.0;
// Squaring chain s[0] = x, s[i+1] = s[i]^2 + k, y = s[N]: exactly one R1CS constraint per step,
// so N sets the constraint count directly (the prover's work scales with N and nothing else).
template Chain(N) {
    signal input x;      // private
    signal input k;      // public
    signal output y;
    signal s[N+1];
    s[0] <== x;
    for (var i = 0; i < N; i++) {
        s[i+1] <== s[i] * s[i] + k;
    }
    y <== s[N];
}
