#pragma once
// Reading and writing one element of any format, like benchdnn's get_elem/set_elem: a tensor is bytes plus its
// format (core/tensor/tensor.hpp), and these are the only places that know how each format's bytes hold a value.
// A new format is a row in core/problem/dtype.cpp, a storage type here and one case in element_type's dispatch.

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/problem/dtype.hpp"
#include "core/tensor/bfloat16.hpp"
#include "core/tensor/float16.hpp"

namespace convcheck {

/// The format a C++ storage type holds: storage_dtype<float> is DType::float32.
template <class T> inline constexpr DType storage_dtype = DType::float32;
template <> inline constexpr DType storage_dtype<double> = DType::float64;
template <> inline constexpr DType storage_dtype<bfloat16> = DType::bfloat16;
template <> inline constexpr DType storage_dtype<float16> = DType::float16;

/// Calls f(T{}) with the storage type of `dtype`: the one switch over formats (every other dispatch goes through it).
template <class F> decltype(auto) with_storage_type(DType dtype, F &&f) {
  switch (dtype) {
  case DType::float32: return f(float{});
  case DType::float64: return f(double{});
  case DType::bfloat16: return f(bfloat16{});
  case DType::float16: break;
  }
  return f(float16{});
}

/// Calls f(T{}) with the arithmetic type of an accumulation format (float32: float, float64: double; the rows
/// whose `accumulates` is set). Storage-only formats (bfloat16, float16) have no arithmetic: code that computes on
/// a tensor widens it to its accumulation format first (Tensor::cast), and calling this with one is a bug.
template <class F> decltype(auto) with_compute_type(DType dtype, F &&f) {
  // Checked in every build, not asserted: read as double, a float16 buffer is overrun four times over (the xnnpack
  // strategy's crops once did so through ops::pad).
  if (!info(dtype).accumulates)
    throw std::logic_error("arithmetic on " + to_string(dtype) + ", a storage-only format: widen it first");
  if (dtype == DType::float32) return f(float{});
  return f(double{});
}

/// The bytes one element of `dtype` takes.
inline size_t element_size(DType dtype) {
  return with_storage_type(dtype, [](auto zero) { return sizeof(zero); });
}

/// A storage value from a double, rounded to nearest even (exact when it is representable).
template <class T> T round_to(double value) {
  if constexpr (std::is_same_v<T, bfloat16>) return bfloat16::from_double(value);
  else if constexpr (std::is_same_v<T, float16>) return float16::from_double(value);
  else return static_cast<T>(value);
}

/// Element i of `bytes` holding `dtype`, widened to double (exact: every format widens exactly).
inline double get_elem(DType dtype, const void *bytes, int64_t i) {
  return with_storage_type(dtype, [&](auto zero) {
    return static_cast<double>(static_cast<const decltype(zero) *>(bytes)[i]);
  });
}

/// Sets element i of `bytes` holding `dtype` to `value` rounded to that format.
inline void set_elem(DType dtype, void *bytes, int64_t i, double value) {
  with_storage_type(dtype, [&](auto zero) {
    using T = decltype(zero);
    static_cast<T *>(bytes)[i] = round_to<T>(value);
  });
}

/// `value` rounded to `dtype` and widened back: what storing it in that format keeps.
inline double rounded_to(DType dtype, double value) {
  return with_storage_type(dtype, [&](auto zero) {
    return static_cast<double>(round_to<decltype(zero)>(value));
  });
}

} // namespace convcheck
