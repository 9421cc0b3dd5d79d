// receive_streamed (host/serve/streamed_request.hpp): SubmitStream's pieces put back together,
// split at any points; the witnesses' bytes reserved after the first piece and before any other
// is read; every way a stream can break the protocol refused with INVALID_ARGUMENT, naming it.
#include "streamed_request.hpp"

#include <zkpipe/sdk/error.hpp>

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

namespace zkp::serve {
namespace {

namespace v1 = zkpipe::v1;

// A client stream played from a list; counts the pieces read.
class Pieces final : public grpc::ServerReaderInterface<v1::JobRequestPiece> {
 public:
  explicit Pieces(std::deque<v1::JobRequestPiece> pieces) : pieces_(std::move(pieces)) {}
  void SendInitialMetadata() override {}
  bool NextMessageSize(uint32_t* size) override {
    if (pieces_.empty()) return false;
    *size = static_cast<uint32_t>(pieces_.front().ByteSizeLong());
    return true;
  }
  bool Read(v1::JobRequestPiece* msg) override {
    if (pieces_.empty()) return false;
    *msg = std::move(pieces_.front());
    pieces_.pop_front();
    ++read_;
    return true;
  }
  int read() const { return read_; }

 private:
  std::deque<v1::JobRequestPiece> pieces_;
  int read_ = 0;
};

v1::JobRequestPiece header(std::vector<uint64_t> sizes, uint64_t key_id = 7) {
  v1::JobRequestPiece p;
  p.mutable_header()->set_key_id(key_id);
  p.mutable_header()->set_priority(3);
  for (uint64_t s : sizes) p.add_witness_sizes(s);
  return p;
}

v1::JobRequestPiece data(const std::string& bytes) {
  v1::JobRequestPiece p;
  p.set_data(bytes);
  return p;
}

struct Reserved {
  std::vector<uint64_t> asked;
  int pieces_read_then = -1;
};

// The message of the INVALID_ARGUMENT `pieces` get; "" when accepted.
std::string refusal(std::deque<v1::JobRequestPiece> pieces) {
  Pieces reader(std::move(pieces));
  try {
    receive_streamed(reader, [](uint64_t) { return JobTable::Reservation(); });
  } catch (const sdk::Error& e) {
    EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT) << e.what();
    return e.what();
  }
  return "";
}

TEST(SubmitStream, PiecesSplitAnywhereMakeTheWitnessesAndTheHeader) {
  const std::string a = "abcdefghij", b = "0123456789ABCDEF";
  Reserved reserved;
  Pieces reader({header({a.size(), b.size()}), data("abc"), data("defghij0"), data("1"), data("23456789ABCDEF")});
  StreamedRequest got = receive_streamed(reader, [&](uint64_t bytes) {
    reserved.asked.push_back(bytes);
    reserved.pieces_read_then = reader.read();
    return JobTable::Reservation();
  });
  ASSERT_EQ(got.request.witnesses_size(), 2);
  EXPECT_EQ(got.request.witnesses(0), a);
  EXPECT_EQ(got.request.witnesses(1), b);
  EXPECT_EQ(got.request.key_id(), 7u);
  EXPECT_EQ(got.request.priority(), 3);
  // Counted once, all of it, when only the first piece had been read.
  EXPECT_EQ(reserved.asked, std::vector<uint64_t>{a.size() + b.size()});
  EXPECT_EQ(reserved.pieces_read_then, 1);
}

TEST(SubmitStream, ARefusedReservationReadsNoByte) {
  Pieces reader({header({1000}), data(std::string(1000, 'x'))});
  try {
    receive_streamed(reader, [](uint64_t) -> JobTable::Reservation {
      throw sdk::Error(ZKP_ERR_BUDGET_EXHAUSTED, "serve.request_budget");
    });
    FAIL() << "a refused reservation was not passed on";
  } catch (const sdk::Error& e) {
    EXPECT_EQ(e.status(), ZKP_ERR_BUDGET_EXHAUSTED);
  }
  EXPECT_EQ(reader.read(), 1);
}

TEST(SubmitStream, BrokenStreamsAreRefusedSayingHow) {
  EXPECT_NE(refusal({}).find("ended before its first piece"), std::string::npos);
  EXPECT_NE(refusal({data("abc")}).find("first piece has no header"), std::string::npos);
  EXPECT_NE(refusal({header({})}).find("no witness sizes"), std::string::npos);
  EXPECT_NE(refusal({header({3, 0})}).find("witness 1 has size 0"), std::string::npos);
  EXPECT_NE(refusal({header({uint64_t{1} << 61, uint64_t{1} << 61, 1})}).find("past 2^62"), std::string::npos);
  v1::JobRequestPiece with_witness = header({3});
  with_witness.mutable_header()->add_witnesses("abc");
  EXPECT_NE(refusal({with_witness}).find("carries witnesses"), std::string::npos);
  v1::JobRequestPiece with_synthesized = header({3});
  with_synthesized.mutable_header()->add_synthesized();
  EXPECT_NE(refusal({with_synthesized}).find("synthesized"), std::string::npos);
  v1::JobRequestPiece with_data = header({3});
  with_data.set_data("abc");
  EXPECT_NE(refusal({with_data}).find("first piece carries data"), std::string::npos);
  EXPECT_NE(refusal({header({3}), data("abcd")}).find("more bytes than the witness sizes add up to (3)"), std::string::npos);
  EXPECT_NE(refusal({header({3, 4}), data("abc"), data("de")}).find("witness 1 at 2 of 4 bytes"), std::string::npos);
  EXPECT_NE(refusal({header({3}), header({3})}).find("after the first carries a header"), std::string::npos);
  EXPECT_EQ(refusal({header({3}), data("abc")}), "");
}

}  // namespace
}  // namespace zkp::serve
