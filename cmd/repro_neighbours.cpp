// `repro`'s neighbour table: the failing region around a saved finding (core/run/neighbour_table.hpp), computed
// again with --neighbours, else the one the case file keeps (/finding/neighbours).

#include <algorithm>

#include <fmt/format.h>

#include "cmd/repro_neighbours.hpp"
#include "core/run/neighbour_table.hpp"

namespace convcheck {

void print_neighbour_rows(const std::vector<NeighbourRow> &rows, const std::string &heading) {
  fmt::print("  neighbours ({}, each one step from the case or across a seam):\n", heading);
  for (const NeighbourRow &row : rows) fmt::print("    {:<8} {:<22} {}\n", row.verdict, row.change, row.descriptor);
  fmt::print("  failing region: {}\n", neighbour_summary(rows));
}

std::optional<std::vector<NeighbourRow>> print_neighbours(const CaseFile &case_file,
                                                          const std::vector<Strategy> &strategies,
                                                          double run_timeout_s) {
  if (!case_file.finding) return std::nullopt;
  const auto finder = std::find_if(strategies.begin(), strategies.end(),
                                   [&](const Strategy &s) { return s.name == case_file.finding->strategy; });
  if (finder == strategies.end()) return std::nullopt;
  const Direction direction = case_file.finding->direction;
  std::vector<NeighbourRow> rows = neighbour_table(case_file.conv_case, *finder, direction, run_timeout_s);
  print_neighbour_rows(rows, finder->name + " " + to_string(direction));
  return rows;
}

} // namespace convcheck
