#include "core/run/case_workers.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/process/clock.hpp"
#include "core/process/forked.hpp"
#include "core/process/reap.hpp"
#include "core/process/termination.hpp"
#include "core/numerics/reference.hpp"
#include "core/process/wire.hpp"

namespace convcheck {

namespace {

constexpr int64_t making_the_case = -1; // Position::strategy while the inputs and the reference are computed
constexpr int64_t every_direction = -1; // Position::direction while a run_case strategy runs

/// Where a worker is; lives in memory shared by the parent and that worker. Only the worker writes it while it
/// runs; the parent reads it after the worker died, or to see how long the current run has taken.
struct Position {
  std::atomic<int64_t> order{-1}; // the job being run (Job::order)
  std::atomic<int64_t> strategy{making_the_case};
  std::atomic<int64_t> direction{every_direction};
  std::atomic<int64_t> since_ns{0}; // steady clock: the same clock in every process of the machine
};
static_assert(std::atomic<int64_t>::is_always_lock_free, "Position is shared between processes");

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// Release stores: a reader that sees since_ns also sees the strategy and direction stored before it. (Sequentially
// consistent stores would be a locked exchange each, 4 per run and over a hundred per case.)
void mark(Position &position, int64_t strategy, int64_t direction) {
  position.strategy.store(strategy, std::memory_order_relaxed);
  position.direction.store(direction, std::memory_order_relaxed);
  position.since_ns.store(now_ns(), std::memory_order_release);
}

void mark_job(Position &position, int64_t order) {
  position.order.store(order, std::memory_order_relaxed);
  mark(position, making_the_case, every_direction);
}

// Jobs go to a worker and answers come back in batches. Each message wakes a process that sleeps in read or poll:
// a system call on both sides and, when the other process sleeps on another core, an interrupt to that core; one
// result written per case cost the worker a noticeable share of a small case (docs/performance.md, "Machine
// figures behind the code"). So a worker answers when it has worked
// `answer_after_s` since its last answer, or has nothing left to run; the parent keeps about `queued_s` of work
// queued for each worker (at least 2 and at most `most_in_flight` cases), so that a worker finds its next jobs
// already in the pipe while the parent reads its answers, and a stop waits for at most that much work.
constexpr double answer_after_s = 0.005;
constexpr double queued_s = 0.02;
constexpr size_t least_in_flight = 2, most_in_flight = 256;

/// A run left out of a job because it crashed a worker before.
struct Excluded {
  int64_t strategy;
  int64_t direction; // every_direction for a run_case strategy
};

struct Job {
  int64_t order = 0; // position in run()'s sequence
  uint64_t job = 0;
  std::vector<Excluded> excluded;
  std::vector<std::pair<size_t, Outcome>> crashes; // verdicts of the excluded runs, by position in the outcomes
};

void put(WireWriter &out, const Outcome &o) {
  out.put(o.strategy);
  out.put(o.direction);
  out.put(o.verdict);
  out.put(o.detail);
  out.put(o.diff.ok);
  out.put(o.diff.problem);
  out.put(o.diff.mismatches);
  out.put(o.diff.first_mismatch);
  out.put(o.diff.max_error);
  out.put(o.diff.max_ratio);
  out.put(o.diff.bound_at_max_ratio);
  out.put(o.diff.error_at_max_ratio);
  out.put(o.diff.zero_fraction);
  out.put(o.implementation);
  out.put(o.seconds);
  out.put(o.kind);
  out.put(o.judged_under);
  out.put(o.algorithm);
}

Outcome get_outcome(WireReader &in) {
  Outcome o;
  o.strategy = in.get_string();
  o.direction = in.get<Direction>();
  o.verdict = in.get<Verdict>();
  o.detail = in.get_string();
  o.diff.ok = in.get<bool>();
  o.diff.problem = in.get_string();
  o.diff.mismatches = in.get<int64_t>();
  o.diff.first_mismatch = in.get<int64_t>();
  o.diff.max_error = in.get<double>();
  o.diff.max_ratio = in.get<double>();
  o.diff.bound_at_max_ratio = in.get<double>();
  o.diff.error_at_max_ratio = in.get<double>();
  o.diff.zero_fraction = in.get<double>();
  o.implementation = in.get_string();
  o.seconds = in.get<double>();
  o.kind = in.get<FailureKind>();
  o.judged_under = in.get_string();
  o.algorithm = in.get_string();
  return o;
}

void put(WireWriter &out, const CaseRun &run) {
  out.put(run.problem);
  out.put(static_cast<uint64_t>(run.outcomes.size()));
  for (const Outcome &outcome : run.outcomes) put(out, outcome);
  out.put(run.reference_s);
  out.put(run.seconds);
  out.put(run.reference_problem);
}

CaseRun get_case_run(WireReader &in) {
  CaseRun run;
  run.problem = in.get<Problem>();
  const auto count = in.get<uint64_t>();
  if (count > 1'000'000) throw std::runtime_error("wire: implausible outcome count");
  run.outcomes.reserve(count);
  for (uint64_t i = 0; i < count; ++i) run.outcomes.push_back(get_outcome(in));
  run.reference_s = in.get<double>();
  run.seconds = in.get<double>();
  run.reference_problem = in.get_string();
  return run;
}

void put(WireWriter &out, const Job &job) {
  out.put(job.order);
  out.put(job.job);
  out.put(static_cast<uint64_t>(job.excluded.size()));
  for (const Excluded &excluded : job.excluded) {
    out.put(excluded.strategy);
    out.put(excluded.direction);
  }
}

/// A job as put() sent it; `crashes` stays with the parent.
Job get_job(WireReader &in) {
  Job job;
  job.order = in.get<int64_t>();
  job.job = in.get<uint64_t>();
  job.excluded.resize(in.get<uint64_t>());
  for (Excluded &e : job.excluded) e = {in.get<int64_t>(), in.get<int64_t>()};
  return job;
}

bool is_excluded(const std::vector<Excluded> &excluded, int64_t strategy, int64_t direction) {
  for (const Excluded &e : excluded)
    if (e.strategy == strategy && (e.direction == direction || e.direction == every_direction)) return true;
  return false;
}

CaseRun run_one(const Job &job, Position &position, const CaseJob &run_job) {
  const BeforeRun before = [&](size_t strategy, std::optional<Direction> direction) {
    const auto s = static_cast<int64_t>(strategy);
    const int64_t d = direction ? static_cast<int64_t>(*direction) : every_direction;
    if (is_excluded(job.excluded, s, d)) return false;
    mark(position, s, d);
    return true;
  };
  mark_job(position, job.order);
  const Clock::time_point start = Clock::now();
  CaseRun run;
  try {
    run = run_job(job.job, before);
  } catch (const std::exception &exception) {
    run = CaseRun{{}, {}, 0, 0, fmt::format("threw: {}", exception.what())};
  }
  run.seconds = seconds_since(start);
  return run;
}

// A worker's life: read a batch of jobs, run them, answer in batches (see answer_after_s); until the parent closes
// the pipe, or until it retires (core/process/worker_recycling.hpp): then its last answer says so and it exits.
int worker_main(int from_parent, int to_parent, Position &position, const CaseJob &run_job,
                const WorkerRecycling &recycling) {
  std::deque<Job> queue;
  WireWriter answers;
  uint64_t answered = 0;
  int64_t cases_run = 0;
  Clock::time_point since_answer = Clock::now();
  const auto answer = [&](bool retiring = false) {
    WireWriter message;
    message.put(answered);
    message.put(retiring);
    const bool sent = write_message(to_parent, message.bytes() + answers.bytes());
    answers = WireWriter(), answered = 0, since_answer = Clock::now();
    return sent;
  };
  std::string message;
  for (;;) {
    if (queue.empty()) {
      if (answered > 0 && !answer()) return 0;
      if (!read_message(from_parent, message)) return 0;
      WireReader in(message);
      for (auto count = in.get<uint64_t>(); count > 0; --count) queue.push_back(get_job(in));
      continue;
    }
    put(answers, run_one(queue.front(), position, run_job));
    queue.pop_front();
    ++answered;
    if (recycling.due(++cases_run)) {
      // It stays until the parent closes the pipe: jobs the parent sends meanwhile must not meet a closed pipe
      // (an EPIPE is how the parent sees a worker die); the parent hands them to the next worker.
      if (answer(true))
        while (read_message(from_parent, message)) {
        }
      return 0;
    }
    if (seconds_since(since_answer) >= answer_after_s && !answer()) return 0;
  }
}

struct Worker {
  pid_t pid = -1;
  int to_worker = -1;
  int from_worker = -1;
  std::deque<Job> jobs;
};

} // namespace

struct CaseWorkers::Pool {
  const std::vector<Strategy> &strategies;
  double run_timeout_s;
  CaseJob run_job;
  WorkerRecycling recycling;
  int64_t retired = 0; // workers replaced by recycling
  std::vector<Worker> workers;
  Position *positions = nullptr; // one per worker, shared with it
  std::deque<Job> retries;       // cases to run again (without the run that killed their worker, for that one)
  std::map<int64_t, CaseRun> finished; // by order, until every earlier case has been handed over
  int64_t peak_rss_kib = 0;            // the largest of the reaped workers' own peaks
  // Seconds a case takes: a moving average over answers (0 before the first), each answer weighing half. A
  // worker's first case is its slowest by far (first page faults; docs/performance.md has the figures). Averaged
  // per case with a small weight, that one case held workers at 2 cases in flight, answering one at a time, for
  // their first milliseconds of work; averaged per answer, it is forgotten within a few.
  double case_s = 0;

  /// How many jobs a worker should have been handed and not yet answered (see queued_s), when `unsent` jobs are
  /// left to hand out. Near the end each worker gets at most its share of what is left, so that no worker is
  /// still working through a full queue while another has nothing to do.
  size_t in_flight(int64_t unsent) const {
    if (case_s <= 0) return least_in_flight;
    const auto share = static_cast<size_t>(unsent / static_cast<int64_t>(2 * workers.size()));
    return std::clamp(std::min(static_cast<size_t>(queued_s / case_s), share), least_in_flight, most_in_flight);
  }
  void spawn(size_t w);
  int reap(size_t w, bool kill_first);
  void send(size_t w, std::vector<Job> jobs);
  void receive(size_t w);
  void bury(size_t w, bool timed_out, const std::string &why = {});
  void retire(size_t w);
};

void CaseWorkers::Pool::spawn(size_t w) {
  int jobs[2];
  if (pipe2(jobs, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe failed: {}", strerror(errno)));
  Position &position = positions[w];
  Worker &worker = workers[w];
  worker.pid = fork_child(
      [&](int to_parent) {
        close(jobs[1]);
        for (const Worker &other : workers) { // a sibling holding our pipes would keep them open after we die
          if (other.to_worker >= 0) close(other.to_worker);
          if (other.from_worker >= 0) close(other.from_worker);
        }
        return worker_main(jobs[0], to_parent, position, run_job, recycling);
      },
      &worker.from_worker);
  close(jobs[0]);
  worker.to_worker = jobs[1];
}

// Ends worker w (killing it first if asked) and returns its wait status.
int CaseWorkers::Pool::reap(size_t w, bool kill_first) {
  Worker &worker = workers[w];
  if (kill_first) kill(worker.pid, SIGKILL);
  close(worker.to_worker);
  close(worker.from_worker);
  const Reaped reaped = kill_and_reap(worker.pid, Kill::nothing);
  peak_rss_kib = std::max(peak_rss_kib, reaped.peak_rss_kib);
  worker = Worker{};
  return reaped.status;
}

void CaseWorkers::Pool::send(size_t w, std::vector<Job> jobs) {
  if (jobs.empty()) return;
  if (workers[w].pid < 0) spawn(w);
  // An idle worker's clock starts now, not at its last mark; a busy one marks each job itself when it starts it.
  if (workers[w].jobs.empty()) mark_job(positions[w], jobs.front().order);
  WireWriter message;
  message.put(static_cast<uint64_t>(jobs.size()));
  for (Job &job : jobs) {
    put(message, job);
    workers[w].jobs.push_back(std::move(job));
  }
  if (!write_message(workers[w].to_worker, message.bytes())) bury(w, false);
}

void CaseWorkers::Pool::receive(size_t w) {
  std::string message;
  if (!read_message(workers[w].from_worker, message)) return bury(w, false);
  std::vector<CaseRun> runs;
  bool retiring = false;
  try {
    WireReader in(message);
    const auto count = in.get<uint64_t>();
    retiring = in.get<bool>();
    if (count > workers[w].jobs.size() || (count == 0 && !retiring))
      throw std::runtime_error("wire: answers to jobs never sent");
    for (uint64_t i = 0; i < count; ++i) runs.push_back(get_case_run(in));
    if (!in.done()) throw std::runtime_error("wire: trailing bytes");
  } catch (const std::exception &exception) {
    return bury(w, false, fmt::format("sent an unreadable result ({})", exception.what()));
  }
  double seconds = 0;
  for (const CaseRun &run : runs) seconds += run.seconds;
  if (!runs.empty()) case_s = case_s <= 0 ? seconds / static_cast<double>(runs.size())
                                          : (case_s + seconds / static_cast<double>(runs.size())) / 2;
  for (CaseRun &run : runs) {
    Job &job = workers[w].jobs.front();
    if (run.reference_problem.empty())
      for (auto &[at, outcome] : job.crashes) run.outcomes.at(at) = outcome;
    finished[job.order] = std::move(run);
    workers[w].jobs.pop_front();
  }
  if (retiring) retire(w);
}

// Worker w retired (worker_recycling.hpp) after answering: the jobs it was sent and had not run go, as they were
// and in order, to the next worker, which send() forks afresh.
void CaseWorkers::Pool::retire(size_t w) {
  std::deque<Job> unrun = std::move(workers[w].jobs);
  for (auto job = unrun.rbegin(); job != unrun.rend(); ++job) retries.push_front(std::move(*job));
  reap(w, false);
  ++retired;
}

// Worker w died or overran: blame the run it was in, queue its case again without that run, and queue again as
// they were the cases it had not started yet and those it ran but had not answered.
void CaseWorkers::Pool::bury(size_t w, bool timed_out, const std::string &why) {
  std::deque<Job> jobs = std::move(workers[w].jobs);
  const int64_t order = positions[w].order, strategy = positions[w].strategy, direction = positions[w].direction;
  auto running = std::find_if(jobs.begin(), jobs.end(), [&](const Job &job) { return job.order == order; });
  if (running == jobs.end()) running = jobs.begin();
  Job job = std::move(*running);
  jobs.erase(running);
  for (Job &other : jobs) retries.push_back(std::move(other));
  const int status = reap(w, true);
  const Termination end =
      timed_out ? Termination::timed_out_after(run_timeout_s) : Termination::from_wait_status(status);
  const std::string description = why.empty() ? end.describe() : why;
  if (strategy == making_the_case) {
    finished[job.order] = CaseRun{{}, {}, 0, 0, description};
    return;
  }
  job.excluded.push_back({strategy, direction});
  for (Direction each : all_directions) {
    if (direction != every_direction && direction != static_cast<int64_t>(each)) continue;
    Outcome outcome{strategies[static_cast<size_t>(strategy)].name, each, Verdict::failed, description, {}, {}};
    outcome.kind = timed_out ? FailureKind::timeout : FailureKind::crash;
    outcome.seconds = timed_out ? run_timeout_s : 0;
    const size_t at = static_cast<size_t>(strategy) * all_directions.size() + static_cast<size_t>(each);
    job.crashes.emplace_back(at, std::move(outcome));
  }
  retries.push_front(std::move(job));
}

CaseWorkers::CaseWorkers(const std::vector<Strategy> &strategies, int processes, double run_timeout_s,
                         CaseJob run_job, WorkerRecycling recycling)
    : pool_(new Pool{strategies, run_timeout_s, std::move(run_job), recycling, 0, {}, nullptr, {}, {}}) {
  pool_->workers.resize(static_cast<size_t>(std::max(processes, 1)));
  const size_t bytes = pool_->workers.size() * sizeof(Position);
  void *shared = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error(fmt::format("mmap failed: {}", strerror(errno)));
  pool_->positions = static_cast<Position *>(shared);
  for (size_t w = 0; w < pool_->workers.size(); ++w) new (&pool_->positions[w]) Position;
  std::signal(SIGPIPE, SIG_IGN); // a dead worker's pipe must give EPIPE to the parent, not kill it
}

CaseWorkers::~CaseWorkers() {
  end();
  munmap(pool_->positions, pool_->workers.size() * sizeof(Position));
}

int64_t CaseWorkers::retired() const { return pool_->retired; }

int64_t CaseWorkers::end() {
  // Every worker is killed before any is waited for, so that the kernel tears their address spaces down at once.
  for (const Worker &worker : pool_->workers)
    if (worker.pid >= 0) kill(worker.pid, SIGKILL);
  for (size_t w = 0; w < pool_->workers.size(); ++w)
    if (pool_->workers[w].pid >= 0) pool_->reap(w, false);
  return pool_->peak_rss_kib;
}

int64_t CaseWorkers::run(int64_t count, const std::function<uint64_t(int64_t)> &job_at,
                         const std::function<bool()> &stop, const std::function<void(int64_t, CaseRun &&)> &done) {
  Pool &pool = *pool_;
  int64_t next = 0, handed_over = 0;
  bool stopping = false;
  for (;;) {
    for (size_t w = 0; w < pool.workers.size(); ++w) {
      std::vector<Job> batch;
      while (pool.workers[w].jobs.size() + batch.size() < pool.in_flight(count - next)) {
        if (!pool.retries.empty()) {
          batch.push_back(std::move(pool.retries.front()));
          pool.retries.pop_front();
        } else if (next < count && !(stopping = stopping || (stop && stop()))) {
          batch.push_back(Job{next, job_at(next), {}, {}});
          ++next;
        } else {
          break;
        }
      }
      pool.send(w, std::move(batch));
    }
    std::vector<pollfd> fds;
    std::vector<size_t> busy;
    int64_t soonest_ns = INT64_MAX;
    const auto timeout_ns = static_cast<int64_t>(pool.run_timeout_s * 1e9);
    for (size_t w = 0; w < pool.workers.size(); ++w) {
      if (pool.workers[w].jobs.empty()) continue;
      fds.push_back({pool.workers[w].from_worker, POLLIN, 0});
      busy.push_back(w);
      soonest_ns = std::min(soonest_ns, pool.positions[w].since_ns + timeout_ns);
    }
    if (busy.empty() && pool.retries.empty()) break;
    const int64_t wait_ms = std::clamp<int64_t>((soonest_ns - now_ns()) / 1000000 + 1, 0, 1000);
    if (!busy.empty() && poll(fds.data(), fds.size(), static_cast<int>(wait_ms)) < 0 && errno != EINTR)
      throw std::runtime_error(fmt::format("poll failed: {}", strerror(errno)));
    for (size_t i = 0; i < busy.size(); ++i) {
      const size_t w = busy[i];
      if (fds[i].revents != 0) pool.receive(w);
      else if (now_ns() > pool.positions[w].since_ns + timeout_ns) pool.bury(w, true);
    }
    for (auto first = pool.finished.begin(); first != pool.finished.end() && first->first == handed_over;
         first = pool.finished.erase(first), ++handed_over)
      done(first->first, std::move(first->second));
  }
  return handed_over;
}

std::vector<std::vector<Outcome>> verify_cases_isolated(const std::vector<const Case *> &cases,
                                                        const std::vector<Strategy> &strategies, double run_timeout_s) {
  std::vector<std::vector<Outcome>> outcomes(cases.size());
  if (cases.empty()) return outcomes;
  CaseWorkers workers(strategies, 1, run_timeout_s, [&](uint64_t job, const BeforeRun &before) {
    const Case &conv_case = *cases[job];
    return CaseRun{conv_case.problem, verify_case(conv_case, compute_reference(conv_case), strategies, before), 0, 0,
                   {}};
  });
  std::string reference_problem;
  workers.run(
      static_cast<int64_t>(cases.size()), [](int64_t i) { return static_cast<uint64_t>(i); }, {},
      [&](int64_t i, CaseRun &&run) {
        if (reference_problem.empty()) reference_problem = run.reference_problem;
        outcomes[static_cast<size_t>(i)] = std::move(run.outcomes);
      });
  if (!reference_problem.empty()) throw std::runtime_error("computing the reference " + reference_problem);
  return outcomes;
}

std::vector<Outcome> verify_case_isolated(const Case &conv_case, const std::vector<Strategy> &strategies,
                                          double run_timeout_s) {
  return verify_cases_isolated({&conv_case}, strategies, run_timeout_s).front();
}

} // namespace convcheck
