#pragma once
// A case is a value: a problem plus its input tensors, keyed by role (core/problem/direction.hpp), in canonical
// layouts and each in its role's storage format. Strategies read a case; nothing else flows between the steps
// of a run.

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/numerics/fill.hpp"
#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

struct Case {
  Problem problem;
  std::array<Tensor, role_count> tensors; // indexed by Role; the input roles are set
  // Provenance: how the inputs were made (not needed to replay; recorded in case files).
  uint64_t seed = 0;
  uint64_t case_index = 0;
  FillMode fill = FillMode::normal;
  // The ISA cap oneDNN runs it under (core/run/isa_cap.hpp): unset, drawn from (seed, case index); "" no cap.
  std::optional<std::string> isa_cap;

  const Tensor &operator[](Role role) const { return tensors[static_cast<size_t>(role)]; }
  Tensor &operator[](Role role) { return tensors[static_cast<size_t>(role)]; }
};

/// Builds the inputs of case `case_index` of a campaign; `fill` may be mixed (resolved here).
Case make_case(const Problem &problem, FillMode fill, uint64_t seed, uint64_t case_index);

/// The same case with every input widened to the accumulation format (exact: a wider format holds every value of
/// a narrower one) and the problem's formats all the accumulation format.
Case widened_to_accumulation(const Case &c);

/// What a strategy that computes in one format does on any precision: read the stored values, accumulate in the
/// accumulation format (compute(widened case, direction) returns its result in that format), round once to the
/// result's format. A case whose formats are all one goes to compute as it is.
template <class Compute> Tensor in_accumulation_format(const Case &c, Direction direction, Compute &&compute) {
  if (c.problem.precision.single()) return compute(c, direction);
  const Case widened = widened_to_accumulation(c);
  return compute(widened, direction).cast(result_dtype(c.problem, direction));
}

} // namespace convcheck
