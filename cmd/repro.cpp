// `convcheck repro CASE.h5...`: replays saved cases. Reruns the strategies on the recorded inputs and also judges
// every result recorded under /results/<name>, so a case fails again even where the strategy that produced it
// is not part of this build. With --live it judges only what runs now, so a fixed implementation exits 0.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "cmd/commands.hpp"
#include "cmd/emit.hpp"
#include "cmd/repro_neighbours.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/run_options.hpp"
#include "core/storage/case_file.hpp"
#include "core/run/case_workers.hpp"
#include "core/run/declaration.hpp"
#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"
#include "core/numerics/reference.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

namespace {

// Who each strategy is, where it says (a server's hello, a plugin's name): "NAME (IDENTITY)" in the rows.
using Labels = std::map<std::string, std::string>;

Labels labels_of(const std::vector<Strategy> &strategies) {
  Labels labels;
  for (const Strategy &strategy : strategies)
    if (const ImplementationIdentity identity = strategy.identity ? strategy.identity() : ImplementationIdentity{};
        !identity.empty())
      labels[strategy.name] = fmt::format("{} ({})", strategy.name, identity.describe());
  return labels;
}

void print_outcome(const Outcome &outcome, const Labels &labels = {}) {
  // Element values were compared unless the run was skipped, threw, returned nothing or had the wrong shape.
  const bool compared = outcome.verdict != Verdict::skipped && (outcome.diff.ok || outcome.diff.first_mismatch >= 0);
  // The worst element (or, under an FFT's class, signal): the largest error against its bound, and that bound, so a
  // pass has error <= bound on its row; the first element over its bound is in the detail.
  const std::string error = compared ? fmt::format("{:.3g}", outcome.diff.error_at_max_ratio) : "-";
  const std::string bound = compared ? fmt::format("{:.3g}", outcome.diff.bound_at_max_ratio) : "-";
  // A pass under a fast algorithm's bound says which: the class is part of what was checked.
  const std::string detail = outcome.detail.empty() && !outcome.judged_under.empty()
                                 ? "judged under " + outcome.judged_under
                                 : outcome.detail;
  const auto label = labels.find(outcome.strategy);
  fmt::print("  {:<28} {:<12} {:>11} {:>11}  {:<8} {}\n", label == labels.end() ? outcome.strategy : label->second,
             to_string(outcome.direction), error, bound, to_string(outcome.verdict), detail);
}

// Strategies to rerun: those asked for, plus the one that found the case if this build has it (an injected
// bug is rerun too, so a mutant's case fails again); a finding made with its hold-backs lifted is rerun so.
std::vector<Strategy> strategies_for(const CaseFile &case_file, std::vector<Strategy> selected) {
  if (!case_file.finding) return selected;
  const Strategy *finder = find_strategy(case_file.finding->strategy);
  const bool present = std::any_of(selected.begin(), selected.end(),
                                   [&](const Strategy &s) { return s.name == case_file.finding->strategy; });
  if (finder != nullptr && !present) selected.push_back(*finder);
  if (case_file.finding->held_back_lifted)
    for (Strategy &strategy : selected) strategy.run_held_back |= strategy.name == case_file.finding->strategy;
  return selected;
}

bool same_strategies(const std::vector<Strategy> &a, const std::vector<Strategy> &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Strategy &x, const Strategy &y) {
    return x.name == y.name && x.run_held_back == y.run_held_back;
  });
}

/// What failed in one replayed file: the strategies run now, or the results it recorded.
struct Replayed {
  bool live_failed = false, recorded_failed = false;
};

/// Prints one replayed file: its strategies' `outcomes`, then (unless `live`) its recorded results judged.
Replayed report_file(const std::string &path, const CaseFile &case_file, const std::vector<Strategy> &strategies,
                     const std::vector<Outcome> &outcomes, const Labels &labels, bool live) {
  const Case &conv_case = case_file.conv_case;
  fmt::print("{}: {}\n", path, format_descriptor(conv_case.problem));
  if (case_file.finding) {
    fmt::print("  saved for {} {}: {}\n", case_file.finding->strategy, to_string(case_file.finding->direction),
               case_file.finding->problem);
    if (case_file.finding->held_back_lifted)
      fmt::print("  found with {}'s known-bug hold-backs lifted (--run-held-back): replayed so\n",
                 case_file.finding->strategy);
    if (const std::string note = declaration_note(*case_file.finding, strategies); !note.empty())
      fmt::print("  {}\n", note);
  }
  for (const DispatchSetting *setting : dispatch_settings())
    if (const std::string value = setting_of(conv_case, setting->name); !value.empty()) {
      const std::string lacks = setting->host_lacks(value);
      fmt::print("  {} under {} {}{}\n", setting->runs, setting->kind, value, lacks.empty() ? "" : ": " + lacks);
    }
  fmt::print("  {:<28} {:<12} {:>11} {:>11}  {:<8} {}\n", "strategy", "direction", "worst error", "its bound",
             "verdict", "detail");
  const Reference reference = compute_reference(conv_case);
  Replayed replayed;
  for (const Outcome &outcome : outcomes) {
    print_outcome(outcome, labels);
    replayed.live_failed |= outcome.verdict == Verdict::failed;
  }
  if (live) {
    if (!case_file.results.empty()) fmt::print("  (recorded results not judged: --live)\n");
    return replayed;
  }
  for (const auto &[name, by_direction] : case_file.results)
    for (const auto &[direction, tensor] : by_direction) {
      // A recorded result is judged under the class it was judged under when it was recorded.
      const auto algorithms = case_file.algorithms.find(name);
      const bool declared = algorithms != case_file.algorithms.end() && algorithms->second.count(direction);
      const Algorithm algorithm =
          declared ? parse_algorithm(algorithms->second.at(direction), "recorded algorithm") : Algorithm{};
      const Outcome outcome = judge("recorded:" + name, direction, tensor, reference[direction], conv_case, algorithm);
      print_outcome(outcome);
      replayed.recorded_failed |= outcome.verdict == Verdict::failed;
    }
  return replayed;
}

// `--emit KIND`: the reproducer of the one case, to `out` or standard output.
int emit_command(const std::string &kind, const std::vector<std::string> &files, const std::string &out,
                 const RunOptions &run, bool anyway) {
  if (files.size() != 1) throw InputError(fmt::format("repro --emit takes one case file, not {}", files.size()));
  const std::string script_dir =
      out.empty() ? "" : std::filesystem::absolute(out).lexically_normal().parent_path().string();
  const CaseFile case_file = read_untrusted_case_file(files[0], run.max_elements);
  const std::string text = kind == "external"
                               ? emit_external(case_file, files[0], run.externals, run.external_servers, anyway)
                               : emit_reproducer(kind, case_file, files[0], anyway, script_dir);
  if (out.empty()) {
    std::cout << text;
    return exit_agreed;
  }
  std::ofstream file(out);
  file << text;
  if (!file.flush()) throw InputError(fmt::format("cannot write reproducer {}", out));
  return exit_agreed;
}

} // namespace

int repro_command(const std::vector<std::string> &args) {
  RunOptions run;
  std::vector<std::string> files;
  bool live = false;
  std::string emit, out;
  bool emit_anyway = false;
  bool neighbours = false, keep_neighbours = false;
  po::options_description description("convcheck repro CASE.h5... [options]\n\nReplays saved cases");
  description.add_options()("help", "show this help")("case", po::value(&files), "case files")(
      "live", po::bool_switch(&live),
      "judge only the implementations run now, not the results the file recorded: a fixed implementation exits 0")(
      "emit", po::value(&emit), fmt::format("write a standalone reproducer of one case instead of replaying it: {}",
                                            emit_kinds()).c_str())(
      "out", po::value(&out), "--emit: write it to this file (default: standard output)")(
      "emit-anyway", po::bool_switch(&emit_anyway),
      "--emit: write it for a finding of a strategy the kind does not run, its first line saying so")(
      "neighbours", po::bool_switch(&neighbours),
      "also run the finding's strategy on each neighbour of the case (a field one step each way, each layout, the "
      "other format) and print which fail: the failing region (without it, the table the case file keeps is "
      "printed)")(
      "keep-neighbours", po::bool_switch(&keep_neighbours),
      "--neighbours, and store the table in the case file (/finding/neighbours), replacing the one it kept");
  add_run_options(description, run);
  po::positional_options_description positional;
  positional.add("case", -1);
  const po::variables_map map = parse_arguments(args, description, positional);
  if (map.count("help")) {
    std::cout << description << "\n";
    return exit_agreed;
  }
  if (files.empty()) throw InputError("repro needs at least one case file");
  if (!out.empty() && emit.empty()) throw InputError("repro --out needs --emit");
  if (emit_anyway && emit.empty()) throw InputError("repro --emit-anyway needs --emit");
  if (!emit.empty()) return emit_command(emit, files, out, run, emit_anyway);
  // Files that rerun the same strategies are replayed together, a few at a time, in one worker that stays up, so
  // an external server starts once for them rather than once a file.
  constexpr size_t files_per_worker = 16;
  const std::vector<Strategy> selected = run.selected();
  bool live_failed = false, recorded_failed = false;
  std::vector<std::pair<std::string, CaseFile>> group;
  std::vector<Strategy> group_strategies;
  std::vector<std::vector<Outcome>> replayed; // every file's, for the rule that nothing passes silently
  const auto replay = [&] {
    std::vector<const Case *> cases;
    for (const auto &[path, case_file] : group) cases.push_back(&case_file.conv_case);
    const auto outcomes = verify_cases_isolated(cases, group_strategies, run.run_timeout_s());
    const Labels labels = labels_of(group_strategies);
    for (size_t i = 0; i < group.size(); ++i) {
      const Replayed file = report_file(group[i].first, group[i].second, group_strategies, outcomes[i], labels, live);
      live_failed |= file.live_failed, recorded_failed |= file.recorded_failed;
      replayed.push_back(outcomes[i]);
      std::optional<FindingRecord> &finding = group[i].second.finding;
      if (neighbours || keep_neighbours) {
        const auto rows = print_neighbours(group[i].second, group_strategies, run.run_timeout_s());
        if (keep_neighbours && rows) {
          finding->neighbours = *rows;
          write_case_file(group[i].first, group[i].second);
          fmt::print("  kept in {} (/finding/neighbours)\n", group[i].first);
        }
      } else if (finding && !finding->neighbours.empty()) {
        // The region the finding failed in when it was saved; where it passes now, a table of then.
        const auto now = std::find_if(outcomes[i].begin(), outcomes[i].end(), [&](const Outcome &o) {
          return o.strategy == finding->strategy && o.direction == finding->direction;
        });
        const bool passes_now = now != outcomes[i].end() && now->verdict != Verdict::failed;
        print_neighbour_rows(finding->neighbours,
                             fmt::format("saved with the finding: {} {}{}", finding->strategy,
                                         to_string(finding->direction),
                                         passes_now ? fmt::format(", when it failed ({} now: --neighbours computes it "
                                                                  "again)",
                                                                  to_string(now->verdict))
                                                    : ""));
      }
    }
    group.clear();
  };
  for (const std::string &file : files) {
    CaseFile case_file = read_untrusted_case_file(file, run.max_elements);
    std::vector<Strategy> strategies = strategies_for(case_file, selected);
    if (!group.empty() && (group.size() == files_per_worker || !same_strategies(strategies, group_strategies))) replay();
    group_strategies = std::move(strategies);
    group.emplace_back(file, std::move(case_file));
  }
  replay();
  const bool failed = live_failed || recorded_failed;
  const int status = unjudged_replay_exit(run, replayed, failed ? exit_mismatch : exit_agreed);
  if (live_failed) fmt::print("failure reproduced\n");
  else if (recorded_failed)
    fmt::print("live: passed; recorded result still fails (--live judges only what runs now)\n");
  else if (status != exit_bad_input)
    fmt::print("all agreed\n");
  return status;
}

} // namespace convcheck
