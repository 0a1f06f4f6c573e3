#include "core/run/cost_plan.hpp"

#include <fmt/format.h>

#include "core/numerics/naive_loops.hpp"
#include "core/problem/op.hpp"

namespace convcheck {

int64_t direction_multiply_adds(const Problem &of_op) {
  const Problem problem = equivalent_conv(of_op); // another op sums its equivalent conv's products
  // The forward sum of each output element has terms.at(z, y, x) products; summed over the spatial positions
  // that is the product of each axis's total.
  const TermCounts terms = term_counts(problem, Direction::output);
  int64_t products = problem.batch * problem.out_channels * terms.multiplier;
  for (const std::vector<int64_t> &axis : terms.per_axis) {
    int64_t sum = 0;
    for (int64_t count : axis) sum += count;
    products *= sum;
  }
  return products;
}

std::string planned_out(const Strategy &strategy, const Case &conv_case) {
  if (!strategy.cost_planned) return "";
  // Padding taps included, an upper bound: most cases stop here without counting their taps.
  const Problem p = equivalent_conv(conv_case.problem);
  int64_t at_most = p.batch * p.out_channels * p.in_channels_per_group();
  for (const SpatialAxis &axis : p.axes) at_most *= axis.out() * axis.kernel;
  if (3 * at_most <= cost_plan_full_limit) return "";
  const int64_t multiply_adds = 3 * direction_multiply_adds(conv_case.problem);
  if (multiply_adds <= cost_plan_full_limit) return "";
  // Whether this strategy's turn: a hash of (name, case index), so each strategy runs on its own share of the
  // large cases, the same in every process.
  uint64_t hash = 14695981039346656037ull; // FNV-1a of the name
  for (char c : strategy.name) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  uint64_t mixed = hash ^ (conv_case.case_index * 0x9e3779b97f4a7c15ull); // splitmix64's finaliser
  mixed = (mixed ^ (mixed >> 30)) * 0xbf58476d1ce4e5b9ull;
  mixed = (mixed ^ (mixed >> 27)) * 0x94d049bb133111ebull;
  mixed ^= mixed >> 31;
  const auto share = static_cast<uint64_t>((multiply_adds + cost_plan_full_limit - 1) / cost_plan_full_limit);
  if (mixed % share == 0) return "";
  return fmt::format("{}{:.3g} multiply-adds is over {:.3g}, so it runs on about 1 case in {} of this size "
                     "(--full-check runs it on every case)",
                     cost_plan_prefix, static_cast<double>(multiply_adds), static_cast<double>(cost_plan_full_limit),
                     share);
}

} // namespace convcheck
