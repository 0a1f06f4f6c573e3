#pragma once
// Why a strategy skipped a direction, counted. A campaign keeps, per strategy and direction, how often each reason
// was given, so a report says why a strategy was not judged instead of only how often (a mistyped support list
// reads "float32 is not supported (formats: none)" x 1000, not "skipped 1000"). Reasons are the strategies' own
// words, one per kind of problem refused; the cost plan's, which name each case's size, are counted as one. A
// tally keeps at most `max_skip_reasons` distinct reasons and counts the rest under `other_skip_reasons`, so an
// implementation that words every refusal differently cannot grow a report without bound.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace convcheck {

/// Reason -> how many skips gave it.
using SkipReasons = std::map<std::string, int64_t>;

/// Distinct reasons kept per tally before the rest are counted together.
inline constexpr size_t max_skip_reasons = 16;

/// Where reasons beyond `max_skip_reasons` are counted.
inline constexpr const char *other_skip_reasons = "(other reasons)";

/// The reason `detail` is counted under: itself, or one line for every skip the cost plan made.
std::string skip_reason_key(const std::string &detail);

/// Adds `count` skips for `detail` (through skip_reason_key) to `reasons`.
void add_skip_reason(SkipReasons &reasons, const std::string &detail, int64_t count = 1);

/// Every reason of `from` added to `into`, as add_skip_reason would (shards merged, directions summed).
void add_skip_reasons(SkipReasons &into, const SkipReasons &from);

/// The `limit` most frequent reasons, most frequent first (ties by reason, so the order is deterministic).
std::vector<std::pair<std::string, int64_t>> top_skip_reasons(const SkipReasons &reasons, size_t limit);

/// "N x REASON; M x REASON" of the `limit` most frequent reasons, and "and K more reasons" when there are more.
std::string describe_skip_reasons(const SkipReasons &reasons, size_t limit = 3);

} // namespace convcheck
