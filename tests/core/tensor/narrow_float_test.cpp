// bfloat16 and float16 (core/tensor/bfloat16.hpp, float16.hpp) over every one of their 65,536 bit patterns: the
// widening against an independent decoding from the fields (and numpy's for float16), the rounding of every
// midpoint and its neighbours against the nearest of the two candidates chosen here (and numpy's for float16).
#include "core/tensor/bfloat16.hpp"
#include "core/tensor/float16.hpp"
#include "core/tensor/tensor.hpp"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

struct Fields {
  int exponent_bits, fraction_bits;
};
constexpr Fields bf16_fields{8, 7}, f16_fields{5, 10};

/// The value of a pattern from its fields: (-1)^s * 2^(e - bias) * 1.f, or 2^(1 - bias) * 0.f for e = 0.
double decode(uint16_t bits, Fields fields) {
  const int bias = (1 << (fields.exponent_bits - 1)) - 1;
  const int exponent = (bits >> fields.fraction_bits) & ((1 << fields.exponent_bits) - 1);
  const int fraction = bits & ((1 << fields.fraction_bits) - 1);
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == (1 << fields.exponent_bits) - 1)
    return fraction == 0 ? sign * std::numeric_limits<double>::infinity() : std::copysign(NAN, sign);
  const double significand = (exponent == 0 ? 0.0 : 1.0) + std::ldexp(fraction, -fields.fraction_bits);
  return sign * std::ldexp(significand, (exponent == 0 ? 1 : exponent) - bias);
}

/// The value of the next pattern up in magnitude from finite `low`: past the largest finite, 2^(emax + 1), where
/// rounding to nearest goes to infinity.
double next_up(uint16_t low, Fields fields) {
  const double next = decode(static_cast<uint16_t>(low + 1), fields);
  if (!std::isinf(next)) return next;
  return std::copysign(std::ldexp(1.0, 1 << (fields.exponent_bits - 1)), next);
}

/// The pattern `x` (between pattern `low` and the next up in magnitude) rounds to: the nearer of the two, or the
/// one with an even last bit on a tie.
uint16_t nearest(double x, uint16_t low, Fields fields) {
  const double to_low = std::fabs(x - decode(low, fields)), to_high = std::fabs(x - next_up(low, fields));
  if (to_low < to_high || (to_low == to_high && (low & 1) == 0)) return low;
  return static_cast<uint16_t>(low + 1);
}

template <class Narrow> void check_every_pattern(Fields fields) {
  int64_t checked = 0;
  for (uint32_t pattern = 0; pattern < 65536; ++pattern) {
    const auto bits = static_cast<uint16_t>(pattern);
    const double value = decode(bits, fields);
    const float widened = Narrow::from_bits(bits).to_float();
    if (std::isnan(value)) {
      ASSERT_TRUE(std::isnan(widened)) << pattern;
      ASSERT_EQ(std::signbit(widened), std::signbit(value)) << pattern;
      const Narrow back = Narrow::from_float(widened);
      ASSERT_TRUE(std::isnan(back.to_float())) << pattern;
      ASSERT_EQ(back.bits & 0x8000, bits & 0x8000) << pattern;
      continue;
    }
    ASSERT_EQ(static_cast<double>(widened), value) << pattern;
    ASSERT_EQ(Narrow::from_float(widened).bits, bits) << pattern;
    ASSERT_EQ(Narrow::from_double(value).bits, bits) << pattern;
    if (std::isinf(value)) continue;
    // The midpoint to the next pattern up in magnitude and the floats and doubles beside it.
    const double middle = (value + next_up(bits, fields)) / 2;
    for (const double x : {middle, std::nextafter(middle, INFINITY), std::nextafter(middle, -INFINITY),
                           middle * (1 + 0x1p-40), middle * (1 - 0x1p-40)}) {
      const uint16_t expected = nearest(x, bits, fields);
      ASSERT_EQ(Narrow::from_double(x).bits, expected) << pattern << " from double " << x;
      const auto x32 = static_cast<float>(x);
      ASSERT_EQ(Narrow::from_float(x32).bits, nearest(x32, bits, fields)) << pattern << " from float " << x32;
      ++checked;
    }
  }
  EXPECT_GT(checked, 5 * 60000);
}

// Tensor::cast's loops (vectorized, and widening through float, rounding a float once) agree with the elements'
// own conversions on every pattern, both ways and into double.
TEST(NarrowFloat, TensorCastAgreesWithTheElementConversionsOnEveryPattern) {
  for (const DType narrow : {DType::bfloat16, DType::float16}) {
    SCOPED_TRACE(to_string(narrow));
    Tensor patterns(narrow, {65536});
    auto *bits = static_cast<uint16_t *>(patterns.bytes());
    for (uint32_t pattern = 0; pattern < 65536; ++pattern) bits[pattern] = static_cast<uint16_t>(pattern);
    const Tensor as_float = patterns.cast(DType::float32), as_double = patterns.cast(DType::float64);
    const Tensor back = as_float.cast(narrow), back_from_double = as_double.cast(narrow);
    for (int64_t i = 0; i < 65536; ++i) {
      const double want = patterns.get(i); // get_elem: the element type's own widening
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(as_float.get(i)) && std::isnan(as_double.get(i))) << i;
        ASSERT_TRUE(std::isnan(back.get(i)) && std::isnan(back_from_double.get(i))) << i;
        continue;
      }
      ASSERT_EQ(std::bit_cast<uint32_t>(as_float.data<float>()[i]), std::bit_cast<uint32_t>(static_cast<float>(want)))
          << i;
      ASSERT_EQ(std::bit_cast<uint64_t>(as_double.data<double>()[i]), std::bit_cast<uint64_t>(want)) << i;
      ASSERT_EQ(static_cast<const uint16_t *>(back.bytes())[i], bits[i]) << i;
      ASSERT_EQ(static_cast<const uint16_t *>(back_from_double.bytes())[i], bits[i]) << i;
    }
  }
}

TEST(NarrowFloat, Bfloat16EveryPatternWidensAndRoundsToNearestEven) { check_every_pattern<bfloat16>(bf16_fields); }
TEST(NarrowFloat, Float16EveryPatternWidensAndRoundsToNearestEven) { check_every_pattern<float16>(f16_fields); }

TEST(NarrowFloat, OutOfRangeSignedZerosAndNans) {
  EXPECT_EQ(float16::from_float(65519.99f).bits, 0x7bff);
  EXPECT_EQ(float16::from_float(65520.0f).bits, 0x7c00);
  EXPECT_EQ(float16::from_double(-1e300).bits, 0xfc00);
  EXPECT_EQ(float16::from_double(0x1p-25).bits, 0x0000);              // a tie with zero: to zero, even
  EXPECT_EQ(float16::from_double(0x1p-25 * (1 + 0x1p-40)).bits, 0x0001); // above it: the smallest subnormal
  EXPECT_EQ(float16::from_float(-0.0f).bits, 0x8000);
  EXPECT_EQ(bfloat16::from_double(1e300).bits, 0x7f80);
  EXPECT_EQ(bfloat16::from_double(-0x1p-150).bits, 0x8000);
  EXPECT_EQ(bfloat16::from_float(std::numeric_limits<float>::denorm_min()).bits, 0x0000);
  EXPECT_EQ(bfloat16::from_float(-std::numeric_limits<float>::quiet_NaN()).bits, 0xffc0);
  EXPECT_EQ(bfloat16::from_bits(0x7f81).to_float() != bfloat16::from_bits(0x7f81).to_float(), true);
  EXPECT_EQ(bfloat16::from_float(bfloat16::from_bits(0x7f81).to_float()).bits, 0x7fc1); // quieted, payload kept
  EXPECT_EQ(float16::from_float(float16::from_bits(0xfd01).to_float()).bits, 0xff01);
}

/// numpy's float16 (tests/core/tensor/float16_numpy_table.py) as a second, independent opinion.
TEST(NarrowFloat, Float16AgreesWithNumpyOnEveryPatternAndMidpoint) {
  const auto table = std::filesystem::temp_directory_path() / ("convcheck_f16_numpy_" + std::to_string(getpid()));
  const std::string command = "/usr/bin/python3 " CONVCHECK_SOURCE_DIR "/tests/core/tensor/float16_numpy_table.py " +
                              table.string() + " 2>&1";
  if (!std::filesystem::exists("/usr/bin/python3") || std::system(command.c_str()) != 0)
    GTEST_SKIP() << "/usr/bin/python3 with numpy is not available to write the float16 table";
  std::ifstream in(table, std::ios::binary);
  auto read = [&in](auto &value) { in.read(reinterpret_cast<char *>(&value), sizeof(value)); };
  for (uint32_t pattern = 0; pattern < 65536; ++pattern) {
    uint32_t numpy_bits = 0;
    read(numpy_bits);
    ASSERT_EQ(std::bit_cast<uint32_t>(float16::from_bits(static_cast<uint16_t>(pattern)).to_float()), numpy_bits)
        << pattern;
  }
  // Pairs of (input bits, numpy's float16 bits), float32 inputs and then float64, each list after its count.
  auto check_pairs = [&]<class Word, class Input>(Word, Input (*convert)(uint64_t)) {
    uint32_t count = 0;
    read(count);
    for (uint32_t i = 0; i < count; ++i) {
      Word input = 0, numpy_bits = 0;
      read(input);
      read(numpy_bits);
      const Input x = convert(input);
      const float16 ours = sizeof(Input) == 4 ? float16::from_float(static_cast<float>(x)) : float16::from_double(x);
      if (ours.bits != numpy_bits) return testing::AssertionFailure() << x << " -> " << ours.bits << " not " << numpy_bits;
    }
    return count > 3 * 63000u ? testing::AssertionSuccess() : testing::AssertionFailure() << count << " pairs only";
  };
  ASSERT_TRUE(check_pairs(uint32_t{}, +[](uint64_t w) { return std::bit_cast<float>(static_cast<uint32_t>(w)); }));
  ASSERT_TRUE(check_pairs(uint64_t{}, +[](uint64_t w) { return std::bit_cast<double>(w); }));
  ASSERT_TRUE(in.good());
  std::filesystem::remove(table);
}

} // namespace
} // namespace convcheck
