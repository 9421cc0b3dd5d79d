// sdk::OptionTable: one list of entries reads the options and writes the help, so the
// two say the same names, defaults and ranges.
#include <zkpipe/sdk/option_table.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace zkp::sdk {
namespace {

constexpr uint64_t kNsPerMs = 1'000'000;

struct Settings {
  uint32_t count = 8;
  uint64_t interval_ns = 50 * kNsPerMs;
  double weight = 0.15;
  double gain = 3.0;
  bool enabled = true;
};

const OptionTable<Settings>& table() {
  static const OptionTable<Settings> t{
      integer("count", &Settings::count, 1, 100, "how many"),
      integer("interval_ms", &Settings::interval_ns, 1, 1000, "how often", kNsPerMs),
      number_above("weight", &Settings::weight, 0.0, 1.0, "an EMA weight"),
      number("gain", &Settings::gain, -1.0, 10.0, "a gain"),
      flag("enabled", &Settings::enabled, "on or off"),
  };
  return t;
}

// The settings `options` give, or the error they raise.
struct Read {
  Settings settings;
  std::string error;
};

Read read(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::vector<zkp_option_t> c;
  for (const auto& [k, v] : pairs) c.push_back({k.c_str(), v.c_str()});
  Options options("pacer 'test'", c.data(), c.size());
  try {
    Read r{table().read(options), ""};
    options.finish();
    return r;
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
    return {{}, e.what()};
  }
}

TEST(OptionTable, HelpListsEveryNameWithTheStructsDefaultAndWhatItAccepts) {
  EXPECT_EQ(table().help(),
            "count=8         how many (an integer in [1, 100])\n"
            "interval_ms=50  how often (an integer in [1, 1000])\n"
            "weight=0.15     an EMA weight (a number in (0, 1])\n"
            "gain=3          a gain (a number in [-1, 10])\n"
            "enabled=true    on or off (true or false)\n");
}

TEST(OptionTable, AbsentOptionsKeepTheDefaultsAndPresentOnesAreRead) {
  const Read none = read({});
  ASSERT_EQ(none.error, "");
  EXPECT_EQ(none.settings.count, 8u);
  EXPECT_EQ(none.settings.interval_ns, 50 * kNsPerMs);
  EXPECT_TRUE(none.settings.enabled);

  const Read some = read({{"count", "3"}, {"interval_ms", "7"}, {"weight", "1"}, {"gain", "-0.5"}, {"enabled", "off"}});
  ASSERT_EQ(some.error, "");
  EXPECT_EQ(some.settings.count, 3u);
  EXPECT_EQ(some.settings.interval_ns, 7 * kNsPerMs);  // the option's unit, scaled into the field's
  EXPECT_EQ(some.settings.weight, 1.0);
  EXPECT_EQ(some.settings.gain, -0.5);
  EXPECT_FALSE(some.settings.enabled);
}

// Each value named with what was expected; the lower bound of `weight` excluded.
TEST(OptionTable, BadValuesNameOwnerKeyValueAndWhatWasExpected) {
  EXPECT_EQ(read({{"count", "0"}}).error, "pacer 'test': option 'count' = '0' is not an integer in [1, 100]");
  EXPECT_EQ(read({{"interval_ms", "2.5"}}).error,
            "pacer 'test': option 'interval_ms' = '2.5' is not an integer in [1, 1000]");
  EXPECT_EQ(read({{"weight", "0"}}).error, "pacer 'test': option 'weight' = '0' is not a number in (0, 1]");
  EXPECT_EQ(read({{"gain", "fast"}}).error, "pacer 'test': option 'gain' = 'fast' is not a number in [-1, 10]");
  EXPECT_EQ(read({{"enabled", "maybe"}}).error, "pacer 'test': option 'enabled' = 'maybe' is not true or false");
}

TEST(OptionTable, AnOptionNotInTheTableIsUnknownAndTheTableIsKnown) {
  EXPECT_EQ(read({{"cont", "3"}}).error,
            "pacer 'test': unknown option 'cont' (known: count, enabled, gain, interval_ms, weight)");
}

// A value whose scaled field value would not fit is refused, never wrapped.
TEST(OptionTable, ScaledValueThatDoesNotFitTheFieldIsRefused) {
  struct Narrow {
    uint32_t ns = 0;
  };
  const OptionTable<Narrow> narrow{integer("ms", &Narrow::ns, 0, 10'000, "milliseconds", kNsPerMs)};
  const std::string five_seconds = "5000";
  const zkp_option_t c{"ms", five_seconds.c_str()};
  Options options("prover 'test'", &c, 1);
  EXPECT_THROW(narrow.read(options), Error);
}

struct WithTable {
  static const OptionTable<Settings>& option_table() { return table(); }
};
struct WithText {
  static constexpr const char* kOptionsHelp = "threads=0  worker threads\n";
};
struct WithNothing {
  static const OptionTable<Settings>& option_table() {
    static const OptionTable<Settings> none{};
    return none;
  }
};

TEST(OptionsHelp, ComesFromTheTableOrTheClassesText) {
  EXPECT_EQ(std::string(options_help<WithTable>()), table().help());
  EXPECT_STREQ(options_help<WithText>(), "threads=0  worker threads\n");
  EXPECT_STREQ(options_help<WithNothing>(), "(no options)\n");
}

// The getters of sdk::Options share the table's parsers and messages.
TEST(Options, GettersAcceptAndRefuseLikeTheTable) {
  const std::vector<std::pair<std::string, std::string>> pairs{{"n", "12"}, {"x", "0.5"}, {"b", "yes"}, {"bad", "-1"}};
  std::vector<zkp_option_t> c;
  for (const auto& [k, v] : pairs) c.push_back({k.c_str(), v.c_str()});
  Options options("prover 'cpu'", c.data(), c.size());
  EXPECT_EQ(options.get_u64("n", 0, 0, 100), 12u);
  EXPECT_EQ(options.get_double("x", 0, 0, 1), 0.5);
  EXPECT_TRUE(options.get_bool("b", false));
  EXPECT_EQ(options.get_u64("absent", 7), 7u);
  try {
    options.get_u64("bad", 0, 0, 10);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "prover 'cpu': option 'bad' = '-1' is not an integer in [0, 10]");
  }
}

}  // namespace
}  // namespace zkp::sdk
