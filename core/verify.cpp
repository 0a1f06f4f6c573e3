#include "core/verify.hpp"

#include <exception>

#include <fmt/format.h>

namespace convcheck {

std::string to_string(Verdict verdict) {
  switch (verdict) {
  case Verdict::passed: return "passed";
  case Verdict::weak: return "weak";
  case Verdict::failed: return "failed";
  case Verdict::skipped: return "skipped";
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

Outcome verify_one(const ConvCase &conv_case, const Reference &reference, const Strategy &strategy,
                   Direction direction, Tensor *result) {
  const std::string reason = strategy.unsupported_reason(conv_case.config, direction);
  if (!reason.empty()) return Outcome{strategy.name, direction, Verdict::skipped, reason, {}, {}};
  Tensor got;
  std::string error;
  try {
    got = strategy.run(conv_case, direction);
  } catch (const std::exception &exception) {
    error = fmt::format("threw: {}", exception.what());
  } catch (...) {
    error = "threw a non-standard exception";
  }
  Outcome outcome = error.empty() ? judge(strategy.name, direction, got, reference[direction])
                                  : Outcome{strategy.name, direction, Verdict::failed, error, {}, {}};
  if (strategy.implementation) outcome.implementation = strategy.implementation(conv_case, direction);
  if (result != nullptr) *result = std::move(got);
  return outcome;
}

std::vector<Outcome> verify_case(const ConvCase &conv_case, const Reference &reference,
                                 const std::vector<Strategy> &strategies) {
  std::vector<Outcome> outcomes;
  outcomes.reserve(strategies.size() * all_directions.size());
  for (const Strategy &strategy : strategies)
    for (Direction direction : all_directions) outcomes.push_back(verify_one(conv_case, reference, strategy, direction));
  return outcomes;
}

} // namespace convcheck
