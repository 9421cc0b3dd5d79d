// GET / on serve.http: the operator's dashboard, one self-contained HTML page (dashboard.html,
// compiled in at build time by embed_text.cmake) that reads /status every 2 s and shows it:
// each device's busy share and gpu_duration, the GPU queue, the pacer, proofs/s and p50/p99
// latency over the last minutes, the loaded keys, recent failures with their messages.
#pragma once

#include <string_view>

namespace zkp::serve {

extern const std::string_view kDashboardHtml;  // the page, UTF-8

}  // namespace zkp::serve
