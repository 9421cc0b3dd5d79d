// zkp_host_verify through the C API, on the cpu prover: a proof as its completion hands it
// out verifies; a tampered proof or public input is ZKP_ERR_INVALID_PROOF; a bad host or key
// handle, a proof of the wrong size and the wrong number of public inputs each get their
// own status before the prover is asked; concurrent calls, a call from inside a completion
// callback and one after shutdown all work; a simulated prover refuses.
#include "host_test_support.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace zkp::test {
namespace {

const std::filesystem::path kSource = ZKPIPE_SOURCE_DIR;

// One proof and its public inputs, copied out of the completion record. When `verify_host`
// is set, the callback also verifies the proof there, on the completion thread.
struct Proved {
  zkp_status_t status = ZKP_OK;
  std::string message;
  std::vector<uint8_t> proof;
  std::vector<uint8_t> public_inputs;
  zkp_host_t* verify_host = nullptr;
  uint64_t key = 0;
  zkp_status_t verify_in_callback = -1;

  static void on_partition(void* self, const zkp_completion_t* c) {
    auto& me = *static_cast<Proved*>(self);
    me.status = c->status;
    me.message = c->message;
    if (c->proof != nullptr) me.proof.assign(c->proof, c->proof + c->proof_size);
    if (c->public_inputs != nullptr) me.public_inputs.assign(c->public_inputs, c->public_inputs + c->public_size);
    if (me.verify_host != nullptr) {
      zkp_error_t err = make_error();
      me.verify_in_callback =
          zkp_host_verify(me.verify_host, me.key, c->proof, c->proof_size, c->public_inputs, c->public_size, &err);
    }
  }
};

struct Loaded {
  uint64_t key = 0;
  zkp_key_info_t info{};
};

Loaded load(zkp_host_t* host, const std::filesystem::path& zkey) {
  zkp_key_source_t source{};
  source.header = ZKP_HEADER_INIT(zkp_key_source_t);
  const std::string path = zkey.string();
  source.path = path.c_str();
  zkp_error_t err = make_error();
  Loaded out;
  EXPECT_EQ(zkp_host_load_key(host, &source, &out.key, &err), ZKP_OK) << err.message;
  out.info.header = ZKP_HEADER_INIT(zkp_key_info_t);
  EXPECT_EQ(zkp_host_key_info(host, out.key, &out.info, &err), ZKP_OK) << err.message;
  return out;
}

// Proves `dir`/witness.wtns with `key` and returns what the completion handed out.
Proved prove(zkp_host_t* host, uint64_t key, const std::filesystem::path& dir, bool verify_in_callback = false) {
  const std::string wtns = (dir / "witness.wtns").string();
  zkp_partition_t part{};
  part.header = ZKP_HEADER_INIT(zkp_partition_t);
  part.witness.header = ZKP_HEADER_INIT(zkp_witness_t);
  part.witness.kind = ZKP_WITNESS_WTNS_FILE;
  part.witness.path = wtns.c_str();
  Proved proved;
  if (verify_in_callback) {
    proved.verify_host = host;
    proved.key = key;
  }
  zkp_job_t job{};
  job.header = ZKP_HEADER_INIT(zkp_job_t);
  job.key_id = key;
  job.partitions = &part;
  job.partition_count = 1;
  job.gpu_index = -1;
  job.on_partition = &Proved::on_partition;
  job.user_data = &proved;
  const uint64_t id = must_submit(host, job);
  must_wait(host, id);
  EXPECT_EQ(proved.status, ZKP_OK) << proved.message;
  return proved;
}

struct Verified {
  zkp_status_t status;
  zkp_error_t err;
};

Verified verify(zkp_host_t* host, uint64_t key, const std::vector<uint8_t>& proof, const std::vector<uint8_t>& pub) {
  Verified v{ZKP_OK, make_error()};
  v.status = zkp_host_verify(host, key, proof.data(), proof.size(), pub.data(), pub.size(), &v.err);
  EXPECT_EQ(v.err.status, v.status);  // the record says what the return value says
  return v;
}

HostPtr cpu_host() { return must_create({"prover=cpu", "workers_per_device=1", "synthesis_threads=1"}); }

class HostVerifyVectors : public ::testing::TestWithParam<const char*> {};

// A BN254 circuit with one public input, a BLS12-381 one with several.
INSTANTIATE_TEST_SUITE_P(Vectors, HostVerifyVectors,
                         ::testing::Values("samples/circuits/multiplier_bn128", "tests/vectors/data/many_public_bls12381"),
                         [](const auto& info) { return std::filesystem::path(info.param).filename().string(); });

TEST_P(HostVerifyVectors, TheCompletionsProofVerifiesAndTamperedOnesDoNot) {
  const auto dir = kSource / GetParam();
  HostPtr host = cpu_host();
  const Loaded key = load(host.get(), dir / "circuit.zkey");
  const Proved p = prove(host.get(), key.key, dir);
  ASSERT_EQ(p.proof.size(), key.info.proof_size);
  ASSERT_EQ(p.public_inputs.size(), key.info.public_size);

  const Verified ok = verify(host.get(), key.key, p.proof, p.public_inputs);
  EXPECT_EQ(ok.status, ZKP_OK) << ok.err.message;
  EXPECT_STREQ(ok.err.message, "");

  // A flipped bit in each of A, B and C: off the curve, or a pairing that fails.
  const size_t n8q = key.info.curve == ZKP_CURVE_BN254 ? 32 : 48;
  for (const size_t at : {size_t{0}, 2 * n8q, 6 * n8q}) {
    std::vector<uint8_t> tampered = p.proof;
    tampered[at] ^= 1;
    const Verified bad = verify(host.get(), key.key, tampered, p.public_inputs);
    EXPECT_EQ(bad.status, ZKP_ERR_INVALID_PROOF) << "byte " << at << ": " << bad.err.message;
    EXPECT_NE(std::string(bad.err.message).find("does not verify"), std::string::npos) << bad.err.message;
  }
  // The points at infinity: a valid encoding, not a valid proof.
  const Verified zeros = verify(host.get(), key.key, std::vector<uint8_t>(p.proof.size(), 0), p.public_inputs);
  EXPECT_EQ(zeros.status, ZKP_ERR_INVALID_PROOF) << zeros.err.message;
  // Each public input changed: the same proof, another statement.
  for (size_t i = 0; i < key.info.n_public; ++i) {
    std::vector<uint8_t> pub = p.public_inputs;
    pub[i * ZKP_SCALAR_SIZE] ^= 1;
    EXPECT_EQ(verify(host.get(), key.key, p.proof, pub).status, ZKP_ERR_INVALID_PROOF) << "public input " << i;
  }
  // A public input of r or more (all ones is above r on both curves) is refused, not reduced.
  std::vector<uint8_t> big = p.public_inputs;
  std::fill(big.begin(), big.begin() + ZKP_SCALAR_SIZE, uint8_t{0xff});
  EXPECT_EQ(verify(host.get(), key.key, p.proof, big).status, ZKP_ERR_INVALID_PROOF);
}

TEST(HostVerify, SizesAndHandlesEachHaveTheirStatus) {
  const auto dir = kSource / "samples/circuits/multiplier_bn128";
  HostPtr host = cpu_host();
  const Loaded key = load(host.get(), dir / "circuit.zkey");
  const Proved p = prove(host.get(), key.key, dir);
  zkp_error_t err = make_error();

  // A bad host handle, then key ids this host never gave out.
  EXPECT_EQ(zkp_host_verify(nullptr, key.key, p.proof.data(), p.proof.size(), p.public_inputs.data(),
                            p.public_inputs.size(), &err),
            ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message, "host is NULL");
  for (const uint64_t unknown : {uint64_t{0}, key.key + 1, ~uint64_t{0}}) {
    const Verified v = verify(host.get(), unknown, p.proof, p.public_inputs);
    EXPECT_EQ(v.status, ZKP_ERR_NOT_FOUND) << unknown;
    EXPECT_NE(std::string(v.err.message).find("key id " + std::to_string(unknown) + " is unknown"), std::string::npos)
        << v.err.message;
  }

  // The wrong proof size: one byte short, one byte long, a BLS12-381 proof's size, none.
  for (const size_t size : {p.proof.size() - 1, p.proof.size() + 1, size_t{ZKP_PROOF_SIZE_BLS12_381}, size_t{0}}) {
    std::vector<uint8_t> proof = p.proof;
    proof.resize(size);
    const Verified v = verify(host.get(), key.key, proof, p.public_inputs);
    EXPECT_EQ(v.status, ZKP_ERR_BAD_INPUT) << size;
    EXPECT_NE(std::string(v.err.message).find("the proof is " + std::to_string(size) + " bytes; a proof of this key is 256"),
              std::string::npos)
        << v.err.message;
  }

  // The wrong number of public inputs (the key has one), and a size that is no number of them.
  for (const size_t count : {size_t{0}, size_t{2}}) {
    std::vector<uint8_t> pub(count * ZKP_SCALAR_SIZE, 0);
    if (count > 0) std::copy(p.public_inputs.begin(), p.public_inputs.end(), pub.begin());
    const Verified v = verify(host.get(), key.key, p.proof, pub);
    EXPECT_EQ(v.status, ZKP_ERR_BAD_INPUT) << count;
    EXPECT_NE(std::string(v.err.message).find(std::to_string(count) + " public input(s)"), std::string::npos)
        << v.err.message;
    EXPECT_NE(std::string(v.err.message).find("the key has 1 (32 bytes)"), std::string::npos) << v.err.message;
  }
  std::vector<uint8_t> ragged = p.public_inputs;
  ragged.push_back(0);
  const Verified r = verify(host.get(), key.key, p.proof, ragged);
  EXPECT_EQ(r.status, ZKP_ERR_BAD_INPUT);
  EXPECT_NE(std::string(r.err.message).find("not whole 32-byte scalars"), std::string::npos) << r.err.message;

  // NULL buffers with sizes; a NULL error record is allowed.
  EXPECT_EQ(zkp_host_verify(host.get(), key.key, nullptr, 256, p.public_inputs.data(), 32, &err),
            ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(zkp_host_verify(host.get(), key.key, p.proof.data(), 256, nullptr, 32, &err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(zkp_host_verify(host.get(), key.key, p.proof.data(), 256, p.public_inputs.data(), 32, nullptr), ZKP_OK);
}

TEST(HostVerify, ConcurrentCallsInACallbackAndAfterShutdown) {
  const auto dir = kSource / "samples/circuits/multiplier_bn128";
  HostPtr host = cpu_host();
  const Loaded key = load(host.get(), dir / "circuit.zkey");
  const Proved p = prove(host.get(), key.key, dir, /*verify_in_callback=*/true);
  EXPECT_EQ(p.verify_in_callback, ZKP_OK);  // the completion thread may verify

  // Four threads verify, valid and tampered in turn, while another proof is in flight.
  std::vector<uint8_t> tampered = p.proof;
  tampered[5] ^= 0x10;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 8; ++i) {
        const bool valid = (i + t) % 2 == 0;
        zkp_error_t e = make_error();
        const std::vector<uint8_t>& proof = valid ? p.proof : tampered;
        const zkp_status_t s = zkp_host_verify(host.get(), key.key, proof.data(), proof.size(),
                                               p.public_inputs.data(), p.public_inputs.size(), &e);
        if (s != (valid ? ZKP_OK : ZKP_ERR_INVALID_PROOF)) wrong.fetch_add(1);
      }
    });
  }
  const Proved again = prove(host.get(), key.key, dir);
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(verify(host.get(), key.key, again.proof, again.public_inputs).status, ZKP_OK);

  // The host keeps its prover and keys until destroy: verify still works after shutdown.
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_shutdown(host.get(), ZKP_SHUTDOWN_DRAIN, &err), ZKP_OK) << err.message;
  EXPECT_EQ(verify(host.get(), key.key, p.proof, p.public_inputs).status, ZKP_OK);
  EXPECT_EQ(verify(host.get(), key.key, tampered, p.public_inputs).status, ZKP_ERR_INVALID_PROOF);
}

TEST(HostVerify, ASimulatedProverCannotVerify) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1"});
  const uint64_t key = must_load_key(host.get());
  const std::vector<uint8_t> proof(ZKP_PROOF_SIZE_BN254, 0);
  const Verified v = verify(host.get(), key, proof, {});
  EXPECT_EQ(v.status, ZKP_ERR_UNSUPPORTED);
  EXPECT_NE(std::string(v.err.message).find("cannot verify proofs (a simulation"), std::string::npos) << v.err.message;
  EXPECT_EQ(verify(host.get(), key + 1, proof, {}).status, ZKP_ERR_NOT_FOUND);  // the handle first
}

TEST(HostVerify, TheNewStatusHasItsName) {
  EXPECT_EQ(ZKP_ERR_INVALID_PROOF, ZKP_ERR_TIMEOUT + 1);  // appended after the first release's last code
  EXPECT_STREQ(zkp_status_name(ZKP_ERR_INVALID_PROOF), "invalid proof");
}

}  // namespace
}  // namespace zkp::test
