#pragma once
// The reference: the convolution accumulated in double, with the error bound of every element computed
// alongside (core/numerics/tolerance.hpp). Computed once per case and shared by every strategy's diff. Two
// paths compute the same sums: the definition loops (core/numerics/naive_loops.hpp), and on problems where they
// pay off, GEMMs per kernel tap (core/numerics/tap_gemm.hpp); tests hold the second to the first.

#include <map>
#include <vector>

#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

struct DirectionReference {
  Tensor expected;           // float64, canonical shape
  std::vector<double> bound; // per element, same order as expected
};

/// The reference of every direction of the case's op, keyed by direction.
struct Reference {
  std::map<Direction, DirectionReference> directions;
  const DirectionReference &operator[](Direction direction) const { return directions.at(direction); }
};

/// How the reference is computed: `automatic` picks the GEMMs where tap_gemm_pays_off, the loops elsewhere.
enum class ReferencePath { automatic, loops, gemm };

/// The double-precision reference and bounds of one direction of `conv_case`.
DirectionReference compute_reference(const Case &conv_case, Direction direction,
                                     ReferencePath path = ReferencePath::automatic);

/// Every direction of the case's op.
Reference compute_reference(const Case &conv_case);

} // namespace convcheck
