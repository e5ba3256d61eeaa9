// strand_runner.cpp — see strand_runner.hpp and docs/internals/dispatcher.md.
//
// Protocol (one job):
//  1. The master sleeps until the release (absolute time, interruptible by control.stop), writes
//     release_/index_ (plain) and publishes the job by incrementing dispatched_ (release) and
//     waking the members sleeping on it.
//  2. Every member that loads the new dispatched_ value (acquire) sees release_/index_, then for
//     each segment s in which it has strands: waits for the gate of segment s − 1, sleeps until
//     release + offset_s (decomposition; 0 for fork-join-rta), switches to the segment's
//     priority, runs its strands and arrives at gate s (fetch_add, acq_rel). The arrival that
//     completes the gate wakes the members sleeping on it.
//  3. The master waits for the gate of the last segment and records the job's finish time.
// Memory ordering: the gates' fetch_adds form one release sequence per gate, so a member whose
// acquire load sees the gate complete also sees every effect of the strands of that segment
// (their kernel writes) — the same guarantee a barrier gives. dispatched_ only advances after the
// previous job's last gate completed (the master waited for it), so a member never mixes jobs.
// Gates count cumulatively (participants · n mod 2^32) instead of being reset, so no member can
// race a reset; the signed difference test is exact while fewer than 2^31 arrivals separate a
// waiter from the target, i.e. always (a member is at most one job behind).
#include "runtime/strand_runner.hpp"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <string>

#include "rtpar/cpu_relax.hpp"
#include "runtime/futex.hpp"
#include "runtime/task_runner.hpp"

namespace rtpar::detail {

namespace {

// reached says whether a cumulative counter has reached target (wrap-around safe).
bool reached(std::uint32_t value, std::uint32_t target) {
  return static_cast<std::int32_t>(value - target) >= 0;
}

// sleep_until sleeps the calling thread until the absolute CLOCK_MONOTONIC time `when` (ns).
void sleep_until(std::int64_t when) noexcept {
  timespec ts{};
  ts.tv_sec = when / 1'000'000'000;
  ts.tv_nsec = when % 1'000'000'000;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

}  // namespace

StrandRunner::StrandRunner(const TaskSpec& task, const TaskPlan& placement, bool best_effort,
                           std::int64_t record_capacity, RunControl& control, Endpoint* channels)
    : task_(task),
      placement_(placement),
      control_(control),
      channels_(channels),
      best_effort_(best_effort),
      gates_(placement.segments.size()) {
  if (!task.code || !task.code->supports_strands()) {
    throw InputError(task.where, "kernel",
                     "task '" + task.name + "' has a strand-level plan (" +
                         "decomposition or fork-join-rta), but its kernel '" + task.kernel +
                         "' cannot run strand by strand; use [[task.segment]] or the segments "
                         "kernel, or a federated planner");
  }
  std::map<int, std::size_t> member_of;  // CPU → member index, in order of first appearance
  const std::size_t segments = placement.segments.size();
  for (std::size_t s = 0; s < segments; ++s) {
    const SegmentPlan& seg = placement.segments[s];
    for (std::size_t k = 0; k < seg.strands.size(); ++k) {
      const StrandPlan& strand = seg.strands[k];
      auto [it, added] = member_of.emplace(strand.core, members_.size());
      if (added) {
        Member m;
        m.config.cpu = strand.core;
        m.config.sched = best_effort ? SchedClass::other : SchedClass::fifo;
        m.config.priority = strand.priority;
        m.config.name =
            (members_.empty() ? "rt:" : "rt" + std::to_string(members_.size()) + ":") + task.name;
        m.strands.assign(segments, {});
        m.priority.assign(segments, 0);
        m.current_priority = strand.priority;
        members_.push_back(std::move(m));
      }
      Member& m = members_[it->second];
      m.strands[s].push_back(static_cast<std::int64_t>(k));
      m.priority[s] = std::max(m.priority[s], strand.priority);
    }
  }
  for (std::size_t s = 0; s < segments; ++s) {
    for (const Member& m : members_) {
      if (!m.strands[s].empty()) ++gates_[s].participants;
    }
  }
  records_.resize(static_cast<std::size_t>(record_capacity));
  KernelSetup setup;
  setup.work = task.work;
  setup.span = task.span;
  setup.threads = static_cast<int>(members_.size());
  task.code->prepare(setup);
  // Workers first (they sleep on dispatched_ until the first job), the master in start().
  for (std::size_t m = 1; m < members_.size(); ++m) {
    members_[m].thread =
        std::make_unique<RtThread>(members_[m].config, [this, m] { worker_loop(m); });
  }
}

StrandRunner::~StrandRunner() {
  join();
  exit_.store(1, std::memory_order_release);
  dispatched_.fetch_add(1, std::memory_order_release);
  futex_wake(dispatched_, INT32_MAX);
  for (std::size_t m = 1; m < members_.size(); ++m) {
    if (members_[m].thread) {
      members_[m].thread->join();
      members_[m].tid = members_[m].thread->tid();
    }
  }
}

void StrandRunner::start() {
  members_[0].thread = std::make_unique<RtThread>(members_[0].config, [this] { master_loop(); });
}

void StrandRunner::join() {
  if (members_.empty() || !members_[0].thread) return;
  members_[0].thread->join();
  master_tid_ = members_[0].thread->tid();
  members_[0].thread.reset();
}

void StrandRunner::set_priority(Member& member, int priority) noexcept {
  if (best_effort_ || priority <= 0 || priority == member.current_priority) return;
  sched_param param{};
  param.sched_priority = priority;
  if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0) {
    member.current_priority = priority;
  }
}

void StrandRunner::wait_gate(std::size_t s, std::uint32_t n) noexcept {
  Gate& gate = gates_[s];
  const std::uint32_t target = gate.participants * n;
  std::uint32_t seen = gate.done.load(std::memory_order_acquire);
  if (reached(seen, target)) return;
  // Spin first (spin: until done; hybrid: for spin_ns; block: not at all), then sleep.
  const WaitKind kind = task_.wait.kind;
  const std::int64_t spin_until =
      kind == WaitKind::hybrid ? monotonic_now() + task_.wait.spin_ns.count() : 0;
  while (kind == WaitKind::spin || (kind == WaitKind::hybrid && monotonic_now() < spin_until)) {
    cpu_relax();
    seen = gate.done.load(std::memory_order_acquire);
    if (reached(seen, target)) return;
  }
  for (;;) {
    seen = gate.done.load(std::memory_order_acquire);
    if (reached(seen, target)) return;
    futex_wait(gate.done, seen);
  }
}

void StrandRunner::run_job(std::size_t m, std::uint32_t n, std::int64_t release,
                           std::int64_t index) noexcept {
  Member& member = members_[m];
  JobContext job;
  job.index = index;
  job.release_ns = release;
  job.channels = channels_;
  int first_priority = 0;
  for (std::size_t s = 0; s < placement_.segments.size(); ++s) {
    if (member.strands[s].empty()) continue;
    if (first_priority == 0) first_priority = member.priority[s];
    if (s > 0) wait_gate(s - 1, n);
    const std::int64_t offset = placement_.segments[s].offset_ns;
    if (offset > 0 && monotonic_now() < release + offset) sleep_until(release + offset);
    set_priority(member, member.priority[s]);
    for (const std::int64_t strand : member.strands[s]) {
      if (failed_.load(std::memory_order_relaxed)) break;
      try {
        if (!task_.code->run_strand(job, static_cast<int>(s), strand)) {
          throw std::logic_error("kernel refused strand " + std::to_string(strand) +
                                 " of segment " + std::to_string(s));
        }
      } catch (...) {
        if (!failed_.exchange(true)) failure_ = std::current_exception();
      }
    }
    const std::uint32_t after = gates_[s].done.fetch_add(1, std::memory_order_acq_rel) + 1;
    if (reached(after, gates_[s].participants * n)) futex_wake(gates_[s].done, INT32_MAX);
  }
  // Sleep between jobs at the priority the next job starts with, so its first strand does not
  // begin at a stale priority.
  set_priority(member, first_priority);
}

void StrandRunner::worker_loop(std::size_t m) noexcept {
  std::uint32_t seen = 0;
  for (;;) {
    std::uint32_t now = dispatched_.load(std::memory_order_acquire);
    while (now == seen) {
      futex_wait(dispatched_, seen);
      now = dispatched_.load(std::memory_order_acquire);
    }
    if (exit_.load(std::memory_order_acquire) != 0) return;
    seen = now;
    run_job(m, now, release_, index_);
  }
}

void StrandRunner::master_loop() noexcept {
  while (control_.go.load(std::memory_order_acquire) == 0) futex_wait(control_.go, 0);
  const std::int64_t period = task_.period.count();
  const std::int64_t first = control_.start_ns + task_.phase.count();
  const std::int64_t end = control_.end_ns;
  const bool skip = task_.overrun == OverrunPolicy::skip;
  std::uint32_t n = 0;
  for (std::int64_t k = 0;;) {
    const std::int64_t release = first + k * period;
    if (release >= end) break;
    while (control_.stop.load(std::memory_order_acquire) == 0 && monotonic_now() < release) {
      futex_wait_until(control_.stop, 0, release);
    }
    if (control_.stop.load(std::memory_order_acquire) != 0) break;
    const std::int64_t start = monotonic_now();
    release_ = release;
    index_ = k;
    ++n;
    dispatched_.store(n, std::memory_order_release);
    futex_wake(dispatched_, INT32_MAX);
    run_job(0, n, release, k);
    wait_gate(placement_.segments.size() - 1, n);
    const std::int64_t finish = monotonic_now();
    if (records_used_ < records_.size()) {
      records_[records_used_++] = JobRecord{k, release, start, finish};
    } else {
      truncated_ = true;
    }
    counters_.jobs.fetch_add(1, std::memory_order_relaxed);
    if (finish - release > task_.deadline.count()) {
      counters_.misses.fetch_add(1, std::memory_order_relaxed);
    }
    if (failed_.load(std::memory_order_acquire)) break;
    ++k;
    if (skip) {
      while (first + k * period < finish && first + k * period < end) {
        ++k;
        ++skipped_;
      }
    }
  }
}

TaskRun StrandRunner::result() {
  join();
  TaskRun run;
  run.name = task_.name;
  run.deadline_ns = task_.deadline.count();
  run.period_ns = task_.period.count();
  run.skipped = skipped_;
  run.records_truncated = truncated_;
  run.master_tid = master_tid_;
  for (std::size_t m = 1; m < members_.size(); ++m) {
    if (members_[m].thread) run.worker_tids.push_back(members_[m].thread->tid());
  }
  run.cores = placement_.cores;
  records_.resize(records_used_);
  run.records = std::move(records_);
  return run;
}

std::unique_ptr<Runner> make_runner(const TaskSpec& task, const TaskPlan& placement,
                                    bool best_effort, std::int64_t record_capacity,
                                    RunControl& control, Endpoint* channels) {
  // A plan of one strand is a sequential job on one core: the team runner runs it with any
  // kernel, at the strand's core and priority (TaskPlan::cores and priority say the same).
  const bool one_strand =
      placement.segments.size() == 1 && placement.segments.front().strands.size() == 1;
  if (!placement.segments.empty() && !one_strand) {
    return std::make_unique<StrandRunner>(task, placement, best_effort, record_capacity, control,
                                          channels);
  }
  return std::make_unique<TaskRunner>(task, placement, best_effort, record_capacity, control,
                                      channels);
}

}  // namespace rtpar::detail
