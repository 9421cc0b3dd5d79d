// C side of the Go sample's callbacks: points the job at the Go functions that
// main.go exports (cgo forbids function definitions in a preamble next to //export).
#include "_cgo_export.h"

void zkp_go_set_callbacks(zkp_job_t *job) {
  job->on_partition = (zkp_partition_callback_t)goOnPartition;
  job->on_job = (zkp_job_callback_t)goOnJob;
}
