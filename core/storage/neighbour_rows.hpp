#pragma once
// A finding's failing region as the case file keeps it: the optional string attribute /finding/neighbours, one
// row per neighbour of the case (core/problem/neighbours.hpp), "VERDICT<TAB>CHANGE<TAB>DESCRIPTOR" with rows
// separated by newlines, e.g. "fails\tout_channels 18\tmb1ic1iw1oc18kw1". A file without it (every file from
// before issue 25, and findings not shrunk) reads as an empty table.

#include <string>
#include <vector>

namespace convcheck {

/// One neighbour of a minimal failing case and how the failing strategy did on it.
struct NeighbourRow {
  std::string verdict;    ///< "fails", "passed", "weak" or "skipped" (the verdict of the finding's direction)
  std::string change;     ///< "out_channels 18", "data_layout NCHW": the one step from the case
  std::string descriptor; ///< the neighbour's descriptor
  bool operator==(const NeighbourRow &) const = default;
};

/// The attribute's text for `rows` ("" for none).
std::string format_neighbour_rows(const std::vector<NeighbourRow> &rows);

/// The rows of an attribute's `text`; throws InputError naming `what` (e.g. "case file x.h5: attribute
/// /finding/neighbours") and the row for a row without three fields or with an unknown verdict.
std::vector<NeighbourRow> parse_neighbour_rows(const std::string &text, const std::string &what);

/// The table's summary line: "12 of 13 neighbours fail; passes with out_channels 16" (the passing changes when
/// at most 6 and fewer than the failing ones; likewise "; fails with ..." for a few failing ones).
std::string neighbour_summary(const std::vector<NeighbourRow> &rows);

} // namespace convcheck
