// `convcheck fuzz`: random configs from the default distribution through every selected strategy.

#include <iostream>
#include <limits>

#include "cmd/campaign_cli.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "core/generators.hpp"

namespace convcheck {

int fuzz_command(const std::vector<std::string> &args) {
  CampaignCli cli;
  int64_t cases = 1000;
  po::options_description description("convcheck fuzz [options]\n\nRandom conv configs through every strategy");
  description.add_options()("help", "show this help")
      ("cases", po::value(&cases), "number of cases (default 1000, or unlimited with --time)");
  cli.add_options(description);
  const po::variables_map map = parse_arguments(args, description);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  cli.finish(map);
  if (map.count("cases")) require_at_least("cases", cases, 1);
  else if (map.count("time")) cases = std::numeric_limits<int64_t>::max();
  const uint64_t seed = cli.campaign.seed;
  return cli.run_and_report({cases, [seed](uint64_t index) { return generate_config(seed, index); }});
}

} // namespace convcheck
