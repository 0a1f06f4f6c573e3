#include "core/tensor/tensor.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace convcheck {

int64_t element_count(const Shape &shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

std::string format_shape(const Shape &shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

Tensor::Tensor(DType dtype, Shape shape) : Tensor(uninitialized(dtype, std::move(shape))) {
  // All-zero bytes are +0.0 in every format. An empty buffer's pointer may be null, which memset must not be given
  // even for 0 bytes (UBSan).
  if (!bytes_.empty()) std::memset(bytes_.data(), 0, bytes_.size());
}

Tensor::Tensor(const Tensor &other)
    : dtype_(other.dtype_), shape_(other.shape_), size_(other.size_), bytes_(other.bytes_.size()) {
  if (!bytes_.empty()) std::memcpy(bytes_.data(), other.bytes_.data(), bytes_.size());
}

Tensor Tensor::uninitialized(DType dtype, Shape shape) {
  Tensor tensor;
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  tensor.size_ = element_count(tensor.shape_);
  tensor.bytes_ = Buffer<std::byte>(static_cast<size_t>(tensor.size_) * element_size(dtype));
  return tensor;
}

namespace {

/// One element converted as round_to<Out>(double(value)) converts it, by a shorter road where there is one: a
/// bfloat16 or float16 widens exactly through float, and a float rounds to a storage format once, from itself.
template <class Out, class In> Out converted(In value) {
  constexpr bool out_arithmetic = std::is_same_v<Out, float> || std::is_same_v<Out, double>;
  if constexpr (out_arithmetic && !std::is_same_v<In, double>) return static_cast<Out>(static_cast<float>(value));
  else if constexpr (std::is_same_v<In, float> && !out_arithmetic) return Out::from_float(value);
  else return round_to<Out>(static_cast<double>(value));
}

} // namespace

Tensor Tensor::cast(DType dtype) const {
  if (dtype == dtype_) return clone();
  Tensor result = uninitialized(dtype, shape_);
  visit_typed(*this, [&](const auto *in) {
    visit_typed(result, [&](auto *out) {
      using Out = std::remove_pointer_t<decltype(out)>;
#pragma omp simd // distinct buffers, elements independent
      for (int64_t i = 0; i < size_; ++i) out[i] = converted<Out>(in[i]);
    });
  });
  return result;
}

Tensor Tensor::reshaped(Shape shape) const & { return clone().reshaped(std::move(shape)); }

Tensor Tensor::reshaped(Shape shape) && {
  assert(element_count(shape) == size());
  shape_ = std::move(shape);
  size_ = element_count(shape_);
  return std::move(*this);
}

} // namespace convcheck
