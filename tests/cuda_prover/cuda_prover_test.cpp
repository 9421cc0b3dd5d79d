// The cuda prover plugin through its C ABI only (dlopen), against the cpu prover plugin.
//
//   CudaProverNoGpu.*   run on any machine; on one without a GPU they check that the plugin loads,
//                       reports 0 devices and fails key_load with a clear error. (On the device
//                       machine run_on_device.sh runs them with CUDA_VISIBLE_DEVICES= .)
//   CudaProverOptions.* option errors, on any machine.
//   CudaProverDevice.*  need a GPU and SKIP (never pass) without one: proofs byte-identical to
//                       the cpu prover's for every committed vector, gpu_index honoured, bad
//                       gpu_index, unsatisfied witness, concurrent workers, pinned pool limit.
//   CudaProverTwoGpu.*  need two GPUs: gpu_index 1 runs only on device 1; -1 spreads.
//   CudaProverFault*.*  break device 0's CUDA context on purpose (fault_injection.hpp): each
//                       must run in a process of its own (ctest does; run_on_device.sh too).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cuda/util/device_guard.hpp"
#include "fault_injection.hpp"
#include "plugin_harness.hpp"

namespace zkp::test {
namespace {

namespace fs = std::filesystem;

Library& cuda_lib() {
  static Library lib(setting("ZKPIPE_CUDA_PLUGIN", ZKPIPE_CUDA_PLUGIN_PATH));
  return lib;
}
Library& cpu_lib() {
  static Library lib(setting("ZKPIPE_CPU_PLUGIN", ZKPIPE_CPU_PLUGIN_PATH));
  return lib;
}

// `workers_per_device`: the host workers the prover is told of (the cuda prover's lanes).
ProverPtr make_prover(Library& lib, const Options& options, uint32_t workers_per_device = 2) {
  ProverPtr p(nullptr, nullptr);
  zkp_error_t err = zkp::test::make<zkp_error_t>();
  const zkp_status_t s = create(lib, options, p, err, workers_per_device);
  EXPECT_EQ(s, ZKP_OK) << err.message;
  if (s != ZKP_OK) throw std::runtime_error(err.message);
  return p;
}

std::string no_device_reason() {
  cudaError_t error = cudaSuccess;
  const int n = cuda::device_count(&error);
  if (error != cudaSuccess) return std::string("no CUDA device: ") + cudaGetErrorString(error);
  if (n == 0) return "no CUDA device: cudaGetDeviceCount found 0 devices";
  return {};
}

fs::path vector_dir(const std::string& name) {
  return fs::path(setting("ZKPIPE_VECTORS_DIR", ZKPIPE_VECTORS_DATA_DIR)) / name;
}

const char* const kVectors[] = {"chain_bn128",    "many_public_bn128",    "poseidon_bn128",
                                "chain_bls12381", "many_public_bls12381", "poseidon_bls12381"};

// Fixed (r, s), below r on both curves (top byte 0x0f).
std::vector<std::uint8_t> fixed_randomness() {
  std::vector<std::uint8_t> rs(2 * ZKP_SCALAR_SIZE);
  for (std::size_t i = 0; i < rs.size(); ++i) rs[i] = static_cast<std::uint8_t>(i * 7 + 1);
  rs[ZKP_SCALAR_SIZE - 1] = rs[2 * ZKP_SCALAR_SIZE - 1] = 0x0f;
  return rs;
}

zkp_error_t error_record() { return zkp::test::make<zkp_error_t>(); }

bool contains(const char* text, const std::string& part) { return std::string(text).find(part) != std::string::npos; }

// ---------------------------------------------------------------- any machine

TEST(CudaProverNoGpu, PluginLoadsAndDescribesItsOptions) {
  EXPECT_STREQ(cuda_lib().entry().name, "cuda");
  const std::string help = cuda_lib().factory().options_help;
  for (const char* key : {"devices=", "pinned_pool_bytes=", "verify=", "msm_precompute=", "g2=", "h=", "threads="}) {
    EXPECT_NE(help.find(key), std::string::npos) << key;
  }
  // Lanes per device are the host's workers_per_device (zkp_prover_facts_t), not an option.
  EXPECT_EQ(help.find("workers="), std::string::npos) << help;
}

TEST(CudaProverNoGpu, WithoutADeviceKeyLoadFailsClearly) {
  const std::string why = no_device_reason();
  if (why.empty()) GTEST_SKIP() << "a GPU is present (run_on_device.sh runs this with CUDA_VISIBLE_DEVICES=)";
  auto p = make_prover(cuda_lib(), {});
  EXPECT_STREQ(p->name, "cuda");
  EXPECT_NE(p->flags & ZKP_PROVER_FLAG_GPU, 0u);
  EXPECT_EQ(p->flags & ZKP_PROVER_FLAG_SIMULATED, 0u);
  EXPECT_EQ(p->device_count(p.get()), 0u);
  auto d = zkp::test::make<zkp_device_info_t>();
  zkp_error_t err = error_record();
  EXPECT_EQ(p->device_info(p.get(), 0, &d, &err), ZKP_ERR_INVALID_ARGUMENT);
  Key key;
  EXPECT_EQ(load_key(p.get(), vector_dir("chain_bn128") / "circuit.zkey", -1, key, err), ZKP_ERR_DEVICE);
  EXPECT_TRUE(contains(err.message, "no device")) << err.message;
  EXPECT_TRUE(contains(err.message, "CUDA")) << err.message;
  EXPECT_EQ(key.key, nullptr);
  EXPECT_EQ(load_key(p.get(), vector_dir("chain_bn128") / "circuit.zkey", 0, key, err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "gpu_index 0")) << err.message;
  // An explicit device list cannot name a device that is not there.
  ProverPtr q(nullptr, nullptr);
  EXPECT_EQ(create(cuda_lib(), {{"devices", "0"}}, q, err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "'devices'")) << err.message;
}

TEST(CudaProverOptions, MalformedValuesAreRefusedByName) {
  const std::pair<Options, std::string> cases[] = {
      {{{"worker", "2"}}, "'worker'"},
      {{{"workers", "0"}}, "'workers'"},
      {{{"workers", "two"}}, "'workers'"},
      {{{"devices", "zero"}}, "'devices'"},
      {{{"devices", "0,0"}}, "'devices'"},
      {{{"devices", "0,"}}, "'devices'"},
      {{{"devices", "99"}}, "'devices'"},
      {{{"pinned_pool_bytes", "-1"}}, "'pinned_pool_bytes'"},
      {{{"verify", "maybe"}}, "'verify'"},
      {{{"msm_precompute", "0"}}, "'msm_precompute'"},
      {{{"msm_precompute", "most"}}, "'msm_precompute'"},
      {{{"msm_window_bits", "1"}}, "'msm_window_bits'"},
      {{{"msm_window_bits", "25"}}, "'msm_window_bits'"},
      {{{"g2", "gpu"}}, "'g2'"},
      {{{"h", "sideways"}}, "'h'"},
      {{{"key_check", "sometimes"}}, "'key_check'"},
  };
  for (const auto& [options, named] : cases) {
    ProverPtr p(nullptr, nullptr);
    zkp_error_t err = error_record();
    EXPECT_EQ(create(cuda_lib(), options, p, err), ZKP_ERR_INVALID_ARGUMENT) << named;
    EXPECT_TRUE(contains(err.message, named)) << err.message;
    EXPECT_EQ(p.get(), nullptr);
  }
}

TEST(CudaProverOptions, WellFormedValuesAreAccepted) {
  ProverPtr p(nullptr, nullptr);
  zkp_error_t err = error_record();
  EXPECT_EQ(create(cuda_lib(),
                   {{"pinned_pool_bytes", "1048576"},
                    {"verify", "false"},
                    {"msm_precompute", "2"},
                    {"msm_window_bits", "12"},
                    {"g2", "host"},
                    {"h", "host"},
                    {"host_threads", "2"},
                    {"key_check", "none"}},
                   p, err),
            ZKP_OK)
      << err.message;
}

// ---------------------------------------------------------------- one GPU

class CudaProverDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = no_device_reason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

// The cpu plugin's proof of a vector for `randomness`.
Output cpu_proof(const fs::path& dir, const std::uint8_t* randomness) {
  auto cpu = make_prover(cpu_lib(), {{"verify", "false"}});
  Key key;
  zkp_error_t err = error_record();
  if (load_key(cpu.get(), dir / "circuit.zkey", -1, key, err) != ZKP_OK) throw std::runtime_error(err.message);
  Output o(info_of(cpu.get(), key.key));
  if (prove(cpu.get(), key.key, wtns_file((dir / "witness.wtns").string()), randomness, 0, 0, o, err) != ZKP_OK) {
    throw std::runtime_error(err.message);
  }
  return o;
}

// Both placements of the G2 MSM and the H step: the defaults (device where the build has it)
// and the host fallbacks; the sequential MSM order, with the H step on the device (queued
// before msm A) and on the host; and one MSM scratch shared by the sections (what 2^27 needs).
const Options kPlacements[] = {{},
                               {{"g2", "host"}, {"h", "host"}},
                               {{"g2", "device"}, {"h", "host"}},
                               {{"msm_order", "sequential"}, {"h", "device"}},
                               {{"msm_order", "sequential"}, {"h", "host"}},
                               {{"msm_scratch", "shared"}},
                               {{"msm_scratch", "shared"}, {"msm_order", "sequential"}, {"h", "host"}},
                               // A·w and B·w on the device from the witness (provers/cuda/synth, issue 40).
                               {{"synthesis", "device"}},
                               {{"synthesis", "device"}, {"msm_order", "sequential"}, {"g2", "host"}}};

// synthesis=device: a synthesis holds the witness alone, and key_info says so.
TEST_F(CudaProverDevice, DeviceSynthesisShrinksWhatASynthesisHolds) {
  const fs::path dir = vector_dir(kVectors[0]);
  auto host = make_prover(cuda_lib(), {});
  auto device = make_prover(cuda_lib(), {{"synthesis", "device"}});
  Key kh, kd;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_key(host.get(), dir / "circuit.zkey", -1, kh, err), ZKP_OK) << err.message;
  ASSERT_EQ(load_key(device.get(), dir / "circuit.zkey", -1, kd, err), ZKP_OK) << err.message;
  const auto ih = info_of(host.get(), kh.key), id = info_of(device.get(), kd.key);
  EXPECT_EQ(ih.synthesis_bytes - id.synthesis_bytes, 2 * std::uint64_t{ih.domain_size} * ZKP_SCALAR_SIZE);
  // key_info's device_bytes: the resident bases and their scratch, and the constraint system.
  EXPECT_GT(ih.device_bytes, 0u);
  EXPECT_GT(id.device_bytes, ih.device_bytes);
}

// A private wire of `dir`'s witness changed by one, proved by the cpu prover (key `kc`, whose
// host r1cs check names the broken constraint) and by `device` (key `kd`, synthesis=device:
// the check runs on the GPU): both refuse it as an unsatisfied witness, the device in the host
// check's words, naming the same constraint; the device proves nothing.
void expect_the_device_names_the_constraint_the_host_does(const fs::path& dir, zkp_prover_t* cpu, const Key& kc,
                                                          zkp_prover_t* device, const Key& kd) {
  const auto info = info_of(device, kd.key);
  auto w = wtns_assignment(dir / "witness.wtns", info.n_vars);
  w[std::size_t{info.n_public + 2} * ZKP_SCALAR_SIZE] ^= 1;
  zkp_error_t err = error_record();
  Output on_cpu(info_of(cpu, kc.key)), on_device(info);
  ASSERT_EQ(prove(cpu, kc.key, assignment(w), nullptr, 0, 0, on_cpu, err), ZKP_ERR_UNSATISFIED_WITNESS);
  const std::string host_words = err.message;
  const auto at = host_words.find("does not satisfy constraint ");
  ASSERT_NE(at, std::string::npos) << host_words;
  const auto before = device_info(device, 0);
  EXPECT_EQ(prove(device, kd.key, assignment(w), nullptr, 0, 0, on_device, err), ZKP_ERR_UNSATISFIED_WITNESS);
  EXPECT_TRUE(contains(err.message, host_words.substr(at))) << err.message << " | host: " << host_words;
  EXPECT_EQ(device_info(device, 0).partitions_proved, before.partitions_proved);
}

// synthesis=device with the circuit (key option r1cs): the r1cs check runs on the device (C·w
// against a·b row by row), so a broken witness is refused naming the constraint the cpu
// prover's host check names, on every committed vector, both curves; good witnesses prove as
// the cpu prover does.
TEST_F(CudaProverDevice, ZkeyDeviceSynthesisChecksTheCircuitOnTheDevice) {
  const auto rs = fixed_randomness();
  for (const char* name : kVectors) {
    SCOPED_TRACE(name);
    const fs::path dir = vector_dir(name);
    const std::string r1cs = (dir / "circuit.r1cs").string();
    auto cpu = make_prover(cpu_lib(), {{"r1cs", r1cs}});
    auto p = make_prover(cuda_lib(), {{"r1cs", r1cs}, {"synthesis", "device"}, {"workers", "1"}});
    Key kc, kd;
    zkp_error_t err = error_record();
    ASSERT_EQ(load_key(cpu.get(), dir / "circuit.zkey", -1, kc, err), ZKP_OK) << err.message;
    ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", -1, kd, err), ZKP_OK) << err.message;
    const auto info = info_of(p.get(), kd.key);
    expect_the_device_names_the_constraint_the_host_does(dir, cpu.get(), kc, p.get(), kd);

    const Output want = cpu_proof(dir, rs.data());
    Output got(info);
    ASSERT_EQ(prove(p.get(), kd.key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 0, got, err), ZKP_OK)
        << err.message;
    EXPECT_EQ(got.proof, want.proof);
  }
}

TEST_F(CudaProverDevice, ProofsAreByteIdenticalToTheCpuProver) {
  const auto rs = fixed_randomness();
  for (const Options& placement : kPlacements) {
    std::string label = placement.empty() ? "defaults" : "";
    for (const auto& [k, v] : placement) label += k + "=" + v + " ";
    auto p = make_prover(cuda_lib(), placement);
    for (const char* name : kVectors) {
      SCOPED_TRACE(std::string(name) + " " + label);
      const fs::path dir = vector_dir(name);
      Key key;
      zkp_error_t err = error_record();
      ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", -1, key, err), ZKP_OK) << err.message;
      const auto info = info_of(p.get(), key.key);
      const Output want = cpu_proof(dir, rs.data());
      Output got(info);
      ASSERT_EQ(prove(p.get(), key.key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 0, got, err), ZKP_OK)
          << err.message;
      EXPECT_EQ(got.proof, want.proof);
      EXPECT_EQ(got.publics, want.publics);
      EXPECT_EQ(got.out.gpu_index, 0);
      EXPECT_GT(got.out.gpu_duration_ns, 0u);
      EXPECT_GT(got.out.msm_ns, 0u);
      EXPECT_GT(got.out.ntt_ns, 0u);

      // r = s = 0 too (the blinding terms vanish: the raw MSM sums show through).
      const std::vector<std::uint8_t> zero(2 * ZKP_SCALAR_SIZE, 0);
      const Output want0 = cpu_proof(dir, zero.data());
      Output got0(info);
      ASSERT_EQ(prove(p.get(), key.key, wtns_file((dir / "witness.wtns").string()), zero.data(), 0, 1, got0, err),
                ZKP_OK)
          << err.message;
      EXPECT_EQ(got0.proof, want0.proof);

      // OS randomness: a different proof that still verifies.
      Output fresh(info);
      ASSERT_EQ(prove(p.get(), key.key, wtns_file((dir / "witness.wtns").string()), nullptr, 0, 0, fresh, err), ZKP_OK)
          << err.message;
      EXPECT_NE(fresh.proof, got.proof);
      std::int32_t valid = -1;
      ASSERT_EQ(p->verify(p.get(), key.key, fresh.proof.data(), fresh.proof.size(), fresh.publics.data(),
                          fresh.publics.size(), &valid, &err),
                ZKP_OK)
          << err.message;
      EXPECT_EQ(valid, 1);
    }
  }
}

TEST_F(CudaProverDevice, CallerSynthesizedInputMatchesTheCpuProver) {
  // A caller's own synthesis (zkp_synthesized_t) with abc_length 0: a = b = c = 0, so H = 0 and
  // only the witness MSMs and the epilogue matter. Such a proof does not verify (the rows are
  // not the circuit's), so the self-check is off on both sides; the bytes must still agree.
  const auto rs = fixed_randomness();
  const fs::path dir = vector_dir("many_public_bn128");
  auto cuda = make_prover(cuda_lib(), {{"verify", "false"}});
  auto cpu = make_prover(cpu_lib(), {{"verify", "false"}});
  Key kc, kp;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_key(cuda.get(), dir / "circuit.zkey", 0, kc, err), ZKP_OK) << err.message;
  ASSERT_EQ(load_key(cpu.get(), dir / "circuit.zkey", 0, kp, err), ZKP_OK) << err.message;
  const auto info = info_of(cuda.get(), kc.key);
  const auto w = wtns_assignment(dir / "witness.wtns", info.n_vars);
  auto ext = zkp::test::make<zkp_synthesized_t>();
  ext.abc_length = 0;
  ext.assignment = w.data();
  ext.assignment_length = info.n_vars;
  auto in = zkp::test::make<zkp_prove_input_t>();
  in.external = &ext;
  in.randomness = rs.data();
  Output a(info), b(info);
  for (auto [p, key, out] : {std::tuple{cuda.get(), kc.key, &a}, std::tuple{cpu.get(), kp.key, &b}}) {
    zkp_prove_op_t* op = nullptr;
    ASSERT_EQ(p->prove_start(p, key, &in, 0, 0, &op, &err), ZKP_OK) << err.message;
    ASSERT_EQ(p->prove_finish(p, op, &out->out, &err), ZKP_OK) << err.message;
  }
  EXPECT_EQ(a.proof, b.proof);
}

TEST_F(CudaProverDevice, GpuIndexIsHonouredAndCounted) {
  auto p = make_prover(cuda_lib(), {});
  const std::uint32_t n = p->device_count(p.get());
  ASSERT_GE(n, 1u);
  const fs::path dir = vector_dir("chain_bn128");
  Key key;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", -1, key, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), key.key);
  for (std::uint32_t d = 0; d < n; ++d) {
    std::vector<zkp_device_info_t> before;
    for (std::uint32_t i = 0; i < n; ++i) before.push_back(device_info(p.get(), i));
    Output o(info);
    ASSERT_EQ(prove(p.get(), key.key, wtns_file((dir / "witness.wtns").string()), nullptr, static_cast<int32_t>(d), 0,
                    o, err),
              ZKP_OK)
        << err.message;
    EXPECT_EQ(o.out.gpu_index, static_cast<int32_t>(d));
    for (std::uint32_t i = 0; i < n; ++i) {
      const auto after = device_info(p.get(), i);
      const std::uint64_t expect = i == d ? 1 : 0;
      EXPECT_EQ(after.partitions_started - before[i].partitions_started, expect) << "device " << i;
      EXPECT_EQ(after.partitions_proved - before[i].partitions_proved, expect) << "device " << i;
      if (i == d) {
        EXPECT_EQ(after.busy_ns - before[i].busy_ns, o.out.gpu_duration_ns);
      }
    }
  }
  const auto d0 = device_info(p.get(), 0);
  EXPECT_GT(d0.memory_bytes, 0u);
  EXPECT_GT(d0.memory_free_bytes, 0u);
  EXPECT_NE(std::string(d0.name), "");
}

TEST_F(CudaProverDevice, OutOfRangeGpuIndexIsAClearError) {
  auto p = make_prover(cuda_lib(), {});
  const auto n = static_cast<int32_t>(p->device_count(p.get()));
  const fs::path dir = vector_dir("chain_bn128");
  zkp_error_t err = error_record();
  Key bad;
  EXPECT_EQ(load_key(p.get(), dir / "circuit.zkey", n, bad, err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "gpu_index " + std::to_string(n))) << err.message;
  EXPECT_EQ(load_key(p.get(), dir / "circuit.zkey", -2, bad, err), ZKP_ERR_INVALID_ARGUMENT);
  Key key;
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", 0, key, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), key.key);
  for (const int32_t g : {n, n + 7, -2}) {
    Output o(info);
    EXPECT_EQ(prove(p.get(), key.key, wtns_file((dir / "witness.wtns").string()), nullptr, g, 0, o, err),
              ZKP_ERR_INVALID_ARGUMENT)
        << g;
    EXPECT_TRUE(contains(err.message, "out of range")) << err.message;
  }
  auto d = zkp::test::make<zkp_device_info_t>();
  EXPECT_EQ(p->device_info(p.get(), static_cast<uint32_t>(n), &d, &err), ZKP_ERR_INVALID_ARGUMENT);
}

TEST_F(CudaProverDevice, UnsatisfiedWitnessNeverBecomesAProof) {
  auto p = make_prover(cuda_lib(), {});
  const fs::path dir = vector_dir("poseidon_bn128");
  Key key;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", 0, key, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), key.key);
  auto w = wtns_assignment(dir / "witness.wtns", info.n_vars);
  // A private wire (past the constant and the public signals) changed by one.
  w[std::size_t{info.n_public + 2} * ZKP_SCALAR_SIZE] ^= 1;
  const auto before = device_info(p.get(), 0);
  Output o(info);
  EXPECT_EQ(prove(p.get(), key.key, assignment(w), nullptr, 0, 0, o, err), ZKP_ERR_UNSATISFIED_WITNESS);
  EXPECT_TRUE(contains(err.message, "does not verify")) << err.message;
  const auto after = device_info(p.get(), 0);
  EXPECT_EQ(after.partitions_started, before.partitions_started + 1);
  EXPECT_EQ(after.partitions_proved, before.partitions_proved);

  // Without the self-check the proof comes back, and verify() rejects it.
  auto q = make_prover(cuda_lib(), {{"verify", "false"}});
  Key k2;
  ASSERT_EQ(load_key(q.get(), dir / "circuit.zkey", 0, k2, err), ZKP_OK) << err.message;
  Output o2(info);
  ASSERT_EQ(prove(q.get(), k2.key, assignment(w), nullptr, 0, 0, o2, err), ZKP_OK) << err.message;
  std::int32_t valid = -1;
  ASSERT_EQ(
      q->verify(q.get(), k2.key, o2.proof.data(), o2.proof.size(), o2.publics.data(), o2.publics.size(), &valid, &err),
      ZKP_OK);
  EXPECT_EQ(valid, 0);

  // The device is still fine: the next good proof succeeds.
  Output good(info);
  EXPECT_EQ(prove(p.get(), key.key, wtns_file((dir / "witness.wtns").string()), nullptr, 0, 0, good, err), ZKP_OK)
      << err.message;
}

TEST_F(CudaProverDevice, ConcurrentWorkersAllProduceTheCpuProof) {
  const auto rs = fixed_randomness();
  const fs::path dir = vector_dir("chain_bls12381");
  const Output want = cpu_proof(dir, rs.data());
  auto p = make_prover(cuda_lib(), {}, 3);  // 3 host workers: 3 lanes
  Key key;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", -1, key, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), key.key);
  constexpr int kThreads = 4, kEach = 3;  // 4 host workers on 3 lanes: two share one
  std::vector<int> good(kThreads, 0);
  std::vector<std::thread> threads;
  const std::string wtns = (dir / "witness.wtns").string();
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        zkp_error_t e = error_record();
        Output o(info);
        if (prove(p.get(), key.key, wtns_file(wtns), rs.data(), 0, static_cast<uint32_t>(t), o, e) == ZKP_OK &&
            o.proof == want.proof) {
          ++good[t];
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(good[t], kEach) << "worker " << t;
  EXPECT_EQ(device_info(p.get(), 0).partitions_proved, std::uint64_t{kThreads * kEach});
}

TEST_F(CudaProverDevice, PrefinishedOpsAreFreedAndStartOverlapsFinish) {
  // Two proofs started before either is finished (the host's pattern), finished in reverse order.
  const auto rs = fixed_randomness();
  const fs::path dir = vector_dir("chain_bn128");
  const Output want = cpu_proof(dir, rs.data());
  auto p = make_prover(cuda_lib(), {});
  Key key;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", 0, key, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), key.key);
  const auto wtns = wtns_file((dir / "witness.wtns").string());
  zkp_synthesis_t* syn = nullptr;
  ASSERT_EQ(p->synthesize(p.get(), key.key, wtns.get(), &syn, &err), ZKP_OK) << err.message;
  auto in = zkp::test::make<zkp_prove_input_t>();
  in.synthesis = syn;
  in.randomness = rs.data();
  zkp_prove_op_t *op1 = nullptr, *op2 = nullptr;
  ASSERT_EQ(p->prove_start(p.get(), key.key, &in, 0, 0, &op1, &err), ZKP_OK) << err.message;
  ASSERT_EQ(p->prove_start(p.get(), key.key, &in, 0, 0, &op2, &err), ZKP_OK) << err.message;
  Output o2(info), o1(info);
  ASSERT_EQ(p->prove_finish(p.get(), op2, &o2.out, &err), ZKP_OK) << err.message;
  ASSERT_EQ(p->prove_finish(p.get(), op1, &o1.out, &err), ZKP_OK) << err.message;
  EXPECT_EQ(o1.proof, want.proof);
  EXPECT_EQ(o2.proof, want.proof);
  // A short buffer fails the op, which is still freed (and waited for) by prove_finish.
  zkp_prove_op_t* op3 = nullptr;
  ASSERT_EQ(p->prove_start(p.get(), key.key, &in, 0, 0, &op3, &err), ZKP_OK) << err.message;
  Output small(info.proof_size - 1, info.public_size);
  EXPECT_EQ(p->prove_finish(p.get(), op3, &small.out, &err), ZKP_ERR_SHORT_BUFFER);
  EXPECT_EQ(small.out.proof_size, info.proof_size);
  p->synthesis_free(p.get(), syn);
}

TEST_F(CudaProverDevice, TooSmallPinnedPoolFailsKeyLoadNamingTheOption) {
  auto p = make_prover(cuda_lib(), {{"pinned_pool_bytes", "4096"}});
  Key key;
  zkp_error_t err = error_record();
  EXPECT_EQ(load_key(p.get(), vector_dir("chain_bn128") / "circuit.zkey", 0, key, err), ZKP_ERR_OUT_OF_MEMORY);
  EXPECT_TRUE(contains(err.message, "pinned_pool_bytes")) << err.message;
  EXPECT_TRUE(contains(err.message, "device 0")) << err.message;
  // A pool that is large enough works.
  auto q = make_prover(cuda_lib(), {{"pinned_pool_bytes", std::to_string(64u << 20)}});
  Key k2;
  EXPECT_EQ(load_key(q.get(), vector_dir("chain_bn128") / "circuit.zkey", 0, k2, err), ZKP_OK) << err.message;
}

TEST_F(CudaProverDevice, ReloadingAKeySharesTheResidentCopy) {
  auto p = make_prover(cuda_lib(), {});
  const fs::path zkey = vector_dir("chain_bls12381") / "circuit.zkey";
  zkp_error_t err = error_record();
  Key first;
  ASSERT_EQ(load_key(p.get(), zkey, 0, first, err), ZKP_OK) << err.message;
  const std::uint64_t free_after_first = device_info(p.get(), 0).memory_free_bytes;
  {
    Key second;
    ASSERT_EQ(load_key(p.get(), zkey, 0, second, err), ZKP_OK) << err.message;
    // The bases of this key with every window precomputed are tens of MiB; a second upload
    // would show. (Other processes on the device could move free memory too: the slack is 8 MiB.)
    constexpr std::uint64_t kSlack = 8u << 20;
    EXPECT_GE(device_info(p.get(), 0).memory_free_bytes + kSlack, free_after_first);
  }
  // The first handle still proves after the second is freed.
  Output o(info_of(p.get(), first.key));
  EXPECT_EQ(prove(p.get(), first.key, wtns_file((zkey.parent_path() / "witness.wtns").string()), nullptr, 0, 0, o, err),
            ZKP_OK)
      << err.message;
}

TEST_F(CudaProverDevice, KeyLargerThanTheDeviceMemoryIsRefusedBeforeUpload) {
  // device_memory_bytes stands in for a small device: the same check refuses a key larger
  // than the whole of a real one.
  auto p = make_prover(cuda_lib(), {{"device_memory_bytes", std::to_string(1u << 20)}});
  const fs::path dir = vector_dir("chain_bn128");
  const std::size_t free_before = free_device_bytes(0);
  Key key;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", 0, key, err), ZKP_ERR_OUT_OF_MEMORY);
  EXPECT_TRUE(contains(err.message, "device 0")) << err.message;
  EXPECT_TRUE(contains(err.message, "is too large for the device")) << err.message;
  EXPECT_TRUE(contains(err.message, "device_memory_bytes")) << err.message;
  constexpr std::size_t kSlack = 2u << 20;  // the refusal uploads nothing
  EXPECT_GE(free_device_bytes(0) + kSlack, free_before);
  // The prover is unharmed: the same key loads where it fits.
  auto q = make_prover(cuda_lib(), {});
  Key fits;
  ASSERT_EQ(load_key(q.get(), dir / "circuit.zkey", 0, fits, err), ZKP_OK) << err.message;
}

TEST_F(CudaProverDevice, DeviceOutOfMemoryFailsKeyLoadLeaksNothingAndRecovers) {
  auto p = make_prover(cuda_lib(), {});
  const fs::path dir = vector_dir("chain_bls12381");
  zkp_error_t err = error_record();
  // A key already resident keeps proving while another cannot be loaded.
  Key resident;
  ASSERT_EQ(load_key(p.get(), vector_dir("chain_bn128") / "circuit.zkey", 0, resident, err), ZKP_OK) << err.message;
  const std::size_t free_before = free_device_bytes(0);
  {
    // Another process (here: this one) holds all but 4 MiB: the estimate fits the device,
    // the allocations do not.
    MemoryHog hog(0, 4u << 20);
    ASSERT_GT(hog.bytes(), 0u);
    Key key;
    ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", 0, key, err), ZKP_ERR_OUT_OF_MEMORY);
    EXPECT_TRUE(contains(err.message, "device 0")) << err.message;
    EXPECT_TRUE(contains(err.message, "out of memory")) << err.message;
    const auto rs = fixed_randomness();
    Output o(info_of(p.get(), resident.key));
    const fs::path bn = vector_dir("chain_bn128");
    ASSERT_EQ(prove(p.get(), resident.key, wtns_file((bn / "witness.wtns").string()), rs.data(), 0, 0, o, err), ZKP_OK)
        << err.message;
    EXPECT_EQ(o.proof, cpu_proof(bn, rs.data()).proof);
  }
  // Everything the failed load had allocated is back (the allocator rounds: 2 MiB slack).
  constexpr std::size_t kSlack = 2u << 20;
  EXPECT_GE(free_device_bytes(0) + kSlack, free_before);
  // With the memory back, the same key loads and proves the cpu prover's bytes.
  Key key;
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", 0, key, err), ZKP_OK) << err.message;
  const auto rs = fixed_randomness();
  Output o(info_of(p.get(), key.key));
  ASSERT_EQ(prove(p.get(), key.key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 0, o, err), ZKP_OK)
      << err.message;
  EXPECT_EQ(o.proof, cpu_proof(dir, rs.data()).proof);
}

// ---------------------------------------------------------------- device faults

// Breaks device 0 for the rest of the process: one test per process (ctest runs each test
// in its own; run_on_device.sh runs these one by one).
class CudaProverFault : public CudaProverDevice {};

TEST_F(CudaProverFault, AFaultedDeviceFailsItsProofsClearlyAndForever) {
  auto p = make_prover(cuda_lib(), {{"devices", "0"}});
  const fs::path dir = vector_dir("chain_bn128");
  const std::string wtns = (dir / "witness.wtns").string();
  zkp_error_t err = error_record();
  Key key;
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", 0, key, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), key.key);
  Output before(info);
  ASSERT_EQ(prove(p.get(), key.key, wtns_file(wtns), nullptr, 0, 0, before, err), ZKP_OK) << err.message;

  const std::string fault = break_device(0);
  ASSERT_FALSE(fault.empty()) << "the injected kernel did not fault";

  // The next proof meets the fault: ZKP_ERR_DEVICE_LOST (sticky) naming device, worker, stage and cause.
  Output o(info);
  EXPECT_EQ(prove(p.get(), key.key, wtns_file(wtns), nullptr, 0, 1, o, err), ZKP_ERR_DEVICE_LOST);
  EXPECT_TRUE(contains(err.message, "device 0")) << err.message;
  EXPECT_TRUE(contains(err.message, "worker 1")) << err.message;
  EXPECT_TRUE(contains(err.message, fault)) << err.message;
  // From then on the device is lost: proofs fail at once, for any worker and for -1.
  for (std::int32_t gpu : {0, -1}) {
    Output again(info);
    EXPECT_EQ(prove(p.get(), key.key, wtns_file(wtns), nullptr, gpu, 0, again, err), ZKP_ERR_DEVICE_LOST);
    EXPECT_TRUE(contains(err.message, "unusable after")) << "gpu_index " << gpu << ": " << err.message;
  }
  Key other;
  EXPECT_EQ(load_key(p.get(), vector_dir("chain_bls12381") / "circuit.zkey", 0, other, err), ZKP_ERR_DEVICE_LOST);
  EXPECT_TRUE(contains(err.message, "unusable after")) << err.message;
  // Counters stay consistent: three starts reached the device, one proof was made.
  const auto d = device_info(p.get(), 0);
  EXPECT_EQ(d.partitions_proved, 1u);
  // Verification is host work and still answers.
  std::int32_t valid = -1;
  ASSERT_EQ(p->verify(p.get(), key.key, before.proof.data(), before.proof.size(), before.publics.data(),
                      before.publics.size(), &valid, &err),
            ZKP_OK)
      << err.message;
  EXPECT_EQ(valid, 1);
  // The key and the prover are then freed without hanging or crashing (the scope's end).
}

// Two GPUs: skips (with the count) on a machine with one. Used by the fault suite below and
// by the two-GPU section.
class CudaProverTwoGpu : public CudaProverDevice {
 protected:
  void SetUp() override {
    CudaProverDevice::SetUp();
    if (IsSkipped()) return;
    if (cuda::device_count() < 2) GTEST_SKIP() << "needs 2 CUDA devices, found " << cuda::device_count();
  }
};

// A suite of its own: its tests break device 0 (run one per process).
class CudaProverFaultTwoGpu : public CudaProverTwoGpu {};

// What happens to device 1 depends on the CUDA runtime: if it keeps device 1's context apart
// from device 0's fault, device 1 keeps proving and gpu_index -1 avoids device 0; if the
// fault breaks the whole process (H200, CUDA 13), every device fails fast with the cause and
// nothing hangs. The test asks the runtime which it is and checks the prover against it.
TEST_F(CudaProverFaultTwoGpu, AFaultOnDeviceZeroLeavesDeviceOneAsUsableAsTheRuntimeAllows) {
  auto p = make_prover(cuda_lib(), {});
  const fs::path dir = vector_dir("chain_bls12381");
  const std::string wtns = (dir / "witness.wtns").string();
  zkp_error_t err = error_record();
  Key key;
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", -1, key, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), key.key);
  const auto rs = fixed_randomness();
  const Output want = cpu_proof(dir, rs.data());

  zkp_synthesis_t* syn = nullptr;
  const auto w = wtns_file(wtns);
  ASSERT_EQ(p->synthesize(p.get(), key.key, w.get(), &syn, &err), ZKP_OK) << err.message;
  auto in = zkp::test::make<zkp_prove_input_t>();
  in.synthesis = syn;
  in.randomness = rs.data();
  const auto prove_on = [&](std::int32_t gpu, Output& o) {
    zkp_prove_op_t* op = nullptr;
    const zkp_status_t s = p->prove_start(p.get(), key.key, &in, gpu, 0, &op, &err);
    return s != ZKP_OK ? s : p->prove_finish(p.get(), op, &o.out, &err);
  };

  // A proof in flight on device 1 while device 0 faults: it either finished first or fails
  // with a device error (or the device lost); it never hangs and never returns a wrong proof.
  zkp_prove_op_t* op = nullptr;
  ASSERT_EQ(p->prove_start(p.get(), key.key, &in, 1, 0, &op, &err), ZKP_OK) << err.message;
  const std::string fault = break_device(0);
  ASSERT_FALSE(fault.empty()) << "the injected kernel did not fault";
  Output during(info);
  const zkp_status_t during_status = p->prove_finish(p.get(), op, &during.out, &err);
  if (during_status == ZKP_OK) {
    EXPECT_EQ(during.proof, want.proof);
  } else {
    EXPECT_TRUE(during_status == ZKP_ERR_DEVICE || during_status == ZKP_ERR_DEVICE_LOST) << err.message;
  }
  const bool isolated = device_usable(1);
  std::printf("the CUDA runtime %s device 1 after device 0's fault (%s)\n", isolated ? "keeps" : "does not keep",
              fault.c_str());

  // Device 0 fails with its cause.
  Output failed(info);
  EXPECT_EQ(prove_on(0, failed), ZKP_ERR_DEVICE_LOST);
  EXPECT_TRUE(contains(err.message, "device 0")) << err.message;
  EXPECT_TRUE(contains(err.message, fault)) << err.message;

  Key other;
  EXPECT_EQ(load_key(p.get(), vector_dir("chain_bn128") / "circuit.zkey", 0, other, err), ZKP_ERR_DEVICE_LOST);
  constexpr int kProofs = 3;
  if (isolated) {
    // The same synthesis proves on device 1 (the host's retry does exactly this), and -1
    // goes there only.
    for (std::int32_t gpu : {1, -1, -1, -1}) {
      Output o(info);
      ASSERT_EQ(prove_on(gpu, o), ZKP_OK) << err.message;
      EXPECT_EQ(o.out.gpu_index, 1);
      EXPECT_EQ(o.proof, want.proof);
    }
    Key on1;
    EXPECT_EQ(load_key(p.get(), vector_dir("chain_bn128") / "circuit.zkey", 1, on1, err), ZKP_OK) << err.message;
  } else {
    // Every device fails at once, lost, with a message that says why; none hangs.
    for (int i = 0; i < kProofs; ++i) {
      for (std::int32_t gpu : {1, -1}) {
        Output o(info);
        EXPECT_EQ(prove_on(gpu, o), ZKP_ERR_DEVICE_LOST) << "gpu_index " << gpu;
        EXPECT_TRUE(contains(err.message, "unusable")) << err.message;
      }
    }
    Key on1;
    EXPECT_EQ(load_key(p.get(), vector_dir("chain_bn128") / "circuit.zkey", 1, on1, err), ZKP_ERR_DEVICE_LOST);
    EXPECT_TRUE(contains(err.message, "unusable")) << err.message;
  }
  // Verification is host work and still answers.
  std::int32_t valid = -1;
  ASSERT_EQ(p->verify(p.get(), key.key, want.proof.data(), want.proof.size(), want.publics.data(), want.publics.size(),
                      &valid, &err),
            ZKP_OK)
      << err.message;
  EXPECT_EQ(valid, 1);
  p->synthesis_free(p.get(), syn);
}

// ---------------------------------------------------------------- two GPUs



TEST_F(CudaProverTwoGpu, GpuIndexOneRunsOnlyOnDeviceOne) {
  auto p = make_prover(cuda_lib(), {});
  const fs::path dir = vector_dir("chain_bn128");
  zkp_error_t err = error_record();
  Key on1;
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", 1, on1, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), on1.key);
  // Loaded on device 1 only: device 0 cannot run it.
  Output o(info);
  EXPECT_EQ(prove(p.get(), on1.key, wtns_file((dir / "witness.wtns").string()), nullptr, 0, 0, o, err),
            ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(err.message, "not loaded on device 0")) << err.message;
  constexpr int kProofs = 4;
  for (int i = 0; i < kProofs; ++i) {
    Output oi(info);
    ASSERT_EQ(prove(p.get(), on1.key, wtns_file((dir / "witness.wtns").string()), nullptr, 1, static_cast<uint32_t>(i),
                    oi, err),
              ZKP_OK)
        << err.message;
    EXPECT_EQ(oi.out.gpu_index, 1);
  }
  EXPECT_EQ(device_info(p.get(), 0).partitions_started, 0u);
  EXPECT_EQ(device_info(p.get(), 1).partitions_started, std::uint64_t{kProofs} + 0);
  EXPECT_EQ(device_info(p.get(), 1).partitions_proved, std::uint64_t{kProofs});
}

TEST_F(CudaProverTwoGpu, AnyDeviceSpreadsOverBoth) {
  auto p = make_prover(cuda_lib(), {});
  const fs::path dir = vector_dir("chain_bls12381");
  zkp_error_t err = error_record();
  Key key;
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", -1, key, err), ZKP_OK) << err.message;
  const auto info = info_of(p.get(), key.key);
  const auto wtns = wtns_file((dir / "witness.wtns").string());
  zkp_synthesis_t* syn = nullptr;
  ASSERT_EQ(p->synthesize(p.get(), key.key, wtns.get(), &syn, &err), ZKP_OK) << err.message;
  auto in = zkp::test::make<zkp_prove_input_t>();
  in.synthesis = syn;
  // Started back to back, before any is finished: each start sees the others in flight.
  constexpr int kProofs = 6;
  std::vector<zkp_prove_op_t*> ops(kProofs, nullptr);
  for (int i = 0; i < kProofs; ++i) {
    ASSERT_EQ(p->prove_start(p.get(), key.key, &in, -1, static_cast<uint32_t>(i), &ops[i], &err), ZKP_OK)
        << err.message;
  }
  std::vector<int> on(p->device_count(p.get()), 0);
  for (auto* op : ops) {
    Output o(info);
    ASSERT_EQ(p->prove_finish(p.get(), op, &o.out, &err), ZKP_OK) << err.message;
    ++on.at(static_cast<std::size_t>(o.out.gpu_index));
  }
  p->synthesis_free(p.get(), syn);
  EXPECT_GT(on[0], 0);
  EXPECT_GT(on[1], 0);
  EXPECT_EQ(device_info(p.get(), 0).partitions_proved + device_info(p.get(), 1).partitions_proved,
            std::uint64_t{kProofs});
}


// ---------------------------------------------------------------- bellperson keys, one GPU

// Known-tau bellperson parameters of many_public_bls12381 (written at build time by
// tests/tools/bellperson_setup; run_on_device.sh carries the file and sets the variable).
fs::path bellperson_params() {
  return setting("ZKPIPE_BELLPERSON_PARAMS", ZKPIPE_BELLPERSON_PARAMS_PATH);
}

zkp_status_t load_bellperson(zkp_prover_t* p, Key& key, zkp_error_t& err) {
  return load_key(p, bellperson_params(), -1, key, err, ZKP_KEY_FORMAT_BELLPERSON);
}

TEST_F(CudaProverDevice, BellpersonProofsAreByteIdenticalToTheCpuProver) {
  const auto rs = fixed_randomness();
  const fs::path dir = vector_dir("many_public_bls12381");
  const std::string r1cs = (dir / "circuit.r1cs").string();
  auto cpu = make_prover(cpu_lib(), {{"r1cs", r1cs}});
  Key cpu_key;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_bellperson(cpu.get(), cpu_key, err), ZKP_OK) << err.message;
  Output want(info_of(cpu.get(), cpu_key.key));
  ASSERT_EQ(prove(cpu.get(), cpu_key.key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 0, want, err), ZKP_OK)
      << err.message;
  // host_bases=drop (the default) frees the host copies of the queries after key_load; keep
  // holds them; with g2=host b_g2 stays for the host G2 MSM.
  const Options placements[] = {{{"r1cs", r1cs}},
                                {{"r1cs", r1cs}, {"host_bases", "keep"}},
                                {{"r1cs", r1cs}, {"g2", "host"}},
                                {{"r1cs", r1cs}, {"msm_order", "sequential"}, {"h", "device"}},
                                {{"r1cs", r1cs}, {"msm_scratch", "shared"}},
                                // A·w, B·w, C·w on the device from the circuit (issue 40).
                                {{"r1cs", r1cs}, {"synthesis", "device"}},
                                {{"r1cs", r1cs}, {"synthesis", "device"}, {"g2", "host"}},
                                {{"r1cs", r1cs}, {"synthesis", "device"}, {"msm_order", "sequential"}}};
  for (const Options& placement : placements) {
    std::string label;
    for (const auto& [k, v] : placement) label += k + "=" + v + " ";
    SCOPED_TRACE(label);
    auto p = make_prover(cuda_lib(), placement);
    Key key;
    ASSERT_EQ(load_bellperson(p.get(), key, err), ZKP_OK) << err.message;
    // A second key_load of the file on the same device shares the first (host bases or not).
    Key again;
    ASSERT_EQ(load_bellperson(p.get(), again, err), ZKP_OK) << err.message;
    for (const Key* k : {&key, &again}) {
      Output got(info_of(p.get(), k->key));
      ASSERT_EQ(prove(p.get(), k->key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 1, got, err), ZKP_OK)
          << err.message;
      EXPECT_EQ(got.proof, want.proof);
      EXPECT_EQ(got.publics, want.publics);
      EXPECT_TRUE(got.out.flags & ZKP_PROVE_OUTPUT_VERIFIED);  // the self-check ran and passed
      EXPECT_GT(got.out.msm_ns, 0u);
    }
  }
}

// synthesis=device with the circuit: a synthesis is the witness alone (no a, b, c), and a
// witness that breaks a constraint is refused on the device in the host check's words, naming
// the same constraint; the lane's next proof is unaffected.
TEST_F(CudaProverDevice, BellpersonDeviceSynthesisHoldsTheWitnessAndNamesABrokenConstraint) {
  const fs::path dir = vector_dir("many_public_bls12381");
  const std::string r1cs = (dir / "circuit.r1cs").string();
  auto cpu = make_prover(cpu_lib(), {{"r1cs", r1cs}});
  auto host = make_prover(cuda_lib(), {{"r1cs", r1cs}});
  auto device = make_prover(cuda_lib(), {{"r1cs", r1cs}, {"synthesis", "device"}, {"workers", "1"}});
  Key kp, kh, kd;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_bellperson(cpu.get(), kp, err), ZKP_OK) << err.message;
  ASSERT_EQ(load_bellperson(host.get(), kh, err), ZKP_OK) << err.message;
  ASSERT_EQ(load_bellperson(device.get(), kd, err), ZKP_OK) << err.message;
  const auto ih = info_of(host.get(), kh.key), id = info_of(device.get(), kd.key);
  EXPECT_EQ(ih.synthesis_bytes - id.synthesis_bytes, 3 * std::uint64_t{ih.domain_size} * ZKP_SCALAR_SIZE);

  expect_the_device_names_the_constraint_the_host_does(dir, cpu.get(), kp, device.get(), kd);

  const auto rs = fixed_randomness();
  Output want(info_of(cpu.get(), kp.key)), got(id);
  ASSERT_EQ(prove(cpu.get(), kp.key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 0, want, err), ZKP_OK)
      << err.message;
  ASSERT_EQ(prove(device.get(), kd.key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 0, got, err), ZKP_OK)
      << err.message;
  EXPECT_EQ(got.proof, want.proof);
}

TEST_F(CudaProverTwoGpu, ABellpersonKeyWithoutHostBasesIsReadAgainForAnotherDevice) {
  // host_bases=drop: loaded on device 0, the key keeps no host copies; a key_load on device 1
  // reads the file again, and both proofs are the cpu prover's.
  const auto rs = fixed_randomness();
  const fs::path dir = vector_dir("many_public_bls12381");
  const std::string r1cs = (dir / "circuit.r1cs").string();
  auto cpu = make_prover(cpu_lib(), {{"r1cs", r1cs}});
  auto p = make_prover(cuda_lib(), {{"r1cs", r1cs}});
  zkp_error_t err = error_record();
  Key kp, k0, k1;
  ASSERT_EQ(load_bellperson(cpu.get(), kp, err), ZKP_OK) << err.message;
  ASSERT_EQ(load_key(p.get(), bellperson_params(), 0, k0, err, ZKP_KEY_FORMAT_BELLPERSON), ZKP_OK) << err.message;
  ASSERT_EQ(load_key(p.get(), bellperson_params(), 1, k1, err, ZKP_KEY_FORMAT_BELLPERSON), ZKP_OK) << err.message;
  Output want(info_of(cpu.get(), kp.key));
  ASSERT_EQ(prove(cpu.get(), kp.key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 0, want, err), ZKP_OK);
  for (auto [key, gpu] : {std::pair{&k0, 0}, {&k1, 1}}) {
    Output got(info_of(p.get(), key->key));
    ASSERT_EQ(prove(p.get(), key->key, wtns_file((dir / "witness.wtns").string()), rs.data(), gpu, 0, got, err), ZKP_OK)
        << err.message;
    EXPECT_EQ(got.out.gpu_index, gpu);
    EXPECT_EQ(got.proof, want.proof);
  }
}

TEST_F(CudaProverDevice, BellpersonCallerSynthesisMatchesTheCpuProver) {
  // The same partition handed over as bellperson would: Montgomery scalars, inputs and aux apart,
  // the three densities; the bytes come from the cpu plugin's own synthesis via the witness.
  const auto rs = fixed_randomness();
  const fs::path dir = vector_dir("many_public_bls12381");
  auto cpu = make_prover(cpu_lib(), {{"r1cs", (dir / "circuit.r1cs").string()}});
  auto cuda = make_prover(cuda_lib(), {});
  Key kp, kc;
  zkp_error_t err = error_record();
  ASSERT_EQ(load_bellperson(cpu.get(), kp, err), ZKP_OK) << err.message;
  ASSERT_EQ(load_bellperson(cuda.get(), kc, err), ZKP_OK) << err.message;
  Output want(info_of(cpu.get(), kp.key));
  ASSERT_EQ(prove(cpu.get(), kp.key, wtns_file((dir / "witness.wtns").string()), rs.data(), 0, 0, want, err), ZKP_OK)
      << err.message;
  // The dump tool's files (tests/bellperson_prover/dump_synthesis.cpp), carried beside the params.
  const fs::path v = bellperson_params().parent_path() / "vectors_many_public";
  auto a = read_bytes(v / "a.bin"), b = read_bytes(v / "b.bin"), c = read_bytes(v / "c.bin");  // changed below
  auto inputs = read_bytes(v / "input.bin"), aux = read_bytes(v / "aux.bin");
  const auto words = [&](const char* f) {
    const auto bytes = read_bytes(v / f);
    std::vector<std::uint64_t> w(bytes.size() / 8);
    std::memcpy(w.data(), bytes.data(), w.size() * 8);
    return w;
  };
  const auto a_aux = words("a_aux_density.bin"), b_in = words("b_input_density.bin"), b_aux = words("b_aux_density.bin");
  auto ext = zkp::test::make<zkp_synthesized_t>();
  ext.flags = ZKP_SYNTHESIZED_MONTGOMERY;
  ext.a = a.data();
  ext.b = b.data();
  ext.c = c.data();
  ext.abc_length = a.size() / ZKP_SCALAR_SIZE;
  ext.assignment = inputs.data();
  ext.assignment_length = inputs.size() / ZKP_SCALAR_SIZE;
  ext.aux_assignment = aux.data();
  ext.aux_assignment_length = aux.size() / ZKP_SCALAR_SIZE;
  ext.a_aux_density = a_aux.data();
  ext.a_aux_bit_len = ext.aux_assignment_length;
  ext.b_input_density = b_in.data();
  ext.b_input_bit_len = ext.assignment_length;
  ext.b_aux_density = b_aux.data();
  ext.b_aux_bit_len = ext.aux_assignment_length;
  auto in = zkp::test::make<zkp_prove_input_t>();
  in.external = &ext;
  in.randomness = rs.data();
  const auto prove_ext = [&](zkp_prover_t* p, const Key& k, Output& out) {
    zkp_prove_op_t* op = nullptr;
    const zkp_status_t started = p->prove_start(p, k.key, &in, 0, 0, &op, &err);
    return started != ZKP_OK ? started : p->prove_finish(p, op, &out.out, &err);
  };
  Output got(info_of(cuda.get(), kc.key));
  ASSERT_EQ(prove_ext(cuda.get(), kc, got), ZKP_OK) << err.message;
  EXPECT_EQ(got.proof, want.proof);

  // zkp_prover_t.prove_wait: once it returns the device has read everything; copies of the
  // caller's buffers, overwritten after it and before prove_finish, change nothing.
  {
    ASSERT_GE(cuda->header.struct_size, offsetof(zkp_prover_t, prove_wait) + sizeof(cuda->prove_wait));
    ASSERT_NE(cuda->prove_wait, nullptr);
    auto a2 = a, b2 = b, c2 = c, inputs2 = inputs, aux2 = aux;
    auto a_aux2 = a_aux, b_in2 = b_in, b_aux2 = b_aux;
    auto ext2 = ext;
    ext2.a = a2.data();
    ext2.b = b2.data();
    ext2.c = c2.data();
    ext2.assignment = inputs2.data();
    ext2.aux_assignment = aux2.data();
    ext2.a_aux_density = a_aux2.data();
    ext2.b_input_density = b_in2.data();
    ext2.b_aux_density = b_aux2.data();
    auto in2 = in;
    in2.external = &ext2;
    zkp_prove_op_t* op = nullptr;
    ASSERT_EQ(cuda->prove_start(cuda.get(), kc.key, &in2, 0, 0, &op, &err), ZKP_OK) << err.message;
    ASSERT_EQ(cuda->prove_wait(cuda.get(), op, &err), ZKP_OK) << err.message;
    for (std::vector<std::uint8_t>* bytes : {&a2, &b2, &c2, &inputs2, &aux2}) std::fill(bytes->begin(), bytes->end(), 0xA5);
    for (std::vector<std::uint64_t>* w : {&a_aux2, &b_in2, &b_aux2}) std::fill(w->begin(), w->end(), 0);
    Output waited(info_of(cuda.get(), kc.key));
    ASSERT_EQ(cuda->prove_finish(cuda.get(), op, &waited.out, &err), ZKP_OK) << err.message;
    EXPECT_EQ(waited.proof, want.proof);
  }

  // Bad values: the cpu prover finds them on the host, the cuda prover on the device
  // (cuda/util/input_checks.hpp), with the same status and words; the device proves on after.
  struct Case {
    std::vector<std::uint8_t>* bytes;
    std::size_t index;
    bool above_r;  // the value set to 2^256 − 1, else its lowest bit flipped
    zkp_status_t status;
    std::string message;
  };
  const std::vector<Case> cases = {
      {&aux, 5, true, ZKP_ERR_BAD_INPUT, "aux_assignment[5] is not below the scalar field prime"},
      {&a, 7, true, ZKP_ERR_BAD_INPUT, "a[7] is not below the scalar field prime"},
      {&c, 2, true, ZKP_ERR_BAD_INPUT, "c[2] is not below the scalar field prime"},
      {&c, 3, false, ZKP_ERR_UNSATISFIED_WITNESS, "a·b != c at row 3 of the caller's synthesis"},
  };
  for (const Case& k : cases) {
    std::vector<std::uint8_t>& bytes = *k.bytes;
    const std::vector<std::uint8_t> kept(bytes.begin() + k.index * ZKP_SCALAR_SIZE,
                                         bytes.begin() + (k.index + 1) * ZKP_SCALAR_SIZE);
    if (k.above_r) {
      std::fill_n(bytes.begin() + k.index * ZKP_SCALAR_SIZE, ZKP_SCALAR_SIZE, 0xff);
    } else {
      bytes[k.index * ZKP_SCALAR_SIZE] ^= 1;
    }
    for (auto [p, key] : {std::pair{cpu.get(), &kp}, {cuda.get(), &kc}}) {
      Output bad(info_of(p, key->key));
      EXPECT_EQ(prove_ext(p, *key, bad), k.status) << k.message;
      EXPECT_TRUE(contains(err.message, k.message)) << err.message;
    }
    std::copy(kept.begin(), kept.end(), bytes.begin() + k.index * ZKP_SCALAR_SIZE);
  }
  Output again(info_of(cuda.get(), kc.key));
  ASSERT_EQ(prove_ext(cuda.get(), kc, again), ZKP_OK) << err.message;
  EXPECT_EQ(again.proof, want.proof);
}

}  // namespace
}  // namespace zkp::test
