#pragma once
// The reference: the naive loops accumulated in double, with the error bound of every element computed
// alongside (core/tolerance.hpp). Computed once per case and shared by every strategy's diff.

#include <array>
#include <vector>

#include "core/conv_case.hpp"
#include "core/direction.hpp"
#include "core/tensor.hpp"

namespace convcheck {

struct DirectionReference {
  Tensor expected;           // float64, canonical shape
  std::vector<double> bound; // per element, same order as expected
};

struct Reference {
  std::array<DirectionReference, 3> directions;
  const DirectionReference &operator[](Direction direction) const {
    return directions[static_cast<size_t>(direction)];
  }
};

/// The double-precision reference and bounds of one direction of `conv_case`.
DirectionReference compute_reference(const ConvCase &conv_case, Direction direction);

/// All three directions.
Reference compute_reference(const ConvCase &conv_case);

} // namespace convcheck
