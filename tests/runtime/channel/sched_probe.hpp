// sched_probe.hpp — test helpers that observe a thread's SCHED_FIFO priority (ceiling boosts,
// MSRP's non-preemptive raise) and run code on a SCHED_FIFO thread.
#pragma once

#include <pthread.h>
#include <sched.h>

#include <functional>

namespace chtest {

// kernel_priority is the calling thread's priority as the kernel runs it (sched_getparam sees a
// ceiling boost; pthread_getschedparam reports the assigned priority, as POSIX requires).
inline int kernel_priority() {
  sched_param p{};
  sched_getparam(0, &p);
  return p.sched_priority;
}

// assigned_priority is the calling thread's priority as pthread_getschedparam reports it.
inline int assigned_priority() {
  int policy = 0;
  sched_param p{};
  pthread_getschedparam(pthread_self(), &policy, &p);
  return p.sched_priority;
}

// run_fifo runs body on a new SCHED_FIFO thread of the given priority and waits for it. Returns
// false (body not run) if the kernel refuses SCHED_FIFO.
inline bool run_fifo(int priority, const std::function<void()>& body) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
  pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
  sched_param param{};
  param.sched_priority = priority;
  pthread_attr_setschedparam(&attr, &param);
  pthread_t thread;
  auto* fn = const_cast<std::function<void()>*>(&body);
  const int rc = pthread_create(
      &thread, &attr,
      [](void* arg) -> void* {
        (*static_cast<std::function<void()>*>(arg))();
        return nullptr;
      },
      fn);
  pthread_attr_destroy(&attr);
  if (rc != 0) return false;
  pthread_join(thread, nullptr);
  return true;
}

}  // namespace chtest
