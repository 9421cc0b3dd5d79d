// isolation = process, synthesis off the proving path (issue 17): the host's synthesis threads
// have a device process synthesize each witness (zkp_prover_t.synthesize_into) into the
// partition's shared buffer, and any device process proves it as caller-synthesized input.
// The `faulty` prover wraps the cpu prover as two devices (real multiplier_bn128 proofs).
// What each test checks:
//   - proofs of the new path are thread isolation's, byte for byte, for fixed (r, s), and so are
//     those of a plugin with the first release's table (no synthesize_into: the old path);
//   - the new path is the one taken: a synthesis fault injected in synthesize_into fires with
//     the current table, never with the first release's;
//   - a partition synthesized in device 0's process is proved in device 1's (synthesis fails on
//     device 1 by design, and every partition pinned to device 1 still proves there);
//   - a device process killed mid-synthesis: with two devices the synthesis is done again by
//     the other one and every partition proves; with one, only that partition fails, with
//     ZKP_ERR_DEVICE and a message naming the process, and the restarted process serves on;
//   - an unsatisfied witness fails with the status and message of thread isolation, with the
//     r1cs check (in synthesis) and without it (the self-check).
#include "isolation_support.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace zkp::test {
namespace {

using namespace isolation;
namespace fs = std::filesystem;

// These tests are about isolation_synthesis = ahead (the default is inline): every host here
// asks for it; with isolation = thread it is read and unused.
HostPtr ahead_host(std::vector<std::string> more, const std::string& mode = "process") {
  more.push_back("isolation_synthesis=ahead");
  return isolated_host(std::move(more), mode);
}

std::vector<uint8_t> fixed_randomness(uint32_t partitions) {
  std::vector<uint8_t> r(partitions * 64);
  for (size_t i = 0; i < r.size(); ++i) r[i] = static_cast<uint8_t>(i % 53 + 3);
  return r;
}

// The proofs of one job of 3 partitions with fixed (r, s), in partition order; each checked.
std::vector<std::vector<uint8_t>> fixed_proofs(std::vector<std::string> options, const std::string& mode) {
  HostPtr host = ahead_host(std::move(options), mode);
  const uint64_t key = load_key(host.get());
  const std::vector<uint8_t> randomness = fixed_randomness(3);
  std::vector<Record> records = prove(host.get(), key, 1, 3, -1, true, &randomness);
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.partition < b.partition; });
  expect_all_proved(host.get(), key, records, 0);
  std::vector<std::vector<uint8_t>> proofs;
  for (const Record& r : records) proofs.push_back(r.proof);
  return proofs;
}

TEST(IsolationSynthesis, ProofsEqualThreadIsolationsByteForByteWithEitherTable) {
  const std::vector<std::vector<uint8_t>> thread = fixed_proofs({}, "thread");
  ASSERT_EQ(thread.size(), 3u);
  EXPECT_NE(thread[0], thread[1]);
  EXPECT_EQ(fixed_proofs({}, "process"), thread) << "synthesized in a device process";
  EXPECT_EQ(fixed_proofs({"prover.table=first"}, "process"), thread) << "a plugin without synthesize_into";
}

TEST(IsolationSynthesis, TheDeviceProcessSynthesizesWhenThePluginCanAndOnlyThen) {
  const std::vector<std::string> every_synthesis_fails{"prover.fault=synthesis_error", "prover.fault_probability=1"};
  {
    HostPtr host = ahead_host(every_synthesis_fails);
    const uint64_t key = load_key(host.get());
    const std::vector<Record> records = prove(host.get(), key, 1, 2);
    ASSERT_EQ(records.size(), 2u);
    for (const Record& r : records) {
      EXPECT_EQ(r.status, ZKP_ERR_BAD_INPUT) << r.message;
      EXPECT_NE(r.message.find("faulty: injected synthesis error"), std::string::npos) << r.message;
    }
  }
  std::vector<std::string> first_table = every_synthesis_fails;
  first_table.push_back("prover.table=first");
  HostPtr host = ahead_host(first_table);
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 1, 2);
  ASSERT_EQ(records.size(), 2u);
  expect_all_proved(host.get(), key, records, 0);
}

TEST(IsolationSynthesis, APartitionSynthesizedOnOneDeviceIsProvedOnAnother) {
  // Device 1's process cannot synthesize at all; one synthesis thread, so the least busy
  // process is always device 0's (device 1's holds the proofs): every partition pinned to
  // device 1 was synthesized by device 0's process.
  HostPtr host = ahead_host({"prover.fault=synthesis_error", "prover.fault_device=1", "prover.fault_probability=1",
                                "synthesis_threads=1"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 2, 3, 1);
  ASSERT_EQ(records.size(), 6u);
  EXPECT_EQ(expect_all_proved(host.get(), key, records, 1), 6u);
  EXPECT_EQ(device_info(host.get(), 1).partitions_started, 6u);
  EXPECT_EQ(device_info(host.get(), 0).partitions_started, 0u);
}

TEST(IsolationSynthesis, AProcessKilledMidSynthesisIsReplacedByTheOtherDevice) {
  FaultOnce once;
  HostPtr host = ahead_host({"prover.fault=synthesis_segv", "prover.fault_at=2",
                                "prover.fault_once=" + once.path.string(), "device_retries=1"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 2, 3);
  ASSERT_EQ(records.size(), 6u);
  expect_all_proved(host.get(), key, records, 0);
  EXPECT_TRUE(fs::exists(once.path)) << "the fault never happened";
  for (int32_t device : {0, 1}) {  // both serve again, the restarted one included
    const std::vector<Record> later = prove(host.get(), key, 1, 1, device);
    ASSERT_EQ(later.size(), 1u);
    EXPECT_EQ(expect_all_proved(host.get(), key, later, device), 1u) << "device " << device;
  }
  EXPECT_EQ(stats(host.get()).device_restarts, 1u);
}

TEST(IsolationSynthesis, WithOneDeviceAKilledSynthesisFailsOnlyItsPartition) {
  FaultOnce once;
  // One synthesis at a time and the first one killed: nothing else is in flight in the process.
  HostPtr host = ahead_host({"prover.devices=1", "synthesis_threads=1", "prover.fault=synthesis_segv",
                                "prover.fault_at=1", "prover.fault_once=" + once.path.string(), "device_retries=0"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 1, 3);
  ASSERT_EQ(records.size(), 3u);
  const Record r = only_failure(host.get(), key, records);
  EXPECT_EQ(r.status, ZKP_ERR_DEVICE) << r.message;
  EXPECT_NE(r.message.find("zkpipe-device process"), std::string::npos) << r.message;
  // A sanitizer's handler turns the signal into an exit status of its own (UBSan 1, TSan 66).
  if (!ZKPIPE_SANITIZED) {
    EXPECT_NE(r.message.find("SIGSEGV"), std::string::npos) << r.message;
  }
  EXPECT_TRUE(fs::exists(once.path)) << "the fault never happened";
}

// The multiplier's witness with its output wire (wire 1) off by one: it satisfies no constraint.
std::vector<uint8_t> unsatisfied_witness() {
  std::vector<uint8_t> w = file_bytes(kCircuit / "witness.wtns");
  constexpr size_t kWires = 4;  // the values are the file's last kWires * 32 bytes
  w[w.size() - kWires * 32 + 32] ^= 1;
  return w;
}

Record unsatisfied_record(std::vector<std::string> options, const std::string& mode) {
  HostPtr host = ahead_host(std::move(options), mode);
  const uint64_t key = load_key(host.get());
  const std::vector<uint8_t> bad = unsatisfied_witness();
  const std::vector<Record> records = prove(host.get(), key, 1, 1, 0, true, nullptr, &bad);
  EXPECT_EQ(records.size(), 1u);
  return records.empty() ? Record{} : records[0];
}

TEST(IsolationSynthesis, AnUnsatisfiedWitnessFailsAsWithThreadIsolation) {
  const std::string r1cs = "prover.inner.r1cs=" + (kCircuit / "circuit.r1cs").string();
  for (const std::vector<std::string>& options : {std::vector<std::string>{}, std::vector<std::string>{r1cs}}) {
    const Record thread = unsatisfied_record(options, "thread");
    const Record process = unsatisfied_record(options, "process");
    EXPECT_EQ(thread.status, ZKP_ERR_UNSATISFIED_WITNESS) << thread.message;
    EXPECT_EQ(process.status, thread.status) << process.message;
    EXPECT_EQ(process.message, thread.message);
    EXPECT_TRUE(process.proof.empty());
  }
}

}  // namespace
}  // namespace zkp::test
