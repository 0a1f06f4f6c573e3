// The accumulation-witness fill (core/numerics/fill.hpp, docs/bounds.md): on the default generator's bfloat16
// problems, a direction whose reference passes the storage format's exact integer range somewhere (each
// product is at least 1 there, so its partial sums do too) shows an accumulation in that format as a mismatch;
// a correct float32 accumulation agrees bit for bit after the one rounding, and is never flagged.

#include <algorithm>
#include <cstdio>
#include <map>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

namespace {

struct Witnessed {
  int reaching = 0; // directions with an element of more terms than the narrow range (every input is >= 1)
  int caught = 0;   // of those, flagged with the narrow accumulation
  int correct_flagged = 0;
};

double largest(const Tensor &tensor);

// The most terms any element of each direction sums: the reference of the same problem on all-ones inputs.
std::map<Direction, double> most_terms(const Case &c) {
  Case ones{c.problem, {}, c.seed, c.case_index, c.fill};
  for (Role role : input_roles) {
    ones[role] = c[role].clone();
    for (int64_t i = 0; i < ones[role].size(); ++i) ones[role].set(i, 1);
  }
  const Reference counted = compute_reference(ones);
  std::map<Direction, double> terms;
  for (const auto &[direction, reference] : counted.directions) terms[direction] = largest(reference.expected);
  return terms;
}

double largest(const Tensor &tensor) {
  double most = 0;
  for (int64_t i = 0; i < tensor.size(); ++i) most = std::max(most, tensor.get(i));
  return most;
}

// Generated problems stored in `storage` (and accumulated in float32) filled per `fill`: how often `narrow`
// (an injected narrow accumulation) is caught where the sums pass `range`, and whether `direct` ever fails.
Witnessed witness(DType storage, FillMode fill, const char *narrow, double range) {
  const Strategy &bug = *find_strategy(narrow);
  const Strategy &correct = *find_strategy("direct");
  Witnessed seen;
  int problems = 0;
  for (uint64_t index = 0; problems < 1000 && index < 100000; ++index) {
    const Problem problem = generate_problem(23, index);
    if (problem.precision.src != storage || problem.precision.acc != DType::float32 ||
        !bug.unsupported_reason(problem, Direction::output).empty() || problem.multiply_adds() > 2'000'000)
      continue;
    ++problems;
    const Case c = make_case(problem, fill, 23, index);
    const Reference reference = compute_reference(c);
    const std::map<Direction, double> terms = most_terms(c);
    for (const DirectionInfo &each : directions(problem.op)) {
      const Direction direction = each.direction;
      seen.correct_flagged += verify_one(c, reference, correct, direction).verdict == Verdict::failed;
      if (terms.at(direction) <= range) continue;
      ++seen.reaching;
      const bool caught = verify_one(c, reference, bug, direction).verdict == Verdict::failed;
      seen.caught += caught;
      if (!caught && fill == FillMode::witness)
        std::printf("missed %s %s terms %g max %g\n", format_descriptor(problem).c_str(),
                    to_string(direction).c_str(), terms.at(direction), largest(reference[direction].expected));
    }
  }
  return seen;
}

TEST(WitnessFill, ANarrowAccumulationShowsWhereTheSumsPassTheNarrowRange) {
  struct Row {
    DType storage;
    const char *narrow;
    double range;
  };
  // bf16_accumulate keeps every partial sum in bfloat16 (PyTorch #68048); the float16 narrowings injected
  // (f16_products, f16_accumulate_depthwise) narrow products or depthwise problems only: the mutant tests find them.
  for (const Row row : {Row{DType::bfloat16, "bf16_accumulate", 256}}) {
    const Witnessed witnessed = witness(row.storage, FillMode::witness, row.narrow, row.range);
    const Witnessed exact = witness(row.storage, FillMode::exact, row.narrow, row.range);
    std::printf("%s %s: witness fill caught %d of %d directions past %g, exact fill %d of %d\n",
                to_string(row.storage).c_str(), row.narrow, witnessed.caught, witnessed.reaching, row.range,
                exact.caught, exact.reaching);
    EXPECT_EQ(witnessed.correct_flagged, 0) << to_string(row.storage);
    EXPECT_EQ(exact.correct_flagged, 0) << to_string(row.storage);
    ASSERT_GT(witnessed.reaching, 40) << to_string(row.storage);
    EXPECT_GE(witnessed.caught * 100, witnessed.reaching * 95) << to_string(row.storage);
  }
}

} // namespace

} // namespace convcheck
