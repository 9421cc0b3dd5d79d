// The v1 plugin (built against v1/include alone) in today's build, handed structs of sizes it
// was not built with, as hosts of other versions will hand them: longer ones (a newer host's,
// with fields appended after v1's) and the first release's zkp_prove_output_t (an older
// host's, without `flags`). It must read and write only what each header's struct_size covers.
#include <zkpipe/host/plugin_library.hpp>
#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_prover.h>
#include <zkpipe/sdk/error.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>

namespace {

constexpr uint64_t kUntouched = 0x5A5A5A5A5A5A5A5Aull;
constexpr uint32_t kFlagsCanary = 0xA5C3A5C3u;

// T followed by fields a later ABI appended; the header says the whole thing.
template <class T>
struct Grown {
  T v1;
  uint64_t later[4] = {kUntouched, kUntouched, kUntouched, kUntouched};
  Grown() : v1(zkp::sdk::make_struct<T>()) { v1.header.struct_size = sizeof(Grown); }
  bool later_untouched() const {
    for (uint64_t x : later) {
      if (x != kUntouched) return false;
    }
    return true;
  }
};

const zkp_host_services_t* services() {
  static const zkp_host_services_t s = [] {
    auto h = zkp::sdk::make_struct<zkp_host_services_t>();
    h.log = [](void*, zkp_log_level_t, const char*) {};
    h.now_ns = [](void*) -> uint64_t { return 0; };
    return h;
  }();
  return &s;
}

class V1Plugin : public ::testing::Test {
 protected:
  void SetUp() override {
    lib_ = zkp::host::PluginLibrary::open(ZKPIPE_COMPAT_V1_PLUGIN);
    factory_ = static_cast<const zkp_prover_factory_t*>(lib_->factory(ZKP_PROVER_FACTORY_ID));
    ASSERT_NE(factory_, nullptr);
    Grown<zkp_prover_facts_t> facts;  // a newer host's facts
    facts.v1.workers_per_device = facts.v1.synthesis_threads = facts.v1.ops_per_worker = 1;
    zkp_error_t err = zkp::sdk::make_struct<zkp_error_t>();
    ASSERT_EQ(factory_->create_with_facts(services(), &facts.v1, nullptr, 0, &prover_, &err), ZKP_OK) << err.message;
    auto source = zkp::sdk::make_struct<zkp_key_source_t>();
    source.path = "unused.zkey";
    ASSERT_EQ(prover_->key_load(prover_, &source, -1, &key_, &err), ZKP_OK) << err.message;
  }
  void TearDown() override {
    if (key_ != nullptr) prover_->key_free(prover_, key_);
    if (prover_ != nullptr) prover_->destroy(prover_);
  }

  // One partition proved into `out` (whose header the test sets).
  zkp_status_t prove_into(zkp_prove_output_t& out) {
    zkp_error_t err = zkp::sdk::make_struct<zkp_error_t>();
    auto witness = zkp::sdk::make_struct<zkp_witness_t>();
    zkp_synthesis_t* s = nullptr;
    EXPECT_EQ(prover_->synthesize(prover_, key_, &witness, &s, &err), ZKP_OK) << err.message;
    auto input = zkp::sdk::make_struct<zkp_prove_input_t>();
    input.synthesis = s;
    zkp_prove_op_t* op = nullptr;
    EXPECT_EQ(prover_->prove_start(prover_, key_, &input, 0, 0, &op, &err), ZKP_OK) << err.message;
    const zkp_status_t status = prover_->prove_finish(prover_, op, &out, &err);
    prover_->synthesis_free(prover_, s);
    return status;
  }

  std::shared_ptr<zkp::host::PluginLibrary> lib_;
  const zkp_prover_factory_t* factory_ = nullptr;
  zkp_prover_t* prover_ = nullptr;
  zkp_key_t* key_ = nullptr;
};

TEST_F(V1Plugin, LoadsAndSpeaksAbiVersion1) {
  EXPECT_STREQ(lib_->entry().name, "compat_v1");
  EXPECT_EQ(lib_->abi_version(), 1u);
  EXPECT_NE(lib_->factory(ZKP_PACER_FACTORY_ID), nullptr);
}

TEST_F(V1Plugin, FillsALongerProveOutputAndLeavesTheLaterFieldsAlone) {
  Grown<zkp_prove_output_t> out;
  out.v1.flags = kFlagsCanary;
  out.v1.gpu_index = -7;
  ASSERT_EQ(prove_into(out.v1), ZKP_OK);
  EXPECT_EQ(out.v1.gpu_index, 0);  // written: v1 had it
  EXPECT_EQ(out.v1.flags, 0u);     // written: the header covers it
  EXPECT_TRUE(out.later_untouched());
}

TEST_F(V1Plugin, FillsAFirstReleaseProveOutputWithoutWritingPastIt) {
  auto out = zkp::sdk::make_struct<zkp_prove_output_t>();
  out.header.struct_size = offsetof(zkp_prove_output_t, flags);  // the first release ended before flags
  out.flags = kFlagsCanary;
  out.gpu_index = -7;
  ASSERT_EQ(prove_into(out), ZKP_OK);
  EXPECT_EQ(out.gpu_index, 0);
  EXPECT_EQ(out.flags, kFlagsCanary);  // not covered by struct_size: never touched
}

TEST_F(V1Plugin, RefusesAProveOutputTooShortForItsRequiredFields) {
  auto out = zkp::sdk::make_struct<zkp_prove_output_t>();
  out.header.struct_size = offsetof(zkp_prove_output_t, gpu_index);
  EXPECT_EQ(prove_into(out), ZKP_ERR_ABI_MISMATCH);
}

TEST_F(V1Plugin, DescribesDevicesAndKeysIntoLongerStructs) {
  zkp_error_t err = zkp::sdk::make_struct<zkp_error_t>();
  Grown<zkp_device_info_t> device;
  ASSERT_EQ(prover_->device_info(prover_, 0, &device.v1, &err), ZKP_OK) << err.message;
  EXPECT_STREQ(device.v1.name, "compat v1 simulated device");
  EXPECT_TRUE(device.later_untouched());
  Grown<zkp_key_info_t> key;
  ASSERT_EQ(prover_->key_info(prover_, key_, &key.v1, &err), ZKP_OK) << err.message;
  EXPECT_EQ(key.v1.synthesis_bytes, 1024u);
  EXPECT_TRUE(key.later_untouched());
}

TEST_F(V1Plugin, WritesItsErrorIntoALongerErrorRecord) {
  Grown<zkp_error_t> err;
  zkp_device_info_t device = zkp::sdk::make_struct<zkp_device_info_t>();
  EXPECT_EQ(prover_->device_info(prover_, 5, &device, &err.v1), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(err.v1.status, ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.v1.message).find("gpu_index 5"), std::string::npos) << err.v1.message;
  EXPECT_TRUE(err.later_untouched());
}

}  // namespace
