#include "core/run/corpus.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/run/case_workers.hpp"
#include "core/run/finding.hpp"
#include "core/run/known_bug.hpp"
#include "core/input_error.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

namespace fs = std::filesystem;

std::string corpus_kind(const CaseFile &case_file) {
  if (!case_file.finding) return "regression";
  if (!case_file.finding->upstream.empty()) return "upstream";
  const Strategy *finder = find_strategy(case_file.finding->strategy);
  return finder != nullptr && finder->injected ? "mutants" : "regression";
}

std::string corpus_path(const std::string &corpus_dir, const CaseFile &case_file) {
  const std::string directory = (fs::path(corpus_dir) / corpus_kind(case_file)).string();
  const Problem &config = case_file.conv_case.problem;
  if (!case_file.finding) return (fs::path(directory) / ("edge-" + finding_hash(config, "edge", "") + ".h5")).string();
  return finding_path(directory, config, case_file.finding->strategy, case_file.finding->direction);
}

std::vector<std::string> corpus_files(const std::string &corpus_dir) {
  std::error_code error;
  if (fs::is_regular_file(corpus_dir, error)) return {corpus_dir};
  if (!fs::is_directory(corpus_dir, error)) throw InputError(fmt::format("corpus {} is not a directory", corpus_dir));
  std::vector<std::string> files;
  for (const auto &entry : fs::recursive_directory_iterator(corpus_dir, error))
    if (entry.is_regular_file() && entry.path().extension() == ".h5" && entry.path().filename().string()[0] != '.')
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

/// ", and known bug ID is held back here (oneDNN 2.6.3, versions >= 2.6, not fixed)": what the row keeping `path`
/// as its corpus case says of the library here, or "" when no row keeps it.
std::string known_bug_status(const std::string &path) {
  const std::string name = std::filesystem::path(path).filename().string();
  for (const KnownBugTable *table : known_bug_tables())
    for (const KnownBug &bug : table->rows) {
      if (bug.corpus_case.empty() || std::filesystem::path(bug.corpus_case).filename().string() != name) continue;
      const std::string version = table->version ? table->version() : "";
      return fmt::format(", and known bug {} {} ({} {}, versions {})", bug.id,
                         bug.versions.contains(version) ? "is still held back here" : "is no longer held back here",
                         table->library, version, bug.versions.describe());
    }
  return "";
}

/// "" while the library strategy named in the finding still shows the upstream bug with its hold-back lifted;
/// otherwise why the case is skipped.
std::string check_upstream_bug(const CaseFile &case_file, const std::vector<Strategy> &real, double run_timeout_s) {
  const FindingRecord &finding = *case_file.finding;
  const Strategy *library = nullptr;
  for (const Strategy &strategy : real)
    if (strategy.name == finding.strategy) library = &strategy;
  // A library strategy off by default (onednn_auto) is in no default selection: its own cases run it.
  const Strategy *registered = find_strategy(finding.strategy);
  if (library == nullptr && registered != nullptr && !registered->injected && !registered->in_default_set)
    library = registered;
  if (library == nullptr)
    return fmt::format("strategy {} is not built or not selected here, so {} cannot be checked", finding.strategy,
                       finding.upstream);
  const Direction direction = finding.direction;
  Strategy lifted = *library;
  lifted.run_held_back = true;
  const Outcome outcome =
      find_outcome(verify_case_isolated(case_file.conv_case, {lifted}, run_timeout_s), library->name, direction);
  if (outcome.verdict == Verdict::failed) return "";
  return fmt::format("{} {} came out {} with its hold-back lifted: the library here no longer shows {}{}; give its "
                     "known-bug row the version that fixed it and move the case to regression/",
                     finding.strategy, to_string(direction), to_string(outcome.verdict), finding.upstream,
                     known_bug_status(case_file.path));
}

/// Why a regression case said nothing, or "": the strategy that found it ran and did not judge the finding's
/// direction (a server offered what it does not take, a hold-back), or nothing here judged any direction of it. A
/// pass needs a verdict; a skip is counted as one.
std::string unjudged_regression(const CaseFile &case_file, const std::vector<Outcome> &outcomes) {
  const auto unjudged = [](const Outcome &o) { return o.verdict == Verdict::skipped || o.verdict == Verdict::held_back; };
  if (case_file.finding)
    for (const Outcome &outcome : outcomes)
      if (outcome.strategy == case_file.finding->strategy && outcome.direction == case_file.finding->direction &&
          unjudged(outcome))
        return fmt::format("{} {}, which the case was saved for, was not judged: {}", outcome.strategy,
                           to_string(outcome.direction), outcome.detail);
  if (!outcomes.empty() && std::all_of(outcomes.begin(), outcomes.end(), unjudged))
    return fmt::format("no strategy here judged it ({} {}: {})", outcomes.front().strategy,
                       to_string(outcomes.front().direction), outcomes.front().detail);
  return "";
}

} // namespace

CorpusVerdict check_corpus_case(const CaseFile &case_file, const std::vector<Strategy> &real, double run_timeout_s) {
  return check_corpus_case(case_file, real, verify_case_isolated(case_file.conv_case, real, run_timeout_s),
                           run_timeout_s);
}

CorpusVerdict check_corpus_case(const CaseFile &case_file, const std::vector<Strategy> &real,
                                const std::vector<Outcome> &real_outcomes, double run_timeout_s) {
  CorpusVerdict verdict;
  const Case &conv_case = case_file.conv_case;
  for (const Outcome &outcome : real_outcomes)
    if (outcome.verdict == Verdict::failed)
      verdict.problems.push_back(
          fmt::format("{} {} failed: {}", outcome.strategy, to_string(outcome.direction), outcome.detail));
  if (corpus_kind(case_file) == "mutants") {
    const Strategy &mutant = *find_strategy(case_file.finding->strategy);
    const Direction direction = case_file.finding->direction;
    const Outcome outcome =
        find_outcome(verify_case_isolated(conv_case, {mutant}, run_timeout_s), mutant.name, direction);
    if (outcome.verdict != Verdict::failed)
      verdict.problems.push_back(fmt::format("injected bug {} is no longer caught on {} ({})", mutant.name,
                                             to_string(direction), to_string(outcome.verdict)));
  }
  if (corpus_kind(case_file) == "upstream") verdict.skipped = check_upstream_bug(case_file, real, run_timeout_s);
  if (corpus_kind(case_file) == "regression") verdict.skipped = unjudged_regression(case_file, real_outcomes);
  verdict.ok = verdict.problems.empty();
  return verdict;
}

} // namespace convcheck
