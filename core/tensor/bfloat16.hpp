#pragma once
// bfloat16 as stored: the upper 16 bits of an IEEE binary32 (1 sign, 8 exponent, 7 fraction bits), so float's
// range with 8 significand bits; unit roundoff 2^-8. C++20 has no such type; this one only stores and converts,
// arithmetic is done after widening (every bfloat16 is exactly a float). Conversion from float and double rounds
// to nearest, ties to even; infinities stay infinities, every NaN becomes a quiet NaN of the same sign, subnormals
// round like any other value (bfloat16 has float's subnormal exponent range).

#include <bit>
#include <cstdint>

#include "core/tensor/float_to_odd.hpp"

namespace convcheck {

struct bfloat16 {
  uint16_t bits = 0;

  static constexpr bfloat16 from_bits(uint16_t bits) { return bfloat16{bits}; }
  static bfloat16 from_float(float value) {
    const uint32_t word = std::bit_cast<uint32_t>(value);
    if ((word & 0x7fffffffu) > 0x7f800000u) return from_bits(static_cast<uint16_t>((word >> 16) | 0x0040u)); // NaN
    // Add just under half an ulp of bfloat16, plus one when the kept part is odd: a tie then carries to even. A
    // carry out of the fraction bumps the exponent, which is right (and reaches infinity past the largest finite).
    const uint32_t rounding = 0x7fffu + ((word >> 16) & 1u);
    return from_bits(static_cast<uint16_t>((word + rounding) >> 16));
  }
  static bfloat16 from_double(double value) { return from_float(float_to_odd(value)); }

  float to_float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }
  operator float() const { return to_float(); }
  friend bool operator==(bfloat16 a, bfloat16 b) { return a.to_float() == b.to_float(); }
};

static_assert(sizeof(bfloat16) == 2);

} // namespace convcheck
