// `legalized`: each direction composed from one plain conv and tensor ops, as compilers legalize convolutions
// they have no dedicated op for. The value of the strategy is that the compositions are formulas other people
// ship: a mismatch here is a wrong formula, and the injected variants switch on the mistakes real ones made.

#include "oracles/loops/legalized.hpp"

#include <numeric>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/problem/descriptor.hpp"
#include "core/tensor/layout.hpp"
#include "core/run/strategy.hpp"
#include "oracles/loops/tensor_ops.hpp"

namespace convcheck {

namespace {

/// The problem's own spatial axes, outermost first: a composition works on tensors of the problem's rank.
std::span<const SpatialAxis> own_axes(const Problem &c) {
  return std::span(c.axes).subspan(static_cast<size_t>(c.first_axis()));
}

/// `head` followed by value(axis) for each of the problem's own spatial axes.
template <class Value> Shape per_axis(const Problem &c, Shape head, Value value) {
  head.reserve(head.size() + static_cast<size_t>(c.ndims));
  for (const SpatialAxis &axis : own_axes(c)) head.push_back(value(axis));
  return head;
}

/// The spatial axes of a tensor of the problem's rank: 2 .. 2 + ndims - 1.
std::vector<int> spatial_dims(const Problem &c) {
  std::vector<int> dims;
  for (int64_t a = 0; a < c.ndims; ++a) dims.push_back(static_cast<int>(2 + a));
  return dims;
}

Shape filled(size_t rank, int64_t value) { return Shape(rank, value); }

ops::ConvParams forward_params(const Problem &c, int64_t groups) {
  ops::ConvParams params{.groups = groups, .axes = {}};
  params.axes.reserve(static_cast<size_t>(c.ndims));
  for (const SpatialAxis &axis : own_axes(c))
    params.axes.push_back(
        {.stride = axis.stride, .dilation = axis.dilation, .pad_begin = axis.pad_begin, .pad_end = axis.pad_end});
  return params;
}

// relay's conv takes non-negative padding only, so a legalization with a crop slices first. Each axis with a
// negative padding is framed by ops::pad with both its paddings (a negative width slices, a positive one pads:
// lax.pad's one index map, which also covers a crop past the input from one side) and convolved unpadded; the
// other axes keep their padding in the conv. Same positions: framed[i] = data[i - pad_begin], and the conv reads
// framed[o*stride + t*dilation] = data[o*stride - pad_begin + t*dilation]. Zeros framed in on such an axis add
// products with a zero factor, which change no sum.
Tensor conv_with_crops(const Tensor &data, const Tensor &weight, ops::ConvParams params) {
  Shape low = filled(data.shape().size(), 0), high = low;
  bool crops = false;
  for (size_t a = 0; a < params.axes.size(); ++a) {
    ops::ConvAxis &axis = params.axes[a];
    if (axis.pad_begin >= 0 && axis.pad_end >= 0) continue;
    crops = true;
    low[2 + a] = std::exchange(axis.pad_begin, 0);
    high[2 + a] = std::exchange(axis.pad_end, 0);
  }
  return crops ? ops::conv(ops::pad(data, low, high), weight, params) : ops::conv(data, weight, params);
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
// (seed 003). Group g owns data channels g*C/G .. (g+1)*C/G - 1 and weight rows g*K/G .. (g+1)*K/G - 1. The
// spatial axes ride along flattened ([N, C, X...] -> [N, G, C/G, volume]), so one composition serves every rank.
Tensor legalized_output(const Case &conv_case, const LegalizationBugs &bugs) {
  const Problem &c = conv_case.problem;
  const int64_t N = c.batch, G = c.groups, CG = c.in_channels_per_group(), KG = c.out_channels_per_group();
  const int64_t volume = c.in_volume();
  // [N, C, X...] -> [N, G, C/G, volume] -> [G, N, C/G, volume]; the bug expands C as [C/G, G] instead.
  const Tensor expanded = bugs.forward_interleaved_groups
                              ? permute(conv_case[Role::data].reshaped({N, CG, G, volume}), {2, 0, 1, 3})
                              : permute(conv_case[Role::data].reshaped({N, G, CG, volume}), {1, 0, 2, 3});
  const Shape group_data_shape = per_axis(c, {N, CG}, [](const SpatialAxis &a) { return a.in; });
  const Shape weight_shape = c.weight_shape();
  std::vector<Tensor> outputs;
  for (int64_t g = 0; g < G; ++g) {
    Tensor group_data = ops::strided_slice(expanded, {g, 0, 0, 0}, {g + 1, N, CG, volume}, filled(4, 1))
                            .reshaped(group_data_shape);
    Shape begin = filled(weight_shape.size(), 0), end = weight_shape;
    begin[0] = g * KG;
    end[0] = (g + 1) * KG;
    const Tensor group_weight =
        ops::strided_slice(conv_case[Role::weight], begin, end, filled(weight_shape.size(), 1));
    outputs.push_back(conv_with_crops(group_data, group_weight, forward_params(c, 1)));
  }
  return expect_shape(ops::concatenate(outputs, 1), c.output_shape(), c, "output");
}

// grad_data = conv_transpose(grad_output, weight, strides, padding, dilation, groups, output_padding), as relay's
// conv2d gradient writes it, per spatial axis (conv1d_transpose, conv2d_transpose, conv3d_transpose). The
// transpose reads its weight as IOHW per group, [K, C/G, taps...]: the forward OIHW weight as is (PyTorch's
// convention; TVM 9465/9336 fixed an OIHW reading). Along an axis of input extent H, kernel R, stride sh,
// dilation dh and paddings pt, pb it yields
//   (P - 1) * sh - pt - pb + dh * (R - 1) + 1 + output_padding
// positions, so output_padding = H - that, which is the remainder (H + pt + pb - dh*(R-1) - 1) mod sh, in [0, sh).
// Lowered to a plain conv: insert sh - 1 zeros between grad_output positions, pad dh*(R-1) - pt at the beginning
// and dh*(R-1) - pb + output_padding at the end (negative: crop), and convolve with stride 1, dilation dh and the
// per-group transposed kernel [C, K/G, taps...] flipped along every spatial axis. Check: out[h] = sum_r
// z[h + pt - r*dh] w[r], z the zero-inserted grad_output, which is the definition's h = p*sh - pt + r*dh; it holds
// for a negative pt or pb too (the framed extent is H + dh*(R-1) >= 1).
Tensor legalized_grad_data(const Case &conv_case, const LegalizationBugs &bugs) {
  const Problem &c = conv_case.problem;
  const int64_t C = c.in_channels, G = c.groups, CG = c.in_channels_per_group(), KG = c.out_channels_per_group();
  const int64_t taps = c.kernel_volume();
  // IOHW per group [G, K/G, C/G, taps] -> OIHW per group [G, C/G, K/G, taps]. The bug reads the block as if it
  // were already OIHW: the same K/G * C/G * taps elements reinterpreted, invisible when K/G or C/G is 1.
  Tensor blocks = bugs.dgrad_weight_as_oihw
                      ? conv_case[Role::weight].reshaped({G, CG, KG, taps})
                      : permute(conv_case[Role::weight].reshaped({G, KG, CG, taps}), {0, 2, 1, 3});
  const Shape kernel_shape = per_axis(c, {C, KG}, [](const SpatialAxis &a) { return a.kernel; });
  const Tensor kernel = ops::flip(std::move(blocks).reshaped(kernel_shape), spatial_dims(c));
  const Shape factors = per_axis(c, {1, 1}, [](const SpatialAxis &a) { return a.stride; });
  const Tensor spread = ops::insert_zeros(conv_case[Role::grad_output], factors);
  auto output_padding = [](const SpatialAxis &a) {
    return a.in - ((a.out() - 1) * a.stride - a.pad_begin - a.pad_end + a.dilation * (a.kernel - 1) + 1);
  };
  const Shape pad_begin =
      per_axis(c, {0, 0}, [](const SpatialAxis &a) { return a.dilation * (a.kernel - 1) - a.pad_begin; });
  const Shape pad_end = per_axis(c, {0, 0}, [&](const SpatialAxis &a) {
    return a.dilation * (a.kernel - 1) - a.pad_end + output_padding(a);
  });
  const Tensor framed = ops::pad(spread, pad_begin, pad_end);
  ops::ConvParams params{.groups = G, .axes = {}};
  params.axes.reserve(static_cast<size_t>(c.ndims));
  for (const SpatialAxis &axis : own_axes(c)) params.axes.push_back({.dilation = axis.dilation});
  return expect_shape(ops::conv(framed, kernel, params), c.data_shape(), c, "grad_data");
}

// TVM's conv2d_backward_weight legalization (apache/tvm PR 9954, python/tvm/relay/op/nn/_nn.py):
//   grad = tile(grad, [1, C/G, 1, 1]); grad = reshape(grad, [-1, 1, 0, 0])   # N*K*C/G, 1, P, Q
//   data = reshape(data, [1, -1, 0, 0])                                       # 1, N*C, H, W
//   wgrad = conv2d(data, grad, strides=dilation, padding=padding, dilation=strides, groups=N*C)
//   wgrad = reshape(wgrad, [N, C/G, K, Ph, Pw]); sum(axis=0); transpose([1, 0, 2, 3])
//   strided_slice to [K, C/G, R, S] if Ph > R or Pw > S
// with Ph = (H + pt + pb - (P-1)*sh - 1) / dh + 1 = R + floor(rem / dh) >= R, where
// rem = (H + pt + pb - dh*(R-1) - 1) mod sh are the padded rows the forward stride leaves unused. The formula is
// per axis, so 1-D and 3-D take it axis by axis (one spatial axis fewer or more in every shape above). A negative
// padding holds too, the padded extent H + pt + pb being positive; the inner conv frames it (conv_with_crops).
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
  const auto rank = static_cast<size_t>(2 + c.ndims);
  Shape reps = filled(rank, 1);
  reps[1] = CG;
  const Tensor kernels = ops::tile(conv_case[Role::grad_output], reps)
                             .reshaped(per_axis(c, {N * CG * K, 1}, [](const SpatialAxis &a) { return a.out(); }));
  Tensor regrouped = bugs.wgrad_tvm_channel_order
                         ? conv_case[Role::data].clone()
                         : permute(conv_case[Role::data].reshaped({N, G, CG, c.in_volume()}), {0, 2, 1, 3});
  const Tensor data =
      std::move(regrouped).reshaped(per_axis(c, {1, N * C}, [](const SpatialAxis &a) { return a.in; }));
  ops::ConvParams params = forward_params(c, N * C);
  if (!bugs.wgrad_no_swap)
    for (ops::ConvAxis &axis : params.axes) std::swap(axis.stride, axis.dilation);
  Tensor wgrad = conv_with_crops(data, kernels, params);
  // Relay infers the extents the conv produced; with the swap they are TVM's padded_weight_grad_h and _w.
  const Shape padded(wgrad.shape().begin() + 2, wgrad.shape().end());
  const Shape tvm_padded = per_axis(c, {}, [](const SpatialAxis &a) {
    return (a.in + a.pad_begin + a.pad_end - (a.out() - 1) * a.stride - 1) / a.dilation + 1;
  });
  if (!bugs.wgrad_no_swap && padded != tvm_padded)
    throw std::runtime_error("legalized grad_weight: conv extents differ from TVM's padded_weight_grad formula");
  Shape per_sample{N, CG, K};
  per_sample.insert(per_sample.end(), padded.begin(), padded.end());
  Tensor summed = ops::sum_axis(std::move(wgrad).reshaped(per_sample), 0);
  Permutation swap_channels(rank);
  std::iota(swap_channels.begin(), swap_channels.end(), 0);
  std::swap(swap_channels[0], swap_channels[1]);
  Tensor result = permute(summed, swap_channels);
  const Shape weight_shape = c.weight_shape();
  if (bugs.wgrad_no_slice || result.shape() == weight_shape) return result;
  // strided_slice clamps `end` to the extent, so a too-small result (only with the no-swap bug) stays small.
  return ops::strided_slice(result, filled(rank, 0), weight_shape, filled(rank, 1));
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
    .description = "compositions of one plain conv and tensor ops: torch-mlir grouped forward, zero-inserted "
                   "conv_transpose grad_data, TVM conv2d_backward_weight grad_weight, per axis; ranks 1-3, crops",
    .supports = {.ops = {Op::conv, Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                 .data_layouts = every_data_layout, .weight_layouts = every_weight_layout, .crops = true},
    // A deconv's output is its equivalent conv's grad_data: zero insertion by stride, padding dil*(k-1)-pad (a crop
    // where negative), the kernel flipped and transposed per group, output_padding as extra end padding, then a
    // plain conv (core/problem/op.hpp).
    .run = any_op([](const Case &c, Direction direction) { return legalized_result(c, direction); }),
    .cost_planned = true, // its one conv is scalar loops: at size a share of cases (core/run/cost_plan.hpp)
}};

} // namespace

} // namespace convcheck
