// The pages of `zkpipe serve`'s HTTP endpoint made from a Report with awkward text in it (a
// pacer status line and a key path holding quotes, backslashes, a newline and a control
// character): label values and JSON strings are escaped so both pages still parse, and the
// text comes back unchanged; histogram buckets are cumulative; every status has its series
// at 0 from the start, named in snake_case; refused calls and failed key loads are counted.
// (http.sh checks the pages of a running server.)
#include "auth.hpp"
#include "services/observe/report.hpp"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace zkp::serve {
namespace {

using namespace observe;  // the pages serve shows are the services' (services/observe)

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

// The value of the sample `line` ("name{labels}") in the exposition `text`, or -1 if absent.
double sample_value(const std::string& text, const std::string& line) {
  const size_t at = text.find("\n" + line + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + 1 + line.size() + 1));
}

TEST(Report, StatusLabelsAreSnakeCase) {
  EXPECT_EQ(status_label(ZKP_OK), "ok");
  EXPECT_EQ(status_label(ZKP_ERR_BAD_INPUT), "bad_input");
  EXPECT_EQ(status_label(ZKP_ERR_ABI_MISMATCH), "abi_mismatch");
  EXPECT_EQ(status_label(ZKP_ERR_UNSATISFIED_WITNESS), "unsatisfied_witness");
  EXPECT_EQ(status_label(ZKP_ERR_CANCELLED), "cancelled");
  for (zkp_status_t s = 0; s < ZKP_STATUS_COUNT; ++s) {
    EXPECT_EQ(status_label(s).find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), std::string::npos) << status_label(s);
  }
}

// Issue 39: the status series appeared only after their first event, so an alert on failed or
// cancelled had no baseline; and "bad input" had a space in its label value.
TEST(Report, EveryStatusHasASeriesFromTheStart) {
  Metrics m;
  Report r;
  r.metrics = m.snapshot();
  const std::string before = metrics_text(r);
  for (zkp_status_t s = 0; s < ZKP_STATUS_COUNT; ++s) {
    EXPECT_EQ(sample_value(before, "zkpipe_partitions_total{status=\"" + status_label(s) + "\"}"), 0) << before;
    EXPECT_EQ(sample_value(before, "zkpipe_jobs_total{status=\"" + status_label(s) + "\"}"), 0) << before;
  }
  EXPECT_EQ(before.find("status=\"bad input\""), std::string::npos);

  zkp_completion_t failed{};
  failed.status = ZKP_ERR_BAD_INPUT;
  failed.gpu_index = -1;
  m.observe_partition(failed, 1);
  zkp_job_summary_t job{};
  job.status = ZKP_ERR_BAD_INPUT;
  m.observe_job(job);
  r.metrics = m.snapshot();
  const std::string after = metrics_text(r);
  EXPECT_EQ(sample_value(after, "zkpipe_partitions_total{status=\"bad_input\"}"), 1) << after;
  EXPECT_EQ(sample_value(after, "zkpipe_jobs_total{status=\"bad_input\"}"), 1) << after;
  EXPECT_EQ(sample_value(after, "zkpipe_partitions_total{status=\"cancelled\"}"), 0) << after;
  // /status: the same names, every one there; the failure and the completion named alike.
  const std::string json = status_json(r);
  google::protobuf::Value root;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &root).ok()) << json;
  const auto& fields = root.struct_value().fields();
  const auto& by_status = fields.at("partitions").struct_value().fields().at("by_status").struct_value().fields();
  EXPECT_EQ(by_status.size(), static_cast<size_t>(ZKP_STATUS_COUNT));
  EXPECT_EQ(by_status.at("bad_input").number_value(), 1);
  EXPECT_EQ(by_status.at("cancelled").number_value(), 0);
  EXPECT_EQ(fields.at("recent_failures").list_value().values(0).struct_value().fields().at("status").string_value(),
            "bad_input");
  EXPECT_EQ(fields.at("recent_completions").list_value().values(0).struct_value().fields().at("status").string_value(),
            "bad_input");
}

TEST(Report, KeyLoadFailuresAreShown) {
  Report r;
  r.key_counters.failed = 2;
  EXPECT_EQ(sample_value(metrics_text(r), "zkpipe_key_load_failures_total"), 2);
  google::protobuf::Value root;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(status_json(r), &root).ok());
  EXPECT_EQ(root.struct_value().fields().at("key_cache").struct_value().fields().at("load_failures").number_value(), 2);
}

// A call refused by Auth (here: a peer that is not the unix socket, without the token's
// metadata) is counted by reason, every reason there from the start; a Report carries what the
// front end adds (Service::report puts these counts there) to both pages.
TEST(Report, AuthRefusalsAreCounted) {
  const std::filesystem::path token =
      std::filesystem::temp_directory_path() / ("zkp_report_test_token_" + std::to_string(::getpid()));
  std::ofstream(token) << "s3cret-token\n";
  std::filesystem::permissions(token, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const Auth auth = Auth::from_token_file(token.string());
  std::filesystem::remove(token);

  const std::map<std::string, uint64_t> before = Auth::refusals();
  ASSERT_EQ(before.size(), 3u);  // every reason, at 0 unless another test of this process refused one
  EXPECT_TRUE(before.count("no_token") && before.count("not_bearer") && before.count("wrong_token"));

  grpc::ServerContext context;  // no call: no peer, no metadata
  const grpc::Status refused = auth.check(context, "Status");
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  const std::map<std::string, uint64_t> after = Auth::refusals();
  EXPECT_EQ(after.at("no_token"), before.at("no_token") + 1);
  EXPECT_EQ(after.at("not_bearer"), before.at("not_bearer"));

  Report r;
  r.metrics = Metrics().snapshot();
  r.extra_metrics = "# HELP zkpipe_extra_total An extra family.\n# TYPE zkpipe_extra_total counter\nzkpipe_extra_total 5\n";
  r.extra_status.emplace_back("extra", counts_json(after));
  EXPECT_EQ(sample_value(metrics_text(r), "zkpipe_extra_total"), 5);
  google::protobuf::Value root;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(status_json(r), &root).ok());
  EXPECT_EQ(root.struct_value().fields().at("extra").struct_value().fields().at("no_token").number_value(),
            static_cast<double>(after.at("no_token")));
}

}  // namespace
}  // namespace zkp::serve
