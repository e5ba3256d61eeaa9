// cpu_budget.hpp — a job's CPU-time budget on one thread: a per-thread CPU-time timer that, when
// the job has used its budget, demotes the thread below every real-time thread until the job ends
// (docs/reliability.md, "Budgets").
#pragma once

#include <time.h>

#include <atomic>
#include <cstdint>

namespace rtpar::detail {

// CpuBudget measures the CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID) between begin()
// and end() against a fixed budget. With `enforce`, begin() arms a timer delivered to this thread
// (SIGEV_THREAD_ID) for the budget; its handler reads the thread's CPU time and, when the budget is
// spent, moves the thread from SCHED_FIFO/SCHED_RR to SCHED_OTHER (else it re-arms for the rest:
// why the timer is on CLOCK_MONOTONIC is in cpu_budget.cpp), and end() restores the policy and
// priority it had. Without `enforce` (monitor) no timer exists: end() reads the clock
// and records. begin() and end() allocate nothing and take no lock. A CpuBudget belongs to the
// thread that constructed it: only that thread may call its members and destroy it.
class CpuBudget {
 public:
  // CpuBudget measures the calling thread; a job may use charged_ns + margin_ns of CPU time before
  // it counts as an overrun (and, enforced, is demoted). Throws std::system_error when the kernel
  // refuses the timer.
  CpuBudget(bool enforce, std::int64_t charged_ns, std::int64_t margin_ns);
  ~CpuBudget();
  CpuBudget(const CpuBudget&) = delete;
  CpuBudget& operator=(const CpuBudget&) = delete;

  // begin starts a job: reads the thread's CPU time and, enforced, arms the timer (one
  // timer_settime).
  void begin() noexcept;
  // end finishes the job: disarms the timer, restores a demoted thread, and returns the CPU time
  // the job used beyond charged_ns when it used more than charged_ns + margin_ns, else 0.
  std::int64_t end() noexcept;
  // share_demotion names a flag (an EDF slot's, runtime/executor/edf_band.hpp) that the budget
  // sets (seq_cst) before it demotes the thread and clears before it restores it, so that another
  // thread that changes this thread's priority can leave it demoted. Call before the first job.
  void share_demotion(std::atomic<bool>* flag) noexcept { shared_demoted_ = flag; }
  // demoted says whether the job running now has been demoted (called by the thread itself, e.g.
  // so that a priority change does not promote it again).
  [[nodiscard]] bool demoted() const noexcept;

  // overruns counts the jobs that used more than their budget.
  [[nodiscard]] std::int64_t overruns() const noexcept { return overruns_; }
  // max_excess_ns is the largest CPU time a job used beyond charged_ns.
  [[nodiscard]] std::int64_t max_excess_ns() const noexcept { return max_excess_ns_; }
  // demoted_ns is the wall time the thread spent demoted, over all jobs.
  [[nodiscard]] std::int64_t demoted_ns() const noexcept { return demoted_ns_; }

  // install_handler installs the expiry signal's handler for the process (idempotent, thread
  // safe); call it before the first enforced CpuBudget's first job, off the real-time path.
  static void install_handler();
  // signal_number is the real-time signal the timers deliver (SIGRTMIN + 2).
  static int signal_number() noexcept;
  // expire is the handler's work, on this thread: if a job is armed and has spent its budget,
  // demote the thread (when it runs at a real-time policy); if not spent yet, re-arm for the rest.
  // Async-signal-safe: lock-free atomics, clock_gettime, timer_settime, sched_getscheduler,
  // sched_getparam and sched_setscheduler (each one system call, no lock, no allocation).
  void expire() noexcept;

 private:
  // arm sets the timer to expire after_ns from now (one timer_settime; async-signal-safe).
  void arm(std::int64_t after_ns) noexcept;

  bool enforce_;
  std::int64_t charged_ns_;
  std::int64_t budget_ns_;  // charged + margin: when the timer fires
  timer_t timer_{};
  bool has_timer_ = false;
  // The handler runs on this same thread, between two of its instructions; these fields are the
  // only state it shares with the thread's own code. Lock-free atomics, so that a handler may touch
  // them; relaxed with std::atomic_signal_fence at the arm and disarm points, because no other
  // thread ever reads them (see cpu_budget.cpp).
  std::atomic<std::int64_t> cpu_start_{0};
  std::atomic<bool> armed_{false};
  std::atomic<bool> demoted_{false};
  std::atomic<std::int64_t> demote_start_ns_{0};
  std::atomic<int> saved_policy_{0};
  std::atomic<int> saved_priority_{0};
  std::atomic<bool>* shared_demoted_ = nullptr;  // share_demotion (read-only after the first job)
  std::int64_t overruns_ = 0;
  std::int64_t max_excess_ns_ = 0;
  std::int64_t demoted_ns_ = 0;
};

}  // namespace rtpar::detail
