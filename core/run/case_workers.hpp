#pragma once
// Cases run in forked worker processes, one case at a time each, so that a strategy that segfaults, aborts or
// hangs costs one (strategy, direction) verdict instead of the campaign, and so that workers share no locks
// (oneDNN's kernel generation serializes threads of one process).
//
// Before each strategy run a worker writes where it is (case, strategy, direction, start time) into memory shared
// with the parent. When a worker dies, or one run outlives the timeout, the parent knows exactly which run it was:
// that run's verdict becomes a `crash` or `timeout` failure, a new worker is forked, and the case is run again with
// that run left out, so every other verdict of the case is still measured. Jobs go out and answers come back in
// batches (a pipe message wakes the other process, which costs more than a small case's work); answers a dead
// worker had not sent yet are lost with it, and their cases run again. Results are handed back in job order, so
// what a campaign reports never depends on how many workers ran it or which finished first.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/process/worker_recycling.hpp"
#include "core/run/strategy.hpp"
#include "core/run/verify.hpp"

namespace convcheck {

/// What one case produced in a worker.
struct CaseRun {
  Problem problem;             // the case's config, so the parent need not make it again
  std::vector<Outcome> outcomes; // strategy-major, as verify_case; empty when reference_problem is set
  double reference_s = 0;        // making the inputs and the double reference
  double seconds = 0;            // the whole case in the worker
  std::string reference_problem; // set when making the case or its reference crashed or timed out
};

/// Runs job `job` inside a worker; it must call `before` before each strategy run (verify_case does).
using CaseJob = std::function<CaseRun(uint64_t job, const BeforeRun &before)>;

class CaseWorkers {
public:
  /// Forks nothing yet; `strategies` are those `run_job` runs, in its order; `run_timeout_s` bounds one
  /// strategy's run on one direction of one case (or on a whole case, for a strategy with run_case); a worker is
  /// replaced as `recycling` says (core/process/worker_recycling.hpp).
  CaseWorkers(const std::vector<Strategy> &strategies, int processes, double run_timeout_s, CaseJob run_job,
              WorkerRecycling recycling = {});
  ~CaseWorkers();
  CaseWorkers(const CaseWorkers &) = delete;
  CaseWorkers &operator=(const CaseWorkers &) = delete;

  /// Runs jobs job_at(0), job_at(1), ... up to `count`, starting no new one once `stop()` is true; hands each
  /// result to `done(i, run)` in order of i. Returns how many ran (always a prefix).
  int64_t run(int64_t count, const std::function<uint64_t(int64_t)> &job_at, const std::function<bool()> &stop,
              const std::function<void(int64_t, CaseRun &&)> &done);

  /// Ends every worker (the destructor does too) and returns the largest peak resident set, in KiB, that any
  /// worker of this pool reached, replaced ones included: each worker's own (wait4), which the caller's
  /// RUSAGE_CHILDREN is not, as it also counts children reaped before the caller was exec'd.
  int64_t end();

  /// How many workers retired and were replaced so far (recycling, not crashes).
  int64_t retired() const;

private:
  struct Pool;
  std::unique_ptr<Pool> pool_;
};

/// verify_case (reference included) in one forked worker: a run that crashes or hangs is that run's failed
/// verdict instead of the end of the caller. Throws std::runtime_error when making the reference itself fails.
std::vector<Outcome> verify_case_isolated(const Case &conv_case, const std::vector<Strategy> &strategies,
                                          double run_timeout_s);

/// verify_case_isolated for each of `cases` in turn, in one forked worker that stays up from case to case (replaced
/// only after a crash or a hang), so what a strategy keeps per process, an external server above all, is started
/// once for all of them. Outcomes in the order of `cases`.
std::vector<std::vector<Outcome>> verify_cases_isolated(const std::vector<const Case *> &cases,
                                                        const std::vector<Strategy> &strategies, double run_timeout_s);

} // namespace convcheck
