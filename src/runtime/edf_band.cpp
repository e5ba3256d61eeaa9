// edf_band.cpp — see edf_band.hpp.
//
// Protocol: a slot's deadline is written (release) and the core's version bumped (acq_rel) before
// the writer re-ranks. rerank snapshots the deadlines, sorts the core's slots (a fixed-size array
// on the stack: no allocation, no lock), applies the changed priorities with sched_setscheduler,
// and repeats if the version moved meanwhile. Two threads re-ranking one core concurrently
// therefore both finish with a pass over a snapshot at least as new as the last change, so the
// priorities settle on the ranking of the latest deadlines; between the change and the settled
// state a core may briefly run the second-earliest deadline (bounded by one re-rank, a few system
// calls).
#include "runtime/edf_band.hpp"

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
  for (Core& c : cores_) {
    if (c.cpu != s.cpu) continue;
    c.version.fetch_add(1, std::memory_order_acq_rel);
    rerank(c);
  }
}

void EdfBand::deactivate(int slot) noexcept { activate(slot, 0); }

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
      // Idle threads are blocked; they keep their priority (a master waits for its release at
      // kEdfDispatch, see prepare_dispatch) and get a rank again when their next job activates.
      if (order[rank].deadline == INT64_MAX) break;
      Slot& s = slots_[static_cast<std::size_t>(order[rank].slot)];
      const int tid = s.tid.load(std::memory_order_acquire);
      const int priority = kEdfTop - static_cast<int>(rank);
      if (tid == 0 || s.applied.load(std::memory_order_relaxed) == priority) continue;
      sched_param param{};
      param.sched_priority = priority;
      if (sched_setscheduler(tid, SCHED_FIFO, &param) == 0) {
        s.applied.store(priority, std::memory_order_relaxed);
      }
    }
    if (core.version.load(std::memory_order_acquire) == version) return;
  }
}

void EdfBand::prepare_dispatch(int slot) noexcept {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  const int tid = s.tid.load(std::memory_order_acquire);
  if (tid == 0) return;
  sched_param param{};
  param.sched_priority = kEdfDispatch;
  if (sched_setscheduler(tid, SCHED_FIFO, &param) == 0) {
    s.applied.store(kEdfDispatch, std::memory_order_relaxed);
  }
}

}  // namespace rtpar::detail
