#pragma once
// An owning, shaped, row-major tensor: bytes plus a format row (core/problem/dtype.hpp), like benchdnn's dnn_mem_t.
// Elements are read and written by type through data<T>() (T the format's storage type, core/tensor/element.hpp) or
// as doubles through get()/set(); no code holds a list of formats but element.hpp's one dispatch. Cheap to move,
// explicit to copy (copies are real allocations, so they should be visible). The rank is free: the legalized
// strategies need 5-D views.

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/problem/problem.hpp"
#include "core/tensor/element.hpp"

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

  DType dtype() const { return dtype_; }
  const Shape &shape() const { return shape_; }
  int64_t size() const { return size_; }
  bool empty() const { return shape_.empty(); }

  /// Typed access; T must be the storage type of dtype() (float for float32, bfloat16 for bfloat16, ...).
  template <class T> T *data() {
    assert(storage_dtype<T> == dtype_);
    return reinterpret_cast<T *>(bytes_.data());
  }
  template <class T> const T *data() const {
    assert(storage_dtype<T> == dtype_);
    return reinterpret_cast<const T *>(bytes_.data());
  }
  /// The bytes, for handing to a library or a file that is told the format separately.
  void *bytes() { return bytes_.data(); }
  const void *bytes() const { return bytes_.data(); }
  size_t byte_size() const { return bytes_.size(); }

  /// Element i (flat, row-major) widened to double (exact), whatever the format.
  double get(int64_t i) const { return get_elem(dtype_, bytes_.data(), i); }
  /// Sets element i to `value` rounded to the tensor's format (nearest, ties to even).
  void set(int64_t i, double value) { set_elem(dtype_, bytes_.data(), i, value); }

  /// The same values in another dtype (rounded to nearest even when narrowing).
  Tensor cast(DType dtype) const;
  /// The same values under another shape of equal element count: a copy from an lvalue, free from an rvalue
  /// (`std::move(t).reshaped(...)`).
  Tensor reshaped(Shape shape) const &;
  Tensor reshaped(Shape shape) &&;
  Tensor clone() const { return *this; }

  // A moved-from tensor is empty (rank 0), like a default one.
  Tensor(Tensor &&other) noexcept
      : dtype_(other.dtype_), shape_(std::move(other.shape_)), size_(other.size_), bytes_(std::move(other.bytes_)) {
    other.forget();
  }
  Tensor &operator=(Tensor &&other) noexcept {
    if (this == &other) return *this;
    dtype_ = other.dtype_;
    shape_ = std::move(other.shape_);
    size_ = other.size_;
    bytes_ = std::move(other.bytes_);
    other.forget();
    return *this;
  }

private:
  void forget() {
    shape_.clear();
    size_ = 1;
    bytes_.clear();
  }
  Tensor(const Tensor &other); // one memcpy: the allocator's construct() would copy element by element
  Tensor &operator=(const Tensor &) = delete;

  DType dtype_ = DType::float32;
  Shape shape_;
  int64_t size_ = 1; // element_count(shape_), asked for in hot loops
  // operator new's alignment (16 bytes) suits every format's storage type.
  Buffer<std::byte> bytes_;
};

/// Calls f(T*) / f(const T*) with the tensor's storage type (core/tensor/element.hpp).
template <class F> decltype(auto) visit_typed(Tensor &tensor, F &&f) {
  return with_storage_type(tensor.dtype(), [&](auto zero) { return f(tensor.data<decltype(zero)>()); });
}
template <class F> decltype(auto) visit_typed(const Tensor &tensor, F &&f) {
  return with_storage_type(tensor.dtype(), [&](auto zero) { return f(tensor.data<decltype(zero)>()); });
}

/// visit_typed for a tensor in an accumulation format (with_compute_type), for code that does arithmetic in T.
template <class F> decltype(auto) visit_computed(Tensor &tensor, F &&f) {
  return with_compute_type(tensor.dtype(), [&](auto zero) { return f(tensor.data<decltype(zero)>()); });
}
template <class F> decltype(auto) visit_computed(const Tensor &tensor, F &&f) {
  return with_compute_type(tensor.dtype(), [&](auto zero) { return f(tensor.data<decltype(zero)>()); });
}

} // namespace convcheck
