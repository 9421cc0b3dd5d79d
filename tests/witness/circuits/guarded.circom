pragma circom 2.0.0;

// A circuit whose own code refuses some inputs: `assert` runs in the witness generator only
// (it adds no constraint), so an input of 100 or more is refused there, naming this line.
template Guarded() {
  signal input x;
  signal output y;
  assert(x < 100);
  y <== x * x;
}

component main = Guarded();
