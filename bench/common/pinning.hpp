// pinning.hpp — placing the calling thread: CPU affinity, scheduling class, locked memory.
//
// The measuring threads of every program are placed the same way: rank r on the r-th CPU the
// process may use (the master, rank 0, on the first), SCHED_FIFO at one priority with --fifo and
// SCHED_OTHER without. Errors come back as messages rather than exceptions so the OpenMP and TBB
// callbacks that call these can report them from any thread.
#pragma once

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace rtpar_bench {

// Placement is where and how one measuring thread runs.
struct Placement {
  int cpu = -1;       // CPU id; -1 leaves the affinity alone
  bool fifo = false;  // SCHED_FIFO at `priority` instead of SCHED_OTHER
  int priority = 50;
};

// allowed_cpus lists the CPUs the calling process may run on, ascending.
inline std::vector<int> allowed_cpus() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &mask)) cpus.push_back(c);
  }
  return cpus;
}

// sched_policy_for fills param and returns the policy a placement asks for.
inline int sched_policy_for(const Placement& p, sched_param& param) {
  std::memset(&param, 0, sizeof(param));
  param.sched_priority = p.fifo ? p.priority : 0;
  return p.fifo ? SCHED_FIFO : SCHED_OTHER;
}

// place_current_thread pins the calling thread and sets its scheduling class. Returns "" on
// success, else what the kernel refused (EPERM for SCHED_FIFO without privilege).
inline std::string place_current_thread(const Placement& p) {
  if (p.cpu >= 0) {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    CPU_SET(p.cpu, &mask);
    if (int rc = pthread_setaffinity_np(pthread_self(), sizeof(mask), &mask); rc != 0) {
      return "cannot pin to CPU " + std::to_string(p.cpu) + ": " + std::strerror(rc);
    }
  }
  sched_param param{};
  const int policy = sched_policy_for(p, param);
  if (int rc = pthread_setschedparam(pthread_self(), policy, &param); rc != 0) {
    return std::string(p.fifo ? "cannot set SCHED_FIFO " + std::to_string(p.priority)
                              : std::string("cannot set SCHED_OTHER")) +
           ": " + std::strerror(rc);
  }
  return {};
}

// current_cpu_is reports whether the calling thread's affinity is exactly {cpu}.
inline bool current_cpu_is(int cpu) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (pthread_getaffinity_np(pthread_self(), sizeof(mask), &mask) != 0) return false;
  return CPU_COUNT(&mask) == 1 && CPU_ISSET(cpu, &mask);
}

// lock_memory locks current and future pages so a measurement never takes a page fault; failure
// is tolerated (the result rows say whether memory was locked).
inline bool lock_memory() noexcept { return mlockall(MCL_CURRENT | MCL_FUTURE) == 0; }

}  // namespace rtpar_bench
