#include "core/tensor/tensor.hpp"

#include <algorithm>
#include <cstring>

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
  // All-zero bytes are +0.0 in IEEE float and double.
  // An empty buffer's pointer may be null, which memset must not be given even for 0 bytes (UBSan).
  if (size_ > 0)
    visit_typed(*this, [this](auto *values) { std::memset(values, 0, static_cast<size_t>(size_) * sizeof(*values)); });
}

Tensor::Tensor(const Tensor &other) : shape_(other.shape_), size_(other.size_) {
  std::visit(
      [this](const auto &in) {
        std::decay_t<decltype(in)> out(in.size());
        if (!in.empty()) std::memcpy(out.data(), in.data(), in.size() * sizeof(in[0]));
        storage_ = std::move(out);
      },
      other.storage_);
}

Tensor Tensor::uninitialized(DType dtype, Shape shape) {
  Tensor tensor;
  tensor.shape_ = std::move(shape);
  tensor.size_ = element_count(tensor.shape_);
  const auto count = static_cast<size_t>(tensor.size_);
  if (dtype == DType::float32) tensor.storage_ = Buffer<float>(count);
  else tensor.storage_ = Buffer<double>(count);
  return tensor;
}

Tensor Tensor::cast(DType dtype) const {
  Tensor result = uninitialized(dtype, shape_);
  std::visit(
      [&result](const auto &in) {
        visit_typed(result, [&in](auto *out) { std::copy(in.begin(), in.end(), out); }); // converts per element
      },
      storage_);
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
