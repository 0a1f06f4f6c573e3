#pragma once
// The regression corpus: case files under `<dir>/<kind>/<name>.h5`.
// - kind `regression`: must pass now, for every real strategy; where the strategy it was saved for ran and did not
//   judge the finding's direction (skipped, held back), or nothing judged it at all, it is skipped saying so,
//   never counted as passed;
// - kind `mutants`: kills an injected bug: must still fail for that bug (named in /finding) and pass for every
//   real strategy, so the corpus keeps proving that convcheck can see the bug;
// - kind `upstream`: a bug in a real library, tracked upstream (the finding's `upstream`), that its strategy holds
//   back (core/run/known_bug.hpp): every real strategy must pass, holding it back, and the finding's strategy
//   must still fail with the hold-back lifted. When it passes instead, the library here no longer has the bug and
//   the case is skipped saying so (ctest reports it skipped), as it is when that strategy is not built.
// A name is finding_path's `<strategy>-<direction>-<hash>`, the hash covering the canonical config, strategy and
// direction, so the same finding added twice is one file. Cases without a finding (hand-picked configs) are
// named `edge-<hash>`.

#include <string>
#include <vector>

#include "core/storage/case_file.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

/// "upstream" when the finding names an upstream bug, "mutants" when the case was saved for an injected strategy,
/// else "regression".
std::string corpus_kind(const CaseFile &case_file);

/// Where `case_file` belongs under `corpus_dir`.
std::string corpus_path(const std::string &corpus_dir, const CaseFile &case_file);

/// Every case file under `corpus_dir`, sorted (a file given instead of a directory is itself); throws InputError
/// when it is neither.
std::vector<std::string> corpus_files(const std::string &corpus_dir);

struct CorpusVerdict {
  bool ok = true;
  std::vector<std::string> problems; // one line each: which strategy did what it must not
  std::string skipped; // why the case said nothing (an upstream bug no longer shown, nothing judged); "" otherwise
};

/// Checks one corpus case against its kind's promise with `real` (the real strategies, plus any externals), in a
/// forked worker (a crash or a run past `run_timeout_s` is a problem, not the end of the corpus run).
CorpusVerdict check_corpus_case(const CaseFile &case_file, const std::vector<Strategy> &real, double run_timeout_s);

/// The same with the outcomes of `real` on the case already run (verify_cases_isolated, for many cases at once).
CorpusVerdict check_corpus_case(const CaseFile &case_file, const std::vector<Strategy> &real,
                                const std::vector<Outcome> &real_outcomes, double run_timeout_s);

} // namespace convcheck
