// edf_band.cpp — see edf_band.hpp.
//
// Protocol: a slot's deadline (or dispatch flag) is written (release) and the core's version
// bumped (acq_rel) before the writer re-ranks. rerank snapshots the version and the slots, sorts
// the core's slots (a fixed-size array on the stack: no allocation, no lock), applies every
// active slot's priority (and kEdfDispatch to waiting masters) with sched_setscheduler, and
// repeats if the version moved meanwhile. A pass that ends with the version unchanged applied the
// ranking of the latest deadlines, and it applied all of it: there is no "already applied" cache
// to skip a thread, because with several re-rankers on one core (masters of tasks on other cores
// re-rank the cores of their team threads) a stale pass's system call can land after a fresh one
// — the stale re-ranker then sees the version moved and re-applies the fresh ranking last. So the
// last system call on each thread always carries the latest ranking; between a change and that
// point a core may briefly run the second-earliest deadline (bounded by one re-rank, a few system
// calls). Setting an unchanged policy and priority is a no-op in the kernel (no requeue).
#include "runtime/executor/edf_band.hpp"

#include <sched.h>

#include <algorithm>
#include <stdexcept>

namespace rtpar::detail {

EdfBand::Core& EdfBand::core_of(int cpu) {
  for (Core& c : cores_) {
    if (c.cpu == cpu) return c;
  }
  cores_.emplace_back();
  cores_.back().cpu = cpu;
  return cores_.back();
}

int EdfBand::add_slot(int cpu) {
  Core& core = core_of(cpu);
  if (static_cast<int>(core.slots.size()) >= kMaxSlotsPerCore) {
    throw std::length_error("more than 64 EDF threads on one core");
  }
  slots_.emplace_back();
  slots_.back().cpu = cpu;
  const int id = static_cast<int>(slots_.size()) - 1;
  core.slots.push_back(id);
  return id;
}

void EdfBand::set_tid(int slot, int tid) noexcept {
  slots_[static_cast<std::size_t>(slot)].tid.store(tid, std::memory_order_release);
}

int EdfBand::lowest_priority(int cpu) const noexcept {
  for (const Core& c : cores_) {
    if (c.cpu == cpu) return kEdfTop - static_cast<int>(c.slots.size()) + 1;
  }
  return kEdfTop;
}

void EdfBand::activate(int slot, std::int64_t deadline) noexcept {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  s.deadline.store(deadline, std::memory_order_release);
  if (deadline != 0) s.dispatch.store(false, std::memory_order_release);
  changed(s);
}

void EdfBand::deactivate(int slot) noexcept { activate(slot, 0); }

void EdfBand::prepare_dispatch(int slot) noexcept {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  s.dispatch.store(true, std::memory_order_release);
  changed(s);
}

void EdfBand::changed(const Slot& slot) noexcept {
  for (Core& c : cores_) {
    if (c.cpu != slot.cpu) continue;
    c.version.fetch_add(1, std::memory_order_acq_rel);
    rerank(c);
  }
}

void EdfBand::rerank(Core& core) noexcept {
  struct Entry {
    std::int64_t deadline;
    int slot;
  };
  for (;;) {
    const std::uint32_t version = core.version.load(std::memory_order_acquire);
    Entry order[kMaxSlotsPerCore];
    const std::size_t n = core.slots.size();
    for (std::size_t k = 0; k < n; ++k) {
      const int id = core.slots[k];
      const std::int64_t d =
          slots_[static_cast<std::size_t>(id)].deadline.load(std::memory_order_acquire);
      // Idle slots (deadline 0) sort after every active one.
      order[k] = Entry{d == 0 ? INT64_MAX : d, id};
    }
    std::sort(order, order + n, [](const Entry& a, const Entry& b) {
      return a.deadline != b.deadline ? a.deadline < b.deadline : a.slot < b.slot;
    });
    for (std::size_t rank = 0; rank < n; ++rank) {
      Slot& s = slots_[static_cast<std::size_t>(order[rank].slot)];
      const int tid = s.tid.load(std::memory_order_acquire);
      if (tid == 0) continue;
      int priority = kEdfTop - static_cast<int>(rank);
      if (order[rank].deadline == INT64_MAX) {
        // Idle: a master waiting for its release sits at kEdfDispatch; an idle worker is blocked
        // and keeps its priority until its next job activates it.
        if (!s.dispatch.load(std::memory_order_acquire)) continue;
        priority = kEdfDispatch;
      }
      sched_param param{};
      param.sched_priority = priority;
      sched_setscheduler(tid, SCHED_FIFO, &param);
    }
    if (core.version.load(std::memory_order_acquire) == version) return;
  }
}

}  // namespace rtpar::detail
