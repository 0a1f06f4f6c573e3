#pragma once
// IEEE 754 binary16 as stored (1 sign, 5 exponent, 10 fraction bits): 11 significand bits, largest finite 65504,
// smallest normal 2^-14, subnormal spacing 2^-24; unit roundoff 2^-11. C++20 has no such type; this one only stores
// and converts, arithmetic is done after widening (every float16 is exactly a float). Conversion from float and
// double rounds to nearest, ties to even, to infinity from 65520 on (halfway between 65504 and 2^16); every NaN
// becomes a quiet NaN of the same sign keeping the top of its payload; subnormal results round on the 2^-24 grid.

#include <bit>
#include <cstdint>

#include "core/tensor/float_to_odd.hpp"

namespace convcheck {

struct float16 {
  uint16_t bits = 0;

  static constexpr float16 from_bits(uint16_t bits) { return float16{bits}; }
  static float16 from_float(float value) {
    const uint32_t word = std::bit_cast<uint32_t>(value);
    const auto sign = static_cast<uint16_t>((word >> 16) & 0x8000u);
    const uint32_t magnitude = word & 0x7fffffffu;
    if (magnitude > 0x7f800000u) return from_bits(sign | 0x7e00u | ((magnitude >> 13) & 0x03ffu)); // NaN
    if (magnitude >= 0x477ff000u) return from_bits(sign | 0x7c00u);   // 65520 and up, infinity: infinity
    if (magnitude < 0x38800000u) {                                    // below 2^-14: a subnormal (or zero) result
      // |value| * 2^24 counts 2^-24 steps (exact: a power-of-two scaling of a value under 2^-14); adding and
      // removing 2^23 rounds it to an integer, ties to even, in float's own arithmetic. 1024 is the smallest
      // normal's encoding, which is where rounding up from the largest subnormal belongs.
      const float steps = std::bit_cast<float>(magnitude) * 0x1p24f;
      const float rounded = (steps + 0x1p23f) - 0x1p23f;
      return from_bits(static_cast<uint16_t>(sign | static_cast<uint16_t>(rounded)));
    }
    // Normal: rebias the exponent (127 -> 15, i.e. subtract 112 << 23) and round the 13 dropped fraction bits to
    // nearest even as in bfloat16; a carry into the exponent is right, and cannot pass 65504 (checked above).
    const uint32_t rounded = magnitude + 0x0fffu + ((magnitude >> 13) & 1u);
    return from_bits(static_cast<uint16_t>(sign | ((rounded - (112u << 23)) >> 13)));
  }
  static float16 from_double(double value) { return from_float(float_to_odd(value)); }

  // Written with selects, not branches, so that loops over many elements (Tensor::cast) vectorize.
  float to_float() const {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1fu, fraction = bits & 0x03ffu;
    const uint32_t normal = ((exponent + 112u) << 23) | (fraction << 13);
    const uint32_t special = 0x7f800000u | (fraction << 13); // inf, NaN
    // Zero or subnormal: fraction * 2^-24, exact in float and a normal float (no denormal operand for FTZ/DAZ).
    const uint32_t small = std::bit_cast<uint32_t>(static_cast<float>(fraction) * 0x1p-24f);
    return std::bit_cast<float>(sign | (exponent == 0 ? small : exponent == 0x1f ? special : normal));
  }
  operator float() const { return to_float(); }
  friend bool operator==(float16 a, float16 b) { return a.to_float() == b.to_float(); }
};

static_assert(sizeof(float16) == 2);

} // namespace convcheck
