#pragma once
// double -> float rounded to odd: truncate toward zero, then set the last bit when anything was lost. A value
// rounded to odd with at least two more significand bits than a narrower format rounds from there to that format
// exactly as the double itself would (Boldo and Melquiond, "When double rounding is odd", 2005). float has 24 bits,
// bfloat16 8 and float16 11, so double -> bf16/f16 goes through this without double rounding.

#include <bit>
#include <cmath>
#include <cstdint>

namespace convcheck {

/// `value` rounded to odd in float (NaN stays NaN with its sign; beyond float's range: float's largest finite, which
/// is odd, so a narrower format still rounds it to infinity when it should).
inline float float_to_odd(double value) {
  const float nearest = static_cast<float>(value); // round to nearest even
  if (static_cast<double>(nearest) == value || std::isnan(value)) return nearest;
  uint32_t bits = std::bit_cast<uint32_t>(nearest);
  // Overshot in magnitude (or overflowed to infinity): step one float back toward zero, which is the truncation.
  if (std::fabs(static_cast<double>(nearest)) > std::fabs(value)) --bits;
  return std::bit_cast<float>(bits | 1u);
}

} // namespace convcheck
