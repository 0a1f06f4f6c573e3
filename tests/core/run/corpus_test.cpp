// An upstream/ corpus case (core/run/corpus.hpp) holds while its library strategy still fails with the hold-back
// lifted, and is skipped, saying so, once the library no longer has the bug.

#include "core/run/corpus.hpp"

#include <gtest/gtest.h>

#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/known_bug.hpp"

namespace convcheck {
namespace {

/// A library strategy that holds its weight gradient back, and computes it right (`fixed`) or off by one when the
/// hold-back is lifted.
Strategy library(bool fixed) {
  Strategy strategy;
  strategy.name = "library";
  strategy.supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                       .data_layouts = every_data_layout, .weight_layouts = every_weight_layout};
  strategy.run_case = [fixed](const Case &conv_case, const Asked &asked) {
    const Reference reference = compute_reference(conv_case);
    RunResults runs;
    for (Direction direction : all_directions)
      runs[direction].result = reference[direction].expected.cast(result_dtype(conv_case.problem, direction));
    RunResult &weight = runs[Direction::grad_weight];
    if (!asked.run_held_back) weight = RunResult{.skipped = "held back: frameworks issue 1"};
    else if (!fixed) weight.result.data<float>()[0] += 1;
    return runs;
  };
  return strategy;
}

CaseFile upstream_case() {
  CaseFile case_file;
  case_file.conv_case = make_case(parse_descriptor("mb2ic3ih5iw4oc2kh2kw3"), FillMode::exact, 1, 0);
  case_file.finding = FindingRecord{.strategy = "library", .direction = Direction::grad_weight, .upstream = "frameworks issue 1"};
  return case_file;
}

TEST(UpstreamCorpusCase, HoldsWhileTheLibraryStillHasTheBug) {
  const CorpusVerdict verdict = check_corpus_case(upstream_case(), {library(false)}, 30);
  EXPECT_TRUE(verdict.ok);
  EXPECT_TRUE(verdict.problems.empty());
  EXPECT_EQ(verdict.skipped, "");
}

TEST(UpstreamCorpusCase, IsSkippedSayingSoOnceTheLibraryIsFixed) {
  const CorpusVerdict verdict = check_corpus_case(upstream_case(), {library(true)}, 30);
  EXPECT_TRUE(verdict.ok);
  EXPECT_EQ(verdict.skipped, "library grad_weight came out passed with its hold-back lifted: the library here no longer "
                             "shows frameworks issue 1; give its known-bug row the version that fixed it and move the "
                             "case to regression/");
}

} // namespace
} // namespace convcheck
