#pragma once
// Which precision rows a campaign offers, and how a drawn problem is put in one: the one rule `fuzz`, `--focus`,
// `configs` and `check --focus` share, so that each offers the rows an implementation takes in the same shares.
// A drawn problem whose row is not offered gets another row drawn among the offered ones by their fuzz weights
// (core/problem/precision_table.hpp), by the case's own hash: the rows an implementation takes keep the
// proportions they have in the default draw.

#include <cstdint>
#include <vector>

#include "core/problem/precision_table.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

/// The rows of the precision table `support` takes (Support::takes).
std::vector<const PrecisionRow *> rows_taken(const Support &support);

/// The rows every outside implementation among `all` (Strategy::outside) takes, or none when there is none: a
/// campaign checking someone's implementation draws only what it takes, or the built-in strategies would run alone.
std::vector<const PrecisionRow *> offered_to_outside(const std::vector<Strategy> &all);

/// `problem` with its precision redrawn among `offered` by their fuzz weights, picked by `hash`, when it is not one
/// of them; unchanged when `offered` is empty.
Problem within(Problem problem, const std::vector<const PrecisionRow *> &offered, uint64_t hash);

/// The hash `within` picks case `index` of a campaign of `seed` by.
uint64_t row_hash(uint64_t seed, uint64_t index);

} // namespace convcheck
