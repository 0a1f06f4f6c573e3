#pragma once
// The failing region around a minimal case: the failing strategy's direction run on every neighbour of the case
// (core/problem/neighbours.hpp), on inputs made the way the case's were (seed, case index, fill, ISA cap), each
// in a worker like every replay; each neighbour also runs on two other draws of inputs, and reads "passed" only
// when it passes on all three (a value-dependent failure fails on some inputs only). What passes and what fails
// around a minimal case bounds the bug: the table a maintainer writes a guard from ("fails for oc 17-31 per group,
// passes at 16"). Saving a shrunk finding stores it in the case file (/finding/neighbours); `repro --neighbours`
// computes it again.

#include <vector>

#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/run/strategy.hpp"
#include "core/storage/neighbour_rows.hpp"

namespace convcheck {

/// One row per valid neighbour of `original`, in neighbours_of order: `strategy`'s verdict on `direction`.
std::vector<NeighbourRow> neighbour_table(const Case &original, const Strategy &strategy, Direction direction,
                                          double run_timeout_s);

} // namespace convcheck
