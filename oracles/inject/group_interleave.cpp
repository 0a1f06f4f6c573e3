// Injected bug `group_interleave`: the forward grouped conv legalized as a batch of G ordinary convs (torch-mlir's
// grouped conv2d, seed 003), but with the channel axis expanded as [C/G, G] instead of [G, C/G], so channel c
// lands in group c % G: a reshape to the wrong expanded layout. The same class of bug as
// microsoft/cliffordlayers PR 17 (grouped conv tested only for groups = 1; the channel layout assigned the wrong
// channels to each group). Invisible when G == 1 or C/G == 1 (depthwise); otherwise group g convolves the wrong
// input channels.

#include "core/run/strategy.hpp"
#include "oracles/loops/legalized.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "group_interleave",
    .description = "legalized, with the forward group expansion reading C as [C/G, G] (channel c in group c % G)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction direction) {
      return legalized_result(c, direction, {.forward_interleaved_groups = true});
    },
}};

} // namespace

} // namespace convcheck
