#pragma once
// What the in-process benchmarks (strategy_cost.cpp, plugin_cost.cpp) share: the config list, and rounds of a
// measurement after one warm-up round.

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/problem/benchdnn_descriptor.hpp"
#include "core/problem/descriptor.hpp"

namespace convcheck::bench {

/// The descriptors of a batch file, one a line ('#' comments and blank lines skipped).
inline std::vector<Problem> read_configs(const char *path, bool benchdnn = false) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot open ") + path);
  std::vector<Problem> configs;
  for (std::string line; std::getline(in, line);) {
    if (benchdnn) {
      if (std::optional<Problem> problem = parse_benchdnn_line(line).problem) configs.push_back(*problem);
    } else if (line.find_first_not_of(" \t") != std::string::npos && line[line.find_first_not_of(" \t")] != '#') {
      configs.push_back(parse_descriptor(line));
    }
  }
  if (configs.empty()) throw std::runtime_error(std::string("no configs in ") + path);
  return configs;
}

/// Runs `one_round` (seconds per step) `rounds` + 1 times and returns each step's seconds of every round but the
/// first, a warm-up that pays the one-time costs (oneDNN's sgemm JIT, first page faults), sorted.
inline std::map<std::string, std::vector<double>> after_warm_up(
    int rounds, const std::function<std::map<std::string, double>()> &one_round) {
  std::map<std::string, std::vector<double>> per_round;
  for (int round = 0; round <= rounds; ++round) {
    const std::map<std::string, double> seconds = one_round();
    if (round == 0) continue;
    for (const auto &[step, value] : seconds) per_round[step].push_back(value);
  }
  for (auto &[step, values] : per_round) std::sort(values.begin(), values.end());
  return per_round;
}

} // namespace convcheck::bench
