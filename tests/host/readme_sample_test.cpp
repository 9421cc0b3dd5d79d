// README.md's example plugin is the sample that the tests build and run: the code block
// after the "<!-- samples/every_n_ms/every_n_ms_pacer.cpp -->" marker must be that file,
// byte for byte (STYLE.md: "a README example that was never compiled and run").
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ReadmeSample, ExamplePluginIsTheTestedSampleFile) {
  const std::string readme = read(ZKPIPE_README);
  const std::string sample = read(ZKPIPE_SAMPLE_PACER);
  ASSERT_FALSE(sample.empty()) << "cannot read " << ZKPIPE_SAMPLE_PACER;
  const std::string marker = "<!-- samples/every_n_ms/every_n_ms_pacer.cpp -->\n```cpp\n";
  const size_t at = readme.find(marker);
  ASSERT_NE(at, std::string::npos) << "README.md has no block after the marker " << marker;
  const size_t begin = at + marker.size();
  const size_t end = readme.find("```\n", begin);
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(readme.substr(begin, end - begin), sample)
      << "README.md's example plugin differs from " << ZKPIPE_SAMPLE_PACER << ": paste the file into the block";
}

}  // namespace
