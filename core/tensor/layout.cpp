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
  // Input strides, read in output order, so the copy walks the output contiguously. Output axes of extent 1 are
  // dropped, and neighbours that are also neighbours in the input (stride[i] == stride[i+1] * extent[i+1]) merged:
  // NCHW -> NHWC becomes [N, H*W, C]. When one axis is left, the bytes keep their order (with one channel, say).
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t i = rank - 1; i-- > 0;) in_strides[i] = in_strides[i + 1] * in[i + 1];
  std::vector<int64_t> extent, stride;
  for (size_t i = 0; i < rank; ++i) {
    const int64_t axis_stride = in_strides[static_cast<size_t>(perm[i])];
    if (out_shape[i] == 1) continue;
    if (!extent.empty() && stride.back() == axis_stride * out_shape[i]) {
      extent.back() *= out_shape[i];
      stride.back() = axis_stride;
    } else {
      extent.push_back(out_shape[i]);
      stride.push_back(axis_stride);
    }
  }
  if (extent.size() <= 1) return tensor.clone().reshaped(out_shape);
  Tensor result = Tensor::uninitialized(tensor.dtype(), out_shape);
  if (result.size() == 0) return result;
  // An odometer over the outer axes; each step copies one tile of the two innermost, with the longer of them
  // innermost, so the inner loop stays long when one is short ([N, H*W, C] with a few channels).
  const size_t outer = extent.size() - 2;
  const int64_t rows = extent[outer], row_stride = stride[outer];
  const int64_t columns = extent[outer + 1], column_stride = stride[outer + 1];
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    const T *src = tensor.data<T>();
    std::vector<int64_t> index(outer, 0);
    for (int64_t done = 0, tiles = result.size() / (rows * columns); done < tiles; ++done, out += rows * columns) {
      int64_t offset = 0;
      for (size_t i = 0; i < outer; ++i) offset += index[i] * stride[i];
      const T *from = src + offset;
      if (column_stride == 1)
        for (int64_t y = 0; y < rows; ++y) std::copy_n(from + y * row_stride, columns, out + y * columns);
      else if (columns >= rows)
        for (int64_t y = 0; y < rows; ++y)
          for (int64_t x = 0; x < columns; ++x) out[y * columns + x] = from[y * row_stride + x * column_stride];
      else
        for (int64_t x = 0; x < columns; ++x)
          for (int64_t y = 0; y < rows; ++y) out[y * columns + x] = from[y * row_stride + x * column_stride];
      for (size_t i = outer; i-- > 0;) {
        if (++index[i] < extent[i]) break;
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
