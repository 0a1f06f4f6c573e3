#pragma once
// The cost plan: which strategies run on which cases when a case is large. A strategy whose loops run at about the
// definition's speed (declared `cost_planned`; docs/performance.md measures them at 10-40 times the reference at
// ResNet-50 sizes) would cost a large case many times what the rest of the case costs. So it runs on every case of
// up to `cost_plan_full_limit` multiply-adds over the three directions, and on a case of M > limit multiply-adds
// only when a hash of (its name, the case index) falls in one of ceil(M / limit) buckets: about one such case in
// ceil(M / limit), so on average it spends no more on a large case than on one at the limit. Elsewhere it is
// skipped with a reason that names the plan, so reports count it as skipped, never as passed, and the case
// still runs the reference and every other strategy. `--full-check` (every run subcommand) clears `cost_planned`.
// The decision is a pure function of the strategy, the problem and the case index, so verdicts do not depend on
// the number of workers, and a shrinking failure keeps its case index.

#include <cstdint>
#include <string>

#include "core/numerics/case.hpp"
#include "core/run/strategy.hpp"

namespace convcheck {

/// Cases up to this many multiply-adds (over all three directions) run every strategy: 93% of the fuzz
/// generator's cases (docs/distribution.md); a ResNet-50 layer at mb2 has 1.5e8 to 7e8. At 2e5 (98%), the loop
/// strategies on the 5% of cases between 5e4 and 2e5 took an eighth of a default campaign's time
/// (docs/performance.md, "One worker's rate").
inline constexpr int64_t cost_plan_full_limit = 50'000;

/// How every reason planned_out gives begins, so tallies can tell the plan's skips from unsupported configs.
inline constexpr const char *cost_plan_prefix = "cost plan: ";

/// Multiply-adds of one direction of `problem`, counting only taps that land inside the input; every direction
/// sums the same products.
int64_t direction_multiply_adds(const Problem &problem);

/// "" when `strategy` runs on `conv_case`; otherwise why the plan leaves it out, naming the plan and the flag.
std::string planned_out(const Strategy &strategy, const Case &conv_case);

} // namespace convcheck
