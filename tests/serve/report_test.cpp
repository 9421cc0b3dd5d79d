// The pages of `zkpipe serve`'s HTTP endpoint made from a Report with awkward text in it (a
// pacer status line and a key path holding quotes, backslashes, a newline and a control
// character): label values and JSON strings are escaped so both pages still parse, and the
// text comes back unchanged; histogram buckets are cumulative. (http.sh checks the pages of a
// running server.)
#include "report.hpp"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

namespace zkp::serve {
namespace {

const std::string kAwkward = "say \"hi\" \\ there\nnext\x01 line";

Report awkward_report() {
  Report r;
  r.version = "test";
  r.prover = "cpu";
  r.pacer = "greedy";
  r.pacer_status = kAwkward;
  r.stats.device_count = 1;
  zkp_device_info_t d{};
  std::strncpy(d.name, "device \"0\"", sizeof(d.name) - 1);
  r.devices.push_back(d);
  services::KeyEntry k;
  k.id = 7;
  k.path = kAwkward;
  r.keys.push_back(k);
  r.metrics.gpu_duration[0].observe_ns(2'000'000);     // 2 ms
  r.metrics.gpu_duration[0].observe_ns(700'000'000);   // 0.7 s
  r.metrics.gpu_duration[0].observe_ns(999'000'000'000);  // past the last bound: +Inf only
  return r;
}

TEST(Report, LabelValuesAreEscaped) {
  EXPECT_EQ(escape_label_value(kAwkward), "say \\\"hi\\\" \\\\ there\\nnext\x01 line");
  const std::string text = metrics_text(awkward_report());
  EXPECT_NE(text.find("zkpipe_pacer_info{pacer=\"greedy\",status=\"say \\\"hi\\\" \\\\ there\\nnext\x01 line\"} 1\n"),
            std::string::npos)
      << text;
  // Every line is a comment or NAME[{...}] VALUE: the newline in the status did not break one.
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    ASSERT_FALSE(line.empty());
    if (line[0] == '#') continue;
    EXPECT_EQ(line.rfind("zkpipe_", 0), 0u) << line;
  }
}

TEST(Report, HistogramBucketsAreCumulative) {
  const std::string text = metrics_text(awkward_report());
  EXPECT_NE(text.find("zkpipe_gpu_duration_seconds_bucket{gpu=\"0\",le=\"0.001\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("zkpipe_gpu_duration_seconds_bucket{gpu=\"0\",le=\"0.0025\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("zkpipe_gpu_duration_seconds_bucket{gpu=\"0\",le=\"1\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("zkpipe_gpu_duration_seconds_bucket{gpu=\"0\",le=\"600\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("zkpipe_gpu_duration_seconds_bucket{gpu=\"0\",le=\"+Inf\"} 3\n"), std::string::npos);
  EXPECT_NE(text.find("zkpipe_gpu_duration_seconds_count{gpu=\"0\"} 3\n"), std::string::npos);
  EXPECT_NE(text.find("zkpipe_gpu_duration_seconds_sum{gpu=\"0\"} 999.702\n"), std::string::npos) << text;
}

TEST(Report, StatusJsonParsesAndKeepsTheText) {
  const std::string json = status_json(awkward_report());
  google::protobuf::Value root;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &root).ok()) << json;
  const auto& fields = root.struct_value().fields();
  EXPECT_EQ(fields.at("pacer").struct_value().fields().at("status").string_value(), kAwkward);
  const auto& keys = fields.at("keys").list_value();
  ASSERT_EQ(keys.values_size(), 1);
  EXPECT_EQ(keys.values(0).struct_value().fields().at("path").string_value(), kAwkward);
  EXPECT_EQ(keys.values(0).struct_value().fields().at("key_id").number_value(), 7);
  const auto& devices = fields.at("devices").list_value();
  ASSERT_EQ(devices.values_size(), 1);
  EXPECT_EQ(devices.values(0).struct_value().fields().at("name").string_value(), "device \"0\"");
  EXPECT_EQ(devices.values(0).struct_value().fields().at("gpu_duration").struct_value().fields().at("count").number_value(), 3);
}

}  // namespace
}  // namespace zkp::serve
