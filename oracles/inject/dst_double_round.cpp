// Injected bug `dst_double_round`: a float32 result stored to a bfloat16 destination through float16 (a kernel
// reusing its f16 down-convert before the bf16 one): two roundings instead of one. float16 overflows past 65504
// and loses bits past 2048, so integer results beyond that (the exact fill) come out a bfloat16 step off or
// infinite, where rounding once is exact.

#include "core/problem/precision_table.hpp"
#include "core/run/strategy.hpp"
#include "core/tensor/float16.hpp"
#include "oracles/inject/narrow_sums.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  const Tensor sums = narrow_naive_float32(c, direction, kept, kept);
  Tensor result = Tensor::uninitialized(result_dtype(c.problem, direction), sums.shape());
  const float *sum = sums.data<float>();
  for (int64_t i = 0; i < result.size(); ++i) result.set(i, float16::from_float(sum[i]).to_float());
  return result;
}

const Registration registration{{
    .name = "dst_double_round",
    .description = "naive loops on bfloat16 whose float32 result is rounded to float16 and then to bfloat16",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {},
                 .precisions = {{DType::bfloat16, DType::bfloat16, DType::bfloat16, DType::float32}},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
