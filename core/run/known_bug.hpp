#pragma once
// Known library bugs, as rows. A bug a library has that convcheck would otherwise report every night (or that
// corrupts a worker's heap) is one row of its library's table (oracles/<library>/known_bugs.cpp): which versions it
// affects, which strategies and directions, the problems and implementations that reach it, why, and where it is
// reported upstream, written up (docs/findings.md) and kept as a case (corpus/upstream/). A strategy asks
// `held_back_by` once it knows which implementation would run (oneDNN's chosen kernel, ATen's backend); a row that
// matches, for the version the library reports at run time, holds the direction back: it is not run, and its
// outcome is a verdict of its own kind (`held_back`), counted apart from skips in every report. A library whose
// version is outside a row's range runs the problem: a fixed bug is run, and the corpus case says so.
//
// `--run-held-back` runs every row's problems anyway (each is then a finding again), and `corpus run` does for the
// strategy of an upstream case: a flag of the selected strategy (Strategy::run_held_back), which verification reads
// and hands to a running strategy in its `Asked` (core/run/strategy.hpp); a server a worker starts takes it from the
// worker's request (oracles/dispatch/cap_server.hpp). Nothing here is process-global but the tables.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"

namespace convcheck {

/// Compares two versions part by part, numerically where both parts are numbers ("2.6.3" < "2.10", "2022-02-16" <
/// "2026-02"; '.', '-' and '+' separate parts): negative, zero or positive.
int compare_versions(const std::string &a, const std::string &b);

/// The versions of a library a bug affects: from `first` (inclusive) to `fixed_in` (exclusive). An empty end is
/// open: no `first` is every version before `fixed_in`, no `fixed_in` is not fixed (or not known to be).
struct VersionRange {
  std::string first;
  std::string fixed_in;

  /// Whether `version` is affected; an empty `version` (the library did not say) is.
  bool contains(const std::string &version) const;
  /// ">= 2.6, not fixed", ">= 2.6, < 3.2", "< 2.2".
  std::string describe() const;
};

/// What would run a direction, as the library names it (oneDNN's implementation, ATen's backend; "" where it names
/// none), asked at most once and only when a row needs it: asking may cost (ATen selects on real tensors).
class Ran {
public:
  Ran(std::string name = "") : name_(std::move(name)), asked_(true) {}
  explicit Ran(std::function<std::string()> ask) : ask_(std::move(ask)) {}
  const std::string &operator()() const {
    if (!asked_) name_ = ask_(), asked_ = true;
    return name_;
  }

private:
  std::function<std::string()> ask_;
  mutable std::string name_;
  mutable bool asked_ = false;
};

struct KnownBug {
  std::string id;      ///< stable name, used in reports: "onednn-6035"
  std::string library; ///< the table's library: "oneDNN"
  VersionRange versions;
  std::vector<std::string> strategies; ///< the strategies it holds back
  std::vector<Direction> directions;   ///< the directions it holds back
  /// Whether `direction` of `conv_case` reaches the bug on what would run it (ask `ran` after the cheap tests).
  std::function<bool(const Case &conv_case, Direction direction, const Ran &ran)> reached;
  std::string reason;      ///< what goes wrong, one sentence
  std::string upstream;    ///< "oneDNN issue #6035", or "not reported upstream yet"
  std::string docs;        ///< "docs/findings.md#...": the write-up with its standalone reproducer
  std::string corpus_case; ///< "corpus/upstream/....h5", or "" (with why, in `why_no_case`)
  std::string why_no_case = {};
};

/// One library's known bugs, and how to ask the library its version at run time.
struct KnownBugTable {
  std::string library;
  std::function<std::string()> version; ///< as the library reports it: "2.6.3"
  std::vector<KnownBug> rows;           ///< each row's `library` is filled in from the table's
};

/// File-static registration token of a library's table.
struct KnownBugRegistration {
  explicit KnownBugRegistration(KnownBugTable table);
};

/// Every registered table, by library name.
std::vector<const KnownBugTable *> known_bug_tables();

/// The row holding back `direction` of `conv_case` on `strategy` running `implementation`, or nullptr: a row of that
/// strategy and direction that the case reaches and whose library's version here is in its range. A strategy asks
/// through its `Asked`, which says whether held-back bugs run.
const KnownBug *held_back_by(const std::string &strategy, const Case &conv_case, Direction direction,
                             const Ran &ran = Ran());

/// The detail of a held-back outcome: "onednn-6035: REASON (jit_1x1:avx2; oneDNN 2.6.3; oneDNN issue #6035)".
std::string held_back_detail(const KnownBug &bug, const std::string &implementation);

/// The id a held-back outcome's detail starts with.
std::string held_back_id(const std::string &detail);

/// The row called `id`, or nullptr.
const KnownBug *find_known_bug(const std::string &id);

} // namespace convcheck
