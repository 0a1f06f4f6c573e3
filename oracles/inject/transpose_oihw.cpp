// Injected bug `transpose_oihw`: the data gradient's conv2d_transpose reads its weight as OIHW per group where it
// must be IOHW (apache/tvm PR 9465 and issue 9336: relay's conv2d gradient passed the forward [K, C/G, R, S]
// weight to a conv2d_transpose whose topi kernel indexed it the other way round). Here each group's [K/G, C/G]
// block is reinterpreted raw as [C/G, K/G], the same elements in the same memory, so nothing is read out of
// bounds. Invisible when K/G == 1 or C/G == 1 (depthwise included); with K/G == C/G it silently gives wrong
// values, otherwise wrong values too.

#include "core/run/strategy.hpp"
#include "oracles/loops/legalized.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "transpose_oihw",
    .description = "legalized, with grad_data's conv_transpose reading the weight as OIHW per group, not IOHW",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction direction) {
      return legalized_result(c, direction, {.dgrad_weight_as_oihw = true});
    },
}};

} // namespace

} // namespace convcheck
