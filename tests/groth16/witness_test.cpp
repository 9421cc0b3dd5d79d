// load_assignment (core/groth16/witness.hpp): the assignment read on one thread and on a pool
// is the same, and a bad value is named the same way, first bad value first.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/ff/bn254.hpp"
#include "core/formats/error.hpp"
#include "core/groth16/witness.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::groth16 {
namespace {

using Fr = bn254::Fr;

// `count` values below r after w[0] = 1, as the little-endian bytes of a .wtns values section,
// one byte past an aligned start (the copy must not assume alignment).
std::vector<std::byte> assignment_bytes(std::size_t count, std::mt19937_64& rng) {
  std::vector<std::byte> bytes(1 + count * Fr::kBytes);
  for (std::size_t i = 0; i < count; ++i) {
    const Fr::Int v = i == 0 ? Fr::Int::from_u64(1) : Fr::random(rng).to_bigint();
    std::memcpy(bytes.data() + 1 + i * Fr::kBytes, v.limbs.data(), Fr::kBytes);
  }
  return bytes;
}

std::optional<std::string> error_of(ByteView bytes, std::size_t count, ThreadPool* pool) {
  try {
    load_assignment<Fr>(bytes, count, "w", pool);
  } catch (const FormatError& e) {
    return e.what();
  }
  return std::nullopt;
}

TEST(LoadAssignment, OnAPoolIsTheSerialRead) {
  std::mt19937_64 rng(5);
  const std::size_t count = 3 * (std::size_t{1} << 14) + 5;  // several of the pool's chunks
  const std::vector<std::byte> bytes = assignment_bytes(count, rng);
  const ByteView view(bytes.data() + 1, count * Fr::kBytes);
  ThreadPool pool(4);
  const auto serial = load_assignment<Fr>(view, count, "w");
  const auto parallel = load_assignment<Fr>(view, count, "w", &pool);
  ASSERT_EQ(serial.size(), count);
  EXPECT_EQ(parallel, serial);
  for (const std::size_t i : {std::size_t{0}, std::size_t{1}, count / 2, count - 1}) {
    Fr::Int v;
    std::memcpy(v.limbs.data(), view.data() + i * Fr::kBytes, Fr::kBytes);
    EXPECT_EQ(serial[i], v) << i;
  }
}

// Two values not below r, in different chunks: both reads name the first, the same way.
TEST(LoadAssignment, NamesTheFirstValueNotBelowRWithOrWithoutAPool) {
  std::mt19937_64 rng(6);
  const std::size_t count = 3 * (std::size_t{1} << 14) + 5;
  std::vector<std::byte> bytes = assignment_bytes(count, rng);
  const std::size_t first = (std::size_t{1} << 14) + 3, later = 2 * (std::size_t{1} << 14) + 9;
  for (const std::size_t at : {later, first}) std::memset(bytes.data() + 1 + at * Fr::kBytes, 0xff, Fr::kBytes);
  const ByteView view(bytes.data() + 1, count * Fr::kBytes);
  ThreadPool pool(4);
  const auto serial = error_of(view, count, nullptr), parallel = error_of(view, count, &pool);
  ASSERT_TRUE(serial.has_value());
  EXPECT_NE(serial->find("value " + std::to_string(first) + " is not below"), std::string::npos) << *serial;
  EXPECT_EQ(parallel, serial);
}

TEST(LoadAssignment, TheConstantWireMustBeOne) {
  std::mt19937_64 rng(7);
  std::vector<std::byte> bytes = assignment_bytes(40000, rng);
  bytes[1] = std::byte{2};  // w[0] = 2
  ThreadPool pool(3);
  const auto e = error_of(ByteView(bytes.data() + 1, 40000 * Fr::kBytes), 40000, &pool);
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->find("value 0 (the constant wire) must be 1"), std::string::npos) << *e;
}

}  // namespace
}  // namespace zkp::groth16
