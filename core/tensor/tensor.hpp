#pragma once
// An owning, shaped, row-major tensor of float32 or float64. Cheap to move, explicit to copy (copies are real
// allocations, so they should be visible). The rank is free: the legalized strategies need 5-D views.

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/problem/problem.hpp"

namespace convcheck {

/// Number of elements of a shape (1 for rank 0).
int64_t element_count(const Shape &shape);
/// "[2, 3, 4, 5]".
std::string format_shape(const Shape &shape);

/// std::allocator, except that it leaves new elements uninitialised (default-initialised): a tensor that is
/// about to be overwritten element by element is then not zeroed first.
template <class T> struct UninitializedAllocator : std::allocator<T> {
  template <class U> struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U> UninitializedAllocator(const UninitializedAllocator<U> &) {}
  template <class U, class... Args> void construct(U *p, Args &&...args) {
    if constexpr (sizeof...(Args) == 0) ::new (static_cast<void *>(p)) U;
    else ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
};

class Tensor {
public:
  template <class T> using Buffer = std::vector<T, UninitializedAllocator<T>>;

  Tensor() = default;
  /// A zero-filled tensor.
  Tensor(DType dtype, Shape shape);
  /// A tensor whose elements hold no particular values: every one must be written before it is read.
  static Tensor uninitialized(DType dtype, Shape shape);

  DType dtype() const { return std::holds_alternative<Buffer<float>>(storage_) ? DType::float32 : DType::float64; }
  const Shape &shape() const { return shape_; }
  int64_t size() const { return size_; }
  bool empty() const { return shape_.empty(); }

  /// Typed access; T must match dtype().
  template <class T> T *data() {
    assert(std::holds_alternative<Buffer<T>>(storage_));
    return std::get<Buffer<T>>(storage_).data();
  }
  template <class T> const T *data() const {
    assert(std::holds_alternative<Buffer<T>>(storage_));
    return std::get<Buffer<T>>(storage_).data();
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

  // A moved-from tensor is empty (rank 0), like a default one.
  Tensor(Tensor &&other) noexcept
      : shape_(std::move(other.shape_)), size_(other.size_), storage_(std::move(other.storage_)) {
    other.forget();
  }
  Tensor &operator=(Tensor &&other) noexcept {
    if (this == &other) return *this;
    shape_ = std::move(other.shape_);
    size_ = other.size_;
    storage_ = std::move(other.storage_);
    other.forget();
    return *this;
  }

private:
  void forget() {
    shape_.clear();
    size_ = 1;
  }
  Tensor(const Tensor &other); // one memcpy: the allocator's construct() would copy element by element
  Tensor &operator=(const Tensor &) = delete;

  Shape shape_;
  int64_t size_ = 1; // element_count(shape_), asked for in hot loops
  std::variant<Buffer<float>, Buffer<double>> storage_;
};

/// Calls f(T*) / f(const T*) with the tensor's element type.
template <class F> decltype(auto) visit_typed(Tensor &tensor, F &&f) {
  if (tensor.dtype() == DType::float32) return f(tensor.data<float>());
  return f(tensor.data<double>());
}
template <class F> decltype(auto) visit_typed(const Tensor &tensor, F &&f) {
  if (tensor.dtype() == DType::float32) return f(tensor.data<float>());
  return f(tensor.data<double>());
}

} // namespace convcheck
