#pragma once
// The failing region around a minimal case: its neighbours, each one step away (a field one step each way, each
// layout swapped, the other float format), for `repro` to run the failing strategy on. Which pass and which fail
// is what a maintainer writes a guard from ("fails for ic 1-15 per group, passes from 16; fails only with
// channels-last source; passes with stride 1").

#include <string>
#include <vector>

#include "core/problem/problem.hpp"

namespace convcheck {

struct Neighbour {
  std::string change; ///< "in_channels 2", "stride_width 1", "data_layout nchw", "dtype f64"
  Problem problem;
};

/// The valid neighbours of `problem` (validate() with `max_elements`), fields in table order, then layouts and
/// format. A channel count steps by the group count, so it stays divisible.
std::vector<Neighbour> neighbours_of(const Problem &problem, int64_t max_elements = default_max_elements);

} // namespace convcheck
