#include "core/layout.hpp"

#include <algorithm>
#include <cassert>

namespace convcheck {

namespace {

Permutation inverse(const Permutation &perm) {
  Permutation result{};
  for (int i = 0; i < 4; ++i) result[static_cast<size_t>(perm[static_cast<size_t>(i)])] = i;
  return result;
}

Permutation data_perm(DataLayout layout) {
  return layout == DataLayout::nhwc ? Permutation{0, 2, 3, 1} : Permutation{0, 1, 2, 3};
}

Permutation weight_perm(WeightLayout layout) {
  switch (layout) {
  case WeightLayout::hwio: return {2, 3, 1, 0};
  case WeightLayout::ohwi: return {0, 2, 3, 1};
  case WeightLayout::oihw: break;
  }
  return {0, 1, 2, 3};
}

} // namespace

Shape data_shape_in(const Shape &nchw, DataLayout layout) {
  assert(nchw.size() == 4);
  if (layout == DataLayout::nhwc) return {nchw[0], nchw[2], nchw[3], nchw[1]};
  return nchw;
}

Shape weight_shape_in(const Shape &oihw, WeightLayout layout) {
  assert(oihw.size() == 4);
  switch (layout) {
  case WeightLayout::hwio: return {oihw[2], oihw[3], oihw[1], oihw[0]};
  case WeightLayout::ohwi: return {oihw[0], oihw[2], oihw[3], oihw[1]};
  case WeightLayout::oihw: break;
  }
  return oihw;
}

Tensor permute(const Tensor &tensor, const Permutation &perm) {
  const Shape &in = tensor.shape();
  assert(in.size() == 4);
  Shape out_shape(4);
  for (size_t i = 0; i < 4; ++i) out_shape[i] = in[static_cast<size_t>(perm[i])];
  // Input strides, read in output order, so the inner loop walks the output contiguously.
  const std::array<int64_t, 4> in_strides{in[1] * in[2] * in[3], in[2] * in[3], in[3], 1};
  std::array<int64_t, 4> stride{};
  for (size_t i = 0; i < 4; ++i) stride[i] = in_strides[static_cast<size_t>(perm[i])];
  // When the axes that move all have extent 1 (NCHW <-> NHWC with one channel, say), the bytes keep their order.
  int64_t expected_stride = 1;
  bool same_order = true;
  for (size_t i = 4; i-- > 0;)
    if (out_shape[i] > 1) {
      same_order = same_order && stride[i] == expected_stride;
      expected_stride *= out_shape[i];
    }
  if (same_order) return tensor.clone().reshaped(out_shape);
  Tensor result = Tensor::uninitialized(tensor.dtype(), out_shape);
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    const T *src = tensor.data<T>();
    const int64_t run = out_shape[3];
    for (int64_t a = 0; a < out_shape[0]; ++a)
      for (int64_t b = 0; b < out_shape[1]; ++b)
        for (int64_t c = 0; c < out_shape[2]; ++c, out += run) {
          const T *from = src + a * stride[0] + b * stride[1] + c * stride[2];
          if (stride[3] == 1) std::copy(from, from + run, out); // the innermost axis stays innermost
          else
            for (int64_t d = 0; d < run; ++d) out[d] = from[d * stride[3]];
        }
  });
  return result;
}

Tensor to_data_layout(const Tensor &nchw, DataLayout layout) { return permute(nchw, data_perm(layout)); }
Tensor from_data_layout(const Tensor &tensor, DataLayout layout) {
  return permute(tensor, inverse(data_perm(layout)));
}
Tensor to_weight_layout(const Tensor &oihw, WeightLayout layout) { return permute(oihw, weight_perm(layout)); }
Tensor from_weight_layout(const Tensor &tensor, WeightLayout layout) {
  return permute(tensor, inverse(weight_perm(layout)));
}

} // namespace convcheck
