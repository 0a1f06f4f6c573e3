#pragma once
// Options shared by the subcommands that run strategies (fuzz, repro), and the command-line parsing helper
// every subcommand uses so that Boost's errors become InputError (exit 2) with one line.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "core/problem/problem.hpp"
#include "core/process/worker_recycling.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

namespace po = boost::program_options;

struct RunOptions {
  std::string strategies;
  std::vector<std::string> inject;
  int threads = 0;
  int64_t max_elements = default_max_elements;
  std::vector<std::string> externals; // NAME=COMMAND
  double external_timeout_s = 60;
  int external_case_format = 1; // the newest case-file format the external commands read
  std::string external_ops = "conv"; // the ops the external commands compute, comma-separated
  std::vector<std::string> external_servers; // NAME=COMMAND
  int64_t external_server_max_cases = 0;     // cases per server before it is restarted; 0: never
  double external_server_start_timeout_s = 60; // from starting a server to its hello
  std::vector<std::string> plugins;          // NAME=PATH
  double case_timeout_s = 60;
  bool full_check = false; // every strategy on every case, whatever the cost plan (core/run/cost_plan.hpp) says
  bool held_back = false;  // run what strategies hold back for known library bugs (core/run/known_bug.hpp)
  WorkerRecycling recycling; // when a campaign's worker is replaced (core/process/worker_recycling.hpp)
  // Per dispatch setting with an option (--isa-caps, --aten-capabilities: core/numerics/dispatch_setting.hpp), the
  // values cases are drawn from; "" the setting's default draw.
  std::map<std::string, std::string> drawn_values;

  /// How long one strategy may run on one direction of a case before it is a timeout finding: --case-timeout, but
  /// always longer than --external-timeout, so an external command's own timeout fires first and its finding
  /// keeps the command's output (with a server, longer than its start and a case together: a worker starts it on
  /// its first case).
  double run_timeout_s() const;

  /// The real strategies asked for, the injected ones and the external ones; throws InputError for bad names.
  /// Each carries --run-held-back (Strategy::run_held_back); the dispatch settings' options (--isa-caps) are applied
  /// process-wide.
  std::vector<Strategy> selected() const;

  /// The strategies the user named (not the default set, nor `all`): --strategies' list, --inject, and every
  /// --external, --external-server and --plugin, in that order. Each must be judged on some case
  /// (core/run/judged.hpp).
  std::vector<std::string> named() const;
};

/// Adds --strategies, --inject, --external, --external-timeout, --external-case-format, --external-server,
/// --external-server-max-cases, --external-server-start-timeout, --plugin, --case-timeout, --threads,
/// --max-elements, --full-check, --run-held-back and each dispatch setting's option (--isa-caps).
void add_run_options(po::options_description &description, RunOptions &options);

/// Parses `args` into a variables map; throws InputError for unknown or malformed options.
po::variables_map parse_arguments(const std::vector<std::string> &args, const po::options_description &description,
                                  const po::positional_options_description &positional = {});

/// `status`, or exit_bad_input after one error line on stderr for each strategy `run` names that was judged on none
/// of a replay's cases (`outcomes`, one list a case; core/run/judged.hpp): repro, corpus run and shrink pass nothing
/// silently, as fuzz and check do not.
int unjudged_replay_exit(const RunOptions &run, const std::vector<std::vector<Outcome>> &outcomes, int status);

/// Throws InputError("NAME VALUE must be >= MIN") when value < min.
void require_at_least(const char *name, int64_t value, int64_t min);

} // namespace convcheck
