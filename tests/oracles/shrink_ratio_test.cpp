// Shrinking keeps the failures that ride on their inputs and reaches corners defined by an output size (issue 39).
// Each bug below, planted here or injected (oracles/inject/), is saved from a failing case by save_finding, which
// shrinks it; the shrunk problem's multiply-adds must be within a stated ratio of the bug's smallest trigger (the
// fewest multiply-adds of a problem it fails on for some fill, checked here), and the saved case must still fail
// when replayed. With one fill per candidate and one field per step (before issue 39) each bound below was exceeded:
// the one-value bug's on 4 seeds of 5 (up to 10x), the long sum's on 4 of 5 (up to 6x), the output-size corner's
// from its first start (3x). Each test prints its ratios as `ratio BUG seed S: START -> SHRUNK = R`.

#include <cstdio>
#include <filesystem>
#include <functional>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/finding.hpp"
#include "core/run/verify.hpp"
#include "core/storage/case_file.hpp"

namespace convcheck {
namespace {

namespace fs = std::filesystem;

// How a planted bug spoils the naive loops' correct result of a case, in place.
using Spoil = std::function<void(const Case &, Direction, Tensor &)>;

// Made when a test runs: the registry fills as the strategies' files initialise, in no set order with this one.
Strategy planted(const std::string &name, Spoil spoil) {
  Strategy strategy = *find_strategy("naive");
  strategy.name = name;
  strategy.injected = true;
  strategy.run = [correct = strategy.run, spoil](const Case &c, Direction direction) {
    Tensor result = correct(c, direction);
    spoil(c, direction, result);
    return result;
  };
  return strategy;
}

// Wrong on every output element when some data element is past 1.5 in magnitude (13% of normal draws): a failure
// that rides on one input at one position, as a subnormal the decoder drops does.
Strategy rare_input() {
  return planted("rare_input", [](const Case &c, Direction, Tensor &result) {
    const Tensor &data = c[Role::data];
    for (int64_t i = 0; i < data.size(); ++i)
      if (std::abs(data.get(i)) > 1.5) {
        for (int64_t j = 0; j < result.size(); ++j) result.set(j, result.get(j) + 1);
        return;
      }
  });
}

// Wrong on the output elements whose sum is past 1.5 standard deviations (13% of them) once the forward reduction
// (C/G times the kernel volume) reaches 16 terms: a long sum that fails on some fills and not others, as a narrow
// accumulator a little over the bound does.
Strategy long_sum() {
  return planted("long_sum", [](const Case &c, Direction direction, Tensor &result) {
    const int64_t terms = c.problem.in_channels_per_group() * c.problem.kernel_volume();
    if (direction != Direction::output || terms < 16) return;
    for (int64_t j = 0; j < result.size(); ++j)
      if (std::abs(result.get(j)) > 1.5 * std::sqrt(static_cast<double>(terms))) result.set(j, result.get(j) + 1);
  });
}

// Wrong where an axis's output is one element wide with a stride over 1 (the shape alone).
Strategy one_wide_strided() {
  return planted("one_wide_strided", [](const Case &c, Direction, Tensor &result) {
    const Problem &p = c.problem;
    for (int64_t a = p.first_axis(); a < max_ndims; ++a)
      if (p.out_size(a) == 1 && p.axes[static_cast<size_t>(a)].stride > 1) {
        for (int64_t j = 0; j < result.size(); ++j) result.set(j, result.get(j) + 1);
        return;
      }
  });
}

struct Fill {
  FillMode mode;
  FillSpecial special;
};

bool fails(const Strategy &strategy, Direction direction, const Case &c) {
  Reference reference;
  reference.directions.emplace(direction, compute_reference(c, direction));
  return verify_one(c, reference, strategy, direction).verdict == Verdict::failed;
}

// The first of `draws` case indices whose inputs for `problem` make `strategy` fail, or nullopt.
std::optional<uint64_t> failing_draw(const Strategy &strategy, Direction direction, const Problem &problem,
                                     uint64_t seed, Fill fill, uint64_t draws = 256) {
  for (uint64_t index = 0; index < draws; ++index)
    if (fails(strategy, direction, make_case(problem, fill.mode, seed, index, fill.special))) return index;
  return std::nullopt;
}

// Shrinks the failure of `strategy` on `start` (its first failing draw under `seed`) as a campaign does, checks
// that the saved case fails on replay, and returns the shrunk problem's multiply-adds over `smallest`'s.
double shrink_ratio(const Strategy &strategy, Direction direction, const std::string &start, uint64_t seed,
                    Fill fill, const std::string &smallest) {
  const Problem problem = parse_descriptor(start);
  const std::optional<uint64_t> index = failing_draw(strategy, direction, problem, seed, fill);
  if (!index) {
    ADD_FAILURE() << strategy.name << " passes on " << start << " under seed " << seed;
    return 0;
  }
  const fs::path corpus = fs::temp_directory_path() / fmt::format("convcheck-shrink-ratio-{}-{}", strategy.name, seed);
  fs::remove_all(corpus);
  const Failure failure{strategy.name, direction, *index, problem, "planted", FailureKind::mismatch};
  const SavedFinding saved = save_finding(failure, {strategy}, seed, fill.mode, fill.special, corpus.string(), true);
  const CaseFile replayed = read_case_file(saved.path);
  EXPECT_TRUE(fails(strategy, direction, replayed.conv_case)) << saved.path << " does not replay its failure";
  fs::remove_all(corpus);
  const double ratio = static_cast<double>(saved.shrunk.multiply_adds()) /
                       static_cast<double>(parse_descriptor(smallest).multiply_adds());
  std::printf("ratio %s seed %llu: %s -> %s = %.2f (%zu tries)\n", strategy.name.c_str(),
              static_cast<unsigned long long>(seed), start.c_str(), format_descriptor(saved.shrunk).c_str(), ratio,
              saved.shrink_tries);
  return ratio;
}

// `smallest` is a trigger: some draw of its inputs makes the bug show there.
void expect_trigger(const Strategy &strategy, Direction direction, const std::string &smallest, Fill fill) {
  EXPECT_TRUE(failing_draw(strategy, direction, parse_descriptor(smallest), 1, fill))
      << strategy.name << " never fails on " << smallest;
}

constexpr Fill normal{FillMode::normal, FillSpecial::none};
constexpr uint64_t seeds = 5;

TEST(ShrinkRatio, AFailureOnOneInputValueShrinksToFewElements) {
  expect_trigger(rare_input(), Direction::output, "mb1ic1iw1oc1kw1", normal);
  for (uint64_t seed = 1; seed <= seeds; ++seed)
    EXPECT_LE(shrink_ratio(rare_input(), Direction::output, "mb2ic3ih5iw6oc4kh3kw2", seed, normal, "mb1ic1iw1oc1kw1"),
              2);
}

TEST(ShrinkRatio, ALongSumFailingOnSomeFillsShrinksNearItsLength) {
  expect_trigger(long_sum(), Direction::output, "mb1ic16iw1oc1kw1", normal);
  for (uint64_t seed = 1; seed <= seeds; ++seed)
    EXPECT_LE(shrink_ratio(long_sum(), Direction::output, "mb2ic8ih4iw6oc3kh2kw2", seed, normal, "mb1ic16iw1oc1kw1"),
              2);
}

TEST(ShrinkRatio, AnOutputSizeCornerShrinksToItsSmallestShape) {
  expect_trigger(one_wide_strided(), Direction::output, "mb1ic1iw1oc1kw1sw2", normal);
  for (const char *start : {"mb1ic1iw5oc1kw3sw2dlw2", "mb2ic2ih3iw8oc2kh2kw4sw3dlw2pt1"})
    EXPECT_EQ(shrink_ratio(one_wide_strided(), Direction::output, start, 1, normal, "mb1ic1iw1oc1kw1sw2"), 1);
}

} // namespace
} // namespace convcheck
