// Points a job at the Go functions job.go exports: cgo allows no C function definitions
// in a preamble of a file that uses //export.
#include "_cgo_export.h"

void zkp_go_set_callbacks(zkp_job_t *job) {
  job->on_partition = (zkp_partition_callback_t)goOnPartition;
  job->on_job = (zkp_job_callback_t)goOnJob;
  job->on_input_released = (zkp_input_callback_t)goOnInputReleased;
}
