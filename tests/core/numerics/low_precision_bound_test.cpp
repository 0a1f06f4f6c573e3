// The bound of core/numerics/tolerance.hpp on low-precision storage (docs/bounds.md): every legal float32
// accumulation of bfloat16 or float16 inputs, rounded once to the destination, passes; accumulations in the
// storage format (and the other narrowings the injected bugs reproduce) are flagged.
#include "core/numerics/tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "core/tensor/element.hpp"

namespace convcheck {
namespace {

struct Sum {
  std::vector<float> a, b;
  double exact = 0, abs_sum = 0;
};

// n products of normal values rounded to `storage`, with their exact sum and sum of |products| in double (exact:
// each product of two values of at most 11 significand bits is exact in double, and n is small enough that the
// double sum's own error is covered by the bound's reference term).
Sum draw(std::mt19937_64 &engine, DType storage, int n) {
  std::normal_distribution<double> normal;
  Sum s;
  for (int i = 0; i < n; ++i) {
    s.a.push_back(static_cast<float>(rounded_to(storage, normal(engine))));
    s.b.push_back(static_cast<float>(rounded_to(storage, normal(engine))));
    const double product = static_cast<double>(s.a.back()) * s.b.back();
    s.exact += product;
    s.abs_sum += std::abs(product);
  }
  return s;
}

// A float32 accumulation of the products in the order of `order`, in blocks of `block` terms summed separately
// and then added up (block >= n: one running sum), each step an FMA or a product and an addition.
float accumulate(const Sum &s, const std::vector<int> &order, size_t block, bool fma, float (*round_sum)(float)) {
  std::vector<float> partials;
  for (size_t start = 0; start < order.size(); start += block) {
    float sum = 0;
    for (size_t k = start; k < std::min(order.size(), start + block); ++k) {
      const float a = s.a[static_cast<size_t>(order[k])], b = s.b[static_cast<size_t>(order[k])];
      sum = round_sum(fma ? std::fma(a, b, sum) : sum + a * b);
    }
    partials.push_back(sum);
  }
  float total = 0;
  for (float partial : partials) total = round_sum(total + partial);
  return total;
}

float kept(float value) { return value; }
float to_bf16(float value) { return static_cast<float>(rounded_to(DType::bfloat16, value)); }
float to_f16(float value) { return static_cast<float>(rounded_to(DType::float16, value)); }

// Whether got (a result in the destination format, widened) is within the bound of s.
bool within(const Sum &s, double got, DType destination) {
  const auto terms = static_cast<int64_t>(s.a.size());
  return std::abs(got - s.exact) <= error_bound(s.abs_sum, terms, s.exact, DType::float32, destination, false);
}

TEST(LowPrecisionBound, EveryFloat32AccumulationRoundedOncePasses) {
  std::mt19937_64 engine(23);
  for (const DType storage : {DType::bfloat16, DType::float16})
    for (int trial = 0; trial < 4000; ++trial) {
      const int n = std::uniform_int_distribution<int>(1, trial % 4 == 0 ? 3000 : 300)(engine);
      const Sum s = draw(engine, storage, n);
      std::vector<int> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), engine);
      const size_t block = std::uniform_int_distribution<size_t>(1, static_cast<size_t>(n))(engine);
      for (const bool fma : {false, true})
        for (const DType destination : {storage, DType::float32}) {
          const float sum = accumulate(s, order, block, fma, kept);
          const double got = rounded_to(destination, sum);
          ASSERT_TRUE(within(s, got, destination))
              << to_string(storage) << " n " << n << " block " << block << " fma " << fma << " got " << got
              << " exact " << s.exact;
        }
    }
}

// The narrow accumulations are flagged on most reductions past a few terms (docs/bounds.md says for which lengths
// they can hide: under 4 terms without cancellation).
TEST(LowPrecisionBound, NarrowAccumulationsAreFlagged) {
  std::mt19937_64 engine(68048);
  struct Narrowing {
    DType storage;
    float (*round_sum)(float);
  };
  for (const Narrowing narrowing : {Narrowing{DType::bfloat16, to_bf16}, Narrowing{DType::float16, to_f16}}) {
    int flagged = 0, trials = 0;
    for (int trial = 0; trial < 2000; ++trial) {
      const int n = std::uniform_int_distribution<int>(16, 600)(engine);
      const Sum s = draw(engine, narrowing.storage, n);
      std::vector<int> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), 0);
      const float sum = accumulate(s, order, order.size(), false, narrowing.round_sum);
      flagged += within(s, rounded_to(narrowing.storage, sum), narrowing.storage) ? 0 : 1;
      ++trials;
    }
    // A single sum per trial (one element): a tensor has many elements, and one flagged element is a finding.
    EXPECT_GT(flagged, trials / 2) << to_string(narrowing.storage) << ": " << flagged << " of " << trials;
  }
}

TEST(LowPrecisionBound, ExactIntegerSumsAllowOnlyTheOneRounding) {
  // 257 ones: exact in float32, 256 after a bfloat16 accumulation (PyTorch #68048), 257 -> 256 once rounded to bf16.
  EXPECT_EQ(error_bound(257, 257, 257.0, DType::float32, DType::bfloat16, true), 1.0);
  EXPECT_EQ(error_bound(257, 257, 257.0, DType::float32, DType::float32, true), 0.0);
  EXPECT_EQ(error_bound(2049, 2049, 2049.0, DType::float32, DType::float16, true), 1.0);
  EXPECT_EQ(error_bound(2050, 2050, 2050.0, DType::float32, DType::float16, true), 0.0);
  // Storage and accumulation apart: a bfloat16 destination allows 2^-8 of |x| once, not 2^-8 per term.
  const double bound = error_bound(1000.0, 999, 1.0, DType::float32, DType::bfloat16, false);
  EXPECT_LT(bound, 2 * (0x1.0p-8 * 1.01 + 1000 * 0x1.0p-24 * 1000 * 1.01 + 1e-9));
  EXPECT_TRUE(std::isfinite(error_bound(1e6, 100000, 1.0, DType::float32, DType::bfloat16, false)));
}

} // namespace
} // namespace convcheck
