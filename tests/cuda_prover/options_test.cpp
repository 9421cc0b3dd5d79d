// parse_options / parse_devices of the cuda prover, without a device.
#include <gtest/gtest.h>

#include <string>

#include "cuda/prover/options.hpp"
#include "readme_options.hpp"

namespace zkp::cuda::prover {
namespace {

ProverOptions parse(std::vector<zkp_option_t> opts) {
  sdk::Options o("prover 'cuda'", opts.data(), opts.size());
  ProverOptions p = parse_options(o);
  o.finish();
  return p;
}

zkp_status_t status_of(std::vector<zkp_option_t> opts, std::string* message = nullptr) {
  try {
    parse(std::move(opts));
    return ZKP_OK;
  } catch (const sdk::Error& e) {
    if (message != nullptr) *message = e.what();
    return e.status();
  }
}

TEST(CudaProverOptions, Defaults) {
  const ProverOptions o = parse({});
  EXPECT_TRUE(o.all_devices);
  EXPECT_TRUE(o.devices.empty());
  EXPECT_EQ(o.workers, 2u);
  EXPECT_EQ(o.pinned_pool_bytes, 0u);
  EXPECT_EQ(o.device_memory_bytes, 0u);
  EXPECT_EQ(o.msm_order, MsmOrder::concurrent);
  EXPECT_EQ(o.msm_scratch, MsmScratch::automatic);
  EXPECT_TRUE(o.verify);
  EXPECT_EQ(o.msm_precompute, 0u);  // all windows
  EXPECT_EQ(o.msm_window_bits, 0u);
  EXPECT_EQ(o.g2, Placement::device);
  EXPECT_EQ(o.h, Placement::device);
  EXPECT_EQ(o.host_bases, HostBases::drop);
}

TEST(CudaProverOptions, ValuesAreRead) {
  const ProverOptions o = parse({{"devices", "2,0"},
                                 {"pinned_pool_bytes", "1000"},
                                 {"device_memory_bytes", "8589934592"},
                                 {"msm_order", "sequential"},
                                 {"msm_scratch", "shared"},
                                 {"verify", "off"},
                                 {"msm_precompute", "3"},
                                 {"msm_window_bits", "16"},
                                 {"g2", "device"},
                                 {"h", "device"},
                                 {"host_threads", "7"},
                                 {"key_check", "subgroup"},
                                 {"r1cs", "/x.r1cs"}});
  EXPECT_FALSE(o.all_devices);
  EXPECT_EQ(o.devices, (std::vector<int>{2, 0}));
  EXPECT_EQ(o.pinned_pool_bytes, 1000u);
  EXPECT_EQ(o.device_memory_bytes, 8589934592u);
  EXPECT_EQ(o.msm_order, MsmOrder::sequential);
  EXPECT_EQ(o.msm_scratch, MsmScratch::shared);
  EXPECT_EQ(parse({{"msm_scratch", "per_section"}}).msm_scratch, MsmScratch::per_section);
  EXPECT_EQ(parse({{"msm_scratch", "auto"}}).msm_scratch, MsmScratch::automatic);
  EXPECT_EQ(parse({{"host_bases", "keep"}}).host_bases, HostBases::keep);
  EXPECT_EQ(parse({{"host_bases", "drop"}}).host_bases, HostBases::drop);
  EXPECT_FALSE(o.verify);
  EXPECT_EQ(o.msm_precompute, 3u);
  EXPECT_EQ(o.msm_window_bits, 16u);
  EXPECT_EQ(o.g2, Placement::device);
  EXPECT_EQ(o.h, Placement::device);
  EXPECT_EQ(o.host_threads, 7u);
  EXPECT_TRUE(o.key.check_points);
  EXPECT_EQ(o.key.point_check, PointCheck::subgroup);
  EXPECT_EQ(o.key.r1cs_path, "/x.r1cs");
}

TEST(CudaProverOptions, DeviceLists) {
  ProverOptions o;
  parse_devices("all", o);
  EXPECT_TRUE(o.all_devices);
  parse_devices("3", o);
  EXPECT_EQ(o.devices, std::vector<int>{3});
  for (const char* bad : {"", ",", "1,", ",1", "1,,2", "1,1", "-1", "a", "1 ,2", "99999"}) {
    std::string message;
    EXPECT_EQ(status_of({{"devices", bad}}, &message), ZKP_ERR_INVALID_ARGUMENT) << bad;
    EXPECT_NE(message.find("'devices'"), std::string::npos) << message;
  }
}

TEST(CudaProverOptions, MalformedValuesNameTheKey) {
  const std::pair<const char*, const char*> cases[] = {
      {"workers", "2"},         {"threads", "x"},         {"msm_precompute", "0"}, {"msm_precompute", "x"},
      {"msm_window_bits", "1"}, {"msm_window_bits", "25"}, {"g2", "gpu"},          {"h", ""},
      {"verify", "2"},          {"key_check", "all"},      {"host_threads", "-3"},
      {"msm_order", "parallel"}, {"device_memory_bytes", "8GiB"}, {"msm_scratch", "one"}, {"host_bases", "never"},
  };
  for (const auto& [key, value] : cases) {
    std::string message;
    EXPECT_EQ(status_of({{key, value}}, &message), ZKP_ERR_INVALID_ARGUMENT) << key << "=" << value;
    EXPECT_NE(message.find(std::string("'") + key + "'"), std::string::npos) << message;
  }
  std::string message;
  EXPECT_EQ(status_of({{"wrokers", "2"}}, &message), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(message.find("'wrokers'"), std::string::npos) << message;
}

// provers/cuda/prover/README.md's [prover] block lists every option of the table, each with its
// default, and nothing else: a new option (or a changed default) must be documented there. An
// option kept as the old name of another appears as "(old name: …)" on the new one's line
// (tests/support/readme_options.hpp).
TEST(CudaProverOptions, ReadmeBlockIsTheOptionTable) {
  const auto options = ::zkp::test::parse_options_help(option_table().help());
  ASSERT_FALSE(options.empty());
  for (const std::string& problem : ::zkp::test::readme_option_mismatches(ZKPIPE_CUDA_PROVER_README, "prover", options))
    ADD_FAILURE() << problem;
}

}  // namespace
}  // namespace zkp::cuda::prover
