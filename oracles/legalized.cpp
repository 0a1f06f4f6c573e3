// `legalized`: each direction composed from one plain conv2d and tensor ops, as compilers legalize convolutions
// they have no dedicated op for. The value of the strategy is that the compositions are formulas other people
// ship: a mismatch here is a wrong formula, and the injected variants switch on the mistakes real ones made.

#include "oracles/legalized.hpp"

#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/problem/descriptor.hpp"
#include "core/tensor/layout.hpp"
#include "core/run/strategy.hpp"
#include "oracles/support/tensor_ops.hpp"

namespace convcheck {

namespace {

const Shape unit_steps{1, 1, 1, 1};

ops::Conv2dParams forward_params(const Problem &c, int64_t groups) {
  return {.groups = groups,
          .stride_height = c.height().stride,
          .stride_width = c.width().stride,
          .dilation_height = c.height().dilation,
          .dilation_width = c.width().dilation,
          .pad_top = c.height().pad_begin,
          .pad_bottom = c.height().pad_end,
          .pad_left = c.width().pad_begin,
          .pad_right = c.width().pad_end};
}

// A correct composition lands exactly on the canonical shape; anything else is this strategy's own fault.
Tensor expect_shape(Tensor result, const Shape &shape, const Problem &config, const char *what) {
  if (result.shape() != shape)
    throw std::runtime_error(fmt::format("legalized {} has shape {} instead of {} for {}", what,
                                         format_shape(result.shape()), format_shape(shape),
                                         format_descriptor(config)));
  return result;
}

} // namespace

// torch-mlir's grouped conv: "literally a batch of regular convolutions" once C is expanded into [G, C/G]
// (seed 003). Group g owns data channels g*C/G .. (g+1)*C/G - 1 and weight rows g*K/G .. (g+1)*K/G - 1.
Tensor legalized_output(const Case &conv_case, const LegalizationBugs &bugs) {
  const Problem &c = conv_case.problem;
  const int64_t N = c.batch, G = c.groups, CG = c.in_channels_per_group(), KG = c.out_channels_per_group();
  const int64_t H = c.height().in, W = c.width().in, R = c.height().kernel, S = c.width().kernel;
  // [N, C, H, W] -> [N, G, C/G, H*W] -> [G, N, C/G, H*W]; the bug expands C as [C/G, G] instead.
  const Tensor expanded = bugs.forward_interleaved_groups
                              ? permute(conv_case[Role::data].reshaped({N, CG, G, H * W}), {2, 0, 1, 3})
                              : permute(conv_case[Role::data].reshaped({N, G, CG, H * W}), {1, 0, 2, 3});
  std::vector<Tensor> outputs;
  for (int64_t g = 0; g < G; ++g) {
    Tensor group_data =
        ops::strided_slice(expanded, {g, 0, 0, 0}, {g + 1, N, CG, H * W}, unit_steps).reshaped({N, CG, H, W});
    const Tensor group_weight = ops::strided_slice(conv_case[Role::weight], {g * KG, 0, 0, 0}, {(g + 1) * KG, CG, R, S},
                                                   unit_steps);
    outputs.push_back(ops::conv2d(group_data, group_weight, forward_params(c, 1)));
  }
  return expect_shape(ops::concatenate(outputs, 1), c.output_shape(), c, "output");
}

// grad_data = conv2d_transpose(grad_output, weight, strides, padding, dilation, groups, output_padding), as
// relay's conv2d gradient writes it. conv2d_transpose reads its weight as IOHW per group, [K, C/G, R, S]: the
// forward OIHW weight as is (PyTorch's convention; TVM 9465/9336 fixed an OIHW reading). It yields
//   (P - 1) * sh - pt - pb + dh * (R - 1) + 1 + output_padding
// rows, so output_padding = H - that, which is the remainder (H + pt + pb - dh*(R-1) - 1) mod sh, in [0, sh).
// Lowered to a plain conv: insert sh - 1 zeros between grad_output rows, pad dh*(R-1) - pt on top and
// dh*(R-1) - pb + output_padding at the bottom (negative: crop), and convolve with stride 1, dilation dh and the
// per-group transposed kernel [C, K/G, R, S] flipped in R and S. Check: out[h] = sum_r z[h + pt - r*dh] w[r],
// z the zero-inserted grad_output, which is the definition's h = p*sh - pt + r*dh.
Tensor legalized_grad_data(const Case &conv_case, const LegalizationBugs &bugs) {
  const Problem &c = conv_case.problem;
  const int64_t C = c.in_channels, G = c.groups, CG = c.in_channels_per_group(), KG = c.out_channels_per_group();
  const int64_t R = c.height().kernel, S = c.width().kernel, dh = c.height().dilation, dw = c.width().dilation;
  const int64_t sh = c.height().stride, sw = c.width().stride;
  const int64_t out_pad_h = c.height().in - ((c.height().out() - 1) * sh - c.height().pad_begin - c.height().pad_end + dh * (R - 1) + 1);
  const int64_t out_pad_w = c.width().in - ((c.width().out() - 1) * sw - c.width().pad_begin - c.width().pad_end + dw * (S - 1) + 1);
  // IOHW per group [G, K/G, C/G, R*S] -> OIHW per group [G, C/G, K/G, R*S]. The bug reads the block as if it
  // were already OIHW: the same K/G * C/G * R * S elements reinterpreted, invisible when K/G or C/G is 1.
  Tensor blocks = bugs.dgrad_weight_as_oihw ? conv_case[Role::weight].reshaped({G, CG, KG, R * S})
                                            : permute(conv_case[Role::weight].reshaped({G, KG, CG, R * S}), {0, 2, 1, 3});
  const Tensor kernel = ops::flip(std::move(blocks).reshaped({C, KG, R, S}), {2, 3});
  const Tensor spread = ops::insert_zeros(conv_case[Role::grad_output], {1, 1, sh, sw});
  const Shape pad_begin{0, 0, dh * (R - 1) - c.height().pad_begin, dw * (S - 1) - c.width().pad_begin};
  const Shape pad_end{0, 0, dh * (R - 1) - c.height().pad_end + out_pad_h, dw * (S - 1) - c.width().pad_end + out_pad_w};
  const Tensor framed = ops::pad(spread, pad_begin, pad_end);
  ops::Conv2dParams params{.groups = G, .dilation_height = dh, .dilation_width = dw};
  return expect_shape(ops::conv2d(framed, kernel, params), c.data_shape(), c, "grad_data");
}

// TVM's conv2d_backward_weight legalization (apache/tvm PR 9954, python/tvm/relay/op/nn/_nn.py):
//   grad = tile(grad, [1, C/G, 1, 1]); grad = reshape(grad, [-1, 1, 0, 0])   # N*K*C/G, 1, P, Q
//   data = reshape(data, [1, -1, 0, 0])                                       # 1, N*C, H, W
//   wgrad = conv2d(data, grad, strides=dilation, padding=padding, dilation=strides, groups=N*C)
//   wgrad = reshape(wgrad, [N, C/G, K, Ph, Pw]); sum(axis=0); transpose([1, 0, 2, 3])
//   strided_slice to [K, C/G, R, S] if Ph > R or Pw > S
// with Ph = (H + pt + pb - (P-1)*sh - 1) / dh + 1 = R + floor(rem / dh) >= R, where
// rem = (H + pt + pb - dh*(R-1) - 1) mod sh are the padded rows the forward stride leaves unused.
//
// Groups: tiling makes kernel o = n*(C/G)*K + t*K + k hold grad_output[n, k] (t < C/G). With N*C groups of
// one input channel and K/G kernels each, kernel o convolves data channel o / (K/G) = n*C + t*G + k/(K/G),
// i.e. input channel t*G + g of sample n, g = k's group. The wanted one is g*C/G + t. TVM's plain reshape is
// right only when G = 1 or C/G = 1 (depthwise). In the same spirit we regroup the data channels from [G, C/G]
// to [C/G, G] before the reshape, which is the identity in those two cases, so there the composition is TVM's
// to the letter.
Tensor legalized_grad_weight(const Case &conv_case, const LegalizationBugs &bugs) {
  const Problem &c = conv_case.problem;
  const int64_t N = c.batch, C = c.in_channels, K = c.out_channels, G = c.groups, CG = c.in_channels_per_group();
  const int64_t H = c.height().in, W = c.width().in, P = c.height().out(), Q = c.width().out();
  const int64_t R = c.height().kernel, S = c.width().kernel;
  const Tensor kernels = ops::tile(conv_case[Role::grad_output], {1, CG, 1, 1}).reshaped({N * CG * K, 1, P, Q});
  Tensor regrouped = bugs.wgrad_tvm_channel_order ? conv_case[Role::data].clone()
                                                  : permute(conv_case[Role::data].reshaped({N, G, CG, H * W}), {0, 2, 1, 3});
  const Tensor data = std::move(regrouped).reshaped({1, N * C, H, W});
  ops::Conv2dParams params = forward_params(c, N * C);
  if (!bugs.wgrad_no_swap) {
    std::swap(params.stride_height, params.dilation_height);
    std::swap(params.stride_width, params.dilation_width);
  }
  Tensor wgrad = ops::conv2d(data, kernels, params);
  // Relay infers the extents the conv produced; with the swap they are TVM's padded_weight_grad_h and _w.
  const int64_t padded_h = wgrad.shape()[2], padded_w = wgrad.shape()[3];
  const int64_t tvm_padded_h = (H + c.height().pad_begin + c.height().pad_end - (P - 1) * c.height().stride - 1) / c.height().dilation + 1;
  const int64_t tvm_padded_w = (W + c.width().pad_begin + c.width().pad_end - (Q - 1) * c.width().stride - 1) / c.width().dilation + 1;
  if (!bugs.wgrad_no_swap && (padded_h != tvm_padded_h || padded_w != tvm_padded_w))
    throw std::runtime_error("legalized grad_weight: conv extents differ from TVM's padded_weight_grad formula");
  Tensor summed = ops::sum_axis(std::move(wgrad).reshaped({N, CG, K, padded_h, padded_w}), 0);
  Tensor result = permute(summed, {1, 0, 2, 3});
  if (bugs.wgrad_no_slice || (padded_h <= R && padded_w <= S)) return result;
  // strided_slice clamps `end` to the extent, so a too-small result (only with the no-swap bug) stays small.
  return ops::strided_slice(result, {0, 0, 0, 0}, {K, CG, R, S}, unit_steps);
}

Tensor legalized_result(const Case &conv_case, Direction direction, const LegalizationBugs &bugs) {
  switch (direction) {
  case Direction::output: return legalized_output(conv_case, bugs);
  case Direction::grad_data: return legalized_grad_data(conv_case, bugs);
  case Direction::grad_weight: return legalized_grad_weight(conv_case, bugs);
  }
  throw std::logic_error("unknown direction");
}

namespace {

const Registration registration{{
    .name = "legalized",
    .description = "compositions of one plain conv2d and tensor ops: torch-mlir grouped forward, zero-inserted "
                   "conv_transpose grad_data, TVM conv2d_backward_weight grad_weight; all configs",
    .supports = {.ops = {Op::conv}, .ranks = {2}, .dtypes = {DType::float32, DType::float64}},
    .run = [](const Case &c, Direction direction) { return legalized_result(c, direction); },
}};

} // namespace

} // namespace convcheck
