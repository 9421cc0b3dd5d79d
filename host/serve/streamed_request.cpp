#include "streamed_request.hpp"

#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace zkp::serve {

namespace v1 = zkpipe::v1;

namespace {

[[noreturn]] void refuse(const std::string& why) { throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "SubmitStream: " + why); }

}  // namespace

StreamedRequest receive_streamed(grpc::ServerReaderInterface<v1::JobRequestPiece>& reader,
                                 const std::function<JobTable::Reservation(uint64_t bytes)>& reserve) {
  v1::JobRequestPiece piece;
  if (!reader.Read(&piece)) refuse("the stream ended before its first piece");
  if (!piece.has_header()) refuse("the first piece has no header");
  if (piece.header().witnesses_size() != 0 || piece.header().synthesized_size() != 0) {
    refuse("the header carries witnesses or synthesized partitions; their bytes come in later pieces (and "
           "synthesized partitions go by Submit)");
  }
  if (piece.witness_sizes_size() == 0) refuse("the first piece gives no witness sizes");
  if (!piece.data().empty()) refuse("the first piece carries data; the bytes come in later pieces");
  constexpr uint64_t kMaxTotal = uint64_t{1} << 62;  // no sum of sizes can wrap below it
  uint64_t total = 0;
  for (int i = 0; i < piece.witness_sizes_size(); ++i) {
    const uint64_t size = piece.witness_sizes(i);
    if (size == 0) refuse("witness " + std::to_string(i) + " has size 0");
    if (size > kMaxTotal - total) refuse("the witness sizes add up past 2^62 bytes");
    total += size;
  }
  StreamedRequest out{std::move(*piece.mutable_header()), reserve(total)};
  // Capacity reserved up front, so each piece is appended once and nothing grows by doubling;
  // not resized, so a witness the client never sends costs address space only (the pages are
  // touched as its bytes arrive).
  const std::vector<uint64_t> sizes(piece.witness_sizes().begin(), piece.witness_sizes().end());
  for (const uint64_t size : sizes) out.request.add_witnesses()->reserve(size);
  size_t current = 0;
  uint64_t filled = 0;  // of witness `current`
  while (reader.Read(&piece)) {
    if (piece.has_header() || piece.witness_sizes_size() != 0) refuse("a piece after the first carries a header or sizes");
    const std::string& data = piece.data();
    size_t at = 0;
    while (at < data.size()) {
      if (current == sizes.size()) refuse("more bytes than the witness sizes add up to (" + std::to_string(total) + ")");
      std::string& w = *out.request.mutable_witnesses(static_cast<int>(current));
      const size_t n = std::min<uint64_t>(data.size() - at, sizes[current] - filled);
      w.append(data, at, n);
      at += n;
      filled += n;
      if (filled == sizes[current]) {
        ++current;
        filled = 0;
      }
    }
  }
  if (current != sizes.size()) {
    refuse("the stream ended with witness " + std::to_string(current) + " at " + std::to_string(filled) + " of " +
           std::to_string(sizes[current]) + " bytes");
  }
  return out;
}

}  // namespace zkp::serve
