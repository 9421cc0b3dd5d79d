// Where one proof's time went on its device, stage by stage, in milliseconds: device stages are
// CUDA-event times (float ms, as cudaEventElapsedTime gives them); a stage placed on the host
// (g2=host, h=host) is host wall time and flagged so. The CPU core's groth16::StageTimes is
// host wall time in nanoseconds; prove_finish converts these to the ABI's nanoseconds
// (zkp_prove_output_t); the benchmark reads them whole.
#pragma once

namespace zkp::cuda::prover {

struct DeviceStageTimes {
  double upload_ms = 0;  // witness and H scalars, pinned host → device
  double msm_a_ms = 0, msm_b1_ms = 0, msm_c_ms = 0, msm_h_ms = 0;  // device
  double msm_b2_ms = 0;  // device, or host wall when g2_on_host
  double h_ms = 0;       // the H step: device, or host wall when h_on_host
  bool g2_on_host = true, h_on_host = true;
  double queue_ms = 0;     // prove_start → the lane took the proof (host wall)
  double lane_ms = 0;      // the lane's whole job (host wall): device and host stages overlapped
  double span_ms = 0;      // the device's clock (CUDA events) from the proof's first device work
                           // to the end of its last: the time the worker spent on it, what
                           // gpu_duration_ns reports (PACING.md's gpu_duration)
  double epilogue_ms = 0;  // prove_finish after the wait: epilogue, self-check, encoding

  // The device stages' times added up. They overlap on the device (the section MSMs run
  // concurrently), so this exceeds span_ms; the benchmark reports each stage's share of it.
  double stage_sum_ms() const {
    return upload_ms + msm_a_ms + msm_b1_ms + msm_c_ms + msm_h_ms + (g2_on_host ? 0 : msm_b2_ms) +
           (h_on_host ? 0 : h_ms);
  }
  double msm_ms() const { return msm_a_ms + msm_b1_ms + msm_b2_ms + msm_c_ms + msm_h_ms; }
};

}  // namespace zkp::cuda::prover
