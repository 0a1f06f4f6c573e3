#include "core/tensor/layout.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace convcheck {

namespace {

Permutation inverse(const Permutation &perm) {
  Permutation result(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) result[static_cast<size_t>(perm[i])] = static_cast<int>(i);
  return result;
}

// The spatial axes of a tensor of `rank`: 2 .. rank-1.
std::vector<int> spatial_axes(size_t rank) {
  std::vector<int> axes(rank - 2);
  std::iota(axes.begin(), axes.end(), 2);
  return axes;
}

Permutation data_perm(DataLayout layout, size_t rank) {
  Permutation perm{0};
  if (layout == DataLayout::ncx) perm.push_back(1);
  for (int axis : spatial_axes(rank)) perm.push_back(axis);
  if (layout == DataLayout::nxc) perm.push_back(1);
  return perm;
}

Permutation weight_perm(WeightLayout layout, size_t rank) {
  const std::vector<int> spatial = spatial_axes(rank);
  Permutation perm;
  auto add = [&](std::initializer_list<int> axes) { perm.insert(perm.end(), axes); };
  switch (layout) {
  case WeightLayout::oix: add({0, 1}), perm.insert(perm.end(), spatial.begin(), spatial.end()); break;
  case WeightLayout::xio: perm = spatial, add({1, 0}); break;
  case WeightLayout::oxi: add({0}), perm.insert(perm.end(), spatial.begin(), spatial.end()), add({1}); break;
  }
  return perm;
}

Shape permuted_shape(const Shape &shape, const Permutation &perm) {
  Shape out(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = shape[static_cast<size_t>(perm[i])];
  return out;
}

} // namespace

Permutation data_permutation(DataLayout layout, size_t rank) { return data_perm(layout, rank); }

Permutation weight_permutation(WeightLayout layout, size_t rank) { return weight_perm(layout, rank); }

Shape data_shape_in(const Shape &canonical, DataLayout layout) {
  return permuted_shape(canonical, data_perm(layout, canonical.size()));
}

Shape weight_shape_in(const Shape &canonical, WeightLayout layout) {
  return permuted_shape(canonical, weight_perm(layout, canonical.size()));
}

Tensor permute(const Tensor &tensor, const Permutation &perm) {
  const Shape &in = tensor.shape();
  const size_t rank = in.size();
  assert(perm.size() == rank && rank >= 1 && rank <= 8);
  const Shape out_shape = permuted_shape(in, perm);
  // Input strides, read in output order, so the inner loop walks the output contiguously.
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t i = rank - 1; i-- > 0;) in_strides[i] = in_strides[i + 1] * in[i + 1];
  std::vector<int64_t> stride(rank);
  for (size_t i = 0; i < rank; ++i) stride[i] = in_strides[static_cast<size_t>(perm[i])];
  // When the axes that move all have extent 1 (NCHW <-> NHWC with one channel, say), the bytes keep their order.
  int64_t expected_stride = 1;
  bool same_order = true;
  for (size_t i = rank; i-- > 0;)
    if (out_shape[i] > 1) {
      same_order = same_order && stride[i] == expected_stride;
      expected_stride *= out_shape[i];
    }
  if (same_order) return tensor.clone().reshaped(out_shape);
  Tensor result = Tensor::uninitialized(tensor.dtype(), out_shape);
  if (result.size() == 0) return result;
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    const T *src = tensor.data<T>();
    const int64_t run = out_shape[rank - 1], inner_stride = stride[rank - 1];
    // An odometer over the outer axes; each step copies one innermost run.
    std::vector<int64_t> index(rank, 0);
    for (int64_t done = 0, runs = result.size() / run; done < runs; ++done, out += run) {
      int64_t offset = 0;
      for (size_t i = 0; i + 1 < rank; ++i) offset += index[i] * stride[i];
      const T *from = src + offset;
      if (inner_stride == 1) std::copy(from, from + run, out); // the innermost axis stays innermost
      else
        for (int64_t d = 0; d < run; ++d) out[d] = from[d * inner_stride];
      for (size_t i = rank - 1; i-- > 0;) {
        if (++index[i] < out_shape[i]) break;
        index[i] = 0;
      }
    }
  });
  return result;
}

Tensor to_data_layout(const Tensor &canonical, DataLayout layout) {
  return permute(canonical, data_perm(layout, canonical.shape().size()));
}
Tensor from_data_layout(const Tensor &tensor, DataLayout layout) {
  return permute(tensor, inverse(data_perm(layout, tensor.shape().size())));
}
Tensor to_weight_layout(const Tensor &canonical, WeightLayout layout) {
  return permute(canonical, weight_perm(layout, canonical.shape().size()));
}
Tensor from_weight_layout(const Tensor &tensor, WeightLayout layout) {
  return permute(tensor, inverse(weight_perm(layout, tensor.shape().size())));
}

} // namespace convcheck
