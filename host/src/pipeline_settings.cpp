#include "pipeline.hpp"

namespace zkp::host {

PipelineSettings PipelineSettings::from(const Config& config, uint32_t devices) {
  PipelineSettings s;
  s.devices = devices;
  s.workers_per_device = config.workers_per_device;
  s.synthesis_threads = config.synthesis_threads;
  s.budget_bytes = config.budget_bytes;
  s.queue = config.queue;
  s.self_check = config.self_check;
  s.worker_overlap = config.worker_overlap;
  s.device_retries = config.device_retries;
  s.status_every = config.status_every;
  s.admission_watchdog_ns = static_cast<uint64_t>(config.admission_watchdog_ms) * 1'000'000;
  s.watchdog_floor_ns = static_cast<uint64_t>(config.watchdog_floor_ms) * 1'000'000;
  return s;
}

}  // namespace zkp::host
