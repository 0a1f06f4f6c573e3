// The precision rows a campaign offers an implementation, one rule for every command (core/run/offered_rows.hpp):
// `--focus` on an implementation draws the rows it takes in the proportions of their fuzz weights, as a plain
// campaign with that implementation does, and never a row it does not take.

#include <map>

#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "core/run/focus.hpp"
#include "core/run/offered_rows.hpp"

namespace convcheck {

namespace {

// A bf16 kernel as a server declares it: float32 (what its rows sum in) and bfloat16, in any mix.
Support bf16_kernel() {
  return {.ops = {Op::conv, Op::deconv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::bfloat16},
          .mixed_formats = true, .data_layouts = every_data_layout, .weight_layouts = every_weight_layout,
          .crops = true};
}

TEST(OfferedRows, FocusAndAPlainCampaignDrawTheRowsTakenInTheSameShares) {
  const Support support = bf16_kernel();
  const std::vector<const PrecisionRow *> taken = rows_taken(support);
  std::map<std::string, int> expected_weight;
  int total_weight = 0;
  for (const PrecisionRow *row : taken) expected_weight[row->name] = row->fuzz_weight, total_weight += row->fuzz_weight;
  // f32, bf16_f32acc, bf16_to_f32, and the training rows bf16_f32data and bf16_f32weight, which weigh 0: any mix of
  // the two formats is taken, and neither draw makes those two.
  ASSERT_EQ(expected_weight.size(), 5u);
  EXPECT_EQ(expected_weight["bf16_f32data"] + expected_weight["bf16_f32weight"], 0);

  Strategy outside{.name = "mine", .outside = true, .supports = support};
  const std::vector<const PrecisionRow *> offered = offered_to_outside({outside});
  constexpr int cases = 6000;
  std::map<std::string, int> focused, plain;
  for (uint64_t index = 0; index < cases; ++index) {
    const Problem f = focused_problem(7, index, support, "mine").problem;
    const Problem p = within(generate_problem(7, index), offered, row_hash(7, index));
    for (const auto &[problem, counts] : {std::pair{f, &focused}, std::pair{p, &plain}}) {
      const PrecisionRow *row = find_precision_row(problem.precision);
      ASSERT_NE(row, nullptr) << format_descriptor(problem);
      ASSERT_TRUE(support.takes(row->precision)) << format_descriptor(problem);
      ++(*counts)[row->name];
    }
  }
  for (const auto &[name, weight] : expected_weight) {
    const double share = static_cast<double>(weight) / total_weight;
    EXPECT_NEAR(static_cast<double>(focused[name]) / cases, share, 0.03) << name;
    EXPECT_NEAR(static_cast<double>(plain[name]) / cases, share, 0.03) << name;
  }
}

} // namespace

} // namespace convcheck
