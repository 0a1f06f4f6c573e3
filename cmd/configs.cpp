// `convcheck configs`: samples the default fuzz distribution as descriptors (one per line: a batch file for
// `check`, e.g. the benchmark's), or with --stats reports how often each corner of the config space comes up.

#include <iostream>

#include <fmt/format.h>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/problem/coverage.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"

namespace convcheck {

int configs_command(const std::vector<std::string> &args) {
  uint64_t seed = 1;
  int64_t cases = 100;
  po::options_description description("convcheck configs [options]\n\nPrints configs of the fuzz distribution");
  description.add_options()("help", "show this help")
      ("seed", po::value(&seed)->default_value(seed), "the seed fuzz would use")
      ("cases", po::value(&cases)->default_value(cases), "how many")
      ("stats", "print how often each corner of the config space occurs instead of the configs");
  const po::variables_map map = parse_arguments(args, description);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  require_at_least("cases", cases, 1);
  std::vector<int64_t> hits(corners().size());
  int64_t elements = 0;
  for (int64_t i = 0; i < cases; ++i) {
    const Problem config = generate_problem(seed, static_cast<uint64_t>(i));
    if (!map.count("stats")) {
      fmt::print("{}\n", format_descriptor(config));
      continue;
    }
    for (size_t j = 0; j < corners().size(); ++j) hits[j] += corners()[j].holds(config);
    elements += config.batch * config.in_channels * config.in_volume();
  }
  if (!map.count("stats")) return exit_agreed;
  fmt::print("{} configs of seed {}; mean data tensor {:.0f} elements\n", cases, seed,
             static_cast<double>(elements) / static_cast<double>(cases));
  for (size_t j = 0; j < corners().size(); ++j)
    fmt::print("{:<30} {:>6} {:>6.1f}%\n", corners()[j].name, hits[j], 100.0 * hits[j] / static_cast<double>(cases));
  return exit_agreed;
}

} // namespace convcheck
