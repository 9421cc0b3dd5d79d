// Files that change or are not files, through the C API on the cpu prover (issue 17, red team):
// a key file replaced under a loaded key (it used to be mmap'ed: SIGBUS at the next proof), a
// witness, key, r1cs or config that is a FIFO (it blocked a thread for ever) or /dev/zero (read
// until memory ran out), and a witness far larger than the key's wire count (read whole before
// the count was checked). Each is a clear status and message, never a signal or a hang.
#include "host_test_support.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace zkp::test {
namespace {

namespace fs = std::filesystem;
const fs::path kSample = fs::path(ZKPIPE_SOURCE_DIR) / "samples/circuits/multiplier_bn128";

class InputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("zkp_input_files_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path fifo(const char* name) {
    const fs::path p = dir_ / name;
    EXPECT_EQ(::mkfifo(p.c_str(), 0600), 0);
    return p;
  }
  fs::path dir_;
};

struct Loaded {
  zkp_status_t status;
  std::string message;
  uint64_t key = 0;
};

Loaded load(zkp_host_t* host, const fs::path& zkey) {
  zkp_key_source_t source{};
  source.header = ZKP_HEADER_INIT(zkp_key_source_t);
  const std::string path = zkey.string();
  source.path = path.c_str();
  zkp_error_t err = make_error();
  Loaded out{};
  out.status = zkp_host_load_key(host, &source, &out.key, &err);
  out.message = err.message;
  return out;
}

struct Outcome {
  zkp_status_t status = ZKP_ERR_INTERNAL;
  std::string message = "never completed";
  std::vector<uint8_t> proof, public_inputs;
  static void on_partition(void* self, const zkp_completion_t* c) {
    auto& me = *static_cast<Outcome*>(self);
    me.status = c->status;
    me.message = c->message;
    if (c->proof != nullptr) me.proof.assign(c->proof, c->proof + c->proof_size);
    if (c->public_inputs != nullptr) me.public_inputs.assign(c->public_inputs, c->public_inputs + c->public_size);
  }
};

Outcome prove(zkp_host_t* host, uint64_t key, const fs::path& wtns) {
  const std::string path = wtns.string();
  zkp_partition_t part{};
  part.header = ZKP_HEADER_INIT(zkp_partition_t);
  part.witness.header = ZKP_HEADER_INIT(zkp_witness_t);
  part.witness.kind = ZKP_WITNESS_WTNS_FILE;
  part.witness.path = path.c_str();
  Outcome out;
  zkp_job_t job{};
  job.header = ZKP_HEADER_INIT(zkp_job_t);
  job.key_id = key;
  job.partitions = &part;
  job.partition_count = 1;
  job.gpu_index = -1;
  job.on_partition = &Outcome::on_partition;
  job.user_data = &out;
  must_wait(host, must_submit(host, job));
  return out;
}

HostPtr cpu_host(std::vector<std::string> more = {}) {
  std::vector<std::string> o = {"prover=cpu", "workers_per_device=1", "synthesis_threads=1"};
  o.insert(o.end(), more.begin(), more.end());
  return must_create(o);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `cp new.zkey circuit.zkey` over a loaded key truncates the file and writes another: the key
// zkpipe loaded is its own copy, so its proofs go on, and verify.
TEST_F(InputFiles, AKeyFileReplacedUnderALoadedKeyChangesNothing) {
  const fs::path zkey = dir_ / "circuit.zkey";
  fs::copy_file(kSample / "circuit.zkey", zkey);
  HostPtr host = cpu_host();
  const Loaded key = load(host.get(), zkey);
  ASSERT_EQ(key.status, ZKP_OK) << key.message;
  fs::resize_file(zkey, 0);
  std::ofstream(zkey, std::ios::binary) << "not a key any more";
  const Outcome out = prove(host.get(), key.key, kSample / "witness.wtns");
  ASSERT_EQ(out.status, ZKP_OK) << out.message;
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_verify(host.get(), key.key, out.proof.data(), out.proof.size(), out.public_inputs.data(),
                            out.public_inputs.size(), &err),
            ZKP_OK)
      << err.message;
}

TEST_F(InputFiles, AWitnessThatIsAFifoFailsItsPartitionWithoutBlocking) {
  HostPtr host = cpu_host();
  const Loaded key = load(host.get(), kSample / "circuit.zkey");
  ASSERT_EQ(key.status, ZKP_OK) << key.message;
  const fs::path p = fifo("witness.wtns");
  const Outcome out = prove(host.get(), key.key, p);  // no writer ever opens it
  EXPECT_EQ(out.status, ZKP_ERR_BAD_INPUT) << out.message;
  EXPECT_TRUE(contains(out.message, p.string() + ": is a FIFO, not a regular file")) << out.message;
}

TEST_F(InputFiles, AWitnessThatIsDevZeroFailsItsPartition) {
  HostPtr host = cpu_host();
  const Loaded key = load(host.get(), kSample / "circuit.zkey");
  ASSERT_EQ(key.status, ZKP_OK) << key.message;
  for (const char* dev : {"/dev/zero", "/dev/urandom"}) {
    const Outcome out = prove(host.get(), key.key, dev);
    EXPECT_EQ(out.status, ZKP_ERR_BAD_INPUT) << dev << ": " << out.message;
    EXPECT_TRUE(contains(out.message, std::string(dev) + ": is a character device")) << out.message;
  }
}

// A 1 MiB "witness" for the sample's 4-wire key is refused by its size, before it is read.
TEST_F(InputFiles, AWitnessFarLargerThanTheKeyImpliesIsRefusedByItsSize) {
  const fs::path big = dir_ / "big.wtns";
  fs::copy_file(kSample / "witness.wtns", big);
  fs::resize_file(big, 1 << 20);
  HostPtr host = cpu_host();
  const Loaded key = load(host.get(), kSample / "circuit.zkey");
  ASSERT_EQ(key.status, ZKP_OK) << key.message;
  const Outcome out = prove(host.get(), key.key, big);
  EXPECT_EQ(out.status, ZKP_ERR_BAD_INPUT) << out.message;
  EXPECT_TRUE(contains(out.message, "the witness is 1048576 bytes; a witness of the key's 4 wires is at most 4224 bytes"))
      << out.message;
}

TEST_F(InputFiles, AKeyOrR1csThatIsNotARegularFileIsRefusedAtLoad) {
  HostPtr host = cpu_host();
  const fs::path key_fifo = fifo("circuit.zkey");
  const Loaded from_fifo = load(host.get(), key_fifo);
  EXPECT_EQ(from_fifo.status, ZKP_ERR_BAD_INPUT) << from_fifo.message;
  EXPECT_TRUE(contains(from_fifo.message, "is a FIFO, not a regular file")) << from_fifo.message;
  const Loaded from_zero = load(host.get(), "/dev/zero");
  EXPECT_EQ(from_zero.status, ZKP_ERR_BAD_INPUT) << from_zero.message;
  EXPECT_TRUE(contains(from_zero.message, "/dev/zero: is a character device")) << from_zero.message;

  const fs::path r1cs_fifo = fifo("circuit.r1cs");
  HostPtr checked = cpu_host({"prover.r1cs=" + r1cs_fifo.string()});
  const Loaded with_r1cs = load(checked.get(), kSample / "circuit.zkey");
  EXPECT_NE(with_r1cs.status, ZKP_OK);
  EXPECT_TRUE(contains(with_r1cs.message, r1cs_fifo.string() + ": is a FIFO, not a regular file")) << with_r1cs.message;
}

TEST_F(InputFiles, AConfigFileThatIsNotARegularFileIsRefused) {
  const fs::path p = fifo("zkpipe.ini");
  for (const std::string& config : {p.string(), std::string("/dev/zero")}) {
    const Created c = create_host({"prover=sim"}, config.c_str());
    EXPECT_EQ(c.status, ZKP_ERR_INVALID_ARGUMENT) << config << ": " << c.message;
    EXPECT_TRUE(contains(c.message, "config file '" + config + "' is not a regular file")) << c.message;
    EXPECT_EQ(c.host, nullptr);
  }
}

}  // namespace
}  // namespace zkp::test
