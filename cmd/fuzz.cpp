// `convcheck fuzz`: random configs from the default distribution through every selected strategy.

#include <iostream>
#include <limits>

#include <fmt/format.h>

#include "cmd/campaign_cli.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "core/problem/generators.hpp"
#include "core/input_error.hpp"
#include "core/run/focus.hpp"

namespace convcheck {

int fuzz_command(const std::vector<std::string> &args) {
  CampaignCli cli;
  int64_t cases = 1000;
  std::string rows, ops;
  po::options_description description("convcheck fuzz [options]\n\nRandom conv configs through every strategy");
  description.add_options()("help", "show this help")
      ("cases", po::value(&cases), "number of cases (default 1000, or unlimited with --time)")
      ("focus", po::value(&cli.focus), "NAME: draw only problems inside what strategy NAME declares it supports "
       "(a built-in, --external, --external-server or --plugin); same seed and index, same case")
      ("rows", po::value(&rows), "NAME,...: draw only these precision rows (convcheck strategies lists them: "
       "bf16_f32acc, f16_f32acc, ...), with or without --focus")
      ("ops", po::value(&ops), "conv and/or deconv: draw only these ops, with or without --focus");
  cli.add_options(description);
  const po::variables_map map = parse_arguments(args, description);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  cli.finish(map);
  cli.aim = parse_aim(rows, ops);
  if (map.count("cases")) require_at_least("cases", cases, 1);
  else if (map.count("time")) cases = std::numeric_limits<int64_t>::max();
  const uint64_t seed = cli.campaign.seed;
  cli.identity.command = "fuzz";
  cli.identity.focus = cli.focus;
  cli.generated = [seed, focus = cli.focus.empty() ? "the aim (--rows, --ops)" : cli.focus](uint64_t index,
                                                                                          const Support *support) {
    return support ? focused_problem(seed, index, *support, focus).problem : generate_problem(seed, index);
  };
  // A timed run without --cases has no case count (cases is the max): its budget is its time.
  return cli.run_and_report(cli.sharded(cases, [seed](uint64_t index) { return generate_problem(seed, index); }),
                            /*offer_outside_precisions=*/true);
}

} // namespace convcheck
