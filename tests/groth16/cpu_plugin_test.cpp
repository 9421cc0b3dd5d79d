// The cpu prover plugin through its C ABI only: dlopen libzkp_prover_cpu.so, find the
// "zkp.prover/1" factory, and drive key_load → synthesize → prove_start → prove_finish →
// verify as a host would, on both curves; plus every error the brief names (malformed zkey,
// wrong curve, witness count, unsatisfied witness, short buffers, bad options).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <zkpipe/zkp_plugin.h>
#include <zkpipe/zkp_prover.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "oracle_json.hpp"
#include "plugin_harness.hpp"
#include "readme_options.hpp"
#include "test_data.hpp"

namespace zkp {
namespace {

namespace fs = std::filesystem;

using test::Key;
using test::make;
using test::Output;
using test::wtns_file;

test::Library& library() {
  static test::Library lib(ZKPIPE_CPU_PLUGIN_PATH);
  return lib;
}

using ProverPtr = test::ProverPtr;

zkp_status_t create(const test::Options& options, ProverPtr& out, zkp_error_t& err) {
  return test::create(library(), options, out, err);
}

ProverPtr make_prover(const test::Options& options = {{"threads", "2"}}) {
  ProverPtr p(nullptr, nullptr);
  zkp_error_t err = make<zkp_error_t>();
  EXPECT_EQ(create(options, p, err), ZKP_OK) << err.message;
  return p;
}

fs::path dir_of(const std::string& name) { return test::data_dir() / name; }

// The cpu prover has one device: every key is loaded with gpu_index -1.
zkp_status_t load_key(zkp_prover_t* p, const fs::path& zkey, Key& out, zkp_error_t& err) {
  return test::load_key(p, zkey, -1, out, err);
}

// prove_start + prove_finish on device 0; the status of the first failure.
zkp_status_t prove(zkp_prover_t* p, zkp_key_t* key, const zkp_prove_input_t& input, Output& o, zkp_error_t& err) {
  zkp_prove_op_t* op = nullptr;
  const zkp_status_t s = p->prove_start(p, key, &input, 0, 0, &op, &err);
  if (s != ZKP_OK) return s;
  return p->prove_finish(p, op, &o.out, &err);
}

// synthesize + prove on device 0, worker 0.
zkp_status_t prove_witness(zkp_prover_t* p, zkp_key_t* key, const zkp_witness_t& w, const std::uint8_t* randomness,
                           Output& o, zkp_error_t& err) {
  return test::prove(p, key, w, randomness, 0, 0, o, err);
}

using test::info_of;

std::vector<std::uint8_t> bytes_of(const fs::path& p) {
  const auto b = test::read_file(p);
  std::vector<std::uint8_t> out(b.size());
  std::memcpy(out.data(), b.data(), b.size());
  return out;
}

const std::uint8_t kZeroRandomness[2 * ZKP_SCALAR_SIZE] = {};

struct VectorCase {
  const char* name;
  zkp_curve_t curve;
  std::size_t n8q;
};
const VectorCase kCases[] = {{"multiplier_bn128", ZKP_CURVE_BN254, 32},
                             {"chain7_bn128", ZKP_CURVE_BN254, 32},
                             {"multiplier_bls12381", ZKP_CURVE_BLS12_381, 48},
                             {"chain7_bls12381", ZKP_CURVE_BLS12_381, 48}};

// The README's [prover] block is the plugin's option list, as the factory hands it to a host
// (tests/support/readme_options.hpp).
TEST(CpuPlugin, ReadmeBlockIsTheOptionList) {
  const auto options = ::zkp::test::parse_options_help(library().factory().options_help);
  ASSERT_FALSE(options.empty());
  for (const std::string& problem : ::zkp::test::readme_option_mismatches(ZKPIPE_CPU_PROVER_README, "prover", options))
    ADD_FAILURE() << problem;
}

TEST(CpuPlugin, EntryAndFactory) {
  EXPECT_STREQ(library().entry().name, "cpu");
  // (test::Library throws if the plugin has no prover factory.)
  EXPECT_NE(std::strstr(library().factory().options_help, "threads="), nullptr);
  auto p = make_prover();
  EXPECT_STREQ(p->name, "cpu");
  EXPECT_EQ(p->flags & ZKP_PROVER_FLAG_SIMULATED, 0u);
  EXPECT_NE(p->flags & ZKP_PROVER_FLAG_VERIFY, 0u);
  ASSERT_NE(p->verify, nullptr);
  EXPECT_EQ(p->device_count(p.get()), 1u);
  auto d = make<zkp_device_info_t>();
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(p->device_info(p.get(), 0, &d, &err), ZKP_OK);
  EXPECT_STREQ(d.name, "cpu (2 threads)");
  EXPECT_GT(d.memory_bytes, 0u);
  EXPECT_EQ(p->device_info(p.get(), 1, &d, &err), ZKP_ERR_INVALID_ARGUMENT);
}

TEST(CpuPlugin, BadOptionsAreRefusedByName) {
  ProverPtr p(nullptr, nullptr);
  zkp_error_t err = make<zkp_error_t>();
  EXPECT_EQ(create({{"thread", "2"}}, p, err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("'thread'"), std::string::npos) << err.message;
  EXPECT_EQ(create({{"key_check", "sometimes"}}, p, err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("key_check"), std::string::npos) << err.message;
  EXPECT_EQ(create({{"verify", "maybe"}}, p, err), ZKP_ERR_INVALID_ARGUMENT);
}

TEST(CpuPlugin, ProofsMatchSnarkjsAndVerify) {
  auto p = make_prover();
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.name);
    const fs::path dir = dir_of(c.name);
    Key key;
    zkp_error_t err = make<zkp_error_t>();
    ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", key, err), ZKP_OK) << err.message;
    const auto info = info_of(p.get(), key.key);
    EXPECT_EQ(info.curve, c.curve);
    EXPECT_EQ(info.proof_size, 8 * c.n8q);
    EXPECT_EQ(info.public_size, info.n_public * ZKP_SCALAR_SIZE);
    // One synthesis holds the assignment and a, b on the domain, and nothing else of size.
    const std::uint64_t vectors = std::uint64_t{ZKP_SCALAR_SIZE} * (info.n_vars + 2ull * info.domain_size);
    EXPECT_GE(info.synthesis_bytes, vectors);
    EXPECT_LT(info.synthesis_bytes, vectors + 1024);

    const std::string wtns = (dir / "witness.wtns").string();
    Output o(info.proof_size, info.public_size);
    ASSERT_EQ(prove_witness(p.get(), key.key, wtns_file(wtns), kZeroRandomness, o, err), ZKP_OK) << err.message;
    EXPECT_EQ(o.out.proof_size, info.proof_size);
    EXPECT_EQ(o.proof, test::proof_bytes(dir / "det/proof.json", c.n8q));
    EXPECT_EQ(o.publics, test::public_bytes(dir / "public.json"));
    EXPECT_EQ(o.out.gpu_index, 0);
    EXPECT_GT(o.out.gpu_duration_ns, 0u);
    EXPECT_GT(o.out.msm_ns, 0u);
    EXPECT_GT(o.out.ntt_ns, 0u);
    EXPECT_GE(o.out.gpu_duration_ns, o.out.msm_ns + o.out.ntt_ns);

    // The same witness as a buffer and as a raw assignment.
    const auto wtns_bytes = bytes_of(wtns);
    auto wb = make<zkp_witness_t>();
    wb.kind = ZKP_WITNESS_WTNS_BUFFER;
    wb.data = wtns_bytes.data();
    wb.size = wtns_bytes.size();
    Output o2(info.proof_size, info.public_size);
    ASSERT_EQ(prove_witness(p.get(), key.key, wb, kZeroRandomness, o2, err), ZKP_OK) << err.message;
    EXPECT_EQ(o2.proof, o.proof);
    // wtns v2: the values are the last n_vars × 32 bytes.
    auto wa = make<zkp_witness_t>();
    wa.kind = ZKP_WITNESS_ASSIGNMENT;
    wa.data = wtns_bytes.data() + wtns_bytes.size() - std::size_t{info.n_vars} * ZKP_SCALAR_SIZE;
    wa.size = std::size_t{info.n_vars} * ZKP_SCALAR_SIZE;
    Output o3(info.proof_size, info.public_size);
    ASSERT_EQ(prove_witness(p.get(), key.key, wa, kZeroRandomness, o3, err), ZKP_OK) << err.message;
    EXPECT_EQ(o3.proof, o.proof);

    // Random (r, s) from the OS: a different proof, which verifies; tampered, it does not.
    Output o4(info.proof_size, info.public_size);
    ASSERT_EQ(prove_witness(p.get(), key.key, wtns_file(wtns), nullptr, o4, err), ZKP_OK) << err.message;
    EXPECT_NE(o4.proof, o.proof);
    for (const auto* proof : {&o.proof, &o4.proof}) {
      std::int32_t valid = -1;
      ASSERT_EQ(p->verify(p.get(), key.key, proof->data(), proof->size(), o.publics.data(), o.publics.size(), &valid,
                          &err),
                ZKP_OK)
          << err.message;
      EXPECT_EQ(valid, 1);
    }
    auto tampered = o4.proof;
    tampered[5] ^= 1;
    std::int32_t valid = -1;
    ASSERT_EQ(p->verify(p.get(), key.key, tampered.data(), tampered.size(), o.publics.data(), o.publics.size(), &valid,
                        &err),
              ZKP_OK);
    EXPECT_EQ(valid, 0);
    auto publics = o.publics;
    publics[0] ^= 1;
    ASSERT_EQ(p->verify(p.get(), key.key, o4.proof.data(), o4.proof.size(), publics.data(), publics.size(), &valid,
                        &err),
              ZKP_OK);
    EXPECT_EQ(valid, 0);
    EXPECT_EQ(p->verify(p.get(), key.key, o4.proof.data(), o4.proof.size() - 1, publics.data(), publics.size(),
                        &valid, &err),
              ZKP_ERR_BAD_INPUT);
  }
  auto d = make<zkp_device_info_t>();
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(p->device_info(p.get(), 0, &d, &err), ZKP_OK);
  EXPECT_EQ(d.partitions_started, 4u * 4u);
  EXPECT_EQ(d.partitions_proved, 4u * 4u);
  EXPECT_GT(d.busy_ns, 0u);
}

TEST(CpuPlugin, ThreadCountDoesNotChangeTheProof) {
  std::vector<std::uint8_t> reference;
  std::uint8_t randomness[2 * ZKP_SCALAR_SIZE];
  for (std::size_t i = 0; i < sizeof randomness; ++i) randomness[i] = static_cast<std::uint8_t>(i * 7 + 1);
  randomness[ZKP_SCALAR_SIZE - 1] = randomness[2 * ZKP_SCALAR_SIZE - 1] = 0x0f;  // below r
  for (const char* threads : {"1", "2", "3"}) {
    auto p = make_prover({{"threads", threads}});
    Key key;
    zkp_error_t err = make<zkp_error_t>();
    ASSERT_EQ(load_key(p.get(), dir_of("chain7_bls12381") / "circuit.zkey", key, err), ZKP_OK) << err.message;
    const auto info = info_of(p.get(), key.key);
    Output o(info.proof_size, info.public_size);
    const std::string wtns = (dir_of("chain7_bls12381") / "witness.wtns").string();
    ASSERT_EQ(prove_witness(p.get(), key.key, wtns_file(wtns), randomness, o, err), ZKP_OK) << err.message;
    if (reference.empty()) reference = o.proof;
    EXPECT_EQ(o.proof, reference) << threads << " threads";
  }
}

// [any-thread]: several host threads synthesize and prove on one key at once (the pool's
// loops take turns); every proof must still be snarkjs's.
// `callers` threads each prove `each` times with r = s = 0; how many of each one's proofs were
// `want`, byte for byte.
std::vector<std::size_t> prove_concurrently(zkp_prover_t* p, zkp_key_t* key, const std::string& wtns,
                                            const zkp_key_info_t& info, const std::vector<std::uint8_t>& want,
                                            std::size_t callers, std::size_t each) {
  std::vector<std::size_t> good(callers, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < callers; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < each; ++i) {
        zkp_error_t e = make<zkp_error_t>();
        Output o(info);
        if (prove_witness(p, key, wtns_file(wtns), kZeroRandomness, o, e) == ZKP_OK && o.proof == want) ++good[t];
      }
    });
  }
  for (auto& t : threads) t.join();
  return good;
}

TEST(CpuPlugin, ConcurrentProofsOnOneKeyAreAllCorrect) {
  auto p = make_prover();
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  const fs::path dir = dir_of("chain7_bn128");
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", key, err), ZKP_OK) << err.message;
  const auto want = test::proof_bytes(dir / "det/proof.json", 32);
  const std::string wtns = (dir / "witness.wtns").string();
  constexpr std::size_t kThreads = 3, kProofsEach = 3;
  const std::vector<std::size_t> good =
      prove_concurrently(p.get(), key.key, wtns, info_of(p.get(), key.key), want, kThreads, kProofsEach);
  for (std::size_t t = 0; t < kThreads; ++t) EXPECT_EQ(good[t], kProofsEach) << "thread " << t;
}

// The threads a process runs now, from /proc/self/task.
std::size_t live_threads() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator("/proc/self/task")) ++n;
  return n;
}

TEST(CpuPlugin, ThreadsOptionCapsEveryLoopOfTheProver) {
  // threads=3 is one pool of 3 (the caller and 2 workers) for synthesis, H, the MSMs and the
  // checks, whatever number of host workers call in: 4 callers proving at once add only
  // themselves. A loop that started threads of its own per call (as the MSM once did) shows.
  const std::size_t before = live_threads();
  auto p = make_prover({{"threads", "3"}});
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  const fs::path dir = dir_of("chain7_bls12381");
  ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", key, err), ZKP_OK) << err.message;
  const auto want = test::proof_bytes(dir / "det/proof.json", 48);
  const std::string wtns = (dir / "witness.wtns").string();
  const zkp_key_info_t info = info_of(p.get(), key.key);
  constexpr std::size_t kCallers = 4, kProofsEach = 3;
  std::atomic<bool> done{false};
  std::atomic<std::size_t> most{0};
  std::thread sampler([&] {
    while (!done.load()) {
      const std::size_t n = live_threads();
      if (n > most.load()) most.store(n);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  const std::vector<std::size_t> good = prove_concurrently(p.get(), key.key, wtns, info, want, kCallers, kProofsEach);
  done.store(true);
  sampler.join();
  for (std::size_t t = 0; t < kCallers; ++t) EXPECT_EQ(good[t], kProofsEach) << "caller " << t;
  const std::size_t pool_workers = 2, sampler_thread = 1;
  EXPECT_LE(most.load(), before + pool_workers + kCallers + sampler_thread)
      << "threads before: " << before << ", most while proving: " << most.load();
  EXPECT_GT(most.load(), before) << "the sampler saw none of the callers";
}

TEST(CpuPlugin, InputErrorsSayWhatIsWrong) {
  auto p = make_prover();
  zkp_error_t err = make<zkp_error_t>();
  Key bn, missing, bad;
  ASSERT_EQ(load_key(p.get(), dir_of("chain7_bn128") / "circuit.zkey", bn, err), ZKP_OK) << err.message;

  EXPECT_EQ(load_key(p.get(), dir_of("chain7_bn128") / "no_such.zkey", missing, err), ZKP_ERR_NOT_FOUND);
  EXPECT_NE(std::string(err.message).find("no_such.zkey"), std::string::npos) << err.message;

  // A truncated zkey buffer.
  auto zkey = bytes_of(dir_of("chain7_bn128") / "circuit.zkey");
  zkey.resize(zkey.size() - 100);
  auto src = make<zkp_key_source_t>();
  src.data = zkey.data();
  src.size = zkey.size();
  bad.prover = p.get();
  EXPECT_EQ(p->key_load(p.get(), &src, 0, &bad.key, &err), ZKP_ERR_BAD_INPUT);
  EXPECT_NE(std::string(err.message).find("zkey buffer"), std::string::npos) << err.message;

  // A BLS12-381 witness for a BN254 key.
  zkp_synthesis_t* syn = nullptr;
  const std::string bls = (dir_of("chain7_bls12381") / "witness.wtns").string();
  const auto w = wtns_file(bls);
  EXPECT_EQ(p->synthesize(p.get(), bn.key, w.get(), &syn, &err), ZKP_ERR_BAD_INPUT);
  EXPECT_NE(std::string(err.message).find("BLS12-381"), std::string::npos) << err.message;
  EXPECT_NE(std::string(err.message).find("BN254"), std::string::npos) << err.message;

  // A witness of another circuit on the same curve.
  const std::string other = (dir_of("multiplier_bn128") / "witness.wtns").string();
  const auto w_other = wtns_file(other);
  EXPECT_EQ(p->synthesize(p.get(), bn.key, w_other.get(), &syn, &err), ZKP_ERR_BAD_INPUT);
  EXPECT_NE(std::string(err.message).find("128"), std::string::npos) << err.message;

  // A raw assignment of the wrong length, and one whose constant wire is not 1.
  std::vector<std::uint8_t> assignment(127 * ZKP_SCALAR_SIZE);
  auto wa = make<zkp_witness_t>();
  wa.kind = ZKP_WITNESS_ASSIGNMENT;
  wa.data = assignment.data();
  wa.size = assignment.size();
  EXPECT_EQ(p->synthesize(p.get(), bn.key, &wa, &syn, &err), ZKP_ERR_BAD_INPUT);
  assignment.resize(128 * ZKP_SCALAR_SIZE);
  wa.data = assignment.data();
  wa.size = assignment.size();
  EXPECT_EQ(p->synthesize(p.get(), bn.key, &wa, &syn, &err), ZKP_ERR_BAD_INPUT);
  EXPECT_NE(std::string(err.message).find("constant wire"), std::string::npos) << err.message;
  auto none = make<zkp_witness_t>();
  EXPECT_EQ(p->synthesize(p.get(), bn.key, &none, &syn, &err), ZKP_ERR_BAD_INPUT);

  // Randomness that is not below r.
  const std::string wtns = (dir_of("chain7_bn128") / "witness.wtns").string();
  std::vector<std::uint8_t> big(2 * ZKP_SCALAR_SIZE, 0xff);
  Output o(256, 64);
  EXPECT_EQ(prove_witness(p.get(), bn.key, wtns_file(wtns), big.data(), o, err), ZKP_ERR_BAD_INPUT);

  // Short output buffers report the sizes needed.
  Output small(255, 64);
  EXPECT_EQ(prove_witness(p.get(), bn.key, wtns_file(wtns), kZeroRandomness, small, err), ZKP_ERR_SHORT_BUFFER);
  EXPECT_EQ(small.out.proof_size, 256u);
  EXPECT_EQ(small.out.public_size, 64u);
}

// Offset of section `id`'s payload in a binfile (zkey, wtns): 12-byte file header, then
// {u32 id, u64 length, payload} per section.
std::size_t section_offset(const std::vector<std::uint8_t>& b, std::uint32_t id) {
  std::size_t pos = 12;
  while (pos + 12 <= b.size()) {
    std::uint32_t sid;
    std::uint64_t len;
    std::memcpy(&sid, b.data() + pos, 4);
    std::memcpy(&len, b.data() + pos + 4, 8);
    if (sid == id) return pos + 12;
    pos += 12 + len;
  }
  throw std::runtime_error("no section " + std::to_string(id));
}

TEST(CpuPlugin, KeyCheckRejectsAPointOffTheCurve) {
  auto zkey = bytes_of(dir_of("chain7_bls12381") / "circuit.zkey");
  // y of the second point of section 7 (B2, G2): +1 in its lowest limb moves it off the curve
  // (the point, not at infinity, stays canonical).
  const std::size_t g2 = 4 * 48;
  zkey[section_offset(zkey, 7) + g2 + 2 * 48] ^= 1;
  auto src = make<zkp_key_source_t>();
  src.data = zkey.data();
  src.size = zkey.size();
  for (const char* level : {"on_curve", "subgroup"}) {
    auto p = make_prover({{"key_check", level}});
    Key key;
    key.prover = p.get();
    zkp_error_t err = make<zkp_error_t>();
    EXPECT_EQ(p->key_load(p.get(), &src, -1, &key.key, &err), ZKP_ERR_BAD_INPUT) << level;
    EXPECT_NE(std::string(err.message).find("section 7"), std::string::npos) << err.message;
  }
  // key_check=none checks structure only, so the key loads.
  auto p = make_prover({{"key_check", "none"}});
  Key key;
  key.prover = p.get();
  zkp_error_t err = make<zkp_error_t>();
  EXPECT_EQ(p->key_load(p.get(), &src, -1, &key.key, &err), ZKP_OK) << err.message;
}

// Changes the last value of a .wtns buffer: a private internal wire, so a constraint breaks.
std::vector<std::uint8_t> broken_witness(const fs::path& wtns) {
  auto b = bytes_of(wtns);
  b[b.size() - ZKP_SCALAR_SIZE] ^= 1;
  return b;
}

TEST(CpuPlugin, UnsatisfiedWitnessIsCaughtByVerificationByDefault) {
  auto p = make_prover();
  for (const char* name : {"chain7_bn128", "chain7_bls12381"}) {
    SCOPED_TRACE(name);
    Key key;
    zkp_error_t err = make<zkp_error_t>();
    ASSERT_EQ(load_key(p.get(), dir_of(name) / "circuit.zkey", key, err), ZKP_OK) << err.message;
    const auto info = info_of(p.get(), key.key);
    const auto b = broken_witness(dir_of(name) / "witness.wtns");
    auto w = make<zkp_witness_t>();
    w.kind = ZKP_WITNESS_WTNS_BUFFER;
    w.data = b.data();
    w.size = b.size();
    Output o(info.proof_size, info.public_size);
    EXPECT_EQ(prove_witness(p.get(), key.key, w, nullptr, o, err), ZKP_ERR_UNSATISFIED_WITNESS);
    EXPECT_NE(std::string(err.message).find("does not satisfy"), std::string::npos) << err.message;
  }
  // With verify=false the same witness turns into a proof that the host's self-check rejects.
  auto q = make_prover({{"threads", "2"}, {"verify", "false"}});
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(load_key(q.get(), dir_of("chain7_bn128") / "circuit.zkey", key, err), ZKP_OK) << err.message;
  const auto b = broken_witness(dir_of("chain7_bn128") / "witness.wtns");
  auto w = make<zkp_witness_t>();
  w.kind = ZKP_WITNESS_WTNS_BUFFER;
  w.data = b.data();
  w.size = b.size();
  Output o(256, 64);
  ASSERT_EQ(prove_witness(q.get(), key.key, w, nullptr, o, err), ZKP_OK) << err.message;
  std::int32_t valid = -1;
  ASSERT_EQ(q->verify(q.get(), key.key, o.proof.data(), o.proof.size(), o.publics.data(), o.publics.size(), &valid,
                      &err),
            ZKP_OK);
  EXPECT_EQ(valid, 0);
}

// The prover owns the self-check: a proof it verified says so (ZKP_PROVE_OUTPUT_VERIFIED), so
// the host does not verify it again; with verify=false it says nothing.
TEST(CpuPlugin, AVerifiedProofSaysSoAndAnUnverifiedOneDoesNot) {
  for (const bool verify : {true, false}) {
    SCOPED_TRACE(verify);
    auto p = make_prover({{"threads", "2"}, {"verify", verify ? "true" : "false"}});
    Key key;
    zkp_error_t err = make<zkp_error_t>();
    ASSERT_EQ(load_key(p.get(), dir_of("chain7_bn128") / "circuit.zkey", key, err), ZKP_OK) << err.message;
    const auto info = info_of(p.get(), key.key);
    const auto wtns = wtns_file((dir_of("chain7_bn128") / "witness.wtns").string());
    Output o(info);
    o.out.flags = 0xdead;  // every bit must be written
    ASSERT_EQ(prove_witness(p.get(), key.key, wtns, nullptr, o, err), ZKP_OK) << err.message;
    EXPECT_EQ(o.out.flags, verify ? ZKP_PROVE_OUTPUT_VERIFIED : 0u);
  }
}

TEST(CpuPlugin, R1csCheckNamesTheBrokenConstraintAtSynthesis) {
  const std::string r1cs = (dir_of("chain7_bn128") / "circuit.r1cs").string();
  auto p = make_prover({{"threads", "2"}, {"r1cs", r1cs}});
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(load_key(p.get(), dir_of("chain7_bn128") / "circuit.zkey", key, err), ZKP_OK) << err.message;
  zkp_synthesis_t* syn = nullptr;
  const std::string good = (dir_of("chain7_bn128") / "witness.wtns").string();
  const auto w = wtns_file(good);
  ASSERT_EQ(p->synthesize(p.get(), key.key, w.get(), &syn, &err), ZKP_OK) << err.message;
  p->synthesis_free(p.get(), syn);
  const auto b = broken_witness(dir_of("chain7_bn128") / "witness.wtns");
  auto wb = make<zkp_witness_t>();
  wb.kind = ZKP_WITNESS_WTNS_BUFFER;
  wb.data = b.data();
  wb.size = b.size();
  EXPECT_EQ(p->synthesize(p.get(), key.key, &wb, &syn, &err), ZKP_ERR_UNSATISFIED_WITNESS);
  EXPECT_NE(std::string(err.message).find("constraint"), std::string::npos) << err.message;
  // The r1cs of another circuit does not fit the key.
  Key other;
  EXPECT_EQ(load_key(p.get(), dir_of("multiplier_bn128") / "circuit.zkey", other, err), ZKP_ERR_BAD_INPUT);
  EXPECT_NE(std::string(err.message).find("does not match"), std::string::npos) << err.message;
}

TEST(CpuPlugin, CallerSynthesizedInputIsCheckedAndProved) {
  auto p = make_prover();
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.name);
    const fs::path dir = dir_of(c.name);
    Key key;
    zkp_error_t err = make<zkp_error_t>();
    ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", key, err), ZKP_OK) << err.message;
    const auto info = info_of(p.get(), key.key);
    const auto a = bytes_of(dir / "det/a_eval.bin"), b = bytes_of(dir / "det/b_eval.bin");
    auto c_eval = bytes_of(dir / "det/c_eval.bin");
    const auto wtns = bytes_of(dir / "witness.wtns");
    auto ext = make<zkp_synthesized_t>();
    ext.a = a.data();
    ext.b = b.data();
    ext.c = c_eval.data();
    ext.abc_length = info.domain_size;
    ext.assignment = wtns.data() + wtns.size() - std::size_t{info.n_vars} * ZKP_SCALAR_SIZE;
    ext.assignment_length = info.n_vars;
    auto in = make<zkp_prove_input_t>();
    in.external = &ext;
    in.randomness = kZeroRandomness;
    Output o(info.proof_size, info.public_size);
    ASSERT_EQ(prove(p.get(), key.key, in, o, err), ZKP_OK) << err.message;
    EXPECT_EQ(o.proof, test::proof_bytes(dir / "det/proof.json", c.n8q));
    // A c that is not a·b at row 1 (a C·w the witness does not satisfy).
    c_eval[ZKP_SCALAR_SIZE] ^= 1;
    zkp_prove_op_t* op = nullptr;
    EXPECT_EQ(p->prove_start(p.get(), key.key, &in, 0, 0, &op, &err), ZKP_ERR_UNSATISFIED_WITNESS);
    EXPECT_NE(std::string(err.message).find("row 1"), std::string::npos) << err.message;
    ext.abc_length = info.domain_size + 1;
    EXPECT_EQ(p->prove_start(p.get(), key.key, &in, 0, 0, &op, &err), ZKP_ERR_BAD_INPUT);
  }
}

// ZKP_PROVE_INPUT_FINAL: the prover works in the synthesis's own a and b instead of copies. The
// proof is the same bytes; the synthesis, consumed, is refused if passed again; a host whose
// struct predates the flags field (or leaves the flag off) keeps its synthesis provable.
TEST(CpuPlugin, AHandedOverSynthesisGivesTheSameProofAndIsThenRefused) {
  auto p = make_prover();
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.name);
    const fs::path dir = dir_of(c.name);
    Key key;
    zkp_error_t err = make<zkp_error_t>();
    ASSERT_EQ(load_key(p.get(), dir / "circuit.zkey", key, err), ZKP_OK) << err.message;
    const auto info = info_of(p.get(), key.key);
    const test::WtnsFile w((dir / "witness.wtns").string());
    zkp_synthesis_t* s = nullptr;
    ASSERT_EQ(p->synthesize(p.get(), key.key, w.get(), &s, &err), ZKP_OK) << err.message;
    auto in = make<zkp_prove_input_t>();
    in.synthesis = s;
    in.randomness = kZeroRandomness;

    Output kept(info.proof_size, info.public_size);
    ASSERT_EQ(prove(p.get(), key.key, in, kept, err), ZKP_OK) << err.message;
    auto older = in;  // a host of the first release: no flags field, whatever lies there
    older.header.struct_size = offsetof(zkp_prove_input_t, flags);
    older.flags = ZKP_PROVE_INPUT_FINAL;
    Output old_host(info.proof_size, info.public_size);
    ASSERT_EQ(prove(p.get(), key.key, older, old_host, err), ZKP_OK) << err.message;
    EXPECT_EQ(old_host.proof, kept.proof);

    in.flags = ZKP_PROVE_INPUT_FINAL;
    Output handed(info.proof_size, info.public_size);
    ASSERT_EQ(prove(p.get(), key.key, in, handed, err), ZKP_OK) << err.message;
    EXPECT_EQ(handed.proof, kept.proof);
    EXPECT_EQ(handed.proof, test::proof_bytes(dir / "det/proof.json", c.n8q));

    zkp_prove_op_t* op = nullptr;
    EXPECT_EQ(p->prove_start(p.get(), key.key, &in, 0, 0, &op, &err), ZKP_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(err.message).find("ZKP_PROVE_INPUT_FINAL"), std::string::npos) << err.message;
    p->synthesis_free(p.get(), s);
  }
}

}  // namespace
}  // namespace zkp
