// What the plugin ABI costs (issue 16: a plugin runs within 1.5x of the same code compiled in as a strategy): the
// example plugin's code (examples/plugin/direct_plugin.c) run two ways on every config of a list, all three
// directions, on one thread, the minimum over rounds of the milliseconds per case:
//
//   compiled  linked into this program and called as a strategy would call its own code: the case's canonical
//             tensors as they are (no copy), a result tensor to write into
//   plugin    --plugin's way: libdirect_plugin.so loaded with dlopen, tensors laid out in the problem's layouts
//             (a permuted copy unless they are canonical), the result filled with NaN first and permuted back
//
//   plugin_cost BATCH_FILE PLUGIN.so [ROUNDS]
//
// CMake builds it (`cmake --build build --target plugin_cost`); bench/README.md says how to read it. Round 0 is a
// warm-up whose times are thrown away. Exit status 0, or 2 on bad input.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "oracles/onednn/isa_server.hpp"
#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/problem/descriptor.hpp"
#include "core/process/clock.hpp"
#include "core/run/verify.hpp"
#include "oracles/outside/plugin.hpp"
#include "oracles/outside/plugin_abi.hpp"
#include "bench/rounds.hpp"

namespace {

using namespace convcheck;

// The example's code as a compiled-in strategy: its run function, on the case's tensors in canonical layout.
Strategy compiled_strategy() {
  Strategy strategy;
  strategy.name = "compiled";
  strategy.supports = {.ops = {Op::conv}, .ranks = {1, 2, 3}, .dtypes = {DType::float32, DType::float64},
                       .crops = true};
  strategy.run = [](const Case &c, Direction direction) {
    const convcheck_plugin *plugin = convcheck_plugin_entry(CONVCHECK_PLUGIN_ABI_VERSION);
    const DirectionInfo &what = info(direction);
    const AbiProblem problem(c.problem);
    const size_t rank = static_cast<size_t>(c.problem.ndims + 2);
    Permutation canonical(rank);
    for (size_t i = 0; i < rank; ++i) canonical[i] = static_cast<int>(i);
    const AbiTensor first(c[what.reads[0]], what.reads[0], canonical), second(c[what.reads[1]], what.reads[1], canonical);
    const convcheck_tensor inputs[2] = {first.abi, second.abi};
    Tensor result = Tensor::uninitialized(result_dtype(c.problem, direction), result_shape(c.problem, direction));
    AbiTensor out(result, what.produces, canonical);
    char message[256] = "";
    convcheck_run run{what.name, inputs, 2, &out.abi, message, sizeof message};
    if (plugin->run(&problem.abi, &run) != CONVCHECK_OK) throw std::runtime_error(message);
    return result;
  };
  return strategy;
}

// Seconds per strategy for one pass over the configs; checks every result against the reference.
std::map<std::string, double> one_round(const std::vector<Problem> &configs, const std::vector<Strategy> &strategies) {
  std::map<std::string, double> seconds;
  for (size_t i = 0; i < configs.size(); ++i) {
    const Case c = make_case(configs[i], FillMode::mixed, 1, i);
    const Reference reference = compute_reference(c);
    for (const Strategy &strategy : strategies) {
      std::vector<std::pair<Direction, Tensor>> results;
      const Clock::time_point start = Clock::now();
      for (const DirectionInfo &each : directions(c.problem.op))
        if (strategy.unsupported_reason(c.problem, each.direction).empty())
          results.emplace_back(each.direction, strategy.run(c, each.direction));
      seconds[strategy.name] += seconds_since(start);
      for (const auto &[direction, result] : results)
        if (judge(strategy.name, direction, result, reference[direction]).verdict == Verdict::failed)
          std::fprintf(stderr, "plugin_cost: %s %s failed on %s\n", strategy.name.c_str(),
                       to_string(direction).c_str(), format_descriptor(configs[i]).c_str());
    }
  }
  return seconds;
}

} // namespace

int main(int argc, char **argv) {
  if (const int served = convcheck::serve_onednn_isa_if_asked(); served >= 0) return served; // a cap server
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: plugin_cost BATCH_FILE PLUGIN.so [ROUNDS]\n");
    return 2;
  }
  try {
    const std::vector<Problem> configs = bench::read_configs(argv[1]);
    const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 5;
    const std::vector<Strategy> strategies{compiled_strategy(), plugin_strategy({"plugin", argv[2]})};
    std::map<std::string, std::vector<double>> per_round =
        bench::after_warm_up(rounds, [&] { return one_round(configs, strategies); });
    const double per_case = 1000.0 / static_cast<double>(configs.size());
    std::printf("%zu configs, %d rounds after a warm-up; ms per case, all three directions\n%-10s %8s %8s\n",
                configs.size(), rounds, "way", "min", "median");
    for (const auto &[name, values] : per_round) {
      std::printf("%-10s %8.4f %8.4f\n", name.c_str(), per_case * values.front(), per_case * values[values.size() / 2]);
    }
    std::printf("plugin / compiled: %.2f (minimum), %.2f (median)\n",
                per_round["plugin"].front() / per_round["compiled"].front(),
                per_round["plugin"][per_round["plugin"].size() / 2] /
                    per_round["compiled"][per_round["compiled"].size() / 2]);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "plugin_cost: %s\n", error.what());
    return 2;
  }
  return 0;
}
