// edf_band.cpp — see edf_band.hpp.
//
// Protocol: a writer stores a slot's deadline (or dispatch flag), bumps its core's version and
// re-ranks the core. rerank snapshots the version and the slots, sorts the core's slots (a
// fixed-size array on the stack: no allocation, no lock), applies every active slot's priority
// (and kEdfDispatch to waiting masters) with sched_setscheduler, and repeats if the version moved
// meanwhile. There is no "already applied" cache: with several re-rankers on one core (masters of
// tasks on other cores re-rank the cores of their team threads) a stale pass's system call can
// land after a fresh one, and the stale re-ranker then re-applies the fresh ranking last. A core
// may briefly run the second-earliest deadline (bounded by one re-rank, a few system calls).
// Setting an unchanged policy and priority is a no-op in the kernel (no requeue).
// Memory-ordering invariants (cited as (n) on the lines):
//  (1) change: the slot store (release) is sequenced before the version fetch_add (acq_rel), so a
//      re-ranker whose acquire load of the version reads the bump (or a later one: the bumps form
//      a release sequence) sees the new slot value. The slot stores' own release is redundant
//      with that, never relied on alone.
//  (2) convergence: every change is followed by its writer's own re-rank, which starts after its
//      bump. A pass that acquired a bump read that change's slot value (1); a change it did not
//      count is applied by its writer's pass. If a stale pass's system call on a thread lands
//      after a fresher pass's, the kernel's lock on that thread orders the fresher call (and the
//      bump sequenced before it) before ours and before our closing version load (sequenced
//      after our call): that load sees the bump, differs from the opening one, and we repeat.
//  (3) tids: a slot's tid is set by its task's master before the slot's first change, so a
//      re-ranker that reads kEdfNoTid skips a slot that is idle and not dispatching anyway.
//      The acquire on the slot loads is not relied on beyond (1): like the slot stores' release,
//      it is stronger than needed.
//  (4) sections: a thread entering an MSRP section stores the section's priority in its slot's
//      `nonpreemptive` word (seq_cst) before it raises itself (lock.cpp); a pass leaves a thread
//      whose word is set alone, and after each sched_setscheduler it loads the word again
//      (seq_cst): if its call landed after the raise, the kernel's lock on the thread ordered the
//      raise, and the store before it, before the call, so the load sees the word and the pass
//      raises the thread back. Leaving, the thread clears the word before lowering itself, then
//      re-ranks its core (left_section), which applies its rank last by (2).
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
  Slot& slot = slots_.back();
  slot.cpu = cpu;
  slot.band = this;
  slot.hook = NonPreemptiveHook{&slot.nonpreemptive, &EdfBand::left_section, &slot};
  const int id = static_cast<int>(slots_.size()) - 1;
  core.slots.push_back(id);
  return id;
}

void EdfBand::set_tid(int slot, int tid) noexcept {
  // release: the tid is the datum; a re-ranker's acquire load pairs with it. Stored before the
  // slot's first change, whose bump publishes it again (invariants 1, 3).
  slots_[static_cast<std::size_t>(slot)].tid.store(tid, std::memory_order_release);
}

std::atomic<bool>* EdfBand::demotion_word(int slot) noexcept {
  return &slots_[static_cast<std::size_t>(slot)].demoted;
}

int EdfBand::lowest_priority(int cpu) const noexcept {
  for (const Core& c : cores_) {
    if (c.cpu == cpu) return kEdfTop - static_cast<int>(c.slots.size()) + 1;
  }
  return kEdfTop;
}

const NonPreemptiveHook* EdfBand::nonpreemptive_hook(int slot) noexcept {
  return &slots_[static_cast<std::size_t>(slot)].hook;
}

void EdfBand::left_section(void* context) noexcept {
  const Slot& slot = *static_cast<const Slot*>(context);
  slot.band->changed(slot);
}

void EdfBand::activate(int slot, std::int64_t deadline) noexcept {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  // release: published to re-rankers by the version bump in changed() (invariant 1).
  s.deadline.store(deadline, std::memory_order_release);
  // release: as above; a master with a pending job is no longer waiting for its release.
  if (deadline != kEdfIdle) s.dispatch.store(false, std::memory_order_release);
  changed(s);
}

void EdfBand::deactivate(int slot) noexcept { activate(slot, kEdfIdle); }

void EdfBand::prepare_dispatch(int slot) noexcept {
  Slot& s = slots_[static_cast<std::size_t>(slot)];
  // release: published to re-rankers by the version bump in changed() (invariant 1).
  s.dispatch.store(true, std::memory_order_release);
  changed(s);
}

void EdfBand::changed(const Slot& slot) noexcept {
  for (Core& c : cores_) {
    if (c.cpu != slot.cpu) continue;
    // acq_rel: the release half publishes the slot store above to every re-ranker that reads
    // this bump (invariant 1); then our own re-rank applies it (invariant 2).
    c.version.fetch_add(kEdfChange, std::memory_order_acq_rel);
    rerank(c);
  }
}

void EdfBand::rerank(Core& core) noexcept {
  struct Entry {
    std::int64_t deadline;
    int slot;
  };
  for (;;) {
    // acquire: pairs with the writers' acq_rel bumps; we see every change counted (invariant 1).
    const std::uint32_t version = core.version.load(std::memory_order_acquire);
    Entry order[kMaxSlotsPerCore];
    const std::size_t n = core.slots.size();
    for (std::size_t k = 0; k < n; ++k) {
      const int id = core.slots[k];
      // acquire (relaxed would do): the value is published by the bump we acquired
      // (invariant 1); a change we did not count is applied by its writer (invariant 2).
      const std::int64_t d =
          slots_[static_cast<std::size_t>(id)].deadline.load(std::memory_order_acquire);
      // Idle slots sort after every active one.
      order[k] = Entry{d == kEdfIdle ? INT64_MAX : d, id};
    }
    std::sort(order, order + n, [](const Entry& a, const Entry& b) {
      return a.deadline != b.deadline ? a.deadline < b.deadline : a.slot < b.slot;
    });
    for (std::size_t rank = 0; rank < n; ++rank) {
      Slot& s = slots_[static_cast<std::size_t>(order[rank].slot)];
      // acquire: pairs with set_tid's release store; a slot without a tid has had no change yet,
      // and its first change re-ranks with the tid known (invariants 1, 3).
      const int tid = s.tid.load(std::memory_order_acquire);
      if (tid == kEdfNoTid) continue;
      int priority = kEdfTop - static_cast<int>(rank);
      if (order[rank].deadline == INT64_MAX) {
        // Idle: a master waiting for its release sits at kEdfDispatch; an idle worker is blocked
        // and keeps its priority until its next job activates it.
        // acquire (relaxed would do): as the deadline load above (invariants 1, 2).
        if (!s.dispatch.load(std::memory_order_acquire)) continue;
        priority = kEdfDispatch;
      }
      // seq_cst, here and after the call: a budget handler stores the flag (seq_cst) before it
      // demotes; if our raise lands after its demotion, the load after the raise sees the flag
      // and demotes again, so the thread never stays raised while over its budget.
      if (s.demoted.load(std::memory_order_seq_cst)) continue;
      // seq_cst, here and after the call: a thread in an MSRP section keeps its section's
      // priority (invariant 4).
      if (s.nonpreemptive.load(std::memory_order_seq_cst) != 0) continue;
      sched_param param{};
      param.sched_priority = priority;
      sched_setscheduler(tid, SCHED_FIFO, &param);
      if (s.demoted.load(std::memory_order_seq_cst)) {
        const sched_param other{};
        sched_setscheduler(tid, SCHED_OTHER, &other);
      } else if (const int np = s.nonpreemptive.load(std::memory_order_seq_cst); np != 0) {
        param.sched_priority = np;
        sched_setscheduler(tid, SCHED_FIFO, &param);
      }
    }
    // acquire: the closing load; unchanged means no change was counted during the pass, and a
    // fresher pass's system call that landed before one of ours would have moved it
    // (invariant 2).
    if (core.version.load(std::memory_order_acquire) == version) return;
  }
}

}  // namespace rtpar::detail
