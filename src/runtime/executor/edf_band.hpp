// edf_band.hpp — EDF on partitioned cores without SCHED_DEADLINE: deadline-ordered SCHED_FIFO
// priorities, re-ranked at every job release and completion (docs/internals/dispatcher.md).
//
// Why: SCHED_DEADLINE refuses threads whose affinity is a subset of their root domain (EPERM /
// EBUSY), i.e. exactly the pinned threads a partitioned plan needs, unless the machine is split
// into exclusive cpuset partitions — which takes CPUs away from everything else and needs a
// cgroup setup rtpar should not impose. EDF on one core only needs the core to run the pending job
// with the earliest absolute deadline; SCHED_FIFO does that when priorities follow deadline order.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <vector>

#include "runtime/channel/nonpreemptive_hook.hpp"

namespace rtpar::detail {

// EdfBand slot and core words (edf_band.cpp).
inline constexpr std::int64_t kEdfIdle = 0;     // Slot::deadline of a slot without a pending job
inline constexpr int kEdfNoTid = 0;             // Slot::tid before set_tid: re-rankers skip it
inline constexpr std::uint32_t kEdfChange = 1;  // Core::version step, one per slot change

// EdfBand ranks the EDF threads of each core. Priorities: kEdfDispatch for a master waiting for
// its release (so it preempts every EDF job on its core the moment its release comes and can
// re-rank at once — RT-OpenMP's dispatch at the maximum priority), then kEdfTop, kEdfTop − 1, ...
// for the active jobs in deadline order, and the idle threads below those.
class EdfBand {
 public:
  static constexpr int kEdfDispatch = 90;
  static constexpr int kEdfTop = 89;
  static constexpr int kMaxSlotsPerCore = 64;

  // add_slot registers a thread that runs EDF jobs on cpu (before any thread starts); returns its
  // slot id. Throws std::length_error beyond kMaxSlotsPerCore threads on one core.
  int add_slot(int cpu);
  // set_tid records the Linux thread id of a slot (before its first activation).
  void set_tid(int slot, int tid) noexcept;
  // activate gives a slot a pending job with absolute deadline `deadline` and re-ranks its core.
  void activate(int slot, std::int64_t deadline) noexcept;
  // deactivate marks a slot idle and re-ranks its core.
  void deactivate(int slot) noexcept;
  // prepare_dispatch raises a master's slot to kEdfDispatch before it sleeps until its next
  // release, so it runs at once when the release comes, whatever EDF job holds its core.
  void prepare_dispatch(int slot) noexcept;
  // demotion_word is the slot's "demoted by its budget" flag (platform/cpu_budget.hpp,
  // CpuBudget::share_demotion): while it is set, re-ranking leaves the thread below the real-time
  // band, so an enforced budget holds on an EDF core too (docs/reliability.md, "Budgets").
  [[nodiscard]] std::atomic<bool>* demotion_word(int slot) noexcept;
  // nonpreemptive_hook is the slot's hook for MSRP sections
  // (runtime/channel/nonpreemptive_hook.hpp): while its thread is inside one, re-ranking leaves it
  // at the section's priority, and leaving the section re-ranks its core. Install it on the slot's
  // thread (set_nonpreemptive_hook).
  [[nodiscard]] const NonPreemptiveHook* nonpreemptive_hook(int slot) noexcept;
  // lowest_priority is the lowest priority the band can give on cpu (static tasks sharing the
  // core must stay below it).
  [[nodiscard]] int lowest_priority(int cpu) const noexcept;

 private:
  struct Slot {
    int cpu = -1;
    std::atomic<int> tid{kEdfNoTid};
    std::atomic<std::int64_t> deadline{kEdfIdle};  // absolute deadline of the pending job
    std::atomic<bool> dispatch{false};  // idle master waiting for its release (kEdfDispatch)
    std::atomic<bool> demoted{false};   // its budget demoted it: not raised (demotion_word)
    std::atomic<int> nonpreemptive{0};  // in an MSRP section at this priority (nonpreemptive_hook)
    EdfBand* band = nullptr;            // for the hook's `left`
    NonPreemptiveHook hook;             // {&nonpreemptive, left_section, this}
  };
  // left_section is the hooks' `left`: the slot (context) left its section; re-rank its core.
  static void left_section(void* context) noexcept;
  struct Core {
    int cpu = -1;
    std::vector<int> slots;
    std::atomic<std::uint32_t> version{0};
  };
  Core& core_of(int cpu);
  // changed bumps the version of the slot's core and re-ranks it.
  void changed(const Slot& slot) noexcept;
  // rerank applies the ranking of the current deadlines to the core's threads until it completes
  // a pass during which no deadline changed.
  void rerank(Core& core) noexcept;

  std::deque<Slot> slots_;  // deque: stable addresses for the atomics
  std::deque<Core> cores_;
};

}  // namespace rtpar::detail
