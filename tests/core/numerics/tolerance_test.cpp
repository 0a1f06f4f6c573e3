// The tolerance model: a correct float32 implementation that sums in any order never exceeds the bound, and a
// one-tap error does.

#include "core/numerics/tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/diff.hpp"
#include "core/problem/generators.hpp"
#include "core/numerics/naive_loops.hpp"
#include "core/numerics/reference.hpp"

namespace convcheck {
namespace {

// Collects the float32 products of every element (core/numerics/naive_loops.hpp's accumulator interface) so they can be
// summed in any order.
struct Products {
  std::vector<std::vector<float>> of_element;
  void axpy(int64_t first, int64_t result_stride, const float *x, int64_t x_stride, float w, int64_t count) {
    for (int64_t j = 0; j < count; ++j)
      of_element[static_cast<size_t>(first + j * result_stride)].push_back(x[j * x_stride] * w);
  }
  void dot(int64_t index, const float *x, const float *y, int64_t y_stride, int64_t count) {
    for (int64_t j = 0; j < count; ++j) of_element[static_cast<size_t>(index)].push_back(x[j] * y[j * y_stride]);
  }
};

float pairwise(const float *begin, size_t count) {
  if (count == 0) return 0.0f;
  if (count == 1) return *begin;
  return pairwise(begin, count / 2) + pairwise(begin + count / 2, count - count / 2);
}

// The forward result in float32 with each element's products summed in a shuffled order, pairwise or not.
Tensor reordered_forward(const Case &c, uint64_t shuffle_seed, bool tree) {
  Tensor out(DType::float32, c.problem.output_shape());
  float *result = out.data<float>();
  std::mt19937_64 engine(shuffle_seed);
  Products products{std::vector<std::vector<float>>(static_cast<size_t>(out.size()))};
  naive_forward(c.problem, c[Role::data].data<float>(), c[Role::weight].data<float>(), products);
  for (int64_t i = 0; i < out.size(); ++i) {
    std::vector<float> &values = products.of_element[static_cast<size_t>(i)];
    std::shuffle(values.begin(), values.end(), engine);
    result[i] = tree ? pairwise(values.data(), values.size()) : std::accumulate(values.begin(), values.end(), 0.0f);
  }
  return out;
}

RC_GTEST_PROP(Tolerance, AnySummationOrderOfACorrectFloat32ResultPasses, ()) {
  Problem config = *convs(); // reordered_forward sums the conv definition
  config.precision = Precision::uniform(DType::float32);
  const auto fill = *rc::gen::element(FillMode::normal, FillMode::exact);
  const Case conv_case = make_case(config, fill, *rc::gen::arbitrary<uint64_t>(), 0);
  const Reference reference = compute_reference(conv_case);
  const Tensor got = reordered_forward(conv_case, *rc::gen::arbitrary<uint64_t>(), *rc::gen::arbitrary<bool>());
  const Diff diff = compare(got, reference[Direction::output].expected, reference[Direction::output].bound);
  RC_ASSERT(diff.ok);
}

TEST(Tolerance, BoundIsSoundForHeavyCancellation) {
  // Sums of large values that cancel to almost nothing: the worst case for a relative bound.
  std::mt19937_64 engine(11);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 2000; ++trial) {
    const int terms = 1 + trial % 300;
    std::vector<float> a(terms), b(terms);
    for (int i = 0; i < terms; ++i) {
      a[i] = static_cast<float>(normal(engine) * std::ldexp(1.0, static_cast<int>(engine() % 20) - 10));
      b[i] = static_cast<float>(normal(engine));
    }
    double exact = 0, abs_sum = 0;
    std::vector<float> products;
    for (int i = 0; i < terms; ++i) {
      exact += static_cast<double>(a[i]) * b[i];
      abs_sum += std::abs(static_cast<double>(a[i]) * b[i]);
      products.push_back(a[i] * b[i]);
    }
    std::shuffle(products.begin(), products.end(), engine);
    const float got = std::accumulate(products.begin(), products.end(), 0.0f);
    ASSERT_LE(std::abs(got - exact), error_bound(abs_sum, terms, DType::float32, false)) << "trial " << trial;
  }
}

TEST(Tolerance, OneTapErrorFails) {
  for (const char *descriptor : {"mb1ic4ih5oc2kh3pt1pb1pl1pr1", "g2mb2ic4ih7iw6oc4kh2kw3sh2dlw2pr1"})
    for (FillMode fill : {FillMode::normal, FillMode::exact}) {
      const Case conv_case = make_case(parse_descriptor(descriptor), fill, 2, 0);
      // The kernel loop starting one tap late: tap (0, 0) is dropped everywhere.
      Case broken = make_case(parse_descriptor(descriptor), fill, 2, 0);
      float *weight = broken[Role::weight].data<float>();
      const int64_t taps = conv_case.problem.height().kernel * conv_case.problem.width().kernel;
      for (int64_t i = 0; i < broken[Role::weight].size(); i += taps) weight[i] = 0.0f;
      const Reference reference = compute_reference(conv_case);
      const Tensor got = reordered_forward(broken, 1, false);
      const Diff diff = compare(got, reference[Direction::output].expected, reference[Direction::output].bound);
      EXPECT_FALSE(diff.ok) << descriptor << " " << to_string(fill);
      EXPECT_GT(diff.mismatches, 1) << descriptor;
    }
}

TEST(Tolerance, ExactIntegerSumsHaveZeroBound) {
  EXPECT_EQ(error_bound(1000, 50, DType::float32, true), 0.0);
  EXPECT_EQ(error_bound(0x1.0p24, 50, DType::float32, true), 0.0);
  EXPECT_GT(error_bound(0x1.0p24 + 2, 50, DType::float32, true), 0.0);
  EXPECT_EQ(error_bound(0x1.0p40, 50, DType::float64, true), 0.0);
}

TEST(Tolerance, BoundScalesWithTermsAndPrecision) {
  const double single = error_bound(10.0, 99, DType::float32, false);
  EXPECT_NEAR(single, 2.0 * (100 * 0x1.0p-24) * 10.0, 1e-9);
  EXPECT_LT(error_bound(10.0, 99, DType::float64, false), single * 1e-8);
}

TEST(Diff, ReportsShapeNanAndMissingDistinctly) {
  const Case conv_case = make_case(parse_descriptor("mb1ic1ih3oc1kh1"), FillMode::normal, 1, 0);
  const Reference reference = compute_reference(conv_case);
  const DirectionReference &output = reference[Direction::output];
  Diff diff = compare(Tensor(DType::float32, {1, 1, 3, 2}), output.expected, output.bound);
  EXPECT_EQ(diff.problem, "shape [1, 1, 3, 2] differs from expected [1, 1, 3, 3]");
  Tensor nan_result = output.expected.cast(DType::float32);
  nan_result.data<float>()[4] = std::nanf("");
  diff = compare(nan_result, output.expected, output.bound);
  EXPECT_EQ(diff.problem.rfind("got nan at [0, 0, 1, 1] where the reference is", 0), 0u) << diff.problem;
  EXPECT_EQ(diff.mismatches, 1);
}

} // namespace
} // namespace convcheck
