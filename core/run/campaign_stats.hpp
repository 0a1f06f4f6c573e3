#pragma once
// What a campaign covered, kept as counts in fixed bins so that reports can draw it and shard reports sum into
// the campaign's: which corners of the config space the cases fell in (and which of those cases failed), and
// how close each strategy and direction came to its error bound. No per-case data: a report's size does not
// grow with its case count, and merging is adding.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/problem/problem.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

/// A 2-D grid of fixed, labelled bins over configs (a 1-D histogram has a single row labelled ""): how many
/// cases fell in each bin, and how many of those failed for at least one strategy and direction.
struct BinGrid {
  std::string key;         // JSON key and HTML id: "groups", "stride", ...
  std::string title;       // what the picture shows, e.g. "stride"
  std::string row_axis;    // e.g. "stride height"; "" for a 1-D histogram
  std::string column_axis; // e.g. "stride width"
  std::vector<std::string> rows, columns;
  std::vector<int64_t> cases, failing; // row-major, rows.size() * columns.size() each

  int64_t cases_at(size_t row, size_t column) const { return cases[row * columns.size() + column]; }
  int64_t failing_at(size_t row, size_t column) const { return failing[row * columns.size() + column]; }
  friend bool operator==(const BinGrid &, const BinGrid &) = default;
};

/// Bins of the per-case max |got - expected| / bound: exact 0, (0, 1e-6), [1e-6, 1e-5), ..., [0.01, 0.1),
/// [0.1, 1], then failed (over the bound, non-finite, wrong shape, no result or an exception).
inline constexpr size_t ratio_bin_count = 9;
const std::array<std::string, ratio_bin_count> &ratio_bin_labels();

/// The ratio bin of an outcome that was not skipped.
size_t ratio_bin(const Outcome &outcome);

/// Ratio histograms of one strategy, one per direction; skipped outcomes are not counted.
struct StrategyRatios {
  std::string strategy;
  ByDirection<std::array<int64_t, ratio_bin_count>> by_direction; // directions with an outcome that ran
  friend bool operator==(const StrategyRatios &, const StrategyRatios &) = default;
};

/// The config-space grids, all counts zero, in drawing order: groups (1 / depthwise / other), stride,
/// dilation, padding kind per axis, kernel size, batch, data x weight layout, dtype.
std::vector<BinGrid> empty_config_space();

struct CampaignStats {
  int64_t cases = 0; // cases added; 0 for a report written before stats existed
  std::vector<BinGrid> config_space = empty_config_space();
  std::vector<StrategyRatios> ratios; // in the order strategies were first seen

  /// Counts one case: its config in every grid (as failing when any outcome failed) and each outcome that was
  /// not skipped in its strategy's ratio histogram.
  void add(const Problem &config, const std::vector<Outcome> &case_outcomes);
  /// Adds the counts of `other` (another shard of the campaign), strategy by strategy (matched by name).
  void merge(const CampaignStats &other);
  /// The histograms of `strategy`, created empty (and appended) if it has none yet.
  StrategyRatios &ratios_of(const std::string &strategy);

  friend bool operator==(const CampaignStats &, const CampaignStats &) = default;
};

} // namespace convcheck
