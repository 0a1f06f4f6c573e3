// Injected bug `tvm_wgrad_groups`: TVM's conv2d_backward_weight legalization (apache/tvm PR 9954) exactly as
// written, data reshaped [N, C, H, W] -> [1, N*C, H, W] with no regrouping. After tile and reshape, inner
// output channel n*(C/G)*K + t*K + k of the groups = N*C conv reads data channel n*C + t*G + g (g = k's group),
// but the weight gradient needs channel g*C/G + t. The two agree only for G = 1 or depthwise (C/G = 1), which
// is all the PR's tests cover; convcheck found the disagreement for 1 < G < C (smallest: g2 ic4 oc2).

#include "core/run/strategy.hpp"
#include "oracles/loops/legalized.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "tvm_wgrad_groups",
    .description = "legalized, with grad_weight by TVM's literal formula (wrong channel pairing for 1 < G < C)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction direction) {
      return legalized_result(c, direction, {.wgrad_tvm_channel_order = true});
    },
}};

} // namespace

} // namespace convcheck
