// Points the host's log sink at the Go function log.go exports: cgo allows no C function
// definitions in a preamble of a file that uses //export.
#include "_cgo_export.h"

zkp_status_t zkp_go_set_log_sink(int route, zkp_error_t *err) {
  return zkp_host_set_log_sink(route ? (zkp_log_callback_t)goOnLog : NULL, NULL, ZKP_LOG_TRACE, err);
}
