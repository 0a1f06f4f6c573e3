// How strong the fast-algorithm bounds are, measured on the default generator's problems that each strategy takes
// (docs/bounds.md quotes what this prints): the margin of every correct result (the largest error / bound ratio)
// and the share of a dropped kernel tap (the centre tap of every kernel zeroed, as a kernel that skips one tap of
// its unrolled loop) that is still caught. The same correct results are also judged under the direct bound, which
// is what convcheck did before the classes: the share it flags is the false-alarm rate the classes remove.

#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/generators.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

namespace {

constexpr int problems_per_strategy = 60;

struct Strength {
  int judged = 0, caught = 0, direct_false_alarms = 0;
  double worst_ratio = 0;
};

Case without_centre_tap(const Case &c) {
  Case dropped{c.problem, {}, c.seed, c.case_index, c.fill};
  for (Role role : input_roles) dropped[role] = c[role].clone();
  const int64_t taps = c.problem.kernel_volume();
  Tensor &weight = dropped[Role::weight];
  for (int64_t i = taps / 2; i < weight.size(); i += taps) weight.set(i, 0);
  return dropped;
}

Strength measure(const std::string &name, FillMode fill) {
  const Strategy &strategy = *find_strategy(name);
  Strength strength;
  for (uint64_t index = 0; strength.judged < problems_per_strategy && index < 20000; ++index) {
    const Problem problem = generate_problem(77, index);
    if (problem.kernel_volume() < 3 || !strategy.unsupported_reason(problem, Direction::output).empty()) continue;
    const Case c = make_case(problem, fill, 77, index);
    const Reference reference = compute_reference(c);
    Tensor correct;
    const Outcome outcome = verify_one(c, reference, strategy, Direction::output, &correct);
    EXPECT_EQ(outcome.verdict == Verdict::failed, false) << name << " " << outcome.detail;
    strength.worst_ratio = std::max(strength.worst_ratio, outcome.diff.max_ratio);
    strength.direct_false_alarms += judge(name, Direction::output, correct, reference[Direction::output]).verdict == Verdict::failed;
    Tensor wrong;
    verify_one(without_centre_tap(c), reference, strategy, Direction::output, &wrong);
    const Algorithm algorithm = strategy.run_case ? strategy.run_case(c, Asked{direction_list(c.problem.op)})
                                                              .at(Direction::output)
                                                              .algorithm.value_or(strategy.algorithm)
                                                  : strategy.algorithm;
    strength.caught += judge(name, Direction::output, wrong, reference[Direction::output], c, algorithm).verdict == Verdict::failed;
    ++strength.judged;
  }
  return strength;
}

TEST(FastBoundStrength, CorrectResultsPassWithMarginAndADroppedTapIsCaught) {
  for (const char *name : {"winograd", "fft"})
    for (FillMode fill : {FillMode::normal, FillMode::exact}) {
      const Strength s = measure(name, fill);
      std::printf("%s %s fill: %d problems, worst correct ratio %.3g, dropped centre tap caught in %d, direct bound "
                  "flags %d correct results\n",
                  name, fill == FillMode::normal ? "normal" : "exact", s.judged, s.worst_ratio, s.caught,
                  s.direct_false_alarms);
      EXPECT_EQ(s.judged, problems_per_strategy) << name;
      EXPECT_LT(s.worst_ratio, 0.1) << name << ": a correct result within 10x of its bound";
      EXPECT_GE(s.caught, problems_per_strategy * 3 / 4) << name << ": a dropped tap caught in most problems";
    }
}

} // namespace

} // namespace convcheck
