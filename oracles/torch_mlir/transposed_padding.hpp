#pragma once
// The padding torch-mlir's transposed-conv lowering (TorchToLinalg, createTransposedInputPadding) works with on an
// axis of a deconv, as the torch_mlir and iree servers hand it aten.convolution: the padding both ends share goes to
// the op (the rest is F.pad in the module), and the lowering pads the un-strided input by dilation * (kernel - 1)
// less that, a crop where negative. The known-bug rows of both rooms (IREE runs its own copy of the lowering) ask it.

#include <algorithm>
#include <cstdint>

#include "core/problem/problem.hpp"

namespace convcheck {

/// The padding of `axis` the servers give aten.convolution: what both ends share.
inline int64_t shared_padding(const SpatialAxis &axis) {
  return std::min(std::max<int64_t>(axis.pad_begin, 0), std::max<int64_t>(axis.pad_end, 0));
}

/// The lowering's own padding of the un-strided input on `axis`: dilation * (kernel - 1) - shared_padding (< 0: a crop).
inline int64_t transposed_input_padding(const SpatialAxis &axis) {
  return axis.dilation * (axis.kernel - 1) - shared_padding(axis);
}

} // namespace convcheck
