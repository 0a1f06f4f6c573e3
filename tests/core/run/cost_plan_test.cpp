// The cost plan (core/run/cost_plan.hpp): small cases run every strategy; a cost-planned strategy runs on about one
// large case in ceil(multiply-adds / limit), the same for the same case index, and says why it left the others
// out; a strategy not cost-planned (what --full-check makes every one) runs everywhere.

#include "core/run/cost_plan.hpp"

#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/run/verify.hpp"

namespace convcheck {
namespace {

// 8*8*9 products for each of 18*18 positions per direction, 5.6e5 over three: 12 times the limit, rounded up.
constexpr const char *large = "mb1ic8ih20oc8kh3";
static_assert(cost_plan_full_limit == 50'000, "the share below is ceil(5.6e5 / limit)");

Strategy slow(bool planned) {
  Strategy strategy;
  strategy.name = "slow";
  strategy.supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                       .data_layouts = every_data_layout, .weight_layouts = every_weight_layout};
  strategy.run = [](const Case &c, Direction direction) {
    return Tensor(result_dtype(c.problem, direction), result_shape(c.problem, direction));
  };
  strategy.cost_planned = planned;
  return strategy;
}

TEST(CostPlan, CountsOnlyTheTapsInside) {
  EXPECT_EQ(direction_multiply_adds(parse_descriptor(large)), 8 * 8 * 9 * 18 * 18);
  // Width 3 padded by 1 with a 3-wide kernel: the three output columns see 2, 3 and 2 taps.
  EXPECT_EQ(direction_multiply_adds(parse_descriptor("mb2ic1ih1iw3oc1kh1kw3pl1pr1")), 2 * (2 + 3 + 2));
}

TEST(CostPlan, RunsEverySmallCase) {
  const Problem small = parse_descriptor("mb1ic4ih8oc4kh3");
  for (uint64_t index = 0; index < 50; ++index)
    EXPECT_EQ(planned_out(slow(true), make_case(small, FillMode::exact, 1, index)), "");
}

TEST(CostPlan, RunsAShareOfLargeCasesAndSaysWhy) {
  const Problem problem = parse_descriptor(large);
  int ran = 0;
  for (uint64_t index = 0; index < 400; ++index) {
    const Case c = make_case(problem, FillMode::exact, 1, index);
    const std::string reason = planned_out(slow(true), c);
    EXPECT_EQ(reason, planned_out(slow(true), c)); // the same case, the same decision
    EXPECT_EQ(planned_out(slow(false), c), "");
    if (reason.empty()) {
      ++ran;
    } else {
      EXPECT_EQ(reason, "cost plan: 5.6e+05 multiply-adds is over 5e+04, so it runs on about 1 case in 12 of this "
                        "size (--full-check runs it on every case)");
    }
  }
  EXPECT_GT(ran, 15); // 400 / 12 expected
  EXPECT_LT(ran, 55);
}

TEST(CostPlan, LeftOutIsSkippedNotPassed) {
  const Problem problem = parse_descriptor(large);
  for (uint64_t index = 0; index < 20; ++index) {
    const Case c = make_case(problem, FillMode::exact, 1, index);
    const Reference reference = compute_reference(c);
    const Outcome outcome = verify_one(c, reference, slow(true), Direction::output);
    if (planned_out(slow(true), c).empty()) {
      EXPECT_EQ(outcome.verdict, Verdict::failed); // it ran: an all-zero result is far from the reference
    } else {
      EXPECT_EQ(outcome.verdict, Verdict::skipped);
      EXPECT_EQ(outcome.detail.rfind("cost plan: ", 0), 0u) << outcome.detail;
    }
  }
}

} // namespace
} // namespace convcheck
