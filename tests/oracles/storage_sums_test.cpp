// The `direct:storage` class (core/numerics/storage_sums_bound.cpp), judged end to end over default draws made
// bfloat16 or float16: an implementation whose partial sums are rounded to the result's format after every step (as
// XNNPACK's f16 kernels and ARM's f16 arithmetic compute) is never flagged under it, though the problem's float32
// bound flags it; the same implementation with one input channel's products left out is caught under it; and a sum
// too long for the format to bound is skipped with the reason, never passed.

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "core/numerics/algorithm.hpp"
#include "core/numerics/algorithm_bound.hpp"
#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "core/run/verify.hpp"
#include "core/tensor/element.hpp"
#include "oracles/inject/narrow_sums.hpp"

namespace convcheck {
namespace {

const Algorithm storage_sums = parse_algorithm("direct:storage");

// The forward result of `c` with every partial sum rounded to `storage`, as the result's format.
Tensor storage_sum_forward(const Case &c, DType storage) {
  const auto round = [storage](float value) { return static_cast<float>(rounded_to(storage, value)); };
  return narrow_naive_float32(c, Direction::output, round, kept).cast(result_dtype(c.problem, Direction::output));
}

struct Tally {
  int judged = 0, flagged = 0, skipped = 0, flagged_under_float32 = 0, dropped_caught = 0, dropped_judged = 0;
};

// Default draws (convs only: the hook runs conv's loops) made all-`storage` with float32 accumulation.
Tally judge_draws(DType storage, int cases) {
  Tally tally;
  for (uint64_t index = 0; tally.judged + tally.skipped < cases; ++index) {
    Problem problem = generate_problem(27, index);
    if (problem.op != Op::conv) continue;
    problem.precision = {storage, storage, storage, DType::float32};
    const Case c = make_case(problem, FillMode::normal, 27, index);
    const DirectionReference reference = compute_reference(c, Direction::output);
    const Tensor got = storage_sum_forward(c, storage);
    const Outcome outcome = judge("storage_sums", Direction::output, got, reference, c, storage_sums);
    if (outcome.verdict == Verdict::skipped) {
      ++tally.skipped;
      EXPECT_NE(outcome.detail.find("have no finite error bound past"), std::string::npos) << outcome.detail;
      continue;
    }
    ++tally.judged;
    EXPECT_NE(outcome.verdict, Verdict::failed) << format_descriptor(problem) << ": " << outcome.detail;
    tally.flagged += outcome.verdict == Verdict::failed ? 1 : 0;
    tally.flagged_under_float32 += judge("f32", Direction::output, got, reference).verdict == Verdict::failed;
    // One input channel's products left out (its data zeroed): a real bug, whenever that channel had any.
    if (problem.in_channels_per_group() < 2) continue;
    Case dropped{c.problem, {}, c.seed, c.case_index, c.fill, c.settings};
    for (Role role : input_roles) dropped[role] = c[role].clone();
    const int64_t plane = dropped[Role::data].size() / (problem.batch * problem.in_channels);
    for (int64_t n = 0; n < problem.batch; ++n)
      for (int64_t i = 0; i < plane; ++i) dropped[Role::data].set(n * problem.in_channels * plane + i, 0.0);
    ++tally.dropped_judged;
    tally.dropped_caught += judge("dropped", Direction::output, storage_sum_forward(dropped, storage), reference, c,
                                  storage_sums)
                                .verdict == Verdict::failed;
  }
  return tally;
}

TEST(StorageSums, SumsKeptInTheResultsFormatPassUnderTheirClassAndADroppedChannelIsCaught) {
  // The share of dropped channels caught: a bfloat16 sum's bound is eight times as wide, n/128 of S for n terms
  // (measured: float16 144 of 157, bfloat16 109 of 155).
  for (const auto &[storage, caught_percent] : {std::pair{DType::float16, 85}, std::pair{DType::bfloat16, 60}}) {
    const Tally tally = judge_draws(storage, 300);
    SCOPED_TRACE(to_string(storage));
    std::printf("%s: %d judged, %d skipped, %d flagged under float32, dropped channel caught %d of %d\n",
                to_string(storage).c_str(), tally.judged, tally.skipped, tally.flagged_under_float32,
                tally.dropped_caught, tally.dropped_judged);
    EXPECT_EQ(tally.flagged, 0);
    // The class is needed: the float32 bound of f16:f16:f16:f32 flags most of these correct narrow sums.
    EXPECT_GT(tally.flagged_under_float32, tally.judged / 4) << tally.flagged_under_float32 << " of " << tally.judged;
    // And it is not vacuous: a missing channel shows on nearly every problem that has one to miss.
    EXPECT_GT(tally.dropped_caught * 100, tally.dropped_judged * caught_percent);
    EXPECT_GT(tally.judged, 200);
  }
}

TEST(StorageSums, ASumPastTheFormatsLimitIsSkippedWithTheReasonNeverPassed) {
  // 1,023 float16 terms per output: (n + 1) * 2^-11 = 1/2, so gamma has no finite value; 1,022 still has one.
  const Case longest = make_case(parse_descriptor("mb1ic1023iw1oc1kw1_f16:f16:f16:f32"), FillMode::normal, 1, 0);
  const DirectionReference reference = compute_reference(longest, Direction::output);
  const Outcome outcome = judge("storage_sums", Direction::output, storage_sum_forward(longest, DType::float16),
                                reference, longest, storage_sums);
  EXPECT_EQ(outcome.verdict, Verdict::skipped);
  EXPECT_EQ(outcome.detail, "declared direct:storage: sums kept in float16 have no finite error bound past 1022 terms, "
                            "and this result has longer ones");
  const Case within = make_case(parse_descriptor("mb1ic1022iw1oc1kw1_f16:f16:f16:f32"), FillMode::normal, 1, 0);
  const Outcome judged = judge("storage_sums", Direction::output, storage_sum_forward(within, DType::float16),
                               compute_reference(within, Direction::output), within, storage_sums);
  EXPECT_EQ(judged.verdict, Verdict::passed) << judged.detail;
  EXPECT_EQ(judged.judged_under, "direct with sums in float16");
}

TEST(StorageSums, IsSpelledAndReadBackAndIsDirectOnAFloat32Result) {
  EXPECT_EQ(to_string(storage_sums), "direct:storage");
  EXPECT_TRUE(storage_sums.storage_sums);
  EXPECT_EQ(describe(storage_sums), "direct, sums in the result's format");
  // On a float32 problem the result's format is the accumulation's: the reference's own bound, verdicts unchanged.
  const Case c = make_case(parse_descriptor("mb1ic3ih4iw4oc2kh3kw3"), FillMode::normal, 1, 0);
  const DirectionReference reference = compute_reference(c, Direction::output);
  EXPECT_EQ(storage_sums_bound(c, Direction::output, reference).element, reference.bound);
  const Tensor got = storage_sum_forward(c, DType::float32);
  EXPECT_EQ(judge("storage_sums", Direction::output, got, reference, c, storage_sums).verdict,
            judge("direct", Direction::output, got, reference).verdict);
}

} // namespace
} // namespace convcheck
