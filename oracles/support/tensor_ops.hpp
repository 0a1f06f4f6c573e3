#pragma once
// The small tensor-op vocabulary the `legalized` strategies compose convolutions from, named and behaving as in
// TVM Relay / XLA (tile, strided_slice, transpose, sum, pad, ...), plus ONE plain conv2d primitive. Every
// direction of `legalized` is built from these and nothing else, so a wrong composition cannot hide behind a
// dedicated gradient kernel.
//
// All ops are rank-generic (except conv2d, which is NCHW/OIHW), compute in the tensor's own dtype and return a
// new tensor; the transposes the compositions need are 4-D and use convcheck::permute (core/tensor/layout.hpp).

#include <cstdint>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace convcheck::ops {

/// numpy.tile / relay.tile: out.shape[a] = in.shape[a] * reps[a], out[i] = in[i mod in.shape]. One rep per axis.
Tensor tile(const Tensor &tensor, const Shape &reps);

/// relay.strided_slice with positive steps: out[i] = in[begin + i * step] along each axis, for the indices that
/// stay below `end`; `end` is clamped to the extent as TVM does. Requires 0 <= begin < min(end, extent).
Tensor strided_slice(const Tensor &tensor, const Shape &begin, const Shape &end, const Shape &step);

/// relay.sum(axis, keepdims=False): the sum over one axis, accumulated in the tensor's dtype, in index order.
Tensor sum_axis(const Tensor &tensor, int axis);

/// Zero insertion (XLA's interior padding, the "dilation" of conv_transpose's input): factor[a] - 1 zeros
/// between neighbours along axis a, so an extent n becomes (n - 1) * factor[a] + 1.
Tensor insert_zeros(const Tensor &tensor, const Shape &factor);

/// Edge padding with zeros, XLA/lax.pad style: out.shape[a] = in.shape[a] + low[a] + high[a] and
/// out[i] = in[i - low] where that is in range, else 0. A NEGATIVE low or high crops instead of padding; the
/// result extent must stay >= 0. One index map, so a crop larger than the input from one side is well defined.
Tensor pad(const Tensor &tensor, const Shape &low, const Shape &high);

/// numpy.flip over the listed axes: out[.., i, ..] = in[.., n - 1 - i, ..].
Tensor flip(const Tensor &tensor, const std::vector<int> &axes);

/// relay.concatenate: the parts joined along `axis`; every other extent must agree.
Tensor concatenate(const std::vector<Tensor> &parts, int axis);

/// Geometry of the plain conv2d: dilation 1 means none; padding is top, bottom, left, right (>= 0).
struct Conv2dParams {
  int64_t groups = 1;
  int64_t stride_height = 1, stride_width = 1;
  int64_t dilation_height = 1, dilation_width = 1;
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
};

/// relay.nn.conv2d, forward only: data [N, C, H, W] (NCHW), weight [K, C/G, R, S] (OIHW) -> [N, K, P, Q] with
///   out[n,k,p,q] = sum_{c,r,s} data[n, g*C/G + c, p*sh - pt + r*dh, q*sw - pl + s*dw] * weight[k,c,r,s],
/// g = k / (K/G), taps in the padding skipped, accumulated in the tensors' dtype. Throws std::runtime_error when
/// the shapes do not fit the groups or the output would be empty (a composition that got its geometry wrong).
Tensor conv2d(const Tensor &data, const Tensor &weight, const Conv2dParams &params);

} // namespace convcheck::ops
