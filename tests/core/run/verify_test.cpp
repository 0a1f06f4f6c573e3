// verify_case gives every direction of the case's op one outcome per strategy, whatever a strategy returns: a
// result keyed by the wrong direction, a missing one or a throw is a failure naming it, never a silent pass.

#include "core/run/verify.hpp"

#include <gtest/gtest.h>

#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"

namespace convcheck {
namespace {

Strategy run_case_strategy(std::function<RunResults(const Case &)> run_case) {
  Strategy strategy;
  strategy.name = "whole";
  strategy.supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                       .data_layouts = every_data_layout, .weight_layouts = every_weight_layout};
  strategy.run_case = [run_case](const Case &c, const Asked &) { return run_case(c); };
  return strategy;
}

class VerifyCase : public ::testing::Test {
protected:
  const Case conv_case = make_case(parse_descriptor("mb2ic3ih5iw4oc2kh2kw3"), FillMode::exact, 1, 0);
  const Reference reference = compute_reference(conv_case);

  std::vector<Outcome> verify(const Strategy &strategy) const { return verify_case(conv_case, reference, {strategy}); }
};

TEST_F(VerifyCase, ARunCaseResultIsJudgedUnderItsOwnDirection) {
  // The reference's own results, keyed by direction, pass; the output's result filed as grad_data fails.
  const auto expected = [this](Direction direction) {
    return reference[direction].expected.cast(result_dtype(conv_case.problem, direction));
  };
  const std::vector<Outcome> right = verify(run_case_strategy([&](const Case &) {
    RunResults runs;
    for (Direction direction : all_directions) runs[direction].result = expected(direction);
    return runs;
  }));
  ASSERT_EQ(right.size(), 3u);
  for (const Outcome &outcome : right) EXPECT_EQ(outcome.verdict, Verdict::passed) << to_string(outcome.direction);

  const std::vector<Outcome> swapped = verify(run_case_strategy([&](const Case &) {
    RunResults runs;
    runs[Direction::output].result = expected(Direction::output);
    runs[Direction::grad_data].result = expected(Direction::output);
    runs[Direction::grad_weight].result = expected(Direction::grad_weight);
    return runs;
  }));
  EXPECT_EQ(swapped[0].verdict, Verdict::passed);
  EXPECT_EQ(swapped[1].verdict, Verdict::failed);
  EXPECT_EQ(swapped[2].verdict, Verdict::passed);
}

TEST_F(VerifyCase, AMissingDirectionIsAFailureNamingIt) {
  const std::vector<Outcome> outcomes = verify(run_case_strategy([](const Case &) {
    RunResults runs;
    runs[Direction::output].skipped = "not mine";
    return runs;
  }));
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_EQ(outcomes[0].verdict, Verdict::skipped);
  EXPECT_EQ(outcomes[0].detail, "not mine");
  for (size_t i : {1, 2}) {
    EXPECT_EQ(outcomes[i].verdict, Verdict::failed);
    EXPECT_EQ(outcomes[i].detail, "returned no " + to_string(outcomes[i].direction) + " result");
  }
}

TEST_F(VerifyCase, AThrowFailsEveryDirection) {
  const std::vector<Outcome> outcomes =
      verify(run_case_strategy([](const Case &) -> RunResults { throw std::runtime_error("out of cheese"); }));
  ASSERT_EQ(outcomes.size(), 3u);
  for (const Outcome &outcome : outcomes) {
    EXPECT_EQ(outcome.verdict, Verdict::failed);
    EXPECT_EQ(outcome.detail, "threw: out of cheese");
  }
}

TEST_F(VerifyCase, AThrowOfANonStandardTypeFailsEveryDirectionToo) {
  const std::vector<Outcome> outcomes = verify(run_case_strategy([](const Case &) -> RunResults { throw 42; }));
  ASSERT_EQ(outcomes.size(), 3u);
  for (const Outcome &outcome : outcomes) {
    EXPECT_EQ(outcome.verdict, Verdict::failed);
    EXPECT_EQ(outcome.detail, "threw a non-standard exception");
  }
}

TEST(Registration, ASecondStrategyOfOneNameStopsTheProgramSayingSo) {
  Strategy first{.name = "registration_test_twice"};
  first.run = [](const Case &, Direction) { return Tensor(); };
  const Registration once{first};
  EXPECT_DEATH(Registration{first}, "two strategies are called registration_test_twice: each name is registered once");
}

TEST_F(VerifyCase, AProblemOutsideTheSupportIsSkippedWithoutACall) {
  Strategy strategy = run_case_strategy([](const Case &) -> RunResults { throw std::logic_error("called"); });
  strategy.supports.ranks = {1, 3};
  for (const Outcome &outcome : verify(strategy)) {
    EXPECT_EQ(outcome.verdict, Verdict::skipped);
    EXPECT_EQ(outcome.detail, "2-D problems are not supported (ranks: 1, 3)");
  }
}

} // namespace
} // namespace convcheck
