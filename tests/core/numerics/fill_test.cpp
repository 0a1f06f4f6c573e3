#include "core/numerics/fill.hpp"

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

TEST(Fill, NormalValuesLookNormal) {
  const Problem config = parse_descriptor("mb4ic8ih32oc1kh1");
  const Tensor tensor = fill_tensor(config, Role::data, FillMode::normal, 1, 0);
  double sum = 0, squares = 0;
  for (int64_t i = 0; i < tensor.size(); ++i) {
    sum += tensor.get(i);
    squares += tensor.get(i) * tensor.get(i);
  }
  const double n = static_cast<double>(tensor.size());
  EXPECT_NEAR(sum / n, 0.0, 0.1);
  EXPECT_NEAR(squares / n, 1.0, 0.1);
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
