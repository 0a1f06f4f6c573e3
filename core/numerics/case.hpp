#pragma once
// A case is a value: a problem plus its input tensors, keyed by role (core/problem/direction.hpp), in canonical
// layouts and each in its role's storage format. Strategies read a case; nothing else flows between the steps
// of a run.

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "core/numerics/fill.hpp"
#include "core/problem/direction.hpp"
#include "core/problem/op.hpp"
#include "core/problem/problem.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

/// A case's dispatch settings (core/numerics/dispatch_setting.hpp): setting name -> value ("" the library's own
/// choice). A setting absent from the map is drawn from (seed, case index).
using Settings = std::map<std::string, std::string>;

struct Case {
  Problem problem;
  std::array<Tensor, role_count> tensors; // indexed by Role; the input roles are set
  // Provenance: how the inputs were made (not needed to replay; recorded in case files).
  uint64_t seed = 0;
  uint64_t case_index = 0;
  FillMode fill = FillMode::normal;
  Settings settings; // the dispatch settings it carries (a case file's, a shrink's); the others are drawn
  FillSpecial special = FillSpecial::none; // the special-value kind its inputs carry (core/numerics/fill_special.hpp)

  const Tensor &operator[](Role role) const { return tensors[static_cast<size_t>(role)]; }
  Tensor &operator[](Role role) { return tensors[static_cast<size_t>(role)]; }
};

/// The case index of draw `draw` of a case's inputs (0: its own): inputs of the same fill mode and special kind
/// from a case far from any a campaign makes near it. What the neighbour table and shrinking try a problem on when
/// a failure may ride on its inputs.
constexpr uint64_t input_draw(uint64_t case_index, uint64_t draw) { return case_index + draw * 0x9e3779b97f4a7c15ULL; }

/// Builds the inputs of case `case_index` of a campaign; `fill` and `special` may be mixed (resolved here).
Case make_case(const Problem &problem, FillMode fill, uint64_t seed, uint64_t case_index,
               FillSpecial special = FillSpecial::none);

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

/// The case as its op's equivalent conv (core/problem/op.hpp): the conv problem, each input under the conv role it
/// plays (copied). The tensors are the same bytes: each role's canonical shape is the conv role's. A conv case is
/// a copy of itself.
Case as_conv_case(const Case &c);

/// What a strategy that computes convs does on any op: computes `direction` as the conv direction it is, on the
/// equivalent conv (`compute(conv case, conv direction)`); the result is the op's, same shape and bytes.
template <class Compute> Tensor computed_as_conv(const Case &c, Direction direction, Compute &&compute) {
  if (c.problem.op == Op::conv) return compute(c, direction);
  return compute(as_conv_case(c), conv_direction(c.problem.op, direction));
}

/// `run` made to compute every op by computed_as_conv: what a strategy whose loops compute convs registers.
template <class Run> auto any_op(Run run) {
  return [run](const Case &c, Direction direction) { return computed_as_conv(c, direction, run); };
}

} // namespace convcheck
