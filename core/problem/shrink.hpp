#pragma once
// Shrinking a failing config to a minimal one that still fails the same way.
//
// The shrink tree is RapidCheck's (rc::shrinkable::shrinkRecur over shrink_problem), built from the config value
// itself rather than from the generator's history, so a problem from anywhere (a fuzz case, a saved case file,
// `check` descriptors, an external implementation's finding) shrinks the same way: first toward a lower rank (a
// 3-D failure that shows in 2-D is smaller there; each spatial axis is tried as the one to drop), then per axis the
// steps that move kernel, dilation, padding and input together holding the axis's output size
// (core/problem/shrink_held.hpp: a corner defined by an output size is left by no one-field step), then field by
// field of core/problem/fields.hpp toward its neutral value (one group, one channel per group, batch 1, size 1,
// kernel 1, stride and dilation 1, no padding), then the layouts back to canonical.

#include <cstddef>
#include <functional>

#include <rapidcheck.h>

#include "core/problem/problem.hpp"

namespace convcheck {

/// The valid problems one step smaller than `problem`, most aggressive first.
rc::Seq<Problem> shrink_problem(const Problem &problem);

struct ShrinkResult {
  Problem problem;   // the local minimum reached
  size_t steps = 0;  // accepted shrinks
  size_t tries = 0;  // predicate evaluations
};

/// Greedy descent of the shrink tree from `problem`, keeping only problems for which `still_fails` holds; stops at
/// a local minimum, after `max_tries` evaluations, or once `max_seconds` have passed (an external command that
/// times out makes every try slow).
ShrinkResult shrink(const Problem &problem, const std::function<bool(const Problem &)> &still_fails,
                    size_t max_tries = 2000, double max_seconds = 60);

} // namespace convcheck
