// serve.log_format: how `zkpipe serve` writes its log lines on stderr. It is the host's
// log_format (zkpipe/host/log_format.hpp says what text and json write), under the name serve
// has always read; the format is the process's logger's (one logger for the host and the
// service), chosen at start; SIGHUP does not change it (it takes a restart, and the reload
// says so).
#pragma once

#include <zkpipe/host/log_format.hpp>

namespace zkp::serve {

using host::apply_log_format;
using host::json_log_line;
using host::LogFormat;
using host::parse_log_format;

}  // namespace zkp::serve
