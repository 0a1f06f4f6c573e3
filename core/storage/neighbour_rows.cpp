#include "core/storage/neighbour_rows.hpp"

#include <algorithm>
#include <array>
#include <sstream>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace convcheck {

namespace {

// Every verdict a neighbour can get (core/run/neighbour_table.cpp writes to_string(verdict), "fails" for failed):
// held_back too, a neighbour a known library bug keeps from running.
constexpr std::array<const char *, 5> verdicts{"fails", "passed", "skipped", "weak", "held_back"};

} // namespace

std::string format_neighbour_rows(const std::vector<NeighbourRow> &rows) {
  std::string text;
  for (const NeighbourRow &row : rows)
    text += (text.empty() ? "" : "\n") + row.verdict + "\t" + row.change + "\t" + row.descriptor;
  return text;
}

std::vector<NeighbourRow> parse_neighbour_rows(const std::string &text, const std::string &what) {
  std::vector<NeighbourRow> rows;
  std::istringstream lines(text);
  size_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const size_t first = line.find('\t');
    const size_t second = first == std::string::npos ? first : line.find('\t', first + 1);
    if (second == std::string::npos || line.find('\t', second + 1) != std::string::npos)
      throw InputError(fmt::format("{}: row {} is not verdict, change and descriptor separated by tabs: '{}'", what,
                                   number, line));
    NeighbourRow row{line.substr(0, first), line.substr(first + 1, second - first - 1), line.substr(second + 1)};
    if (std::find(verdicts.begin(), verdicts.end(), row.verdict) == verdicts.end())
      throw InputError(fmt::format("{}: row {} has verdict '{}' (known: {})", what, number, row.verdict,
                                   fmt::join(verdicts, ", ")));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string neighbour_summary(const std::vector<NeighbourRow> &rows) {
  std::vector<std::string> failing, passing; // weak and skipped neighbours are neither
  for (const NeighbourRow &row : rows) {
    if (row.verdict == "fails") failing.push_back(row.change);
    if (row.verdict == "passed") passing.push_back(row.change);
  }
  // The side with few rows is the boundary: "passes with out_channels 16" is the guard's edge.
  constexpr size_t few = 6;
  std::string text = fmt::format("{} of {} neighbours fail", failing.size(), rows.size());
  if (!passing.empty() && passing.size() <= few && passing.size() < failing.size())
    text += fmt::format("; passes with {}", fmt::join(passing, ", "));
  if (!failing.empty() && failing.size() <= few && failing.size() <= passing.size())
    text += fmt::format("; fails with {}", fmt::join(failing, ", "));
  return text;
}

} // namespace convcheck
