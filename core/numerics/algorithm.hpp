#pragma once
// The algorithm class a result was computed by, as data: a result is judged under the bound of its class.
//
//   direct    sums of products in any order (today's bound, core/numerics/tolerance.hpp; zero in exact fill)
//   winograd  Winograd minimal filtering F(m, r) per spatial axis (Lavin and Gray, "Fast Algorithms for
//             Convolutional Neural Networks", CVPR 2016), with its interpolation points (Lavin and Gray's by
//             default); bound: core/numerics/winograd_bound.hpp
//   fft       convolution by the discrete Fourier transform; a normwise bound per output signal:
//             core/numerics/fft_bound.hpp
//
// and `direct:storage`: direct summation whose partial sums are kept in the result's storage format (float16
// arithmetic, as ARM's native f16 and XNNPACK's f16 kernels compute) rather than in the problem's accumulation
// format; judged under the direct bound of that format's accumulation (core/numerics/storage_sums_bound.cpp).
// `direct:storage:bf16` (or `:f16`) names the format the sums may be kept in where it is not the result's: oneDNN's
// `relaxed` and `any` accumulation modes may round partial sums to the primitive's src or dst format, the narrower of
// the two, which for bfloat16 inputs and a float32 result is not the result's (oracles/onednn/accumulation_modes.hpp).
//
// Spelled "direct", "direct:storage", "direct:storage:bf16", "fft", "winograd" (F(2,3)), "winograd:4" (F(4,3)), or with points
// "winograd:4:0,1,-1,2,-2":
// the output tile m and the finite interpolation points (the point at infinity is always the last). The kernel r
// of each axis is the problem's; an axis whose kernel is 1 has no transform.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/problem/dtype.hpp"

namespace convcheck {

enum class AlgorithmKind { direct, winograd, fft };

/// One finite interpolation point p/q.
struct Point {
  int64_t numerator = 0;
  int64_t denominator = 1;
  bool operator==(const Point &) const = default;
};

struct Algorithm {
  AlgorithmKind kind = AlgorithmKind::direct;
  int64_t tile = 0;           ///< winograd: outputs per tile along each transformed axis (m)
  std::vector<Point> points;  ///< winograd: the finite points; empty means Lavin and Gray's for (m, r)
  bool storage_sums = false;  ///< direct: partial sums rounded to the result's format after every step
  std::optional<DType> sums_format; ///< storage_sums: the format they are rounded to when not the result's
  bool operator==(const Algorithm &) const = default;
};

/// Lavin and Gray's finite points for alpha = m + r - 1 (alpha - 1 of them): 0, 1, -1, 2, -2, 1/2, -1/2, 3, -3,...
std::vector<Point> lavin_gray_points(int64_t count);

/// "direct", "fft", "winograd F(2,3)"-style spelling for reports (r = 3 shown; the problem's kernel is used),
/// with the points when they are not the default.
std::string describe(const Algorithm &algorithm);

/// The canonical spelling parse_algorithm reads back ("winograd:4", "winograd:2:0,1,-1").
std::string to_string(const Algorithm &algorithm);

/// Reads to_string's spelling; throws InputError naming `what` and the text on anything else.
Algorithm parse_algorithm(const std::string &text, const std::string &what = "algorithm");

} // namespace convcheck
