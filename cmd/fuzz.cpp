// `convcheck fuzz`: random configs from the default distribution through every selected strategy.

#include <iostream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "cmd/campaign_cli.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "core/problem/generators.hpp"
#include "core/input_error.hpp"
#include "core/run/focus.hpp"

namespace convcheck {


namespace {

// "I/N" with 0 <= I < N.
std::pair<int64_t, int64_t> parse_shard(const std::string &text) {
  int64_t index = -1, count = 0;
  char slash = 0;
  std::istringstream in(text);
  if (!(in >> index >> slash >> count) || slash != '/' || !in.eof() || count < 1 || index < 0 || index >= count)
    throw InputError(fmt::format("shard '{}' is not I/N with 0 <= I < N", text));
  return {index, count};
}

} // namespace

int fuzz_command(const std::vector<std::string> &args) {
  CampaignCli cli;
  int64_t cases = 1000;
  std::string rows, ops;
  std::string shard = "0/1";
  po::options_description description("convcheck fuzz [options]\n\nRandom conv configs through every strategy");
  description.add_options()("help", "show this help")
      ("cases", po::value(&cases), "number of cases (default 1000, or unlimited with --time)")
      ("shard", po::value(&shard), "I/N: run only the cases whose index is I mod N (N shards make one campaign)")
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
  const auto [shard_index, shard_count] = parse_shard(shard);
  // Cases [0, cases) of the whole campaign whose index is shard_index mod shard_count.
  const int64_t in_shard = cases == std::numeric_limits<int64_t>::max()
                               ? cases
                               : (cases - shard_index + shard_count - 1) / shard_count;
  const uint64_t seed = cli.campaign.seed;
  cli.identity.command = "fuzz";
  cli.identity.shard_index = static_cast<uint64_t>(shard_index);
  cli.identity.shard_count = static_cast<uint64_t>(shard_count);
  if (map.count("cases") || !map.count("time")) {
    cli.identity.cases = cases;
    cli.identity.planned_cases = std::max<int64_t>(in_shard, 0);
  }
  cli.identity.focus = cli.focus;
  cli.generated = [seed, focus = cli.focus.empty() ? "the aim (--rows, --ops)" : cli.focus](uint64_t index,
                                                                                          const Support *support) {
    return support ? focused_problem(seed, index, *support, focus).problem : generate_problem(seed, index);
  };
  return cli.run_and_report({std::max<int64_t>(in_shard, 0),
                             [seed](uint64_t index) { return generate_problem(seed, index); },
                             static_cast<uint64_t>(shard_index), static_cast<uint64_t>(shard_count)},
                            /*offer_outside_precisions=*/true);
}

} // namespace convcheck
