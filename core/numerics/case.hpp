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

} // namespace convcheck
