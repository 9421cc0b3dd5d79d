// The plugin SDK's side of the later ABI additions (zkp_prover.h): ProverFactory fills
// create and create_with_facts, hands a backend the host's facts when its constructor
// takes them and still builds one whose constructor does not, reads only the facts a
// host sent, writes zkp_prove_output_t.flags only where the caller's struct has it, and
// maps a backend's own exception types through its translate_exception.
#include <zkpipe/sdk/prover.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace {

using namespace zkp;

constexpr uint32_t kSentinel = 0xA5A5A5A5u;  // what a first-release caller has past ntt_ns

struct FakeKey final : zkp_key_t {};
struct FakeOp final : zkp_prove_op_t {};

// The smallest backend: one device, empty proofs, every proof "verified".
class Fake : public sdk::Prover {
 public:
  uint32_t flags() const override { return 0; }
  uint32_t device_count() const override { return 1; }
  void device_info(uint32_t, zkp_device_info_t&) const override {}
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t&, int32_t) override {
    return std::make_unique<FakeKey>();
  }
  void key_info(const zkp_key_t&, zkp_key_info_t&) const override {}
  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t&, const zkp_witness_t&) override { return nullptr; }
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t&, const zkp_prove_input_t&, int32_t,
                                              uint32_t) override {
    return std::make_unique<FakeOp>();
  }
  void prove_finish(std::unique_ptr<zkp_prove_op_t>, zkp_prove_output_t& out) override {
    sdk::set_output_flags(out, ZKP_PROVE_OUTPUT_VERIFIED);
  }
};

class WithFacts final : public Fake {
 public:
  static constexpr const char* kName = "with-facts";
  static constexpr const char* kOptionsHelp = "";
  WithFacts(const sdk::HostServices&, const sdk::ProverFacts& f, sdk::Options&) : facts(f) {}
  sdk::ProverFacts facts;
};

// A backend written before facts existed (provers/cpu and provers/cuda today).
class Legacy final : public Fake {
 public:
  static constexpr const char* kName = "legacy";
  static constexpr const char* kOptionsHelp = "";
  Legacy(const sdk::HostServices&, sdk::Options&) {}
};
static_assert(!std::is_constructible_v<Legacy, const sdk::HostServices&, const sdk::ProverFacts&, sdk::Options&>);

template <class T>
using Factory = sdk::ProverFactory<T>;

struct Destroy {
  void operator()(zkp_prover_t* p) const { p->destroy(p); }
};
using ProverPtr = std::unique_ptr<zkp_prover_t, Destroy>;

zkp_prover_facts_t facts(uint32_t workers, uint32_t threads, uint32_t ops) {
  auto f = sdk::make_struct<zkp_prover_facts_t>();
  f.workers_per_device = workers;
  f.synthesis_threads = threads;
  f.ops_per_worker = ops;
  return f;
}

template <class T>
ProverPtr create_with(const zkp_prover_facts_t* f) {
  auto err = sdk::make_struct<zkp_error_t>();
  zkp_prover_t* p = nullptr;
  EXPECT_EQ(Factory<T>::table.create_with_facts(nullptr, f, nullptr, 0, &p, &err), ZKP_OK) << err.message;
  return ProverPtr(p);
}

template <class T>
ProverPtr create_plain() {
  auto err = sdk::make_struct<zkp_error_t>();
  zkp_prover_t* p = nullptr;
  EXPECT_EQ(Factory<T>::table.create(nullptr, nullptr, 0, &p, &err), ZKP_OK) << err.message;
  return ProverPtr(p);
}

const sdk::ProverFacts& facts_of(const ProverPtr& p) { return Factory<WithFacts>::self(p.get()).facts; }

TEST(SdkProverFactory, TheTableHasBothCreateEntriesAndItsFullSize) {
  const zkp_prover_factory_t& t = Factory<Legacy>::table;
  EXPECT_EQ(t.header.struct_size, sizeof(zkp_prover_factory_t));
  EXPECT_NE(t.create, nullptr);
  EXPECT_NE(t.create_with_facts, nullptr);
}

TEST(SdkProverFactory, CreateWithFactsHandsTheFactsToTheConstructor) {
  const zkp_prover_facts_t f = facts(3, 5, 2);
  ProverPtr p = create_with<WithFacts>(&f);
  ASSERT_TRUE(p);
  EXPECT_EQ(facts_of(p).workers_per_device, 3u);
  EXPECT_EQ(facts_of(p).synthesis_threads, 5u);
  EXPECT_EQ(facts_of(p).ops_per_worker, 2u);
}

TEST(SdkProverFactory, PlainCreateGivesTheDefaults) {
  ProverPtr p = create_plain<WithFacts>();
  ASSERT_TRUE(p);
  EXPECT_EQ(facts_of(p).workers_per_device, 1u);
  EXPECT_EQ(facts_of(p).synthesis_threads, 1u);
  EXPECT_EQ(facts_of(p).ops_per_worker, 1u);
}

TEST(SdkProverFactory, ALegacyConstructorIsBuiltThroughEitherEntry) {
  const zkp_prover_facts_t f = facts(2, 2, 2);
  EXPECT_TRUE(create_with<Legacy>(&f));
  EXPECT_TRUE(create_plain<Legacy>());
}

TEST(SdkProverFactory, OnlyTheFactsAHostSentAreRead) {
  zkp_prover_facts_t f = facts(4, 7, 2);
  f.header.struct_size = offsetof(zkp_prover_facts_t, synthesis_threads);  // an older, shorter struct
  ProverPtr p = create_with<WithFacts>(&f);
  ASSERT_TRUE(p);
  EXPECT_EQ(facts_of(p).workers_per_device, 4u);
  EXPECT_EQ(facts_of(p).synthesis_threads, 1u);
  EXPECT_EQ(facts_of(p).ops_per_worker, 1u);

  const zkp_prover_facts_t zeros = facts(0, 0, 0);
  ProverPtr q = create_with<WithFacts>(&zeros);
  ASSERT_TRUE(q);
  EXPECT_EQ(facts_of(q).workers_per_device, 1u);

  auto err = sdk::make_struct<zkp_error_t>();
  zkp_prover_t* raw = nullptr;
  EXPECT_EQ(Factory<WithFacts>::table.create_with_facts(nullptr, nullptr, nullptr, 0, &raw, &err),
            ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message, "zkp_prover_facts_t is NULL");
}

TEST(SdkOutputFlags, WrittenOnlyWhereTheCallersStructHasThem) {
  auto out = sdk::make_struct<zkp_prove_output_t>();
  sdk::set_output_flags(out, ZKP_PROVE_OUTPUT_VERIFIED);
  EXPECT_EQ(out.flags, ZKP_PROVE_OUTPUT_VERIFIED);

  auto old = sdk::make_struct<zkp_prove_output_t>();
  old.header.struct_size = static_cast<uint32_t>(sdk::kProveOutputRequiredSize);
  old.flags = kSentinel;
  sdk::set_output_flags(old, ZKP_PROVE_OUTPUT_VERIFIED);
  EXPECT_EQ(old.flags, kSentinel);
}

// prove_finish through the C table: a first-release caller's output is accepted and its
// bytes past ntt_ns are left alone; a shorter one is refused.
zkp_status_t finish_with_size(zkp_prover_t* p, uint32_t size, zkp_prove_output_t& out, zkp_error_t& err) {
  auto source = sdk::make_struct<zkp_key_source_t>();
  zkp_key_t* key = nullptr;
  EXPECT_EQ(p->key_load(p, &source, 0, &key, &err), ZKP_OK) << err.message;
  auto input = sdk::make_struct<zkp_prove_input_t>();
  auto external = sdk::make_struct<zkp_synthesized_t>();
  input.external = &external;
  zkp_prove_op_t* op = nullptr;
  EXPECT_EQ(p->prove_start(p, key, &input, 0, 0, &op, &err), ZKP_OK) << err.message;
  out = sdk::make_struct<zkp_prove_output_t>();
  out.header.struct_size = size;
  out.flags = kSentinel;
  const zkp_status_t s = p->prove_finish(p, op, &out, &err);
  p->key_free(p, key);
  return s;
}

TEST(SdkOutputFlags, ProveFinishAcceptsAFirstReleaseOutput) {
  ProverPtr p = create_plain<Legacy>();
  ASSERT_TRUE(p);
  auto err = sdk::make_struct<zkp_error_t>();
  zkp_prove_output_t out{};
  EXPECT_EQ(finish_with_size(p.get(), static_cast<uint32_t>(sdk::kProveOutputRequiredSize), out, err), ZKP_OK)
      << err.message;
  EXPECT_EQ(out.flags, kSentinel);
  EXPECT_EQ(finish_with_size(p.get(), sizeof(zkp_prove_output_t), out, err), ZKP_OK) << err.message;
  EXPECT_EQ(out.flags, ZKP_PROVE_OUTPUT_VERIFIED);
  EXPECT_EQ(finish_with_size(p.get(), static_cast<uint32_t>(sdk::kProveOutputRequiredSize - 1), out, err),
            ZKP_ERR_ABI_MISMATCH);
}

// A library's own exception type, as the CUDA kernel library's CudaError is.
struct DeviceFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// key_load throws a DeviceFault, and prove_start a plain std::runtime_error.
class Throwing : public Fake {
 public:
  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t&, int32_t) override { throw DeviceFault("the device fell off"); }
  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t&, const zkp_prove_input_t&, int32_t,
                                              uint32_t) override {
    throw std::runtime_error("a bug");
  }
};

// Maps DeviceFault to ZKP_ERR_DEVICE and leaves every other exception to the usual mapping.
class Translating final : public Throwing {
 public:
  static constexpr const char* kName = "translating";
  static constexpr const char* kOptionsHelp = "";
  Translating(const sdk::HostServices&, sdk::Options&) {}
  static void translate_exception(const std::exception& e) {
    if (dynamic_cast<const DeviceFault*>(&e) != nullptr) throw sdk::Error(ZKP_ERR_DEVICE, e.what());
  }
};

class Untranslated final : public Throwing {
 public:
  static constexpr const char* kName = "untranslated";
  static constexpr const char* kOptionsHelp = "";
  Untranslated(const sdk::HostServices&, sdk::Options&) {}
};

template <class T>
zkp_status_t load_status(std::string& message) {
  ProverPtr p = create_plain<T>();
  auto err = sdk::make_struct<zkp_error_t>();
  auto source = sdk::make_struct<zkp_key_source_t>();
  zkp_key_t* key = nullptr;
  const zkp_status_t s = p->key_load(p.get(), &source, 0, &key, &err);
  message = err.message;
  return s;
}

TEST(SdkTranslateException, ABackendsOwnExceptionBecomesTheStatusItNames) {
  std::string message;
  EXPECT_EQ(load_status<Translating>(message), ZKP_ERR_DEVICE);
  EXPECT_EQ(message, "the device fell off");
  // Without the hook the same exception is only an internal error.
  EXPECT_EQ(load_status<Untranslated>(message), ZKP_ERR_INTERNAL);
  EXPECT_EQ(message, "the device fell off");
}

TEST(SdkTranslateException, OtherExceptionsKeepTheUsualMapping) {
  ProverPtr p = create_plain<Translating>();
  auto err = sdk::make_struct<zkp_error_t>();
  auto input = sdk::make_struct<zkp_prove_input_t>();
  auto external = sdk::make_struct<zkp_synthesized_t>();
  input.external = &external;
  FakeKey key;
  zkp_prove_op_t* op = nullptr;
  EXPECT_EQ(p->prove_start(p.get(), &key, &input, 0, 0, &op, &err), ZKP_ERR_INTERNAL);
  EXPECT_STREQ(err.message, "a bug");
  EXPECT_EQ(op, nullptr);
}

}  // namespace
