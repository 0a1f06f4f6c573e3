#pragma once
// The small tensor-op vocabulary the `legalized` strategies compose convolutions from, named and behaving as in
// TVM Relay / XLA (tile, strided_slice, transpose, sum, pad, ...), plus ONE plain conv primitive. Every
// direction of `legalized` is built from these and nothing else, so a wrong composition cannot hide behind a
// dedicated gradient kernel.
//
// All ops are rank-generic (conv takes 1 to 3 spatial axes, channels first), compute in the tensor's own dtype and
// return a new tensor; the transposes the compositions need use convcheck::permute (core/tensor/layout.hpp).

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

/// One spatial axis of the plain conv: dilation 1 means none; padding is given at the beginning and at the end and,
/// as in relay, is never negative: a composition crops with `pad` first.
struct ConvAxis {
  int64_t stride = 1, dilation = 1, pad_begin = 0, pad_end = 0;
};

/// Geometry of the plain conv: one ConvAxis per spatial axis, outermost first (none: all defaults).
struct ConvParams {
  int64_t groups = 1;
  std::vector<ConvAxis> axes;
};

/// relay.nn.conv1d / conv2d / conv3d, forward only: data [N, C, X...] (NCW, NCHW, NCDHW), weight [K, C/G, taps...]
/// (OIW, OIHW, OIDHW) -> [N, K, out...] with, per spatial axis, out = (in + pad_begin + pad_end - dilation *
/// (kernel - 1) - 1) / stride + 1 and
///   out[n,k,o] = sum_{c,t} data[n, g*C/G + c, o*stride - pad_begin + t*dilation] * weight[k,c,t],
/// g = k / (K/G), taps in the padding skipped, each element summed in (t, c, r, s) order (kernel planes outermost,
/// then channels, kernel rows and columns) in the tensors' dtype. Throws std::runtime_error when the shapes do not
/// fit the groups or the output would be empty (a composition that got its geometry wrong).
Tensor conv(const Tensor &data, const Tensor &weight, const ConvParams &params);

} // namespace convcheck::ops
