#pragma once
// What happens to a failure: shrink it to a minimal config that still fails the same strategy and direction,
// then write that case, with every strategy's results, as a case file named after what it shows.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/problem/problem.hpp"
#include "core/problem/direction.hpp"
#include "core/numerics/fill.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"
#include "core/storage/neighbour_rows.hpp"

namespace convcheck {

/// A strategy/direction that failed on case `case_index` of a run (inputs remade from seed, index and fill).
struct Failure {
  std::string strategy;
  Direction direction = Direction::output;
  uint64_t case_index = 0;
  Problem config;      // the failing case's problem
  std::string problem; // what went wrong, one line
  FailureKind kind = FailureKind::mismatch;
  /// The dispatch settings the failing case ran under when they were not drawn from (seed, case index): a case
  /// file's own (`shrink` keeps them, core/numerics/dispatch_setting.hpp); empty, every case made from the failure
  /// draws them again.
  Settings settings = {};
};

struct SavedFinding {
  Problem shrunk;       // equal to the failure's config when not shrunk
  std::string problem;  // on the shrunk problem
  size_t shrink_steps = 0;
  size_t shrink_tries = 0;
  double shrink_s = 0;
  std::string path;
  /// The failing region around the shrunk case (core/run/neighbour_table.hpp): computed for a shrunk mismatch (a
  /// crash's or a hang's neighbours could each take a timeout), also kept in the case file; else empty.
  std::vector<NeighbourRow> neighbours = {};
  /// Runs of the failing strategy while shrinking: a mismatch's candidate is tried on up to five inputs
  /// (core/run/shrink_case.hpp), so this is between shrink_tries and five times it.
  size_t shrink_runs = 0;
};

/// 16 hex digits hashing the canonical descriptor of `config`, `strategy` and `direction`.
std::string finding_hash(const Problem &config, const std::string &strategy, const std::string &direction);

/// `corpus_dir/<strategy>-<direction>-<finding_hash>.h5`, the digits hashing the canonical descriptor, the
/// strategy and the direction, so two runs that find the same thing write one file.
std::string finding_path(const std::string &corpus_dir, const Problem &config, const std::string &strategy,
                         Direction direction);

/// Shrinks (when `shrink_it`) and writes the case; `strategies` are all the strategies of the run (the failing
/// one among them), whose results are recorded under /results. Creates `corpus_dir` if needed. A crash or
/// timeout is shrunk by running the failing strategy in a forked child per try (killed after `run_timeout_s`),
/// and keeps the shrunk config only while it still crashes (times out); the crashing run's result is not recorded.
/// Mismatches are shrunk in this process, so callers that must survive a strategy crashing mid-shrink run this in
/// a forked child (the campaign does).
/// Shrinking tries each candidate on several inputs and keeps those it failed on (core/run/shrink_case.hpp), so the
/// case file's inputs are the failing ones; `inputs`, when given, are the failing case's (a case file's), else they
/// are made from `seed` and the failure's case index.
SavedFinding save_finding(const Failure &failure, const std::vector<Strategy> &strategies, uint64_t seed,
                          FillMode fill, FillSpecial special, const std::string &corpus_dir, bool shrink_it,
                          double run_timeout_s = 60, const Case *inputs = nullptr);

/// Writes the failure's case unshrunk, with its inputs and the finding but no recorded results, without running
/// any strategy: what is left when saving it properly crashed. `note` is appended to the problem; `finder`, the
/// failing strategy (nullptr when unknown), gives what the finding keeps of it: its declaration, whether its
/// hold-backs were lifted (FindingRecord).
SavedFinding save_inputs_only(const Failure &failure, uint64_t seed, FillMode fill, FillSpecial special,
                              const std::string &corpus_dir,
                              const std::string &note, const Strategy *finder);

} // namespace convcheck
