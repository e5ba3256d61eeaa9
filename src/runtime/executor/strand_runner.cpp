// strand_runner.cpp — see strand_runner.hpp and docs/internals/dispatcher.md.
//
// Protocol (one job; docs/internals/dispatcher.md). job_ holds (seq << kJobSeqShift) | state:
//  step 1, publication: whoever closes the previous job (the master for the first) writes
//     release_/index_ (plain), stores job_ = (seq, kJobPending) and wakes the members blocked on
//     it.
//  step 2, commit: a member that sees (seq, pending) copies release_/index_, sleeps until
//     release + offset of its first segment (or a stop), then decides the job's fate with one CAS:
//     pending → running, or pending → stopped when a stop was requested. The first CAS wins and
//     every later member follows its verdict (its CAS fails and returns it), so all members run a
//     job or none does, and a stop cancels a pending job without any member waiting on another.
//     The winner stores the job's start time.
//  step 3, segments: for each segment s with strands of its own the member sleeps until
//     release + offset_s, switches priority if it differs, waits for gate s − 1, runs its strands
//     and arrives at gate s. The arrival completing a gate wakes its sleepers; the one completing
//     the last gate closes the job: records it and publishes the next job (step 1) or kJobStopped.
// Memory-ordering invariants (cited as (n) on the lines):
//  (1) publication: release_/index_ (plain) → release store of (seq, pending) → a member's acquire
//      load of job_. The store heads a release sequence that contains the commit CAS, so a member
//      that reads (seq, running) sees release_/index_ too.
//  (2) commit: the CASes on job_ are RMWs of one word, totally ordered: exactly one succeeds on
//      (seq, pending), every other one reads its verdict.
//  (3) gates: the arrivals' acq_rel fetch_adds on a gate form one release sequence, so a member
//      whose acquire load sees the gate complete sees every effect of the segment's strands.
//  (4) close: every member arrives at some gate (a segment without strands is refused) and members
//      of segment s + 1 acquire gate s before arriving at gate s + 1, so the closer happens-after
//      every member's read of release_/index_, the winner's store of job_start_ and every strand's
//      store of failed_: it may overwrite release_/index_ and read job_start_ and failed_ relaxed.
//  (5) the job log and the skip count (log_, releases_) are written only by closers, each
//      happening-after the previous one through (1) and (4), and read after join(); so is failure_
//      (written by the first member whose strand threw).
//  (6) gates count cumulatively (participants · runs mod 2^32) and are never reset, so no member
//      races a reset; the signed difference test is exact while fewer than 2^31 arrivals separate
//      a waiter from its target, i.e. always (a member is at most one job behind). `runs` is the
//      same on all members because every committed job is run by all of them.
#include "runtime/executor/strand_runner.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "platform/futex.hpp"
#include "platform/spin_wait.hpp"
#include "rtpar/channel_set.hpp"
#include "runtime/executor/task_runner.hpp"

namespace rtpar::detail {

namespace {

// encode packs a job sequence number (mod 2^30) and a state into the job_ word.
constexpr std::uint32_t encode(std::uint32_t seq, std::uint32_t state) {
  return (seq << kJobSeqShift) | state;
}

// reached says whether a cumulative counter has reached target (wrap-around safe).
bool reached(std::uint32_t value, std::uint32_t target) {
  return static_cast<std::int32_t>(value - target) >= 0;
}

}  // namespace

StrandRunner::StrandRunner(const TaskSpec& task, const TaskPlan& placement, bool best_effort,
                           std::int64_t record_capacity, RunControl& control, Endpoint* channels,
                           BudgetRequest budget)
    : RunnerBase(task, placement, record_capacity, control, channels, budget),
      best_effort_(best_effort),
      gates_(placement.segments.size()) {
  if (!task.code || !task.code->supports_strands()) {
    throw InputError(task.where, "kernel",
                     "task '" + task.name + "' has a strand-level plan (" +
                         "decomposition or fork-join-rta), but its kernel '" + task.kernel +
                         "' cannot run strand by strand; use [[task.segment]] or the segments "
                         "kernel, or a federated planner");
  }
  const std::size_t segments = placement.segments.size();
  for (std::size_t s = 0; s < segments; ++s) {
    // Every segment needs a strand: the gates' ordering chain (invariant 4) passes through each.
    if (placement.segments[s].strands.empty()) {
      throw InputError(task.where, "segments",
                       "the plan of task '" + task.name + "' has segment " + std::to_string(s) +
                           " without strands");
    }
  }
  std::map<int, std::size_t> member_of;  // CPU → member index, in order of first appearance
  for (std::size_t s = 0; s < segments; ++s) {
    const SegmentPlan& seg = placement.segments[s];
    for (std::size_t k = 0; k < seg.strands.size(); ++k) {
      const StrandPlan& strand = seg.strands[k];
      auto [it, added] = member_of.emplace(strand.core, members_.size());
      if (added) {
        Member m;
        m.config.cpu = strand.core;
        m.config.sched = best_effort ? SchedClass::other : SchedClass::fifo;
        m.config.name =
            (members_.empty() ? "rt:" : "rt" + std::to_string(members_.size()) + ":") + task.name;
        m.strands.assign(segments, {});
        m.priority.assign(segments, 0);
        m.first_segment = s;
        members_.push_back(std::move(m));
      }
      Member& m = members_[it->second];
      m.last_segment = s;
      m.charged_ns += placement.segments[s].length_ns;
      m.strands[s].push_back(static_cast<std::int64_t>(k));
      m.priority[s] = std::max(m.priority[s], strand.priority);
    }
  }
  for (Member& m : members_) {
    // Per job: a segment slice and a gate wait per segment it has strands in, and one overrun.
    std::int64_t own = 0;
    for (const auto& strands : m.strands) own += strands.empty() ? 0 : 1;
    m.trace = ThreadTrace(record_capacity, 2 * own + 1);
    // A member waits for its jobs at the priority its first strand runs at.
    m.config.priority = m.priority[m.first_segment];
    m.current_priority = m.config.priority;
  }
  for (std::size_t s = 0; s < segments; ++s) {
    std::int64_t busiest = 0;  // strands × length on the busiest core: the segment's makespan
    for (const Member& m : members_) {
      if (m.strands[s].empty()) continue;
      ++gates_[s].participants;
      busiest = std::max(busiest, static_cast<std::int64_t>(m.strands[s].size()) *
                                      placement.segments[s].length_ns);
    }
    gates_[s].spin_cap_ns = busiest;
  }
  // A member's gate waits may spin (wait_gate): that CPU time is the runtime's, not an overrun.
  for (Member& m : members_) {
    for (std::size_t s = m.first_segment + 1; s < segments; ++s) {
      if (m.strands[s].empty()) continue;
      m.charged_ns += task.wait.kind == WaitKind::hybrid ? task.wait.spin_ns.count()
                      : task.wait.kind == WaitKind::spin ? gates_[s - 1].spin_cap_ns
                                                         : 0;
    }
    tally_.charged_ns = std::max(tally_.charged_ns, m.charged_ns);
  }
  KernelSetup setup;
  setup.work = task.work;
  setup.span = task.span;
  setup.threads = static_cast<int>(members_.size());
  task.code->prepare(setup);
  // Workers first (they block on job_ until the first publication), the master in start().
  for (std::size_t m = 1; m < members_.size(); ++m) {
    try {
      members_[m].thread =
          std::make_unique<RtThread>(members_[m].config, [this, m] { member_body(m); });
    } catch (...) {
      join();  // stops and joins the members already created
      throw;
    }
  }
}

StrandRunner::~StrandRunner() { join(); }

void StrandRunner::start() {
  started_ = true;
  members_[0].thread = std::make_unique<RtThread>(members_[0].config, [this] { master_loop(); });
}

void StrandRunner::join() {
  // Never started: no job was published, so the workers only wait for the stopped state.
  if (!started_) stop_all(kNoJobSeq);
  tids_.assign(members_.size(), 0);
  for (std::size_t m = 0; m < members_.size(); ++m) {
    if (!members_[m].thread) continue;
    members_[m].thread->join();
    tids_[m] = members_[m].thread->tid();
  }
}

bool StrandRunner::join_until(std::int64_t deadline_ns) {
  for (Member& member : members_) {
    if (member.thread && !member.thread->join_until(deadline_ns)) return false;
  }
  join();
  return true;
}

std::vector<int> StrandRunner::thread_ids() const {
  std::vector<int> ids;
  for (const Member& member : members_) ids.push_back(member.thread ? member.thread->tid() : 0);
  return ids;
}

void StrandRunner::set_priority(Member& member, int priority) noexcept {
  if (best_effort_ || priority <= 0 || priority == member.current_priority) return;
  sched_param param{};
  param.sched_priority = priority;
  if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0) {
    member.current_priority = priority;
  }
}

void StrandRunner::wait_gate(std::size_t s, std::uint32_t runs) noexcept {
  Gate& gate = gates_[s];
  const std::uint32_t target = gate.participants * kGateArrival * runs;  // invariant 6
  // Spin first, then sleep. `hybrid` spins spin_ns. `spin` spins at most the segment's makespan
  // (its longest strand list): unbounded spinning at SCHED_FIFO can live-lock two tasks whose
  // members each spin on one core waiting for a lower-priority strand the other's spinner starves;
  // a gate later than its makespan means the segment was preempted, and blocking is then cheaper.
  const WaitKind kind = task_.wait.kind;
  const std::int64_t spin_for = kind == WaitKind::hybrid ? task_.wait.spin_ns.count()
                                : kind == WaitKind::spin ? gate.spin_cap_ns
                                                         : 0;
  const auto complete = [&] {
    // acquire: pairs with the arrivals' acq_rel fetch_adds (one release sequence, (3)): seeing
    // the gate complete, we see every effect of segment s.
    return reached(gate.done.load(std::memory_order_acquire), target);
  };
  // The clock is read every round (clock_every = 1), as the gate always has.
  if (spin_for > 0 && spin_until(complete, spin_for, NeverGiveUp{}, 1)) {
    return;
  }
  for (;;) {
    // acquire: as in the spin above (3). An arrival between this load and the sleep changes the
    // word, so the kernel's compare with `seen` fails and futex_wait returns at once.
    const std::uint32_t seen = gate.done.load(std::memory_order_acquire);
    if (reached(seen, target)) return;
    futex_wait(gate.done, seen);
  }
}

bool StrandRunner::run_job(std::size_t m, std::uint32_t seq, std::uint32_t runs) noexcept {
  Member& member = members_[m];
  const std::int64_t release = release_;
  const std::int64_t index = index_;
  const std::size_t first = member.first_segment;
  const std::size_t last = placement_.segments.size() - 1;

  CpuBudget* const budget = member.budget;
  // Commit (step 2): sleep until this member's first strand may start, or a stop.
  const bool stop = !releases_.sleep_until_release(release + placement_.segments[first].offset_ns);
  const std::int64_t now = monotonic_now();
  std::uint32_t state = encode(seq, kJobPending);
  // The verdict (step 2, invariant 2): the first CAS on (seq, pending) decides for all members.
  // acq_rel on success, acquire on failure: the acquire halves re-synchronize with the
  // publication (1), which member_loop's acquire load already did; the release half publishes
  // nothing a member reads (job_start_ is stored after it and reaches the closer through (4)).
  // Both are stronger than the protocol needs, never weaker.
  if (job_.compare_exchange_strong(state, encode(seq, stop ? kJobStopped : kJobRunning),
                                   std::memory_order_acq_rel, std::memory_order_acquire)) {
    if (stop) {
      futex_wake(job_, INT32_MAX);
      return false;
    }
    // relaxed: read only by this job's closer, which happens-after this store through our
    // arrival at a gate (invariant 4).
    job_start_.store(now, std::memory_order_relaxed);
  } else if ((state & kJobStateMask) == kJobStopped) {
    return false;
  }
  if (budget != nullptr) budget->begin();

  JobContext job;
  job.index = index;
  job.release_ns = release;
  job.channels = channels_;
  // This thread's explicit lock holds are the task's (lock channel records).
  if (channels_ != nullptr) set_channel_user(channels_->task_index());
  ThreadTrace& trace = member.trace;
  for (std::size_t s = first; s <= last; ++s) {
    if (member.strands[s].empty()) continue;
    const std::int64_t at = release + placement_.segments[s].offset_ns;
    std::int64_t begin = monotonic_now();
    if (begin < at) {
      sleep_until(at);
      begin = monotonic_now();
    }
    // A demoted member stays below the real-time tasks until its part of the job ends.
    if (budget == nullptr || !budget->demoted()) set_priority(member, member.priority[s]);
    const auto segment = static_cast<std::int32_t>(s);
    if (s > 0) {
      wait_gate(s - 1, runs);
      const std::int64_t waited = monotonic_now();
      trace.add(ThreadSliceKind::wait, index, segment, begin, waited);
      begin = waited;
    }
    for (const std::int64_t strand : member.strands[s]) {
      // relaxed: a hint to skip the rest of a failed job; nothing is read through it (failure_
      // is read after join, invariant 5).
      if (failed_.load(std::memory_order_relaxed)) break;
      try {
        if (!task_.code->run_strand(job, static_cast<int>(s), strand)) {
          throw std::logic_error("kernel refused strand " + std::to_string(strand) +
                                 " of segment " + std::to_string(s));
        }
      } catch (...) {
        // seq_cst (default; acq_rel would do): an RMW, so exactly one thrower reads false and
        // writes failure_ (plain). failure_ is written after the exchange, so nothing publishes it
        // through failed_: it is read after join() (invariant 5). The closer of this job sees the
        // true through our later gate arrival (invariant 4) and stops releasing.
        if (!failed_.exchange(true)) failure_ = std::current_exception();
      }
    }
    // Read before the arrival, so the slice ends before the closer's finish (invariant 4).
    const std::int64_t end = monotonic_now();
    trace.add(ThreadSliceKind::segment, index, segment, begin, end);
    if (s == member.last_segment && budget != nullptr) {
      // Measured before the last arrival, so the closer sees it (invariant 4).
      const std::int64_t overrun = budget->end();
      if (overrun > 0) {
        // Within this segment's slice, so that the thread's slices nest.
        trace.add(ThreadSliceKind::overrun, index, segment, std::max(begin, end - overrun), end);
      }
      // relaxed: an RMW on one word keeps the largest; the closer reads it after our arrival
      // below, whose acq_rel orders this before (invariant 4).
      std::int64_t seen = job_overrun_.load(std::memory_order_relaxed);
      while (overrun > seen &&
             !job_overrun_.compare_exchange_weak(seen, overrun, std::memory_order_relaxed)) {
      }
    }
    // acq_rel (invariants 3, 4): the release half publishes our strands' effects and our reads
    // of release_/index_ to whoever sees the gate complete; the acquire half makes the arrival
    // that completes the gate (the closer, for the last one) happen-after every earlier arrival.
    const std::uint32_t after =
        gates_[s].done.fetch_add(kGateArrival, std::memory_order_acq_rel) + kGateArrival;
    if (reached(after, gates_[s].participants * kGateArrival * runs)) {
      futex_wake(gates_[s].done, INT32_MAX);
      if (s == last) close_job(seq);
    }
  }
  // Wait for the next job at the priority it starts with (a no-op when it did not change).
  set_priority(member, member.priority[first]);
  return true;
}

void StrandRunner::close_job(std::uint32_t seq) noexcept {
  const std::int64_t finish = monotonic_now();
  // relaxed: the gates' chain orders the winner's store before this closer (invariant 4).
  JobRecord record{index_, release_, job_start_.load(std::memory_order_relaxed), finish};
  // relaxed: every member's store happens-before this closer (invariant 4); cleared before the
  // next publication, whose release store orders the clearing before the next job's members.
  record.overrun_ns = job_overrun_.exchange(0, std::memory_order_relaxed);
  if (record.overrun_ns > 0) {
    // Written by closers only, read after join (invariant 5).
    ++tally_.overruns;
    tally_.max_overrun_ns = std::max(tally_.max_overrun_ns, record.overrun_ns);
  }
  log_.record(record);
  publish(seq + 1, releases_.next(index_, finish));
}

void StrandRunner::publish(std::uint32_t seq, std::int64_t k) noexcept {
  // acquire: pairs with the control thread's release store of stop (RunControl (2)); the flag
  // carries no data.
  if (!releases_.due(k) || control_.stop.load(std::memory_order_acquire) != kStopClear ||
      // acquire (relaxed would do): a closer happens-after every exchange of this job's failed
      // strands through the gates (invariant 4), so it reads true; failure_ is written after the
      // exchange and read after join (invariant 5), not through this load.
      failed_.load(std::memory_order_acquire)) {
    stop_all(seq);
    return;
  }
  release_ = releases_.release(k);
  index_ = k;
  // The origin of the job's writes, published to the members with release_ by the store below.
  if (channels_ != nullptr) channels_->begin_job(release_);
  // release: publishes the previous jobs' records and the skip count to hung_result (invariant
  // 5's writers are the closers, this one the last of them until the job closes).
  running_.store(k, std::memory_order_release);
  // release: publishes release_/index_ to the members that acquire (seq, pending) (step 1,
  // invariant 1). We may overwrite them: every member's read of the previous values
  // happens-before this closer (invariant 4).
  job_.store(encode(seq, kJobPending), std::memory_order_release);
  futex_wake(job_, INT32_MAX);
}

void StrandRunner::stop_all(std::uint32_t seq) noexcept {
  // release (relaxed would do): members acquire it in member_loop and leave; they read nothing
  // through it (the log is read after join, invariant 5). Stored by a closer, or by join() when
  // no job was ever published.
  job_.store(encode(seq, kJobStopped), std::memory_order_release);
  futex_wake(job_, INT32_MAX);
}

void StrandRunner::member_body(std::size_t m) noexcept {
  Member& member = members_[m];
  if (budget_.mode == BudgetMode::none) {
    member_loop(m);
    return;
  }
  // The timer targets the calling thread, so each member makes its own, before its first job.
  std::optional<CpuBudget> budget;
  try {
    budget.emplace(budget_.mode == BudgetMode::enforce, member.charged_ns, budget_.margin_ns);
    member.budget = &*budget;
  } catch (const std::exception&) {
    // The member runs unmeasured; result() says so (member.budget stays null).
  }
  member_loop(m);
  member.budget = nullptr;
  if (budget) member.demoted_ns = budget->demoted_ns();  // read after join
}

void StrandRunner::member_loop(std::size_t m) noexcept {
  std::uint32_t seen = kNoJobSeq;  // sequence number of the last job looked at
  std::uint32_t runs = 0;          // jobs run
  for (;;) {
    // acquire: pairs with the closer's release store of (seq, pending) — or any CAS of its
    // release sequence — so run_job sees the release_/index_ it published (invariant 1).
    const std::uint32_t state = job_.load(std::memory_order_acquire);
    if ((state & kJobStateMask) == kJobStopped) return;
    const std::uint32_t seq = state >> kJobSeqShift;
    if (seq == seen) {
      // Between jobs members always block, whatever the wait policy: spinning at SCHED_FIFO
      // with no job to run would hit RT throttling and take the core from everything else.
      futex_wait(job_, state);
      continue;
    }
    seen = seq;
    if (run_job(m, seq, runs + 1)) ++runs;
  }
}

void StrandRunner::master_loop() noexcept {
  // acquire: pairs with the control thread's release store of go; publish reads the
  // start_ns/end_ns it published through releases_ (RunControl (1)).
  while (control_.go.load(std::memory_order_acquire) == kGoWaiting) {
    futex_wait(control_.go, kGoWaiting);
  }
  publish(kNoJobSeq + 1, 0);
  member_body(0);
}

TaskRun StrandRunner::result() {
  join();
  TaskRun run = log_.take_run(task_, placement_, releases_.skipped());
  run.master_tid = tids_.empty() ? 0 : tids_[0];
  for (std::size_t m = 1; m < tids_.size(); ++m) run.worker_tids.push_back(tids_[m]);
  for (std::size_t m = 0; m < members_.size(); ++m) {
    run.threads.push_back(
        members_[m].trace.take(m < tids_.size() ? tids_[m] : 0, members_[m].config.cpu,
                               m == 0 ? "master" : "strand thread " + std::to_string(m)));
  }
  std::int64_t demoted = 0;
  for (const Member& member : members_) demoted += member.demoted_ns;
  tally_.demoted_ns = demoted;
  take_budget(run);
  return run;
}

std::unique_ptr<Runner> make_runner(const TaskSpec& task, const TaskPlan& placement,
                                    bool best_effort, std::int64_t record_capacity,
                                    RunControl& control, Endpoint* channels, BudgetRequest budget) {
  // The plan may have charged another wait policy than the task's ([system] shared_wait): the
  // members wait as it charged.
  if (const std::optional<TaskSpec> planned = as_planned(task, placement)) {
    return make_runner(*planned, placement, best_effort, record_capacity, control, channels,
                       budget);
  }
  // A plan of one strand is a sequential job on one core: the team runner runs it with any
  // kernel, at the strand's core and priority (TaskPlan::cores and priority say the same).
  const bool one_strand =
      placement.segments.size() == 1 && placement.segments.front().strands.size() == 1;
  if (!placement.segments.empty() && !one_strand) {
    return std::make_unique<StrandRunner>(task, placement, best_effort, record_capacity, control,
                                          channels, budget);
  }
  return std::make_unique<TaskRunner>(task, placement, best_effort, record_capacity, control,
                                      channels, budget);
}

}  // namespace rtpar::detail
