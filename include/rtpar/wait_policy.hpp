// rtpar/wait_policy.hpp — how the members of a parallel job wait: spin, block or both.
//
// Vocabulary shared by the task model (a task's `wait`), the overhead profiles and the team; it
// lives in its own header so that the model does not depend on the team.
#pragma once

#include <chrono>

#include "rtpar/time.hpp"

namespace rtpar {

// WaitKind is how a team member waits for the next region, for the join, or at a barrier.
enum class WaitKind {
  spin,    // busy-wait on a cache line of its own: lowest latency, burns the core while waiting
  block,   // sleep on a futex at once: frees the core, costs a wake-up (an IPI) per member
  hybrid,  // spin for WaitPolicy::spin_ns, then sleep
};

// WaitPolicy is a team's waiting behaviour inside a job. Between jobs (after Team::park()) members
// always sleep, whatever the policy: spinning there at SCHED_FIFO would hit RT throttling.
struct WaitPolicy {
  WaitKind kind = WaitKind::hybrid;
  Duration spin_ns{std::chrono::microseconds(50)};  // hybrid: how long to spin before sleeping

  // spin, block and hybrid build the three policies.
  static WaitPolicy spin() { return {WaitKind::spin, Duration(0)}; }
  static WaitPolicy block() { return {WaitKind::block, Duration(0)}; }
  static WaitPolicy hybrid(Duration spin_for) { return {WaitKind::hybrid, spin_for}; }
};

// to_string names a wait kind as the task-set file spells it ("spin", "block", "hybrid").
const char* to_string(WaitKind kind) noexcept;

}  // namespace rtpar
