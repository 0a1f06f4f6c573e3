#include "core/numerics/fill.hpp"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>
#include <omp.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/reference.hpp"

namespace convcheck {
namespace {

std::vector<double> values(const Tensor &tensor) {
  std::vector<double> result;
  for (int64_t i = 0; i < tensor.size(); ++i) result.push_back(tensor.get(i));
  return result;
}

TEST(Fill, DependsOnlyOnSeedCaseAndRole) {
  const Problem config = parse_descriptor("mb2ic3ih5oc4kh3");
  const auto a = values(fill_tensor(config, Role::data, FillMode::normal, 9, 4));
  EXPECT_EQ(a, values(fill_tensor(config, Role::data, FillMode::normal, 9, 4)));
  EXPECT_NE(a, values(fill_tensor(config, Role::data, FillMode::normal, 9, 5)));
  EXPECT_NE(a, values(fill_tensor(config, Role::data, FillMode::normal, 10, 4)));
  EXPECT_NE(a, values(fill_tensor(config, Role::weight, FillMode::normal, 9, 4)));
}

TEST(Fill, IndependentOfThreadCount) {
  const Problem config = parse_descriptor("mb2ic3ih5oc4kh3");
  auto fill_many = [&](int threads) {
    std::vector<std::vector<double>> cases(64);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int i = 63; i >= 0; --i)
      cases[static_cast<size_t>(i)] =
          values(make_case(config, FillMode::mixed, 3, static_cast<uint64_t>(i))[Role::grad_output]);
    return cases;
  };
  EXPECT_EQ(fill_many(1), fill_many(4));
}

// The empirical distribution of 2^20 values against the standard normal's CDF, Phi(t) = erfc(-t / sqrt 2) / 2, at
// points in the body, near the ziggurat's layer edges and in its tail (past 3.654): each fraction within 5 standard
// errors (plus 3 counts, for the far tail), so a wrong layer table, wedge or tail shows.
TEST(Fill, NormalValuesFollowTheNormalDistribution) {
  const Tensor tensor = fill_values(DType::float64, {1 << 20}, FillMode::normal, 1, 0, 0, 1);
  std::vector<double> sorted(tensor.data<double>(), tensor.data<double>() + tensor.size());
  std::sort(sorted.begin(), sorted.end());
  const double n = static_cast<double>(sorted.size());
  double sum = 0, squares = 0;
  for (double value : sorted) sum += value, squares += value * value;
  EXPECT_NEAR(sum / n, 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(squares / n, 1.0, 5 * std::sqrt(2 / n));
  for (double t : {-4.5, -3.8, -3.6, -3.0, -2.0, -1.0, -0.5, -0.1, 0.0, 0.3, 0.7, 1.5, 2.5, 3.3, 3.7, 4.2}) {
    const double expected = 0.5 * std::erfc(-t / std::sqrt(2.0));
    const double seen = static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), t) - sorted.begin()) / n;
    EXPECT_NEAR(seen, expected, 5 * std::sqrt(expected * (1 - expected) / n) + 3 / n) << "at " << t;
  }
}

TEST(Fill, ExactValuesAreSmallIntegersWhoseSumsStayExact) {
  for (const char *descriptor : {"mb2ic3ih5oc4kh3", "g2mb4ic16ih16oc8kh5sh2"}) {
    const Problem config = parse_descriptor(descriptor);
    const int64_t magnitude = exact_fill_magnitude(config);
    const Case conv_case = make_case(config, FillMode::exact, 1, 0);
    for (const Tensor *tensor : {&conv_case[Role::data], &conv_case[Role::weight], &conv_case[Role::grad_output]})
      for (int64_t i = 0; i < tensor->size(); ++i) {
        const double value = tensor->get(i);
        ASSERT_EQ(value, std::nearbyint(value));
        ASSERT_LE(std::abs(value), static_cast<double>(magnitude));
      }
    // The tolerance sees integer inputs with small sums and demands bit-exact agreement.
    const Reference reference = compute_reference(conv_case);
    for (Direction direction : all_directions)
      for (double bound : reference[direction].bound) ASSERT_EQ(bound, 0.0) << descriptor;
  }
  EXPECT_EQ(exact_fill_magnitude(parse_descriptor("mb2ic3ih5oc4kh3")), 4);
  EXPECT_EQ(exact_fill_magnitude(parse_descriptor("mb16ic1ih512oc1kh1")), 2);
  EXPECT_EQ(exact_fill_magnitude(parse_descriptor("mb64ic1ih512oc1kh1")), 1);
}

TEST(Fill, MixedPicksBothModes) {
  int exact = 0;
  for (uint64_t i = 0; i < 200; ++i) exact += resolve_fill_mode(FillMode::mixed, 5, i) == FillMode::exact;
  EXPECT_GT(exact, 60);
  EXPECT_LT(exact, 140);
}

} // namespace
} // namespace convcheck
