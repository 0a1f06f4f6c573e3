#include "core/campaign_stats.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <utility>

#include "core/direction.hpp"

namespace convcheck {

namespace {

// Labels "1".."last-1", then "last+" for everything from `last` up.
std::vector<std::string> counting_labels(int64_t last) {
  std::vector<std::string> labels;
  for (int64_t value = 1; value < last; ++value) labels.push_back(std::to_string(value));
  labels.push_back(std::to_string(last) + "+");
  return labels;
}

// The bin of a value counted by counting_labels(last).
size_t counting_bin(int64_t value, int64_t last) {
  return static_cast<size_t>(std::clamp<int64_t>(value, 1, last) - 1);
}

const std::vector<std::string> padding_kinds = {"none", "even", "one side", "uneven"};

// How one axis is padded; uneven padding (one side only, or both sides different) is where padding bugs live.
size_t padding_kind(int64_t begin, int64_t end) {
  if (begin == 0 && end == 0) return 0;
  if (begin == end) return 1;
  return begin == 0 || end == 0 ? 2 : 3;
}

size_t group_kind(const ConvConfig &c) {
  if (c.groups == 1) return 0;
  return c.groups == c.in_channels && c.groups == c.out_channels ? 1 : 2;
}

size_t batch_bin(int64_t batch) {
  if (batch <= 4) return static_cast<size_t>(std::max<int64_t>(batch, 1) - 1);
  return batch <= 8 ? 4 : 5;
}

// A grid's shape and labels together with where a config falls in it.
struct GridSpec {
  BinGrid grid;
  std::function<std::pair<size_t, size_t>(const ConvConfig &)> bin;
};

GridSpec make_spec(std::string key, std::string title, std::string row_axis, std::string column_axis,
                   std::vector<std::string> rows, std::vector<std::string> columns,
                   std::function<std::pair<size_t, size_t>(const ConvConfig &)> bin) {
  const size_t size = rows.size() * columns.size();
  return {BinGrid{std::move(key), std::move(title), std::move(row_axis), std::move(column_axis), std::move(rows),
                  std::move(columns), std::vector<int64_t>(size), std::vector<int64_t>(size)},
          std::move(bin)};
}

std::vector<GridSpec> make_specs() {
  const auto small = counting_labels(4);
  return {
      make_spec("groups", "groups", "", "kind", {""}, {"1", "depthwise", "other"},
                [](const ConvConfig &c) {
                  return std::pair{size_t{0}, group_kind(c)};
                }),
      make_spec("stride", "stride", "height", "width", small, small,
                [](const ConvConfig &c) {
                  return std::pair{counting_bin(c.stride_height, 4), counting_bin(c.stride_width, 4)};
                }),
      make_spec("dilation", "dilation (1 = none)", "height", "width", small, small,
                [](const ConvConfig &c) {
                  return std::pair{counting_bin(c.dilation_height, 4), counting_bin(c.dilation_width, 4)};
                }),
      make_spec("padding", "padding", "top / bottom", "left / right", padding_kinds, padding_kinds,
                [](const ConvConfig &c) {
                  return std::pair{padding_kind(c.pad_top, c.pad_bottom), padding_kind(c.pad_left, c.pad_right)};
                }),
      make_spec("kernel", "kernel size", "height", "width", counting_labels(6), counting_labels(6),
                [](const ConvConfig &c) {
                  return std::pair{counting_bin(c.kernel_height, 6), counting_bin(c.kernel_width, 6)};
                }),
      make_spec("batch", "batch", "", "images", {""}, {"1", "2", "3", "4", "5-8", "9+"},
                [](const ConvConfig &c) {
                  return std::pair{size_t{0}, batch_bin(c.batch)};
                }),
      make_spec("layouts", "layouts", "data", "weight", {"NCHW", "NHWC"}, {"OIHW", "HWIO", "OHWI"},
                [](const ConvConfig &c) {
                  return std::pair{static_cast<size_t>(c.data_layout), static_cast<size_t>(c.weight_layout)};
                }),
      make_spec("dtype", "dtype", "", "type", {""}, {"float32", "float64"},
                [](const ConvConfig &c) {
                  return std::pair{size_t{0}, static_cast<size_t>(c.dtype)};
                }),
  };
}

const std::vector<GridSpec> &specs() {
  static const std::vector<GridSpec> list = make_specs();
  return list;
}

} // namespace

const std::array<std::string, ratio_bin_count> &ratio_bin_labels() {
  static const std::array<std::string, ratio_bin_count> labels = {"0",     "<1e-6", "<1e-5", "<1e-4", "<1e-3",
                                                                  "<0.01", "<0.1",  "<=1",   "failed"};
  return labels;
}

size_t ratio_bin(const Outcome &outcome) {
  if (outcome.verdict == Verdict::failed) return ratio_bin_count - 1;
  const double ratio = outcome.diff.max_ratio;
  if (ratio == 0) return 0;
  // Bin 1 is (0, 1e-6), bin 2 [1e-6, 1e-5), ...; a pass never exceeds 1, so the last pass bin also takes ratio 1
  // itself (the error exactly at its bound) and anything odd such as NaN.
  static constexpr std::array<double, ratio_bin_count - 3> upper_bounds = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1};
  for (size_t k = 0; k < upper_bounds.size(); ++k)
    if (ratio < upper_bounds[k]) return k + 1;
  return ratio_bin_count - 2;
}

std::vector<BinGrid> empty_config_space() {
  std::vector<BinGrid> grids;
  for (const GridSpec &spec : specs()) grids.push_back(spec.grid);
  return grids;
}

StrategyRatios &CampaignStats::ratios_of(const std::string &strategy) {
  auto found =
      std::find_if(ratios.begin(), ratios.end(), [&](const StrategyRatios &r) { return r.strategy == strategy; });
  if (found != ratios.end()) return *found;
  ratios.push_back({strategy, {}});
  return ratios.back();
}

void CampaignStats::add(const ConvConfig &config, const std::vector<Outcome> &case_outcomes) {
  ++cases;
  const bool failing = std::any_of(case_outcomes.begin(), case_outcomes.end(),
                                   [](const Outcome &outcome) { return outcome.verdict == Verdict::failed; });
  for (size_t g = 0; g < specs().size(); ++g) {
    const auto [row, column] = specs()[g].bin(config);
    BinGrid &grid = config_space[g];
    assert(row < grid.rows.size() && column < grid.columns.size());
    grid.cases[row * grid.columns.size() + column] += 1;
    grid.failing[row * grid.columns.size() + column] += failing ? 1 : 0;
  }
  for (const Outcome &outcome : case_outcomes)
    if (outcome.verdict != Verdict::skipped)
      ++ratios_of(outcome.strategy).by_direction[static_cast<size_t>(outcome.direction)][ratio_bin(outcome)];
}

void CampaignStats::merge(const CampaignStats &other) {
  cases += other.cases;
  for (size_t g = 0; g < config_space.size(); ++g)
    for (size_t i = 0; i < config_space[g].cases.size(); ++i) {
      config_space[g].cases[i] += other.config_space[g].cases[i];
      config_space[g].failing[i] += other.config_space[g].failing[i];
    }
  for (const StrategyRatios &from : other.ratios) {
    StrategyRatios &into = ratios_of(from.strategy);
    for (size_t d = 0; d < all_directions.size(); ++d)
      for (size_t bin = 0; bin < ratio_bin_count; ++bin) into.by_direction[d][bin] += from.by_direction[d][bin];
  }
}

} // namespace convcheck
