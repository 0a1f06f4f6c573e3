#include "core/run/finding.hpp"

#include <algorithm>
#include <cassert>
#include <filesystem>

#include <fmt/format.h>

#include "core/storage/case_file.hpp"
#include "core/process/clock.hpp"
#include "core/run/declaration.hpp"
#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/process/forked.hpp"
#include "core/input_error.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/shrink_case.hpp"
#include "core/run/neighbour_table.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

namespace {

uint64_t fnv1a(const std::string &text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

} // namespace

std::string finding_hash(const Problem &config, const std::string &strategy, const std::string &direction) {
  return fmt::format("{:016x}", fnv1a(fmt::format("{}/{}/{}", format_descriptor(config), strategy, direction)));
}

std::string finding_path(const std::string &corpus_dir, const Problem &config, const std::string &strategy,
                         Direction direction) {
  const std::string direction_name = to_string(direction);
  return (std::filesystem::path(corpus_dir) /
          fmt::format("{}-{}-{}.h5", strategy, direction_name, finding_hash(config, strategy, direction_name)))
      .string();
}

namespace {

// Does running `strategy` on `direction` of `conv_case` still end as `kind` does? Crashes and timeouts are judged
// in a forked child, mismatches here.
Outcome outcome_on(const Case &conv_case, const Strategy &strategy, Direction direction, FailureKind kind,
                   double run_timeout_s) {
  // A smaller problem the strategy does not support shows nothing: it is not still failing.
  if (std::string reason = strategy.unsupported_reason(conv_case.problem, direction); !reason.empty())
    return Outcome{strategy.name, direction, Verdict::skipped, std::move(reason)};
  if (kind == FailureKind::mismatch) {
    Reference reference;
    reference.directions.emplace(direction, compute_reference(conv_case, direction));
    return verify_one(conv_case, reference, strategy, direction);
  }
  const ForkedEnd end = run_forked({[&] {
                                     strategy.run ? (void)strategy.run(conv_case, direction)
                                                  : (void)strategy.run_case(conv_case, Asked{{direction}, strategy.run_held_back});
                                     return std::string();
                                   }},
                                   1, run_timeout_s)[0];
  const bool timed_out = end.termination.kind == Termination::Kind::timed_out;
  const bool same = kind == FailureKind::crash ? !end.returned() && !timed_out : timed_out;
  Outcome outcome{strategy.name, direction, same ? Verdict::failed : Verdict::passed,
                  end.returned() ? "" : end.termination.describe(), {}, {}};
  outcome.kind = kind;
  return outcome;
}

// The case of `config` with the failure's inputs and dispatch settings.
Case failure_case(const Failure &failure, const Problem &config, uint64_t seed, FillMode fill, FillSpecial special) {
  Case made = make_case(config, fill, seed, failure.case_index, special);
  made.settings = failure.settings;
  return made;
}

// `finder` is the failing strategy as the run declared it (nullptr: unknown), kept with the finding.
void write_finding(const SavedFinding &saved, const Failure &failure, const Strategy *finder, CaseFile &case_file,
                   const std::string &corpus_dir) {
  case_file.finding = FindingRecord{failure.strategy, failure.direction, saved.problem,
                                    case_file.finding ? case_file.finding->implementation : "",
                                    failure.kind, "", saved.neighbours, finder != nullptr && finder->run_held_back,
                                    finder != nullptr ? declaration(*finder) : ""};
  std::error_code error;
  std::filesystem::create_directories(corpus_dir, error);
  if (error) throw InputError(fmt::format("cannot create corpus directory {}: {}", corpus_dir, error.message()));
  write_case_file(saved.path, case_file);
}

} // namespace

SavedFinding save_finding(const Failure &failure, const std::vector<Strategy> &strategies, uint64_t seed,
                          FillMode fill, FillSpecial special, const std::string &corpus_dir, bool shrink_it,
                          double run_timeout_s, const Case *inputs) {
  const auto failing = std::find_if(strategies.begin(), strategies.end(),
                                    [&](const Strategy &s) { return s.name == failure.strategy; });
  assert(failing != strategies.end());
  // Every candidate is filled as the failing case was (a mixed campaign's normal, exact or witness), whatever its
  // own size would have drawn: a failure that shows in one fill is shrunk in that fill.
  // Likewise its special kind, on whichever tensors the case index draws.
  fill = resolve_fill_mode(fill, seed, failure.case_index, failure.config);
  special = resolve_fill_special(special, fill, seed, failure.case_index, failure.config);
  // Every candidate runs under the failing case's dispatch settings (a oneDNN path, an ISA cap), which would
  // otherwise be drawn again from each case index it is filled from: another draw changes the inputs alone.
  Failure pinned = failure;
  if (pinned.settings.empty()) pinned.settings = settings_of(Case{failure.config, {}, seed, failure.case_index});
  Case start = failure_case(pinned, failure.config, seed, fill, special);
  if (inputs != nullptr)
    for (Role role : input_roles) start[role] = (*inputs)[role].clone();
  auto outcome_for = [&](const Case &c) {
    return outcome_on(c, *failing, failure.direction, failure.kind, run_timeout_s);
  };
  SavedFinding saved{failure.config, failure.problem, 0, 0, {}};
  CaseFile case_file{std::move(start), {}, {}};
  if (shrink_it) {
    const auto began = Clock::now();
    CaseShrink result = shrink_case(
        case_file.conv_case, [&](const Case &c) { return outcome_for(c).verdict == Verdict::failed; },
        failure.kind == FailureKind::mismatch);
    case_file.conv_case = std::move(result.shrunk);
    saved.shrunk = case_file.conv_case.problem;
    saved.shrink_steps = result.descent.steps;
    saved.shrink_tries = result.descent.tries;
    saved.shrink_runs = result.runs;
    saved.shrink_s = seconds_since(began);
  }
  const Outcome outcome = outcome_for(case_file.conv_case);
  saved.problem = outcome.verdict == Verdict::failed ? outcome.detail : failure.problem;

  if (shrink_it && failure.kind == FailureKind::mismatch)
    saved.neighbours = neighbour_table(case_file.conv_case, *failing, failure.direction, run_timeout_s);
  case_file.finding = FindingRecord{.implementation = outcome.implementation};
  const Reference reference = compute_reference(case_file.conv_case);
  for (const Strategy &strategy : strategies)
    for (Direction direction : all_directions) {
      // A strategy that crashed or hung is not run again here, on any direction: it might take this process along.
      if (failure.kind != FailureKind::mismatch && strategy.name == failure.strategy) continue;
      Tensor result;
      const Outcome outcome = verify_one(case_file.conv_case, reference, strategy, direction, &result);
      if (result.empty()) continue;
      case_file.results[strategy.name][direction] = std::move(result);
      if (!outcome.algorithm.empty()) case_file.algorithms[strategy.name][direction] = outcome.algorithm;
    }
  saved.path = finding_path(corpus_dir, saved.shrunk, failure.strategy, failure.direction);
  write_finding(saved, failure, &*failing, case_file, corpus_dir);
  return saved;
}

SavedFinding save_inputs_only(const Failure &failure, uint64_t seed, FillMode fill, FillSpecial special,
                              const std::string &corpus_dir,
                              const std::string &note, const Strategy *finder) {
  SavedFinding saved{failure.config, fmt::format("{} ({})", failure.problem, note), 0, 0, {}};
  CaseFile case_file{failure_case(failure, failure.config, seed, fill, special), {}, {}};
  saved.path = finding_path(corpus_dir, saved.shrunk, failure.strategy, failure.direction);
  write_finding(saved, failure, finder, case_file, corpus_dir);
  return saved;
}

} // namespace convcheck
