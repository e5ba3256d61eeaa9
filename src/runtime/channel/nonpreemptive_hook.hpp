// nonpreemptive_hook.hpp — how a scheduler that sets a thread's priority on its own keeps that
// thread's MSRP sections non-preemptive (lock.cpp).
//
// Why: an MSRP request raises its thread to the run's non-preemptive priority and, when the
// section ends, restores the priority it had. The EDF band (runtime/executor/edf_band.hpp)
// re-ranks its threads with sched_setscheduler at every release and completion on their core, so
// without a word about the section it would lower a holder in the middle of it (the section
// would become preemptible, and the band test's blocking bound would not hold), and the restored
// priority can be stale once the section ends. The band therefore installs a hook for each of its
// threads: the lock stores the section's priority in the hook's word before it raises the thread
// (the band's re-ranking leaves a thread whose word is set at that priority) and clears it when
// the section ends, then calls `left`, which re-ranks the thread's core.
#pragma once

#include <atomic>

namespace rtpar::detail {

// NonPreemptiveHook is one thread's hook (see the file comment). It must outlive the thread's
// last lock access.
struct NonPreemptiveHook {
  std::atomic<int>* priority = nullptr;            // the section's priority inside one, else 0
  void (*left)(void* context) noexcept = nullptr;  // after the outermost section has ended
  void* context = nullptr;                         // passed to `left`
};

// set_nonpreemptive_hook installs `hook` for the calling thread (nullptr removes it).
void set_nonpreemptive_hook(const NonPreemptiveHook* hook) noexcept;

}  // namespace rtpar::detail
