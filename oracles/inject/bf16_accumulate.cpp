// Injected bug `bf16_accumulate`: partial sums rounded to bfloat16 after every addition, as in PyTorch issue 68048
// (a bf16 weight/bias gradient whose sum accumulated in bf16 stalls at 256: 256 + 1 rounds back to 256). Correct
// for reductions whose partial sums stay within bfloat16's 8 significand bits; the exact fill's integers (up to
// 256, core/numerics/fill.hpp) leave that range within a few terms.

#include "core/problem/precision_table.hpp"
#include "core/run/strategy.hpp"
#include "core/tensor/bfloat16.hpp"
#include "oracles/inject/narrow_sums.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  const auto to_bf16 = [](float value) { return bfloat16::from_float(value).to_float(); };
  return narrow_naive_float32(c, direction, to_bf16, kept).cast(result_dtype(c.problem, direction));
}

const Registration registration{{
    .name = "bf16_accumulate",
    .description = "naive loops on bfloat16 inputs whose partial sums are rounded to bfloat16 (PyTorch #68048)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {},
                 .precisions = precisions_storing(DType::bfloat16),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
