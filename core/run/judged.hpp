#pragma once
// No silent pass. A strategy the user named (--strategies, --inject, --external, --external-server, --plugin)
// that was judged on no case did not check anything: a typo in a server's support list ("f32" for "float32"), or
// a case format that cannot hold the problems, skips every case, and "no mismatch" would be a lie. Such a run
// ends with exit status 2 and one line naming the strategy, the cases offered and why it skipped them. A named
// strategy judged on fewer than --min-judged percent of the cases offered is a warning in the summary and every
// report. The default, 5%, is far below what a real narrow implementation is judged on (of a default campaign,
// seed 1: a 2-D float32-only server 54% of the cases, xnnpack, forward-only 1-D and 2-D float32, 69%; measured
// before deconvs were drawn, one case in four, which a conv-only implementation skips: it is now judged on about
// three quarters of that) and above what a support list that misses most of the distribution leaves (one rank the
// generator draws one case in five and float64, drawn one case in eight: about 2.5%); an implementation that narrow
// is better run with --focus. The commands that replay saved cases (repro, corpus run, shrink) hold the same rule
// with no percentage: a named strategy judged on none of the files is exit status 2, never "all agreed".

#include <cstdint>
#include <string>
#include <vector>

#include "core/run/skip_tally.hpp"
#include "core/run/tally.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

/// Percent of the cases offered under which a named strategy's judged cases are a warning.
inline constexpr double default_min_judged_percent = 5;

/// Which strategies were named, and the warning threshold. Kept in the report, so that `report merge` judges the
/// whole campaign by the rule its shards ran under.
struct JudgedRule {
  std::vector<std::string> named; ///< in the order named
  double min_judged_percent = default_min_judged_percent;
  /// What the named implementations declared that convcheck could not use (Strategy::declaration_warnings): a typo
  /// in a support list narrows what they are judged on, so every report says it beside the shortfalls.
  std::vector<std::string> declaration_warnings = {};
};

/// A named strategy judged on too few cases: `judged` is the most cases any one of its directions was judged on
/// (passed, weak or failed), so a forward-only implementation is not short of its gradients.
struct JudgedShortfall {
  std::string strategy;
  int64_t judged = 0;
  int64_t offered = 0;  ///< cases the run offered it
  SkipReasons reasons;  ///< over every direction
  bool none() const { return judged == 0; }
};

/// The named strategies among `tallies` judged on fewer than the rule's percent of a run's `cases`, in the order
/// named; none when the run had no case. (core/run/campaign.hpp has the form that takes a whole report.)
std::vector<JudgedShortfall> judged_shortfalls(const JudgedRule &rule, const std::vector<StrategyTally> &tallies,
                                               int64_t cases);

/// The named strategies judged on none of a replay's cases (`outcomes`: one list a case, as verify_case gives),
/// each with its skip and hold-back reasons; `offered` is the number of cases.
std::vector<JudgedShortfall> unjudged_named(const std::vector<std::string> &named,
                                            const std::vector<std::vector<Outcome>> &outcomes);

/// One line: "strategy ext judged none of the 20 cases offered; skipped: 60 x float32 is not supported ..." or
/// "strategy ext judged 3 of the 200 cases offered (1.5%, under --min-judged 5%); skipped: ...".
std::string describe(const JudgedShortfall &shortfall, double min_judged_percent);

} // namespace convcheck
