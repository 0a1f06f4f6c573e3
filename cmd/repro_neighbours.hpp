#pragma once
// `repro`'s neighbour table (cmd/repro_neighbours.cpp).

#include <vector>

#include "core/run/strategy.hpp"
#include "core/storage/case_file.hpp"

namespace convcheck {

/// Runs the strategy of the file's finding, when among `strategies`, on each neighbour of the case and prints one
/// row per neighbour (verdict, change, descriptor) and how many fail. Prints nothing for a file without a finding.
void print_neighbours(const CaseFile &case_file, const std::vector<Strategy> &strategies, double run_timeout_s);

} // namespace convcheck
