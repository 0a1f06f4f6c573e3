// Injected bug `f16_accumulate_depthwise`: a depthwise convolution (groups == in channels) on float16 that keeps its
// partial sums in float16: the f16 accumulators on depthwise and small-channel paths that oneDNN PR 5041 and OpenVINO
// PR 19782 removed. Dense and grouped convs are right; only the depthwise path narrows its accumulator.

#include "core/problem/precision_table.hpp"
#include "core/run/strategy.hpp"
#include "core/tensor/float16.hpp"
#include "oracles/inject/narrow_sums.hpp"
#include "oracles/loops/naive.hpp"

namespace convcheck {

namespace {

Tensor run(const Case &c, Direction direction) {
  const Problem &p = c.problem;
  if (p.groups != p.in_channels || p.groups == 1) return naive_result(p, c, direction);
  const auto to_f16 = [](float value) { return float16::from_float(value).to_float(); };
  return narrow_naive_float32(c, direction, to_f16, kept).cast(result_dtype(p, direction));
}

const Registration registration{{
    .name = "f16_accumulate_depthwise",
    .description = "naive loops on float16 that accumulate depthwise convs in float16 (oneDNN PR 5041, OpenVINO PR 19782)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {},
                 .precisions = precisions_storing(DType::float16),
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = run,
}};

} // namespace

} // namespace convcheck
