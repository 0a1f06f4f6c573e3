// Per-strategy cost of one case, steady state, on a config list: what each step of the case loop costs one
// thread, in wall time, the minimum over rounds. bench/strategy_cost.sh builds and runs it; bench/README.md
// explains it.
//
//   strategy_cost BATCH_FILE [ROUNDS] [STRATEGIES]
//
// Environment: FORMAT=benchdnn reads BATCH_FILE as a benchdnn batch file (core/problem/benchdnn_descriptor.hpp);
// REFERENCE=loops or REFERENCE=gemm computes every reference by that path (core/numerics/reference.hpp) instead of
// choosing per problem; FULL_CHECK=1 runs every strategy on every case, as `--full-check` does (core/run/cost_plan.hpp);
// PER_CASE=1 also prints, per config, its native descriptor, its multiply-accumulates over the three directions and
// the milliseconds the whole case took (every step above), minimum over rounds (bench/at_size.sh reads these lines).
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
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "oracles/onednn/isa_server.hpp"
#include "bench/rounds.hpp"
#include "core/process/clock.hpp"
#include "core/numerics/case.hpp"
#include "core/run/cost_plan.hpp"
#include "core/problem/benchdnn_descriptor.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace {

using namespace convcheck;

// All three directions of one strategy, as verify_case runs them (run_case when the strategy has it), leaving out
// what the cost plan leaves out (core/run/cost_plan.hpp) unless FULL_CHECK=1.
RunResults run_all(const Strategy &strategy, const Case &c) {
  if (strategy.run_case)
    return strategy.supports.refusal(c.problem).empty() && planned_out(strategy, c).empty() ? strategy.run_case(c, Asked{direction_list(c.problem.op)})
                                                                                           : RunResults{};
  RunResults runs;
  for (const DirectionInfo &each : directions(c.problem.op))
    if (strategy.unsupported_reason(c.problem, each.direction).empty() && planned_out(strategy, c).empty())
      runs[each.direction].result = strategy.run(c, each.direction);
  return runs;
}

// The reference as the campaign computes it, or every direction by one path (REFERENCE=loops|gemm).
Reference reference_by(const Case &c, ReferencePath path) {
  if (path == ReferencePath::automatic) return compute_reference(c);
  Reference reference;
  for (const DirectionInfo &each : directions(c.problem.op))
    reference.directions.emplace(each.direction, compute_reference(c, each.direction, path));
  return reference;
}

// Seconds per step for one pass over the configs; `per_case` receives each case's seconds.
std::map<std::string, double> one_round(const std::vector<Problem> &configs, const std::vector<Strategy> &strategies,
                                        ReferencePath path, std::vector<double> &per_case) {
  std::map<std::string, double> seconds;
  per_case.assign(configs.size(), 0.0);
  for (size_t i = 0; i < configs.size(); ++i) {
    const Clock::time_point case_start = Clock::now();
    // Wall time on core/process/clock.hpp's steady clock: the thread CPU clock, a system call on the project's VM, added
    // about 0.03 ms to a 0.3 ms case (4 reads per strategy). The minimum over rounds keeps out other jobs.
    Clock::time_point start = Clock::now();
    const Case c = make_case(configs[i], FillMode::mixed, 1, i);
    seconds["fill"] += seconds_since(start);
    start = Clock::now();
    const Reference reference = reference_by(c, path);
    seconds["reference"] += seconds_since(start);
    for (const Strategy &strategy : strategies) {
      start = Clock::now();
      const RunResults runs = run_all(strategy, c);
      seconds[strategy.name] += seconds_since(start);
      start = Clock::now();
      for (const auto &[direction, run] : runs) {
        const Tensor &result = run.result;
        if (result.empty()) continue;
        if (const Outcome outcome = judge(strategy.name, direction, result, reference[direction]);
            outcome.verdict == Verdict::failed)
          std::fprintf(stderr, "strategy_cost: %s %s failed on %s: %s\n", strategy.name.c_str(),
                       to_string(direction).c_str(), format_descriptor(configs[i]).c_str(), outcome.detail.c_str());
      }
      seconds["compare"] += seconds_since(start);
    }
    per_case[i] = seconds_since(case_start);
  }
  return seconds;
}

} // namespace

int main(int argc, char **argv) {
  if (const int served = convcheck::serve_onednn_isa_if_asked(); served >= 0) return served; // a cap server
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: strategy_cost BATCH_FILE [ROUNDS] [STRATEGIES]\n");
    return 2;
  }
  try {
    const char *format = std::getenv("FORMAT");
    const char *per_case_wanted = std::getenv("PER_CASE");
    const std::string reference_path = std::getenv("REFERENCE") != nullptr ? std::getenv("REFERENCE") : "";
    const ReferencePath path = reference_path == "loops"  ? ReferencePath::loops
                               : reference_path == "gemm" ? ReferencePath::gemm
                                                          : ReferencePath::automatic;
    const std::vector<Problem> configs = bench::read_configs(argv[1], format != nullptr && std::string(format) == "benchdnn");
    const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    std::vector<Strategy> strategies = select_strategies(argc > 3 ? argv[3] : "", {});
    if (const char *full = std::getenv("FULL_CHECK"); full != nullptr && std::string(full) == "1")
      for (Strategy &strategy : strategies) strategy.cost_planned = false;
    if (configs.empty()) throw std::runtime_error("no configs");
    std::map<std::string, std::vector<double>> per_round;
    std::vector<double> fastest_case(configs.size(), 1e300), case_seconds;
    for (int round = 0; round <= rounds; ++round) {
      const std::map<std::string, double> seconds = one_round(configs, strategies, path, case_seconds);
      if (round == 0) continue; // the warm-up
      for (const auto &[step, value] : seconds) per_round[step].push_back(value);
      for (size_t i = 0; i < configs.size(); ++i) fastest_case[i] = std::min(fastest_case[i], case_seconds[i]);
    }
    if (per_case_wanted != nullptr && std::string(per_case_wanted) == "1")
      for (size_t i = 0; i < configs.size(); ++i)
        std::printf("case %s %lld %.4f\n", format_descriptor(configs[i]).c_str(),
                    static_cast<long long>(3 * direction_multiply_adds(configs[i])), 1000.0 * fastest_case[i]);
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
