// A partition's result, written once: Store::complete (one result, zkpipe.complete) and
// Store::complete_batch (several in one statement, zkpipe.complete_many; schema.cpp has both).
#include "store.hpp"

#include <algorithm>
#include <tuple>

namespace zkp::queue {

bool Store::complete(const std::string& worker, const PartitionResult& res) {
  // zkpipe.complete (schema.cpp) does the whole write in one round trip; kJobDoneChannel is
  // the channel it notifies.
  auto maybe = [](const std::string& s, bool binary) { return s.empty() ? Param::null() : Param{s, binary}; };
  const Result r = c_.exec(
      "SELECT zkpipe.complete($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
      {Param::integer(static_cast<int64_t>(res.job_id)), Param::integer(res.index),
       Param::integer(static_cast<int64_t>(res.lease_id)), Param::text(worker), Param::integer(res.status),
       Param::text(res.message), maybe(res.proof, true), maybe(res.public_inputs, true), maybe(res.proof_json, false),
       maybe(res.public_json, false), Param::integer(static_cast<int64_t>(res.prove_ns))});
  return r.text(0, 0) == "t";
}

namespace {

// Array literals for complete_batch's unnest: an empty string is NULL (as complete() sends
// it), every other element quoted; bytea elements in hex input form.
void append_element(std::string& out, const std::string& s, bool bytes, bool empty_is_null) {
  if (out.size() > 1) out += ',';
  if (s.empty() && empty_is_null) {
    out += "NULL";
    return;
  }
  if (bytes) {
    static const char kHex[] = "0123456789abcdef";
    out += "\"\\\\x";  // "\\x, which the array parser reads as \x
    for (unsigned char ch : s) {
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
    out += '"';
    return;
  }
  out += '"';
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  out += '"';
}

template <class Field>
std::string array_of(const std::vector<PartitionResult>& rs, Field field, bool bytes = false, bool empty_is_null = true) {
  std::string out = "{";
  for (const PartitionResult& r : rs) append_element(out, field(r), bytes, empty_is_null);
  out += '}';
  return out;
}

}  // namespace

std::vector<bool> Store::complete_batch(const std::string& worker, const std::vector<PartitionResult>& results) {
  if (results.empty()) return {};
  if (results.size() == 1) return {complete(worker, results.front())};
  // Sent in (job, partition) order, the order the function locks the rows in; equal ones in
  // the order they came, so that the first of them is the one written.
  std::vector<size_t> order(results.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(results[a].job_id, results[a].index) < std::tie(results[b].job_id, results[b].index);
  });
  // Two results for one partition in a batch (a partition proved twice here: claimed again
  // after this worker's lease expired while it still proved it) would make the function insert
  // the partition's result twice, and the whole batch fail. The first goes in the batch; each
  // later one is written after it as complete() writes a late result: dropped and counted.
  std::vector<PartitionResult> sorted;
  std::vector<size_t> sent, repeats;  // indexes into `results`
  sorted.reserve(results.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const PartitionResult& x = results[order[k]];
    if (!sorted.empty() && sorted.back().job_id == x.job_id && sorted.back().index == x.index) {
      repeats.push_back(order[k]);
    } else {
      sorted.push_back(x);
      sent.push_back(order[k]);
    }
  }
  std::vector<bool> written(results.size(), false);
  if (sorted.size() == 1) {
    written[sent.front()] = complete(worker, sorted.front());
  } else {
    auto num = [](uint64_t v) { return std::to_string(v); };
    // One statement (one round trip, one transaction): zkpipe.complete_many (schema.cpp)
    // answers each row by its 1-based ordinal.
    const Result r = c_.exec(
        "SELECT n, written FROM zkpipe.complete_many($1, $2::bigint[], $3::int[], $4::bigint[], $5::int[], $6::text[],"
        " $7::bytea[], $8::bytea[], $9::text[], $10::text[], $11::bigint[])",
        {Param::text(worker), Param::text(array_of(sorted, [&](const PartitionResult& x) { return num(x.job_id); })),
         Param::text(array_of(sorted, [&](const PartitionResult& x) { return num(x.index); })),
         Param::text(array_of(sorted, [&](const PartitionResult& x) { return num(x.lease_id); })),
         Param::text(array_of(sorted, [](const PartitionResult& x) { return std::to_string(x.status); })),
         Param::text(array_of(sorted, [](const PartitionResult& x) { return x.message; }, false, false)),
         Param::text(array_of(sorted, [](const PartitionResult& x) { return x.proof; }, true)),
         Param::text(array_of(sorted, [](const PartitionResult& x) { return x.public_inputs; }, true)),
         Param::text(array_of(sorted, [](const PartitionResult& x) { return x.proof_json; })),
         Param::text(array_of(sorted, [](const PartitionResult& x) { return x.public_json; })),
         Param::text(array_of(sorted, [&](const PartitionResult& x) { return num(x.prove_ns); }))});
    for (int i = 0; i < r.rows(); ++i) {
      const int64_t n = r.integer(i, 0);  // 1-based
      if (n >= 1 && static_cast<size_t>(n) <= sent.size()) written[sent[static_cast<size_t>(n - 1)]] = r.text(i, 1) == "t";
    }
  }
  for (size_t i : repeats) written[i] = complete(worker, results[i]);
  return written;
}

}  // namespace zkp::queue
