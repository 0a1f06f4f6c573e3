// Injected bug `dst_round_half_away`: a float32 result rounded to bfloat16 or float16 to nearest with ties away from
// zero (bfloat16 as (bits + 0x8000) >> 16, without the tie-to-even term). It differs from round to nearest even only
// at exact ties, which the bound cannot tell apart without tie_rounding (core/numerics/tolerance.hpp) and which the
// tie kind (core/numerics/fill_special.hpp) makes on purpose.

#include "core/run/strategy.hpp"
#include "oracles/inject/special_values.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  return with_results_rounded(c, direction, [](DType dtype, float sum) {
    const double value = sum, nearest = rounded_to(dtype, value), other = 2 * value - nearest;
    const bool tie = nearest != value && rounded_to(dtype, other) == other;
    return tie && std::abs(other) > std::abs(nearest) ? other : nearest;
  });
}

const Registration registration{{
    .name = "dst_round_half_away",
    .description = "naive loops rounding a float32 result to bfloat16 or float16 with ties away from zero",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {}, .precisions = low_precision_rows(),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
