#pragma once
// Layout transforms between the canonical layouts (channels-first data [N, C, spatial...], OI... weight
// [K, C/G, kernel...]) and the others a problem may ask for, in any spatial rank: channels-last data
// ([N, spatial..., C]: NWC, NHWC, NDHWC); XIO weights ([kernel..., C/G, K]: WIO, HWIO, DHWIO, TVM's and
// TensorFlow's) and OXI weights ([K, kernel..., C/G]: OWI, OHWI, ODHWI, oneDNN's "ohwi"). The rank is the
// tensor's: 2 + ndims. A transform is a permutation of axes: out.shape[i] = in.shape[perm[i]].

#include <vector>

#include "core/problem/problem.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

using Permutation = std::vector<int>;

/// The shape a canonical data tensor has in `layout` ([N, H, W, C] for a 2-D channels-last one).
Shape data_shape_in(const Shape &canonical, DataLayout layout);
/// The shape a canonical weight has in `layout` ([R, S, C/G, K] for HWIO, [K, R, S, C/G] for OHWI).
Shape weight_shape_in(const Shape &canonical, WeightLayout layout);

/// The permutations to_data_layout and to_weight_layout apply to a canonical tensor of `rank` axes.
Permutation data_permutation(DataLayout layout, size_t rank);
Permutation weight_permutation(WeightLayout layout, size_t rank);

/// Permutes the axes of a tensor of any rank (up to 8).
Tensor permute(const Tensor &tensor, const Permutation &perm);

/// Canonical data -> `layout`, and back.
Tensor to_data_layout(const Tensor &canonical, DataLayout layout);
Tensor from_data_layout(const Tensor &tensor, DataLayout layout);

/// Canonical weight -> `layout`, and back.
Tensor to_weight_layout(const Tensor &canonical, WeightLayout layout);
Tensor from_weight_layout(const Tensor &tensor, WeightLayout layout);

} // namespace convcheck
