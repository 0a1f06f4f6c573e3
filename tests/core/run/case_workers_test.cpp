#include "core/run/case_workers.hpp"

#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

namespace convcheck {
namespace {

const std::vector<Strategy> strategies{Strategy{.name = "first"}, Strategy{.name = "second"}};

bool crashes(uint64_t job) { return job % 7 == 3; }

// A case that takes microseconds, so that a worker answers many at a time, and whose config carries its job
// number, so that an answer handed to the wrong job shows. Jobs with crashes(job) abort in the second strategy's
// grad_data run, unless that run is left out.
CaseRun quick_case(uint64_t job, const BeforeRun &before) {
  CaseRun run;
  run.problem.batch = static_cast<int64_t>(job) + 1;
  for (size_t strategy = 0; strategy < strategies.size(); ++strategy)
    for (Direction direction : all_directions) {
      const bool runs = before(strategy, direction);
      if (runs && strategy == 1 && direction == Direction::grad_data && crashes(job)) std::abort();
      run.outcomes.push_back({strategies[strategy].name, direction, runs ? Verdict::passed : Verdict::skipped,
                              runs ? "" : "left out", {}, {}});
    }
  return run;
}

// Every job is answered once, in order, with its own result; a crash costs exactly the run it happened in, even
// though the worker dies holding answers to earlier jobs it has not sent yet (they are run again). Workers retiring
// (worker_recycling.hpp) change nothing either. Returns how many retired.
int64_t expect_every_job_answered(int processes, WorkerRecycling recycling = {}) {
  constexpr int64_t count = 300;
  CaseWorkers workers(strategies, processes, 30, quick_case, recycling);
  int64_t next = 0;
  const int64_t ran = workers.run(
      count, [](int64_t i) { return static_cast<uint64_t>(2 * i); }, {},
      [&](int64_t i, CaseRun &&run) {
        ASSERT_EQ(i, next++);
        const uint64_t job = static_cast<uint64_t>(2 * i);
        EXPECT_EQ(run.problem.batch, static_cast<int64_t>(job) + 1);
        ASSERT_EQ(run.outcomes.size(), 6u);
        for (size_t at = 0; at < run.outcomes.size(); ++at) {
          const Outcome &outcome = run.outcomes[at];
          if (crashes(job) && at == 4) { // second strategy, grad_data
            EXPECT_EQ(outcome.verdict, Verdict::failed) << "job " << job;
            EXPECT_EQ(outcome.kind, FailureKind::crash);
            EXPECT_EQ(outcome.detail, "killed by signal 6 (Aborted)");
          } else {
            EXPECT_EQ(outcome.verdict, Verdict::passed) << "job " << job << " outcome " << at << ": " << outcome.detail;
          }
        }
      });
  EXPECT_EQ(ran, count);
  EXPECT_EQ(next, count);
  return workers.retired();
}

TEST(CaseWorkers, EveryJobAnsweredOnceInOrderAcrossCrashesWithOneWorker) { expect_every_job_answered(1); }

TEST(CaseWorkers, EveryJobAnsweredOnceInOrderAcrossCrashesWithTwoWorkers) { expect_every_job_answered(2); }

TEST(CaseWorkers, RetiringAfterSomeCasesChangesNoAnswer) {
  for (int processes : {1, 2}) {
    // A worker crashes on one job in seven too, so fewer than 300 / 7 live to retire.
    EXPECT_GT(expect_every_job_answered(processes, {.max_cases = 7, .max_rss_mib = 0}), 5) << processes;
  }
}

TEST(CaseWorkers, RetiringPastAResidentSetCeilingChangesNoAnswer) {
  // Every process is past 1 MiB: each worker retires after its first case.
  EXPECT_GE(expect_every_job_answered(2, {.max_cases = 0, .max_rss_mib = 1}), 250);
}

TEST(CaseWorkers, NoRecyclingRetiresNoWorker) {
  EXPECT_EQ(expect_every_job_answered(2, {.max_cases = 0, .max_rss_mib = 0}), 0);
}

TEST(CaseWorkers, StopStartsNoNewJobAndHandsOverAPrefix) {
  CaseWorkers workers(strategies, 2, 30, [](uint64_t job, const BeforeRun &before) {
    usleep(200); // long enough that the stop below comes before the last job is handed out
    return quick_case(job * 7, before);
  });
  int64_t handed = 0;
  const int64_t ran = workers.run(
      100000, [](int64_t i) { return static_cast<uint64_t>(i); }, [&] { return handed >= 50; },
      [&](int64_t i, CaseRun &&) { EXPECT_EQ(i, handed++); });
  EXPECT_EQ(ran, handed);
  EXPECT_GE(ran, 50);
  EXPECT_LT(ran, 1000); // at most a few hundred jobs were in flight when it stopped
}

TEST(CaseWorkers, HangIsATimeoutOfThatRunAlone) {
  CaseWorkers workers(strategies, 1, 0.3, [](uint64_t job, const BeforeRun &before) {
    if (job == 5 && before(0, Direction::output))
      for (;;) pause();
    return quick_case(job * 7, before);
  });
  std::vector<CaseRun> runs;
  workers.run(
      10, [](int64_t i) { return static_cast<uint64_t>(i); }, {},
      [&](int64_t, CaseRun &&run) { runs.push_back(std::move(run)); });
  ASSERT_EQ(runs.size(), 10u);
  for (size_t job = 0; job < runs.size(); ++job)
    for (size_t at = 0; at < runs[job].outcomes.size(); ++at) {
      const Outcome &outcome = runs[job].outcomes[at];
      const bool hung = job == 5 && at == 0;
      EXPECT_EQ(outcome.verdict, hung ? Verdict::failed : Verdict::passed) << "job " << job << " outcome " << at;
      if (hung) {
        EXPECT_EQ(outcome.kind, FailureKind::timeout);
      }
    }
}

} // namespace
} // namespace convcheck
