// Per-strategy cost of one case, steady state, on a config list: what each step of the case loop costs one
// thread, in wall time, the minimum over rounds. bench/strategy_cost.sh builds and runs it; bench/README.md
// explains it.
//
//   strategy_cost BATCH_FILE [ROUNDS] [STRATEGIES]
//
// Every round makes each case (make_case: `fill`), its reference (`reference`), runs every strategy on all three
// directions and judges the results (`compare`), as the campaign does. Round 0 is a warm-up whose times are thrown
// away: it pays the one-time costs (oneDNN's sgemm JIT) that the steady state does not. Prints, per step, the
// minimum and the median over the rounds of the milliseconds per case. Exit status 0, or 2 on bad input.

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/process/clock.hpp"
#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "bench/rounds.hpp"

namespace {

using namespace convcheck;

// All three directions of one strategy, as verify_case runs them (run_case when the strategy has it).
RunResults run_all(const Strategy &strategy, const Case &c) {
  if (strategy.run_case) return strategy.run_case(c);
  RunResults runs;
  for (const DirectionInfo &each : directions(c.problem.op))
    if (strategy.unsupported_reason(c.problem, each.direction).empty())
      runs[each.direction].result = strategy.run(c, each.direction);
  return runs;
}

// Seconds per step for one pass over the configs.
std::map<std::string, double> one_round(const std::vector<Problem> &configs,
                                        const std::vector<Strategy> &strategies) {
  std::map<std::string, double> seconds;
  for (size_t i = 0; i < configs.size(); ++i) {
    // Wall time on core/process/clock.hpp's steady clock: the thread CPU clock, a system call on the project's VM, added
    // about 0.03 ms to a 0.3 ms case (4 reads per strategy). The minimum over rounds keeps out other jobs.
    Clock::time_point start = Clock::now();
    const Case c = make_case(configs[i], FillMode::mixed, 1, i);
    seconds["fill"] += seconds_since(start);
    start = Clock::now();
    const Reference reference = compute_reference(c);
    seconds["reference"] += seconds_since(start);
    for (const Strategy &strategy : strategies) {
      start = Clock::now();
      const RunResults runs = run_all(strategy, c);
      seconds[strategy.name] += seconds_since(start);
      start = Clock::now();
      for (const auto &[direction, run] : runs) {
        const Tensor &result = run.result;
        if (!result.empty() && judge(strategy.name, direction, result, reference[direction]).verdict == Verdict::failed)
          std::fprintf(stderr, "strategy_cost: %s %s failed on %s\n", strategy.name.c_str(),
                       to_string(direction).c_str(), format_descriptor(configs[i]).c_str());
      }
      seconds["compare"] += seconds_since(start);
    }
  }
  return seconds;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: strategy_cost BATCH_FILE [ROUNDS] [STRATEGIES]\n");
    return 2;
  }
  try {
    const std::vector<Problem> configs = bench::read_configs(argv[1]);
    const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    const std::vector<Strategy> strategies = select_strategies(argc > 3 ? argv[3] : "", {});
    const std::map<std::string, std::vector<double>> per_round =
        bench::after_warm_up(rounds, [&] { return one_round(configs, strategies); });
    const double per_case = 1000.0 / static_cast<double>(configs.size());
    double total = 0;
    std::printf("%zu configs, %d rounds after a warm-up; ms per case\n%-12s %8s %8s\n", configs.size(),
                rounds, "step", "min", "median");
    for (const auto &[step, values] : per_round) {
      total += values.front();
      std::printf("%-12s %8.4f %8.4f\n", step.c_str(), per_case * values.front(), per_case * values[values.size() / 2]);
    }
    std::printf("%-12s %8.4f\n", "(sum of min)", per_case * total);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "strategy_cost: %s\n", error.what());
    return 2;
  }
  return 0;
}
