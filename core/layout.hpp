#pragma once
// Layout transforms between the canonical layouts (NCHW data, OIHW weight) and the others a case may ask for:
// NHWC data; HWIO ([R, S, C/G, K], TVM's and TensorFlow's) and OHWI ([K, R, S, C/G], oneDNN's "ohwi") weights.
// A transform is a 4-D permutation: out.shape[i] = in.shape[perm[i]].

#include <array>

#include "core/conv_config.hpp"
#include "core/tensor.hpp"

namespace convcheck {

using Permutation = std::array<int, 4>;

/// The shape a canonical [N, C, H, W] tensor has in `layout` ([N, H, W, C] for NHWC).
Shape data_shape_in(const Shape &nchw, DataLayout layout);
/// The shape a canonical [K, C/G, R, S] weight has in `layout` ([R, S, C/G, K] for HWIO, [K, R, S, C/G] for OHWI).
Shape weight_shape_in(const Shape &oihw, WeightLayout layout);

/// Permutes the axes of a 4-D tensor.
Tensor permute(const Tensor &tensor, const Permutation &perm);

/// Canonical NCHW -> `layout`, and back.
Tensor to_data_layout(const Tensor &nchw, DataLayout layout);
Tensor from_data_layout(const Tensor &tensor, DataLayout layout);

/// Canonical OIHW -> `layout`, and back.
Tensor to_weight_layout(const Tensor &oihw, WeightLayout layout);
Tensor from_weight_layout(const Tensor &tensor, WeightLayout layout);

} // namespace convcheck
