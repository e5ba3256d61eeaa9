// rtpar/thread_config.hpp — how one real-time thread is placed and scheduled.
#pragma once

#include <cstddef>
#include <string>

namespace rtpar {

// SchedClass is the Linux scheduling class a thread runs in.
enum class SchedClass {
  fifo,   // SCHED_FIFO at `priority` (the default for real-time threads)
  other,  // SCHED_OTHER (best effort: used with --best-effort or for non-RT threads)
};

// ThreadConfig names the affinity, scheduling class and priority of one thread. These are applied
// through pthread attributes *before* the thread starts, so it never runs anywhere else.
struct ThreadConfig {
  int cpu = -1;                         // CPU id to pin to; -1 = no pinning
  SchedClass sched = SchedClass::fifo;  // scheduling class
  int priority = 1;                     // SCHED_FIFO priority 1..99 (ignored for `other`)
  std::string name;                     // thread name (15 chars max are kept), for traces and ps
  std::size_t stack_bytes = 0;          // call-stack size; 0 = the system default (ulimit -s)
};

}  // namespace rtpar
