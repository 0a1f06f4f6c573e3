#pragma once
// `legalized`: the three directions composed the way compilers legalize them when they have no dedicated op,
// from one plain conv primitive and tensor ops (oracles/loops/tensor_ops.hpp) only, in every rank (the formulas
// are per spatial axis; the tensors keep the problem's rank) and with crops (negative padding sliced by ops::pad):
// - output: grouped conv as a batch of G ordinary convs after expanding C into [G, C/G] (torch-mlir);
// - grad_data: conv_transpose with the weight read as IOHW per group, lowered to a plain conv over the
//   zero-inserted, padded (or cropped) grad_output with the flipped, per-group transposed kernel;
// - grad_weight: TVM's conv2d_backward_weight legalization (apache/tvm PR 9954): tile, grouped conv with
//   groups = N*C and stride and dilation swapped, sum over N, transpose, strided slice.
// The compositions take a set of deliberate mistakes so the injected strategies (oracles/inject/) reproduce
// real legalization bugs by switching one of them on.

#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

/// Deliberate mistakes the compositions can make; all off is the correct `legalized` strategy.
struct LegalizationBugs {
  /// grad_weight: the inner conv keeps strides = stride and dilation = dilation (no swap).
  bool wgrad_no_swap = false;
  /// grad_weight: the final strided slice to [K, C/G, R, S] is left out; the result keeps [K, C/G, Ph, Pw] (one
  /// padded extent per spatial axis).
  bool wgrad_no_slice = false;
  /// grad_weight: TVM's literal data reshape [N, C, H, W] -> [1, N*C, H, W] without regrouping the channels,
  /// which pairs each k with the wrong input channels when 1 < G < C (see legalized.cpp).
  bool wgrad_tvm_channel_order = false;
  /// grad_data: each group's [K/G, C/G] weight block is reinterpreted raw as [C/G, K/G] (read as OIHW where
  /// conv2d_transpose wants IOHW) instead of being transposed.
  bool dgrad_weight_as_oihw = false;
  /// output: the group expansion reads C as [C/G, G] (channel c in group c % G) instead of [G, C/G].
  bool forward_interleaved_groups = false;
};

/// output [N, K, out...] as G ordinary convs on the [G, C/G]-expanded data, concatenated along channels.
Tensor legalized_output(const Case &conv_case, const LegalizationBugs &bugs = {});

/// grad_data [N, C, in...] as conv_transpose(grad_output, weight as IOHW, groups, output_padding), lowered to
/// zero insertion, pad/crop and a plain grouped conv with the flipped per-group transposed kernel.
Tensor legalized_grad_data(const Case &conv_case, const LegalizationBugs &bugs = {});

/// grad_weight [K, C/G, kernel...] by TVM's conv2d_backward_weight legalization (regrouped for 1 < G < C).
Tensor legalized_grad_weight(const Case &conv_case, const LegalizationBugs &bugs = {});

/// The direction's result by the compositions above.
Tensor legalized_result(const Case &conv_case, Direction direction, const LegalizationBugs &bugs = {});

} // namespace convcheck
