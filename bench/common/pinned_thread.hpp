// pinned_thread.hpp — a helper thread that starts already pinned and scheduled.
//
// The placement goes into the pthread attributes (PTHREAD_EXPLICIT_SCHED), not into a call the
// thread makes once it runs: a thread created by a master that is itself SCHED_FIFO on CPU 0
// would otherwise inherit both and could never run while the master spins waiting for it.
#pragma once

#include <pthread.h>

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/pinning.hpp"

namespace rtpar_bench {

// PinnedThread runs body on a new thread placed by a Placement; the destructor joins.
class PinnedThread {
 public:
  // PinnedThread starts the thread; throws std::runtime_error naming what the kernel refused.
  PinnedThread(const Placement& where, std::function<void()> body) : body_(std::move(body)) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (where.cpu >= 0) {
      cpu_set_t mask;
      CPU_ZERO(&mask);
      CPU_SET(where.cpu, &mask);
      pthread_attr_setaffinity_np(&attr, sizeof(mask), &mask);
    }
    sched_param param{};
    const int policy = sched_policy_for(where, param);
    pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&attr, policy);
    pthread_attr_setschedparam(&attr, &param);
    const int rc = pthread_create(&handle_, &attr, &PinnedThread::trampoline, this);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      throw std::runtime_error("cannot start a thread on CPU " + std::to_string(where.cpu) +
                               (where.fifo ? " at SCHED_FIFO" : "") + ": " + std::strerror(rc));
    }
  }
  ~PinnedThread() { pthread_join(handle_, nullptr); }
  PinnedThread(const PinnedThread&) = delete;
  PinnedThread& operator=(const PinnedThread&) = delete;

 private:
  // trampoline adapts the pthread entry point to the stored body.
  static void* trampoline(void* self) {
    static_cast<PinnedThread*>(self)->body_();
    return nullptr;
  }

  std::function<void()> body_;
  pthread_t handle_{};
};

}  // namespace rtpar_bench
