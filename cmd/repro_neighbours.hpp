#pragma once
// `repro`'s neighbour table (cmd/repro_neighbours.cpp).

#include <optional>
#include <string>
#include <vector>

#include "core/run/strategy.hpp"
#include "core/storage/case_file.hpp"

namespace convcheck {

/// Runs the strategy of the file's finding, when among `strategies`, on each neighbour of the case and prints one
/// row per neighbour (verdict, change, descriptor) and how many fail, and returns the rows. Prints nothing and
/// returns nullopt for a file without a finding or when its strategy is not among `strategies`.
std::optional<std::vector<NeighbourRow>> print_neighbours(const CaseFile &case_file,
                                                          const std::vector<Strategy> &strategies,
                                                          double run_timeout_s);

/// Prints `rows` under "neighbours (HEADING, each one step from the case or across a seam):", then the summary line.
void print_neighbour_rows(const std::vector<NeighbourRow> &rows, const std::string &heading);

} // namespace convcheck
