#include "core/run/campaign_stats.hpp"

#include "core/problem/precision_table.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <utility>

#include "core/problem/direction.hpp"
#include "core/problem/op.hpp"

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

const std::vector<std::string> padding_kinds = {"none", "even", "one side", "uneven", "crop"};

// How one axis is padded; uneven padding (one side only, or both sides different) and crops (negative padding)
// are where padding bugs live.
size_t padding_kind(int64_t begin, int64_t end) {
  if (begin < 0 || end < 0) return 4;
  if (begin == 0 && end == 0) return 0;
  if (begin == end) return 1;
  return begin == 0 || end == 0 ? 2 : 3;
}

size_t group_kind(const Problem &c) {
  if (c.groups == 1) return 0;
  return c.groups == c.in_channels && c.groups == c.out_channels ? 1 : 2;
}

size_t batch_bin(int64_t batch) {
  if (batch <= 4) return static_cast<size_t>(std::max<int64_t>(batch, 1) - 1);
  return batch <= 8 ? 4 : 5;
}

// The precision mix: one bin per row of the precision table, and one for a descriptor's combination outside it.
std::vector<std::string> precision_names() {
  std::vector<std::string> names;
  for (const PrecisionRow &row : precision_table()) names.push_back(row.name);
  names.push_back("other");
  return names;
}

size_t precision_bin(const Precision &precision) {
  const PrecisionRow *row = find_precision_row(precision);
  return row == nullptr ? precision_table().size() : static_cast<size_t>(row - precision_table().data());
}

// A grid's shape and labels together with where a config falls in it.
struct GridSpec {
  BinGrid grid;
  std::function<std::pair<size_t, size_t>(const Problem &)> bin;
};

GridSpec make_spec(std::string key, std::string title, std::string row_axis, std::string column_axis,
                   std::vector<std::string> rows, std::vector<std::string> columns,
                   std::function<std::pair<size_t, size_t>(const Problem &)> bin) {
  const size_t size = rows.size() * columns.size();
  return {BinGrid{std::move(key), std::move(title), std::move(row_axis), std::move(column_axis), std::move(rows),
                  std::move(columns), std::vector<int64_t>(size), std::vector<int64_t>(size)},
          std::move(bin)};
}

// The ops in op-table order.
std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const OpInfo &row : op_table()) names.push_back(row.name);
  return names;
}

std::vector<GridSpec> make_specs() {
  const auto small = counting_labels(4);
  return {
      make_spec("op", "op by rank", "op", "rank", op_names(), {"1-D", "2-D", "3-D"},
                [](const Problem &c) {
                  return std::pair{static_cast<size_t>(c.op), static_cast<size_t>(c.ndims - 1)};
                }),
      make_spec("rank", "spatial dimensions", "", "rank", {""}, {"1-D", "2-D", "3-D"},
                [](const Problem &c) {
                  return std::pair{size_t{0}, static_cast<size_t>(c.ndims - 1)};
                }),
      make_spec("groups", "groups", "", "kind", {""}, {"1", "depthwise", "other"},
                [](const Problem &c) {
                  return std::pair{size_t{0}, group_kind(c)};
                }),
      make_spec("stride", "stride", "height", "width", small, small,
                [](const Problem &c) {
                  return std::pair{counting_bin(c.height().stride, 4), counting_bin(c.width().stride, 4)};
                }),
      make_spec("dilation", "dilation (1 = none)", "height", "width", small, small,
                [](const Problem &c) {
                  return std::pair{counting_bin(c.height().dilation, 4), counting_bin(c.width().dilation, 4)};
                }),
      make_spec("padding", "padding", "top / bottom", "left / right", padding_kinds, padding_kinds,
                [](const Problem &c) {
                  return std::pair{padding_kind(c.height().pad_begin, c.height().pad_end),
                                   padding_kind(c.width().pad_begin, c.width().pad_end)};
                }),
      make_spec("kernel", "kernel size", "height", "width", counting_labels(6), counting_labels(6),
                [](const Problem &c) {
                  return std::pair{counting_bin(c.height().kernel, 6), counting_bin(c.width().kernel, 6)};
                }),
      make_spec("batch", "batch", "", "images", {""}, {"1", "2", "3", "4", "5-8", "9+"},
                [](const Problem &c) {
                  return std::pair{size_t{0}, batch_bin(c.batch)};
                }),
      make_spec("layouts", "layouts (2-D names, every rank)", "data", "weight", {"NCHW", "NHWC"}, {"OIHW", "HWIO", "OHWI"},
                [](const Problem &c) {
                  return std::pair{static_cast<size_t>(c.data_layout), static_cast<size_t>(c.weight_layout)};
                }),
      make_spec("dtype", "precision (src:weight:dst:acc)", "", "combination", {""}, precision_names(),
                [](const Problem &c) {
                  return std::pair{size_t{0}, precision_bin(c.precision)};
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

void CampaignStats::add(const Problem &config, const std::vector<Outcome> &case_outcomes) {
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
    if (outcome.verdict != Verdict::skipped && outcome.verdict != Verdict::held_back)
      ++ratios_of(outcome.strategy).by_direction[outcome.direction][ratio_bin(outcome)];
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
    for (const auto &[direction, counts] : from.by_direction)
      for (size_t bin = 0; bin < ratio_bin_count; ++bin) into.by_direction[direction][bin] += counts[bin];
  }
}

} // namespace convcheck
