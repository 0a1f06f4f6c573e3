// Injected bug `tvm_wgrad_noswap`: TVM's conv2d_backward_weight legalization (apache/tvm PR 9954) with the inner
// conv's stride and dilation NOT swapped. The weight gradient correlates data with grad_output used as a kernel
// whose taps sit `stride` apart (so the kernel's dilation is the forward stride), stepping by the forward
// dilation (so the conv's stride is the forward dilation). Passing the forward attributes through unchanged is a
// bug shipped more than once: iree-org/iree-turbine PR 1223 ("Swapped strides and dilations in ConvWGrad ctor")
// and huggingface/candle PR 2337 (stride 2 backprop shape mismatch, fixed by swapping them). Invisible whenever
// stride == dilation on both axes; otherwise wrong values, a result of the wrong extent or an empty inner conv.

#include "core/run/strategy.hpp"
#include "oracles/loops/legalized.hpp"

namespace convcheck {

namespace {

const Registration registration{{
    .name = "tvm_wgrad_noswap",
    .description = "legalized, with grad_weight's inner conv using stride and dilation unswapped",
    .injected = true,
    .supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    .run = [](const Case &c, Direction direction) {
      return legalized_result(c, direction, {.wgrad_no_swap = true});
    },
}};

} // namespace

} // namespace convcheck
