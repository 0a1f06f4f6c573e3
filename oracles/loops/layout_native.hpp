#pragma once
// Layout-converted convolution, the pattern of TVM's ConvertLayout pass (relay.transform.ConvertLayout with
// desired_layouts {"nn.conv2d": ["NHWC", "HWIO"]}): layout_transform the canonical inputs into the target data and
// weight layouts, run a conv written natively for those layouts, layout_transform the result back. The loops
// index the channels-last / XIO / OXI buffers directly, in every rank (NWC to NDHWC, WIO to DHWIO); they never
// permute back to the canonical layouts to compute.

#include "core/numerics/case.hpp"
#include "core/problem/problem.hpp"
#include "core/problem/direction.hpp"
#include "core/tensor/layout.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

/// A case's inputs as a layout-converted implementation holds them: `data` and `grad_output` in `data_layout`
/// (the output is data-shaped: [N, P, Q, K] in NHWC), `weight` in `weight_layout`. An input the direction does
/// not read may be left empty.
struct HeldInputs {
  DataLayout data_layout = DataLayout::ncx;
  WeightLayout weight_layout = WeightLayout::oix;
  Tensor data;
  Tensor weight;
  Tensor grad_output;
};

/// The direction's result in the config dtype, computed by loops that index every buffer in its held layout; the
/// result is held in `inputs.data_layout` (output, grad_data) or `inputs.weight_layout` (grad_weight).
Tensor held_layout_result(const Problem &config, const HeldInputs &inputs, Direction direction);

/// The whole round trip: the canonical inputs of `conv_case` transformed into (data_layout, weight_layout),
/// held_layout_result, and the result transformed back to its canonical layout.
Tensor layout_converted_result(const Case &conv_case, Direction direction, DataLayout data_layout,
                               WeightLayout weight_layout);

} // namespace convcheck
