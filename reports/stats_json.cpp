#include "reports/stats_json.hpp"

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

// Row-major counts as one array per row.
nlohmann::json counts_by_row(const BinGrid &grid, const std::vector<int64_t> &counts) {
  nlohmann::json rows = nlohmann::json::array();
  for (size_t row = 0; row < grid.rows.size(); ++row)
    rows.push_back(std::vector<int64_t>(counts.begin() + static_cast<ptrdiff_t>(row * grid.columns.size()),
                                        counts.begin() + static_cast<ptrdiff_t>((row + 1) * grid.columns.size())));
  return rows;
}

std::vector<int64_t> counts_from_rows(const BinGrid &grid, const nlohmann::json &rows, const char *what) {
  std::vector<int64_t> counts;
  for (const nlohmann::json &row : rows) {
    const auto values = row.get<std::vector<int64_t>>();
    if (values.size() != grid.columns.size()) break;
    counts.insert(counts.end(), values.begin(), values.end());
  }
  if (rows.size() != grid.rows.size() || counts.size() != grid.cases.size())
    throw InputError(fmt::format("stats grid {}: {} is not {} rows of {} counts", grid.key, what, grid.rows.size(),
                                 grid.columns.size()));
  return counts;
}

} // namespace

nlohmann::json stats_json(const CampaignStats &stats) {
  nlohmann::json grids = nlohmann::json::object();
  for (const BinGrid &grid : stats.config_space)
    grids[grid.key] = {{"title", grid.title},
                       {"row_axis", grid.row_axis},
                       {"column_axis", grid.column_axis},
                       {"rows", grid.rows},
                       {"columns", grid.columns},
                       {"cases", counts_by_row(grid, grid.cases)},
                       {"failing", counts_by_row(grid, grid.failing)}};
  nlohmann::json ratios = nlohmann::json::object();
  for (const StrategyRatios &strategy : stats.ratios)
    for (const auto &[direction, counts] : strategy.by_direction)
      ratios[strategy.strategy][to_string(direction)] = counts;
  return {{"cases", stats.cases}, {"config_space", grids}, {"ratio_bins", ratio_bin_labels()}, {"ratios", ratios}};
}

CampaignStats stats_from_json(const nlohmann::json &json) {
  CampaignStats stats;
  stats.cases = json.at("cases").get<int64_t>();
  for (BinGrid &grid : stats.config_space) {
    const nlohmann::json &entry = json.at("config_space").at(grid.key);
    if (entry.at("rows").get<std::vector<std::string>>() != grid.rows ||
        entry.at("columns").get<std::vector<std::string>>() != grid.columns)
      throw InputError(fmt::format("stats grid {} has other bins than this convcheck's", grid.key));
    grid.cases = counts_from_rows(grid, entry.at("cases"), "cases");
    grid.failing = counts_from_rows(grid, entry.at("failing"), "failing");
  }
  const auto labels = json.at("ratio_bins").get<std::vector<std::string>>();
  if (!std::equal(labels.begin(), labels.end(), ratio_bin_labels().begin(), ratio_bin_labels().end()))
    throw InputError("stats ratio_bins are other bins than this convcheck's");
  for (const auto &[name, directions] : json.at("ratios").items()) {
    StrategyRatios &ratios = stats.ratios_of(name);
    for (const auto &[direction, entry] : directions.items()) {
      const auto counts = entry.get<std::vector<int64_t>>();
      if (counts.size() != ratio_bin_count)
        throw InputError(fmt::format("stats ratios of {} {}: {} counts, expected {}", name, direction,
                                     counts.size(), ratio_bin_count));
      std::copy(counts.begin(), counts.end(), ratios.by_direction[parse_direction(direction, "stats direction")].begin());
    }
  }
  return stats;
}

} // namespace convcheck
