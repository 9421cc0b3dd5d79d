// Durations as people write them on a command line or in a config file: "1.5" (in the
// caller's unit), "500ms", "30s", "2m", "1h". One parser for every duration flag and key
// (`zkpipe jobs --wait`, `zkpipe enqueue --wait`, `zkpipe client --connect-timeout` and
// `job-status --wait`, `zkpipe worker --*-ms`, `zkpipe bench --duration` and
// `--connect-timeout`, serve.grace), so none converts an unchecked double to an integer: "inf",
// "nan", "1e300" and "-1" used to become a deadline already passed (an immediate timeout).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace zkp::services {

// The longest duration accepted: 30 days. Longer is surely a typo, and far from the overflow
// of a deadline (steady_clock::now() + duration) in nanoseconds.
inline constexpr std::chrono::milliseconds kMaxDuration = std::chrono::hours(24 * 30);

// The unit of a number written without one.
enum class DurationUnit { milliseconds, seconds };

// `text` as a duration: digits with an optional fraction ("2", "0.25"), then an optional unit
// (ms, s, m, h; none: `bare`), at most kMaxDuration; rounded to whole milliseconds, upwards (so a
// positive duration never becomes 0). nullopt when it is not one, with the reason in `*why`
// ("is negative", "is not a number ...", "is more than 30 days"): a sign, an exponent, "inf" or
// "nan" are not durations.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text, DurationUnit bare,
                                                        std::string* why = nullptr);

}  // namespace zkp::services
