#include "core/run/judged.hpp"

#include <algorithm>

#include <fmt/format.h>


namespace convcheck {

std::vector<JudgedShortfall> judged_shortfalls(const JudgedRule &rule, const std::vector<StrategyTally> &tallies,
                                               int64_t cases) {
  std::vector<JudgedShortfall> shortfalls;
  if (cases <= 0) return shortfalls;
  for (const std::string &name : rule.named) {
    JudgedShortfall shortfall{name, 0, cases, {}};
    for (const StrategyTally &strategy : tallies) {
      if (strategy.name != name) continue;
      for (const auto &[direction, tally] : strategy.by_direction) {
        shortfall.judged = std::max(shortfall.judged, tally.judged());
        add_skip_reasons(shortfall.reasons, tally.skip_reasons);
      }
    }
    const double percent = 100.0 * static_cast<double>(shortfall.judged) / static_cast<double>(cases);
    if (shortfall.none() || percent < rule.min_judged_percent) shortfalls.push_back(shortfall);
  }
  return shortfalls;
}

std::vector<JudgedShortfall> unjudged_named(const std::vector<std::string> &named,
                                            const std::vector<std::vector<Outcome>> &outcomes) {
  std::vector<JudgedShortfall> unjudged;
  for (const std::string &name : named) {
    JudgedShortfall shortfall{name, 0, static_cast<int64_t>(outcomes.size()), {}};
    for (const std::vector<Outcome> &case_outcomes : outcomes) {
      bool judged = false;
      for (const Outcome &outcome : case_outcomes) {
        if (outcome.strategy != name) continue;
        const bool unjudged_here = outcome.verdict == Verdict::skipped || outcome.verdict == Verdict::held_back;
        judged |= !unjudged_here;
        if (unjudged_here) add_skip_reason(shortfall.reasons, outcome.detail);
      }
      shortfall.judged += judged;
    }
    if (shortfall.none() && shortfall.offered > 0) unjudged.push_back(std::move(shortfall));
  }
  return unjudged;
}

std::string describe(const JudgedShortfall &shortfall, double min_judged_percent) {
  const std::string skipped =
      shortfall.reasons.empty() ? "" : "; skipped: " + describe_skip_reasons(shortfall.reasons);
  if (shortfall.none())
    return fmt::format("strategy {} judged none of the {} cases offered{}", shortfall.strategy, shortfall.offered,
                       skipped);
  return fmt::format("strategy {} judged {} of the {} cases offered ({:.3g}%, under --min-judged {:g}%){}",
                     shortfall.strategy, shortfall.judged, shortfall.offered,
                     100.0 * static_cast<double>(shortfall.judged) / static_cast<double>(shortfall.offered),
                     min_judged_percent, skipped);
}

} // namespace convcheck
