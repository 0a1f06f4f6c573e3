#pragma once
// One case against a set of strategies: run each supported direction, diff against the shared reference, and
// say what happened. A strategy that throws is a failure (its message is the problem), never a crash.

#include <string>
#include <vector>

#include "core/conv_case.hpp"
#include "core/diff.hpp"
#include "core/reference.hpp"
#include "core/strategy.hpp"

namespace convcheck {

enum class Verdict { passed, weak, failed, skipped };
std::string to_string(Verdict verdict);

struct Outcome {
  std::string strategy;
  Direction direction = Direction::output;
  Verdict verdict = Verdict::skipped;
  std::string detail;         // skip reason or failure problem; empty on a pass
  Diff diff;                  // meaningful when compared
  std::string implementation; // from Strategy::implementation, when it has one
  double seconds = 0;         // time the strategy took for this direction (a share of run_case's call)
};

/// Judges a result (computed or recorded) against the reference of its direction.
Outcome judge(const std::string &name, Direction direction, const Tensor &got, const DirectionReference &reference);

/// Runs `strategy` on `direction`; `result`, when given, receives what it computed.
Outcome verify_one(const ConvCase &conv_case, const Reference &reference, const Strategy &strategy,
                   Direction direction, Tensor *result = nullptr);

/// Every strategy on every direction, in order (strategy-major).
std::vector<Outcome> verify_case(const ConvCase &conv_case, const Reference &reference,
                                 const std::vector<Strategy> &strategies);

} // namespace convcheck
