// Injected bug `tvm_wgrad_noslice`: TVM's conv2d_backward_weight legalization (apache/tvm PR 9954) without its
// final strided_slice. The inner conv yields the weight gradient over the padded extent
// Ph = (H + pt + pb - (P-1)*sh - 1) / dh + 1 = R + floor(rem / dh), rem = (H + pt + pb - dh*(R-1) - 1) mod sh:
// it exceeds R when the forward stride leaves at least dh padded rows unused, and the extra rows are taps the
// forward conv never made. Returning them is f-dangel/backpack issue 30 (conv2d weight derivative of
// incompatible shape unless that span is a multiple of the stride). Needs a stride >= 2; invisible when
// Ph == R and Pw == S, otherwise the result has the shape [K, C/G, Ph, Pw] and the diff reports the mismatch.

#include "core/run/strategy.hpp"
#include "oracles/loops/legalized.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "tvm_wgrad_noslice",
    .description = "legalized, with grad_weight returned at the padded extent [K, C/G, Ph, Pw] (no strided_slice)",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction direction) {
      return legalized_result(c, direction, {.wgrad_no_slice = true});
    },
}};

} // namespace

} // namespace convcheck
