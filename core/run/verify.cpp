#include "core/run/verify.hpp"

#include <array>
#include <exception>
#include <stdexcept>

#include <fmt/format.h>

#include "core/numerics/algorithm_bound.hpp"
#include "core/process/clock.hpp"
#include "core/run/cost_plan.hpp"
#include "core/run/known_bug.hpp"
#include "core/input_error.hpp"

namespace convcheck {

std::string to_string(Verdict verdict) {
  switch (verdict) {
  case Verdict::passed: return "passed";
  case Verdict::weak: return "weak";
  case Verdict::failed: return "failed";
  case Verdict::skipped: return "skipped";
  case Verdict::held_back: return "held_back";
  }
  return "?";
}

Outcome judge(const std::string &name, Direction direction, const Tensor &got, const DirectionReference &reference) {
  Outcome outcome{name, direction, Verdict::failed, {}, {}, {}};
  if (got.empty()) {
    outcome.detail = "no result";
    return outcome;
  }
  outcome.diff = compare(got, reference.expected, reference.bound);
  outcome.verdict = !outcome.diff.ok ? Verdict::failed : outcome.diff.weak() ? Verdict::weak : Verdict::passed;
  if (outcome.verdict == Verdict::failed) outcome.detail = outcome.diff.problem;
  if (outcome.verdict == Verdict::weak)
    outcome.detail = fmt::format("reference is {:.0f}% zeros", 100 * outcome.diff.zero_fraction);
  return outcome;
}

Outcome judge(const std::string &name, Direction direction, const Tensor &got, const DirectionReference &reference,
              const Case &conv_case, const Algorithm &algorithm) {
  if (algorithm.kind == AlgorithmKind::direct && !algorithm.storage_sums) return judge(name, direction, got, reference);
  Outcome outcome{name, direction, Verdict::failed, {}, {}, {}};
  AlgorithmBound bound;
  try {
    bound = algorithm_bound(conv_case, direction, algorithm, reference);
  } catch (const InputError &error) { // a declared class that does not fit the problem (points for another alpha)
    outcome.detail = fmt::format("declared algorithm {}: {}", to_string(algorithm), error.what());
    return outcome;
  }
  outcome.judged_under = bound.judged_under;
  outcome.algorithm = to_string(algorithm);
  if (!bound.unjudgeable.empty()) {
    outcome.verdict = Verdict::skipped;
    outcome.detail = bound.unjudgeable;
    return outcome;
  }
  if (got.empty()) {
    outcome.detail = "no result";
    return outcome;
  }
  outcome.diff = bound.signal_size > 0 ? compare_signals(got, reference.expected, bound.signal_size, bound.signal)
                                       : compare(got, reference.expected, bound.element);
  outcome.verdict = !outcome.diff.ok ? Verdict::failed : outcome.diff.weak() ? Verdict::weak : Verdict::passed;
  if (outcome.verdict == Verdict::failed)
    outcome.detail = fmt::format("{} (judged under {})", outcome.diff.problem, bound.judged_under);
  if (outcome.verdict == Verdict::weak)
    outcome.detail = fmt::format("reference is {:.0f}% zeros", 100 * outcome.diff.zero_fraction);
  return outcome;
}

namespace {

// Calls `run`, turning any exception into an error message.
RunResult guarded_run(const Strategy &strategy, const Case &conv_case, Direction direction) {
  RunResult run;
  try {
    run.result = strategy.run(conv_case, direction);
  } catch (const std::exception &exception) {
    run.error = fmt::format("threw: {}", exception.what());
  } catch (...) {
    run.error = "threw a non-standard exception";
  }
  return run;
}

/// Every direction's run_case result; a throw fails them all.
RunResults guarded_run_case(const Strategy &strategy, const Case &conv_case, std::vector<Direction> directions) {
  try {
    return strategy.run_case(conv_case, Asked{std::move(directions), strategy.run_held_back});
  } catch (const std::exception &exception) {
    return every_direction_failed(conv_case.problem.op, fmt::format("threw: {}", exception.what()));
  } catch (...) {
    return every_direction_failed(conv_case.problem.op, "threw a non-standard exception");
  }
}

/// The known bug holding back `direction` of `conv_case` on a strategy that names no implementation (one of one
/// direction at a time, or an outside one): decided by the problem alone, unless the strategy runs held-back bugs.
const KnownBug *held_back_by_problem(const Strategy &strategy, const Case &conv_case, Direction direction) {
  return Asked{{}, strategy.run_held_back}.held_back(strategy.name, conv_case, direction);
}

/// `direction`'s result, moved out of `runs`, or a failure saying there is none.
RunResult take(RunResults &runs, Direction direction) {
  auto found = runs.find(direction);
  if (found == runs.end()) return RunResult{.error = fmt::format("returned no {} result", to_string(direction))};
  return std::move(found->second);
}

Outcome outcome_of(const Strategy &strategy, const Case &conv_case, const Reference &reference,
                   Direction direction, RunResult run, Tensor *result) {
  Outcome outcome = !run.held_back.empty() ? Outcome{strategy.name, direction, Verdict::held_back, run.held_back, {}, {}}
                    : !run.skipped.empty() ? Outcome{strategy.name, direction, Verdict::skipped, run.skipped, {}, {}}
                    : !run.error.empty() ? Outcome{strategy.name, direction, Verdict::failed, run.error, {}, {}}
                                         : judge(strategy.name, direction, run.result, reference[direction], conv_case,
                                                 run.algorithm.value_or(strategy.algorithm));
  // An outside implementation's value judged under the direct bound says so: a fast algorithm that did not declare
  // its class (docs/external.md, "Fast algorithms") fails there, and its finding must say why.
  if (strategy.outside && outcome.verdict == Verdict::failed && run.error.empty() && outcome.judged_under.empty() &&
      outcome.diff.first_mismatch >= 0)
    outcome.detail += " (judged under the direct bound: a fast algorithm declares its class, docs/external.md)";
  // Only a finding records which implementation ran; asking costs time on the hot path, and may itself fail.
  if (strategy.implementation && outcome.verdict == Verdict::failed) {
    try {
      outcome.implementation = strategy.implementation(conv_case, direction);
    } catch (const std::exception &exception) {
      outcome.implementation = fmt::format("unknown ({})", exception.what());
    }
  }
  if (result != nullptr) *result = std::move(run.result);
  return outcome;
}


} // namespace

Outcome verify_one(const Case &conv_case, const Reference &reference, const Strategy &strategy,
                   Direction direction, Tensor *result) {
  std::string reason = strategy.unsupported_reason(conv_case.problem, direction);
  if (!reason.empty()) return Outcome{strategy.name, direction, Verdict::skipped, reason, {}, {}};
  // A strategy of one direction at a time names no implementation, nor does an outside one: their known bugs are
  // decided by the problem, here. A built-in one that runs all directions at once asks its library's table itself,
  // once it knows what would run.
  if (!strategy.run_case || strategy.outside)
    if (const KnownBug *bug = held_back_by_problem(strategy, conv_case, direction))
      return Outcome{strategy.name, direction, Verdict::held_back, held_back_detail(*bug, ""), {}, {}};
  reason = planned_out(strategy, conv_case);
  if (!reason.empty()) return Outcome{strategy.name, direction, Verdict::skipped, reason, {}, {}};
  const auto start = Clock::now();
  RunResult run;
  if (strategy.run_case) {
    RunResults runs = guarded_run_case(strategy, conv_case, {direction});
    run = take(runs, direction);
  } else {
    run = guarded_run(strategy, conv_case, direction);
  }
  const double seconds = seconds_since(start);
  Outcome outcome = outcome_of(strategy, conv_case, reference, direction, std::move(run), result);
  outcome.seconds = seconds;
  return outcome;
}

const Outcome &find_outcome(const std::vector<Outcome> &outcomes, const std::string &strategy, Direction direction) {
  for (const Outcome &outcome : outcomes)
    if (outcome.strategy == strategy && outcome.direction == direction) return outcome;
  throw std::out_of_range(fmt::format("no outcome of {} on {}", strategy, to_string(direction)));
}

std::vector<Outcome> verify_case(const Case &conv_case, const Reference &reference,
                                 const std::vector<Strategy> &strategies, const BeforeRun &before) {
  std::vector<Outcome> outcomes;
  outcomes.reserve(strategies.size() * directions(conv_case.problem.op).size());
  auto left_out = [](const Strategy &strategy, Direction direction) {
    return Outcome{strategy.name, direction, Verdict::skipped, "left out", {}, {}};
  };
  const std::span<const DirectionInfo> op_directions = directions(conv_case.problem.op);
  for (size_t index = 0; index < strategies.size(); ++index) {
    const Strategy &strategy = strategies[index];
    if (!strategy.run_case) {
      for (const DirectionInfo &each : op_directions)
        outcomes.push_back(!before || before(index, each.direction)
                               ? verify_one(conv_case, reference, strategy, each.direction)
                               : left_out(strategy, each.direction));
      continue;
    }
    if (const std::string refused = strategy.supports.refusal(conv_case.problem); !refused.empty()) {
      for (const DirectionInfo &each : op_directions)
        outcomes.push_back(Outcome{strategy.name, each.direction, Verdict::skipped, refused, {}, {}});
      continue;
    }
    if (before && !before(index, std::nullopt)) {
      for (const DirectionInfo &each : op_directions) outcomes.push_back(left_out(strategy, each.direction));
      continue;
    }
    // An outside implementation names no kernel: its known bugs are decided by the problem, before it is sent the
    // case, and it is not sent one whose every direction it would run is held back.
    std::array<std::string, all_directions.size()> reasons, held; // by position in op_directions
    std::vector<Direction> asked;
    for (size_t d = 0; d < op_directions.size(); ++d) {
      reasons[d] = strategy.unsupported_reason(conv_case.problem, op_directions[d].direction);
      if (!reasons[d].empty()) continue;
      if (const KnownBug *bug =
              strategy.outside ? held_back_by_problem(strategy, conv_case, op_directions[d].direction) : nullptr)
        held[d] = held_back_detail(*bug, "");
      else
        asked.push_back(op_directions[d].direction);
    }
    const auto start = Clock::now();
    RunResults runs = !asked.empty() ? guarded_run_case(strategy, conv_case, asked) : RunResults{};
    const double share = seconds_since(start) / static_cast<double>(op_directions.size());
    for (size_t d = 0; d < op_directions.size(); ++d) {
      const Direction direction = op_directions[d].direction;
      outcomes.push_back(!reasons[d].empty() ? Outcome{strategy.name, direction, Verdict::skipped, reasons[d], {}, {}}
                         : !held[d].empty()  ? Outcome{strategy.name, direction, Verdict::held_back, held[d], {}, {}}
                                             : outcome_of(strategy, conv_case, reference, direction,
                                                          take(runs, direction), nullptr));
      outcomes.back().seconds = share;
    }
  }
  return outcomes;
}

} // namespace convcheck
