// The iden3 "binfileutils" container shared by .zkey, .wtns and .r1cs:
//   4-byte magic | u32 version | u32 nSections | nSections x { u32 id | u64 length | payload }
// little-endian throughout. Writers emit sections in varying order (groth16 setup writes
// 1,2,4,3,9,8,5,6,7,10), so sections are found by id, never by position.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/byte_reader.hpp"
#include "core/formats/bytes.hpp"

namespace zkp {

struct BinSection {
  std::uint32_t id = 0;
  std::uint64_t offset = 0;  // file offset of the payload (after the 12-byte section header)
  ByteView data;             // the payload
};

class BinFile {
 public:
  // Parses the container. Throws FormatError on: a magic other than `magic`, a version other than
  // `version`, a truncated header, a section whose length runs past the end of the file, the same
  // id twice, or bytes left after the last section. `file` is kept by reference for messages: it
  // must outlive this object (it is the ByteSource's name).
  BinFile(ByteView bytes, std::string_view file, std::string_view magic, std::uint32_t version);

  // nullptr when absent (optional sections).
  const BinSection* find(std::uint32_t id) const;
  // Throws "missing section <id> (<what>)".
  const BinSection& require(std::uint32_t id, std::string_view what) const;
  // Throws unless the payload is exactly `expected` bytes; `why` says where `expected` comes
  // from ("nVars 2003 x G1 64 bytes").
  void expect_size(const BinSection& s, std::string_view what, std::uint64_t expected,
                   std::string_view why) const;
  // A reader over the section, with "section <id> (<what>)" as its message prefix.
  ByteReader reader(const BinSection& s, std::string_view what) const;

  const std::vector<BinSection>& sections() const { return sections_; }
  std::string_view file() const { return file_; }

 private:
  void reject_duplicates() const;

  std::string_view file_;
  std::vector<BinSection> sections_;
};

// The container's header and section table at `path`, read with a few small reads before the
// file is read whole: a file that is not this container (a LoadKey of a large file that is no
// zkey), or whose section table runs past its end, is refused without reading it. Throws what
// BinFile would for the same fault (and FormatError / IoError for what RegularFile refuses); a
// file that passes is parsed by BinFile as before, which checks the rest.
void check_bin_layout(const std::filesystem::path& path, std::string_view magic, std::uint32_t version);

// "section 5 (A)": the prefix every message about a section uses.
std::string section_label(std::uint32_t id, std::string_view what);

}  // namespace zkp
