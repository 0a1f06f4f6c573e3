#pragma once
// Shrinking a failing config to a minimal one that still fails the same way.
//
// The shrink tree is RapidCheck's (rc::shrinkable::shrinkRecur over shrink_config), built from the config value
// itself rather than from the generator's history, so a config from anywhere (a fuzz case, a saved case file,
// `check` descriptors, an external implementation's finding) shrinks the same way: toward one group, one
// channel per group, batch 1, spatial size 1, kernel 1, stride and dilation 1, no padding, NCHW/OIHW.

#include <cstddef>
#include <functional>

#include <rapidcheck.h>

#include "core/conv_config.hpp"

namespace convcheck {

/// The valid configs one step smaller than `config`, most aggressive first.
rc::Seq<ConvConfig> shrink_config(const ConvConfig &config);

struct ShrinkResult {
  ConvConfig config;     // the local minimum reached
  size_t steps = 0;      // accepted shrinks
  size_t tries = 0;      // predicate evaluations
};

/// Greedy descent of the shrink tree from `config`, keeping only configs for which `still_fails` holds; stops at
/// a local minimum, after `max_tries` evaluations, or once `max_seconds` have passed (an external command that
/// times out makes every try slow).
ShrinkResult shrink(const ConvConfig &config, const std::function<bool(const ConvConfig &)> &still_fails,
                    size_t max_tries = 2000, double max_seconds = 60);

} // namespace convcheck
