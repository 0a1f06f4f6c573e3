#pragma once
// One case against a set of strategies: run each supported direction, diff against the shared reference, and
// say what happened. A strategy that throws is a failure (its message is the problem), never a crash.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/numerics/case.hpp"
#include "core/numerics/diff.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/strategy.hpp"
#include "core/storage/failure_kind.hpp"

namespace convcheck {

/// held_back: not run, for a known library bug its version has (core/run/known_bug.hpp); counted apart from skips.
enum class Verdict { passed, weak, failed, skipped, held_back };
std::string to_string(Verdict verdict);

struct Outcome {
  std::string strategy;
  Direction direction = Direction::output;
  Verdict verdict = Verdict::skipped;
  std::string detail;         // skip reason, held_back_detail or failure problem; empty on a pass
  Diff diff;                  // meaningful when compared
  std::string implementation; // from Strategy::implementation, when it has one
  double seconds = 0;         // time the strategy took for this direction (a share of run_case's call)
  FailureKind kind = FailureKind::mismatch; // when failed
  std::string judged_under;   // the bound's class when not direct: "winograd F(2x2,3x3)", "fft (normwise ...)"
  std::string algorithm;      // the declared class when not direct, as parse_algorithm reads it: "winograd:4"
};

/// Judges a result (computed or recorded) against the reference of its direction, under the direct bound.
Outcome judge(const std::string &name, Direction direction, const Tensor &got, const DirectionReference &reference);
/// The same under the bound of `algorithm`'s class (core/numerics/algorithm_bound.hpp); direct is the above.
Outcome judge(const std::string &name, Direction direction, const Tensor &got, const DirectionReference &reference,
              const Case &conv_case, const Algorithm &algorithm);

/// Runs `strategy` on `direction`; `result`, when given, receives what it computed.
Outcome verify_one(const Case &conv_case, const Reference &reference, const Strategy &strategy,
                   Direction direction, Tensor *result = nullptr);

/// Called before each run of a strategy: on one direction, or on all three at once (no direction) for a strategy
/// with run_case. Returning false leaves that run out; its outcomes are then skipped with detail "left out".
using BeforeRun = std::function<bool(size_t strategy_index, std::optional<Direction> direction)>;

/// The outcome of `strategy` on `direction` among `outcomes`, read by key: the order of verify_case's is
/// strategy-major, and each op lists its own directions. Throws std::out_of_range when there is none.
const Outcome &find_outcome(const std::vector<Outcome> &outcomes, const std::string &strategy, Direction direction);

/// Every strategy on every direction, in order (strategy-major).
std::vector<Outcome> verify_case(const Case &conv_case, const Reference &reference,
                                 const std::vector<Strategy> &strategies, const BeforeRun &before = {});

} // namespace convcheck
