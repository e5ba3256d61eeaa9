// rt_thread.hpp — creating threads that are pinned and real-time from their first instruction.
#pragma once

#include <pthread.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "rtpar/thread_config.hpp"

namespace rtpar::detail {

// RtThread is a joinable pthread created with its affinity and scheduling class set in the
// attributes, so it never runs on another core or at another priority, not even briefly. Its body
// runs at that class; the thread's teardown after the body runs at SCHED_OTHER (leave_real_time).
// It acts for the task its creator acted for (CrashScope, platform/crash_guard.hpp) and runs its
// body with an alternate signal stack, so that a fault in task code, a stack overflow included,
// reaches the crash handler.
class RtThread {
 public:
  // RtThread starts body on a new thread configured by config. Throws EnvironmentError when the
  // kernel refuses the scheduling class (EPERM) or the CPU, std::system_error otherwise.
  RtThread(const ThreadConfig& config, std::function<void()> body);
  ~RtThread();
  RtThread(const RtThread&) = delete;
  RtThread& operator=(const RtThread&) = delete;

  // join waits for the thread to end (idempotent).
  void join();
  // join_until waits for the thread to end until the absolute CLOCK_MONOTONIC time deadline_ns;
  // returns whether it ended (then it is joined, as by join). A thread that did not end stays
  // joinable: the caller decides whether to wait again or leave it running (a hung job).
  bool join_until(std::int64_t deadline_ns);
  // tid is the Linux thread id, published by the thread as it starts (0 until then).
  [[nodiscard]] int tid() const noexcept;

 private:
  struct Start;
  pthread_t handle_{};
  bool joinable_ = false;
  std::shared_ptr<Start> start_;
};

// apply_to_current_thread pins and schedules the calling thread (used for the master thread of a
// task, which is created by RtThread too, and by tests). Throws like RtThread's constructor.
void apply_to_current_thread(const ThreadConfig& config);

// leave_real_time moves the calling thread back to SCHED_OTHER (always permitted, never throws).
// A real-time thread calls it as its body returns, before the thread's teardown: thread-local
// destructors and the sanitizers' exit paths take spin locks that yield with sched_yield, and a
// SCHED_FIFO waiter spinning above a preempted lower-priority holder on its core never lets the
// holder run (RT throttling gives the core to SCHED_OTHER threads only). Under TSan this hung
// `rtpar experiment run` when the strand threads of one core exited together.
void leave_real_time() noexcept;

// demote_to_idle moves the threads with these Linux thread ids (0 entries are skipped) to
// SCHED_IDLE, below every other thread: what is left of a hung job then runs only on a core that
// would otherwise idle. Failures are ignored (a thread that already ended).
void demote_to_idle(const std::vector<int>& tids) noexcept;

}  // namespace rtpar::detail
