#pragma once
// A case is a value: a config plus its three inputs in canonical layouts and the config's dtype. Strategies
// read a case; nothing else flows between the steps of a run.

#include <cstdint>

#include "core/conv_config.hpp"
#include "core/direction.hpp"
#include "core/fill.hpp"
#include "core/tensor.hpp"

namespace convcheck {

struct ConvCase {
  ConvConfig config;
  Tensor data;        // [N, C, H, W]
  Tensor weight;      // [K, C/G, R, S]
  Tensor grad_output; // [N, K, P, Q]
  // Provenance: how the inputs were made (not needed to replay; recorded in case files).
  uint64_t seed = 0;
  uint64_t case_index = 0;
  FillMode fill = FillMode::normal;
};

/// Builds the inputs of case `case_index` of a campaign; `fill` may be mixed (resolved here).
ConvCase make_case(const ConvConfig &config, FillMode fill, uint64_t seed, uint64_t case_index);

/// The canonical shape of a direction's result for this config.
Shape result_shape(const ConvConfig &config, Direction direction);

} // namespace convcheck
