#include "core/tensor.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace convcheck {

int64_t element_count(const Shape &shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

std::string format_shape(const Shape &shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

Tensor::Tensor(DType dtype, Shape shape) : shape_(std::move(shape)) {
  const auto count = static_cast<size_t>(element_count(shape_));
  if (dtype == DType::float32) storage_ = std::vector<float>(count);
  else storage_ = std::vector<double>(count);
}

Tensor Tensor::cast(DType dtype) const {
  Tensor result(dtype, shape_);
  const int64_t count = size();
  visit_typed(result, [&](auto *out) {
    using T = std::remove_pointer_t<decltype(out)>;
    for (int64_t i = 0; i < count; ++i) out[i] = static_cast<T>(get(i));
  });
  return result;
}

Tensor Tensor::reshaped(Shape shape) const & { return clone().reshaped(std::move(shape)); }

Tensor Tensor::reshaped(Shape shape) && {
  assert(element_count(shape) == size());
  shape_ = std::move(shape);
  return std::move(*this);
}

} // namespace convcheck
