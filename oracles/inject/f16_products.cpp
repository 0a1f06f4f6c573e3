// Injected bug `f16_products`: each product rounded to float16 before it is added to a float32 sum, as a kernel that
// multiplies in half precision (a separate f16 multiply, not a widening FMA) and only accumulates in single. A
// product of two float16 values has up to 22 significand bits; float16 keeps 11.

#include "core/problem/precision_table.hpp"
#include "core/run/strategy.hpp"
#include "core/tensor/float16.hpp"
#include "oracles/inject/narrow_sums.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  const auto to_f16 = [](float value) { return float16::from_float(value).to_float(); };
  return narrow_naive_float32(c, direction, kept, to_f16).cast(result_dtype(c.problem, direction));
}

const Registration registration{{
    .name = "f16_products",
    .description = "naive loops on float16 inputs rounding each product to float16 before a float32 sum",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {},
                 .precisions = precisions_storing(DType::float16),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
