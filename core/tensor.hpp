#pragma once
// An owning, shaped, row-major tensor of float32 or float64. Cheap to move, explicit to copy (copies are real
// allocations, so they should be visible). The rank is free: the legalized strategies need 5-D views.

#include <cassert>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/conv_config.hpp"

namespace convcheck {

/// Number of elements of a shape (1 for rank 0).
int64_t element_count(const Shape &shape);
/// "[2, 3, 4, 5]".
std::string format_shape(const Shape &shape);

class Tensor {
public:
  Tensor() = default;
  /// A zero-filled tensor.
  Tensor(DType dtype, Shape shape);

  DType dtype() const { return std::holds_alternative<std::vector<float>>(storage_) ? DType::float32 : DType::float64; }
  const Shape &shape() const { return shape_; }
  int64_t size() const { return element_count(shape_); }
  bool empty() const { return shape_.empty(); }

  /// Typed access; T must match dtype().
  template <class T> T *data() {
    assert(std::holds_alternative<std::vector<T>>(storage_));
    return std::get<std::vector<T>>(storage_).data();
  }
  template <class T> const T *data() const {
    assert(std::holds_alternative<std::vector<T>>(storage_));
    return std::get<std::vector<T>>(storage_).data();
  }

  /// Element i (flat, row-major) widened to double, whatever the dtype.
  double get(int64_t i) const {
    return std::visit([i](const auto &v) { return static_cast<double>(v[static_cast<size_t>(i)]); }, storage_);
  }

  /// The same values in another dtype (rounded to nearest when narrowing).
  Tensor cast(DType dtype) const;
  /// The same values under another shape of equal element count: a copy from an lvalue, free from an rvalue
  /// (`std::move(t).reshaped(...)`).
  Tensor reshaped(Shape shape) const &;
  Tensor reshaped(Shape shape) &&;
  Tensor clone() const { return *this; }

  Tensor(Tensor &&) = default;
  Tensor &operator=(Tensor &&) = default;

private:
  Tensor(const Tensor &) = default;
  Tensor &operator=(const Tensor &) = default;

  Shape shape_;
  std::variant<std::vector<float>, std::vector<double>> storage_;
};

/// Calls f(T*) / f(const T*) with the tensor's element type.
template <class F> decltype(auto) visit_typed(Tensor &tensor, F &&f) {
  if (tensor.dtype() == DType::float32) return f(tensor.data<float>());
  return f(tensor.data<double>());
}

} // namespace convcheck
