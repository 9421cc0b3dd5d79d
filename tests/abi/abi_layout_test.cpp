// The ABI headers compile as C++20 too, and C and C++ agree on every struct layout
// (the C half, abi_layout.c, is compiled as strict C99 into the same program). The
// client's and the queue's headers are abi/zkpipe's too, outside zkpipe.h.
#include <zkpipe/zkpipe.h>
#include <zkpipe/zkp_client.h>
#include <zkpipe/zkp_queue.h>

#include "abi_layout.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <string>
#include <type_traits>

namespace {

#define ZKP_CXX_ROW(T)                                                     \
  static_assert(std::is_standard_layout_v<T> && std::is_trivial_v<T>, #T); \
  rows[#T] = {sizeof(T), offsetof(T, header)}

std::map<std::string, std::pair<size_t, size_t>> cxx_layout() {
  std::map<std::string, std::pair<size_t, size_t>> rows;
  ZKP_CXX_ROW(zkp_error_t);
  ZKP_CXX_ROW(zkp_host_services_t);
  ZKP_CXX_ROW(zkp_plugin_entry_t);
  ZKP_CXX_ROW(zkp_device_info_t);
  ZKP_CXX_ROW(zkp_key_source_t);
  ZKP_CXX_ROW(zkp_key_info_t);
  ZKP_CXX_ROW(zkp_witness_t);
  ZKP_CXX_ROW(zkp_synthesized_t);
  ZKP_CXX_ROW(zkp_prove_input_t);
  ZKP_CXX_ROW(zkp_prove_output_t);
  ZKP_CXX_ROW(zkp_prover_t);
  ZKP_CXX_ROW(zkp_prover_factory_t);
  ZKP_CXX_ROW(zkp_pacer_facts_t);
  ZKP_CXX_ROW(zkp_pipeline_state_t);
  ZKP_CXX_ROW(zkp_pacer_event_t);
  ZKP_CXX_ROW(zkp_pacer_t);
  ZKP_CXX_ROW(zkp_pacer_factory_t);
  ZKP_CXX_ROW(zkp_partition_t);
  ZKP_CXX_ROW(zkp_completion_t);
  ZKP_CXX_ROW(zkp_job_summary_t);
  ZKP_CXX_ROW(zkp_job_t);
  ZKP_CXX_ROW(zkp_host_stats_t);
  ZKP_CXX_ROW(zkp_prover_facts_t);
  ZKP_CXX_ROW(zkp_client_options_t);
  ZKP_CXX_ROW(zkp_client_key_t);
  ZKP_CXX_ROW(zkp_client_job_t);
  ZKP_CXX_ROW(zkp_client_partition_t);
  ZKP_CXX_ROW(zkp_client_status_t);
  ZKP_CXX_ROW(zkp_queue_partition_t);
  ZKP_CXX_ROW(zkp_queue_job_t);
  ZKP_CXX_ROW(zkp_queue_job_status_t);
  ZKP_CXX_ROW(zkp_queue_result_t);
  ZKP_CXX_ROW(zkp_witness_circuit_t);
  ZKP_CXX_ROW(zkp_witness_generator_t);
  ZKP_CXX_ROW(zkp_witness_factory_t);
  return rows;
}

// Fields added after the first release sit right after its last field: a struct grows
// only at the end, so a reader of the first layout finds everything where it was.
static_assert(offsetof(zkp_prove_output_t, flags) == offsetof(zkp_prove_output_t, ntt_ns) + sizeof(uint64_t));
static_assert(offsetof(zkp_prover_factory_t, create_with_facts) ==
              offsetof(zkp_prover_factory_t, create) + sizeof(zkp_prover_factory_t::create));

TEST(Abi, HeadersCompileAsC99AndRecordTheirSize) { EXPECT_EQ(zkp_abi_c_headers_ok(), 1); }

TEST(Abi, CAndCxxAgreeOnEveryLayout) {
  const auto cxx = cxx_layout();
  zkp_abi_layout_t c[64];
  const size_t n = zkp_abi_c_layout(c, 64);
  ASSERT_EQ(n, cxx.size());
  for (size_t i = 0; i < n; ++i) {
    auto it = cxx.find(c[i].type);
    ASSERT_NE(it, cxx.end()) << c[i].type;
    EXPECT_EQ(c[i].size, it->second.first) << c[i].type;
    EXPECT_EQ(c[i].header_offset, 0u) << c[i].type << ": the header must come first";
    EXPECT_EQ(it->second.second, 0u) << c[i].type;
  }
}

TEST(Abi, HeaderInitInCxx) {
  // `T x{ZKP_HEADER_INIT(T)}` trips -Wmissing-field-initializers; assign the header.
  zkp_job_t job{};
  job.header = ZKP_HEADER_INIT(zkp_job_t);
  EXPECT_EQ(job.header.struct_size, sizeof(zkp_job_t));
  EXPECT_EQ(job.header.struct_version, 1u);
}

TEST(Abi, EveryStatusHasAName) {
  for (zkp_status_t s = 0; s < ZKP_STATUS_COUNT; ++s) EXPECT_STRNE(zkp_status_name(s), "unknown status") << s;
  EXPECT_STREQ(zkp_status_name(ZKP_STATUS_COUNT), "unknown status");
}

// Codes are appended, never renumbered: a plugin built against an older header keeps its meaning.
TEST(Abi, StatusCodesAreAppendedNeverRenumbered) {
  EXPECT_EQ(ZKP_ERR_INVALID_PROOF, 14);
  EXPECT_EQ(ZKP_ERR_DEVICE_LOST, 15);
  EXPECT_EQ(ZKP_STATUS_COUNT, ZKP_ERR_DEVICE_LOST + 1);  // the last code
  EXPECT_STREQ(zkp_status_name(ZKP_ERR_DEVICE_LOST), "device lost");
}

}  // namespace
