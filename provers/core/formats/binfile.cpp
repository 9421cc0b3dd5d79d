#include "core/formats/binfile.hpp"

#include <algorithm>
#include <array>
#include <span>

#include "core/formats/error.hpp"
#include "core/formats/regular_file.hpp"

namespace zkp {
namespace {
constexpr std::size_t kMagicBytes = 4;
constexpr std::uint64_t kSectionHeaderBytes = 4 + 8;  // u32 id + u64 length

// Magic bytes as text when printable, so "wrong magic: expected 'zkey', found 'wtns'" reads well.
std::string printable(ByteView b) {
  std::string s;
  for (std::byte c : b) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      s += static_cast<char>(u);
    } else {
      s += detail::concat("\\x", "0123456789abcdef"[u >> 4], "0123456789abcdef"[u & 15]);
    }
  }
  return s;
}
}  // namespace

void check_bin_layout(const std::filesystem::path& path, std::string_view magic, std::uint32_t version) {
  const RegularFile file(path);
  const std::string name = path.string();
  std::array<std::byte, kMagicBytes + 8> head{};
  if (file.size() < head.size()) return;  // BinFile names what is missing
  file.read(0, head);
  ByteReader r(ByteView(head.data(), head.size()), name, "file header", 0);
  const bool same_magic = bytes_equal(r.take(kMagicBytes, "magic"), std::as_bytes(std::span(magic.data(), magic.size())));
  if (!same_magic || r.u32("version") != version) {
    [[maybe_unused]] const BinFile fails(ByteView(head.data(), head.size()), name, magic, version);  // throws its message
  }
  std::uint64_t at = head.size();
  for (std::uint32_t i = 0, n = r.u32("section count"); i < n && file.size() - at >= kSectionHeaderBytes; ++i) {
    std::array<std::byte, kSectionHeaderBytes> section{};
    file.read(at, section);
    ByteReader s(ByteView(section.data(), section.size()), name, "section header", at);
    const std::uint32_t id = s.u32("section id");
    const std::uint64_t len = s.u64("section length");
    const std::uint64_t left = file.size() - at - kSectionHeaderBytes;
    if (len > left) {
      format_fail(name, section_label(id, "header at offset " + std::to_string(at)), ": length ", len,
                  " runs past the end of the file (", left, " bytes left)");
    }
    at += kSectionHeaderBytes + len;
  }
}

std::string section_label(std::uint32_t id, std::string_view what) {
  return detail::concat("section ", id, " (", what, ")");
}

BinFile::BinFile(ByteView bytes, std::string_view file, std::string_view magic,
                 std::uint32_t version)
    : file_(file) {
  ByteReader r(bytes, file, "file header", 0);
  const ByteView m = r.take(kMagicBytes, "magic");
  if (!bytes_equal(m, std::as_bytes(std::span(magic.data(), magic.size())))) {
    format_fail(file, "wrong magic at offset 0: expected '", magic, "', found '", printable(m),
                "'");
  }
  const std::uint32_t v = r.u32("version");
  if (v != version) {
    format_fail(file, "unsupported ", magic, " version at offset 4: expected ", version, ", found ",
                v);
  }
  const std::uint32_t n = r.u32("section count");
  // Each section needs at least its 12-byte header: bound n before reserving, so a corrupt count
  // fails here instead of allocating gigabytes.
  if (n > r.remaining() / kSectionHeaderBytes) {
    format_fail(file, "file header: section count ", n, " cannot fit in the ", r.remaining(),
                " bytes that follow (each section header is ", kSectionHeaderBytes, " bytes)");
  }
  sections_.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint64_t header_at = r.offset();
    const std::uint32_t id = r.u32("section id");
    const std::uint64_t len = r.u64("section length");
    if (len > r.remaining()) {
      format_fail(file, section_label(id, "header at offset " + std::to_string(header_at)),
                  ": length ", len, " runs past the end of the file (", r.remaining(),
                  " bytes left)");
    }
    const std::uint64_t at = r.offset();
    sections_.push_back(BinSection{id, at, r.take(len, "section payload")});
  }
  reject_duplicates();
  if (r.remaining() != 0) {
    format_fail(file, r.remaining(), " unexpected bytes after the last of ", n,
                " sections (offset ", r.offset(), ")");
  }
}

void BinFile::reject_duplicates() const {
  // Sorting a copy keeps this O(n log n): a fuzzed header can claim ~size/12 sections.
  std::vector<const BinSection*> by_id;
  by_id.reserve(sections_.size());
  for (const BinSection& s : sections_) by_id.push_back(&s);
  std::sort(by_id.begin(), by_id.end(), [](const BinSection* a, const BinSection* b) {
    return a->id != b->id ? a->id < b->id : a->offset < b->offset;
  });
  for (std::size_t i = 1; i < by_id.size(); ++i) {
    if (by_id[i]->id == by_id[i - 1]->id) {
      format_fail(file_, "section ", by_id[i]->id, " appears twice (payloads at offsets ",
                  by_id[i - 1]->offset, " and ", by_id[i]->offset, ")");
    }
  }
}

const BinSection* BinFile::find(std::uint32_t id) const {
  auto it = std::find_if(sections_.begin(), sections_.end(),
                         [id](const BinSection& s) { return s.id == id; });
  return it == sections_.end() ? nullptr : &*it;
}

const BinSection& BinFile::require(std::uint32_t id, std::string_view what) const {
  const BinSection* s = find(id);
  if (s == nullptr) format_fail(file_, "missing ", section_label(id, what));
  return *s;
}

void BinFile::expect_size(const BinSection& s, std::string_view what, std::uint64_t expected,
                          std::string_view why) const {
  if (s.data.size() != expected) {
    format_fail(file_, section_label(s.id, what), " at offset ", s.offset, ": size ", s.data.size(),
                " bytes, expected ", expected, " (", why, ")");
  }
}

ByteReader BinFile::reader(const BinSection& s, std::string_view what) const {
  return ByteReader(s.data, file_, section_label(s.id, what), s.offset);
}

}  // namespace zkp
