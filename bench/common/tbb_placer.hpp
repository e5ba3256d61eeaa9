// tbb_placer.hpp — pinning and scheduling oneTBB's workers as they join an arena (slot s on the
// s-th measuring CPU), for the TBB bench programs. Only TBB programs include this.
//
// The master is placed by the program after the workers exist, so no worker is created
// inheriting the master's CPU at SCHED_FIFO (it could then never run while the master spins).
#pragma once

#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_scheduler_observer.h>

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "common/pinning.hpp"

namespace rtpar_bench {

// TbbPlacer pins and schedules each worker as it enters the observed arena (slot s → cpus[s]).
class TbbPlacer : public tbb::task_scheduler_observer {
 public:
  // TbbPlacer observes `arena`; slot s goes to cpus[s] in the given scheduling class.
  TbbPlacer(tbb::task_arena& arena, std::vector<int> cpus, bool fifo, int priority)
      : tbb::task_scheduler_observer(arena),
        cpus_(std::move(cpus)),
        fifo_(fifo),
        priority_(priority) {}

  // on_scheduler_entry runs on each thread that joins the arena; it places workers only, once
  // per CPU (a worker re-enters the arena after idling: no system calls on that path).
  void on_scheduler_entry(bool is_worker) override {
    if (!is_worker) return;
    const int slot = tbb::this_task_arena::current_thread_index();
    if (slot < 0 || slot >= static_cast<int>(cpus_.size())) return;
    thread_local int placed_cpu = -1;
    const int cpu = cpus_[static_cast<std::size_t>(slot)];
    if (placed_cpu == cpu) return;
    if (std::string why = place_current_thread(Placement{cpu, fifo_, priority_}); !why.empty()) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (error_.empty()) error_ = why;
      return;
    }
    placed_cpu = cpu;
  }

  // error is the first placement the kernel refused, or "".
  std::string error() {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }

 private:
  std::vector<int> cpus_;
  bool fifo_;
  int priority_;
  std::mutex mutex_;
  std::string error_;
};

}  // namespace rtpar_bench
