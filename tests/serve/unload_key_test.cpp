// zkp_host_unload_key through the C API (libzkpipe), as `zkpipe serve`'s UnloadKey uses it:
// refused while partitions of the key are in flight (the key kept and still usable), done
// once they have completed, and the id unknown afterwards everywhere.
#include "host_test_support.hpp"

namespace zkp::test {
namespace {

zkp_status_t unload(zkp_host_t* host, uint64_t key, std::string* message = nullptr) {
  zkp_error_t err = make_error();
  const zkp_status_t status = zkp_host_unload_key(host, key, &err);
  if (message != nullptr) *message = err.message;
  return status;
}

zkp_status_t key_info(zkp_host_t* host, uint64_t key) {
  zkp_key_info_t info{};
  info.header = ZKP_HEADER_INIT(zkp_key_info_t);
  zkp_error_t err = make_error();
  return zkp_host_key_info(host, key, &info, &err);
}

TEST(UnloadKey, RefusedWhileInFlightThenDone) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=100", "workers_per_device=1"});
  const uint64_t key = must_load_key(host.get());
  const uint64_t other = must_load_key(host.get());
  Partitions parts(3);
  Collector collector;
  const uint64_t job = must_submit(host.get(), make_job(key, parts, &collector));

  std::string message;
  EXPECT_EQ(unload(host.get(), key, &message), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(message.find("in use"), std::string::npos) << message;
  EXPECT_EQ(key_info(host.get(), key), ZKP_OK);   // kept
  EXPECT_EQ(unload(host.get(), other), ZKP_OK);   // another key is not held by the job
  EXPECT_EQ(key_info(host.get(), other), ZKP_ERR_NOT_FOUND);

  must_wait(host.get(), job);
  EXPECT_EQ(unload(host.get(), key), ZKP_OK);
  EXPECT_EQ(key_info(host.get(), key), ZKP_ERR_NOT_FOUND);
  EXPECT_EQ(unload(host.get(), key), ZKP_ERR_NOT_FOUND);

  zkp_error_t err = make_error();
  uint64_t id = 0;
  const zkp_job_t again = make_job(key, parts, &collector);
  EXPECT_EQ(zkp_host_submit(host.get(), &again, &id, &err), ZKP_ERR_NOT_FOUND) << err.message;
  EXPECT_NE(must_load_key(host.get()), key);  // ids are never reused
  std::lock_guard lock(collector.mu);
  ASSERT_EQ(collector.records.size(), 3u);
  for (const Record& r : collector.records) EXPECT_EQ(r.status, ZKP_OK) << r.message;
}

TEST(UnloadKey, UnknownKeyAndNullHost) {
  HostPtr host = must_create({"prover=sim"});
  EXPECT_EQ(unload(host.get(), 0), ZKP_ERR_NOT_FOUND);
  EXPECT_EQ(unload(host.get(), 12345), ZKP_ERR_NOT_FOUND);
  EXPECT_EQ(unload(nullptr, 1), ZKP_ERR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace zkp::test
