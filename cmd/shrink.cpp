// `convcheck shrink CASE.h5 --out DIR`: re-shrinks a saved failing case (one saved with --no-shrink, or one from
// an external implementation) and writes the minimal case. The failing strategy and direction come from the
// file's /finding, else from the first failure found by rerunning the strategies on it.

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/storage/case_file.hpp"
#include "core/run/case_workers.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/declaration.hpp"
#include "core/run/finding.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/input_error.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

namespace {

// The failing strategy and direction to keep failing while shrinking, from `outcomes` (every strategy rerun on the
// case): the finding's, which must still fail here (a finding judged on nothing here is no pass, InputError), else
// the first failure; nullopt when nothing fails.
std::optional<Failure> failure_to_shrink(const CaseFile &case_file, const std::vector<Strategy> &strategies,
                                         const std::vector<Outcome> &outcomes) {
  const Case &c = case_file.conv_case;
  if (case_file.finding) {
    const bool present = std::any_of(strategies.begin(), strategies.end(),
                                     [&](const Strategy &s) { return s.name == case_file.finding->strategy; });
    if (!present)
      throw InputError(fmt::format("the case was saved for '{}', which is not available here (use --inject or "
                                   "--external to provide it)",
                                   case_file.finding->strategy));
    const Outcome now = find_outcome(outcomes, case_file.finding->strategy, case_file.finding->direction);
    if (now.verdict == Verdict::skipped || now.verdict == Verdict::held_back)
      throw InputError(fmt::format("{} {}, which the case was saved for, was not judged here: {}", now.strategy,
                                   to_string(now.direction), now.detail));
    if (now.verdict != Verdict::failed) return std::nullopt;
    return Failure{case_file.finding->strategy, case_file.finding->direction, c.case_index, c.problem,
                   case_file.finding->problem, case_file.finding->kind};
  }
  for (const Outcome &outcome : outcomes)
    if (outcome.verdict == Verdict::failed)
      return Failure{outcome.strategy, outcome.direction, c.case_index, c.problem, outcome.detail, outcome.kind};
  return std::nullopt;
}

} // namespace

int shrink_command(const std::vector<std::string> &args) {
  RunOptions run;
  std::string file, out_dir;
  po::options_description description("convcheck shrink CASE.h5 --out DIR [options]\n\nRe-shrinks a failing case");
  description.add_options()("help", "show this help")("case", po::value(&file), "case file")
      ("out", po::value(&out_dir), "directory for the shrunk case");
  add_run_options(description, run);
  po::positional_options_description positional;
  positional.add("case", 1);
  const po::variables_map map = parse_arguments(args, description, positional);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  if (file.empty()) throw InputError("shrink needs a case file");
  if (out_dir.empty()) throw InputError("shrink needs --out DIR");
  const CaseFile case_file = read_untrusted_case_file(file, run.max_elements);
  std::vector<Strategy> strategies = run.selected();
  if (case_file.finding && find_strategy(case_file.finding->strategy) &&
      std::none_of(strategies.begin(), strategies.end(),
                   [&](const Strategy &s) { return s.name == case_file.finding->strategy; }))
    strategies.push_back(*find_strategy(case_file.finding->strategy)); // an injected finder is rerun too
  if (case_file.finding && case_file.finding->held_back_lifted) // found with its hold-backs lifted: shrunk so
    for (Strategy &strategy : strategies) strategy.run_held_back |= strategy.name == case_file.finding->strategy;
  if (case_file.finding)
    if (const std::string note = declaration_note(*case_file.finding, strategies); !note.empty())
      fmt::print("{}: {}\n", file, note);
  const std::vector<Outcome> outcomes = verify_case_isolated(case_file.conv_case, strategies, run.run_timeout_s());
  std::optional<Failure> failure = failure_to_shrink(case_file, strategies, outcomes);
  if (!failure) {
    fmt::print("{}: {}; nothing to shrink\n", file,
               case_file.finding ? fmt::format("{} {} passes on it here", case_file.finding->strategy,
                                               to_string(case_file.finding->direction))
                                 : "every strategy agrees");
    return unjudged_replay_exit(run, {outcomes}, exit_agreed);
  }
  failure->settings = settings_of(case_file.conv_case); // the file's, not drawn again
  const FillMode fill = case_file.conv_case.fill == FillMode::mixed ? FillMode::normal : case_file.conv_case.fill;
  const SavedFinding saved = save_finding(*failure, strategies, case_file.conv_case.seed, fill,
                                          case_file.conv_case.special, out_dir, true, run.run_timeout_s(),
                                          &case_file.conv_case); // the file's inputs, which may be carried ones
  fmt::print("{} {}: {} shrunk to {} in {} steps ({} tries, {} runs)\n  {}\n  repro: convcheck repro {}\n",
             failure->strategy, to_string(failure->direction), format_descriptor(failure->config),
             format_descriptor(saved.shrunk), saved.shrink_steps, saved.shrink_tries, saved.shrink_runs, saved.problem,
             saved.path);
  return exit_mismatch;
}

} // namespace convcheck
