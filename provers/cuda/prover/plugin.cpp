// The plugin's one exported symbol (the prover itself is in libzkp_cuda_prover, which the
// benchmark links directly).
#include <zkpipe/sdk/plugin.hpp>

#include "cuda_prover.hpp"

ZKP_PLUGIN("cuda", "1.0.0",
           "Groth16 on NVIDIA GPUs for snarkjs zkeys (BN254, BLS12-381), byte-identical to the cpu prover",
           zkp::sdk::ProverFactory<zkp::cuda::prover::CudaProver>);
