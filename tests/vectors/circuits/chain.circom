pragma circom 2.0.0;
// 2000 constraints + 2 public signals: domainSize 2048 (snarkjs: next power of two above
// nConstraints + nPublic), a full domain with a few free rows.
include "lib/chain.circom";
component main {public [k]} = Chain(2000);
