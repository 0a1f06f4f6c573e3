#pragma once
// Shrinking a failing case, inputs and all (issue 39). Inputs made afresh for every candidate lose a failure that
// rides on them (a sum a little over the bound on one fill, one subnormal at one position): the first smaller
// neighbour with a fill of its own passes, and the shrink stops at 3x to 90x the bug's smallest trigger. A
// candidate whose failure may depend on its inputs (a mismatch) is therefore tried on
//   1. the last failing case's inputs carried over (core/numerics/carried_inputs.hpp), the window at the start of
//      each dimension, then at its end (a candidate of the same rank);
//   2. its own draw from the last failing case's index, then from the failure's draws (core/numerics/case.hpp);
// and kept if any fails, with the inputs it failed on, which are what the case file keeps. A passing candidate costs
// up to five runs of the strategy. A crash or a hang rides on shapes and is tried on its own draw alone (a hang costs
// a timeout per run).

#include <cstddef>
#include <functional>

#include "core/numerics/case.hpp"
#include "core/problem/shrink.hpp"

namespace convcheck {

struct CaseShrink {
  Case shrunk;      ///< the smallest failing case reached, its inputs those it failed on
  ShrinkResult descent; ///< the problem's descent: steps and tries (candidates)
  size_t runs = 0;  ///< evaluations of `fails`, up to five a candidate
};

/// Shrinks `failing`, for which `fails` holds, keeping candidates on which it holds for some inputs tried (above;
/// only the candidate's own draw when `inputs_matter` is false). Candidates' own draws are made with `failing`'s
/// seed, fill, special kind and settings.
CaseShrink shrink_case(const Case &failing, const std::function<bool(const Case &)> &fails, bool inputs_matter);

} // namespace convcheck
