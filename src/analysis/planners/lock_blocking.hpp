// lock_blocking.hpp — what the planners do with a task set's `lock` channels. Each lock runs the
// protocol its placement gives it (model/lock_placement.hpp): a local lock (every user one thread
// on one core) the priority ceiling protocol (analysis/bounds/blocking.hpp), a global lock MSRP
// (analysis/bounds/msrp.hpp). The partitioned and federated planners charge both; every lock
// they cannot analyse, and every lock under the other planners, refuses the set with a reason
// naming the lock (docs/analysis.md, "Blocking (shared locks)").
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/bounds/edf_blocking.hpp"
#include "analysis/bounds/rta.hpp"
#include "analysis/bounds/server_interference.hpp"
#include "analysis/planners/partitioned_part.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// has_lock_channels says whether the set has any channel of kind "lock".
bool has_lock_channels(const TaskSet& set);

// refuse_lock_channels makes `plan` not schedulable when the set has lock channels, for a planner
// (`planner`, as spelt in [system]) whose test assumes independent tasks: each user of each lock
// gets a reason naming the lock (unless it already has one) and the plan a note. It never admits
// a set with a shared real-time lock on an independent-task test.
void refuse_lock_channels(Plan& plan, const TaskSet& set, std::string_view planner);

// LockCharge is what the partitioned planner does about the set's locks, per task (set order).
struct LockCharge {
  std::vector<std::int64_t> blocking;      // B_i in ns (0: none)
  std::vector<std::string> blocking_lock;  // the lock of B_i ("" when 0)
  std::vector<std::int64_t> spin;          // Σ_ℓ N_{i,ℓ}·spin_ℓ added to C_i (MSRP)
  std::vector<std::optional<std::string>> refusal;  // why the set's locks cannot be analysed
  std::vector<std::string> notes;                   // one per lock: its protocol and charges
  std::vector<std::int64_t> nonpreemptive;  // longest MSRP spin + section of the task (0: none)
};

// partitioned_lock_charge classifies each lock channel for plan_partitioned and charges it.
// Local (all users static-priority, one thread, one and the same core): every single-thread
// static-priority task on that core gets the priority-ceiling B_i. Global (users on several
// cores): MSRP; each user (one thread, static priority) spins at most spin_ℓ = (|cores(ℓ)| − 1)·
// cs_ℓ per access (msrp_section with `server`), added to its C; each single-thread task on a core
// gets B_i = max(ceiling term, longest spin + section of a lower-priority global-lock user there).
// A lock with an EDF-band user is MSRP even when all its users share one core (spin 0 there):
// the band's re-ranking would undo a ceiling, and a non-preemptive section is what the band test
// charges. An EDF-band task on a core of `exact_bands` (cores whose band is tested exactly by
// the processor-demand criterion) gets no B_i here: plan_partitioned charges the sections there
// as B(t) (edf_band_blockers, analysis/bounds/edf_blocking.hpp). Refused, naming the lock: a user
// with several threads (global: a team), a section no bound holds for (the server), a team
// sharing a core with a blocker (it can be blocked at every resumption), an EDF-band task with a
// blocker on a core outside `exact_bands`. Parts that already have a reason are skipped (the
// plan is refused anyway).
LockCharge partitioned_lock_charge(const TaskSet& set, const std::vector<Part>& parts,
                                   const std::optional<PeriodicServer>& server,
                                   const std::set<int>& exact_bands);

// edf_band_blockers lists the non-preemptive sections that can block the EDF band of `core`:
// each task with a thread there and an MSRP section (LockCharge::nonpreemptive), with its
// deadline when it is a band task, kBlockerAlways when it is a static one (its request runs
// above the band).
std::vector<DemandBlocker> edf_band_blockers(const std::vector<Part>& parts,
                                             const LockCharge& locks, int core);

// FederatedLocks is the MSRP spin charge the federated planners make before placing anything.
struct FederatedLocks {
  TaskSet inflated;                                 // the set with C and L grown by `spin`
  std::vector<std::int64_t> spin;                   // per task: Σ_ℓ N_{i,ℓ}·spin_ℓ
  std::vector<std::int64_t> section;                // per channel: cs_ℓ (0: not a lock)
  std::vector<std::int64_t> request_spin;           // per channel: spin_ℓ (0: not a lock)
  std::vector<std::optional<std::string>> refusal;  // per task, naming the lock
};

// federated_lock_spins charges every lock as global before placement (where its users will run
// is not known yet): at most min(Σ_u N_{u,ℓ}, m) requests can be pending at once (each user
// thread has at most one, a job makes N_{u,ℓ}, and each of the m cores at most one), so
// spin_ℓ = (min(Σ_u N_{u,ℓ}, m) − 1)·cs_ℓ; each user's work and span grow by Σ_ℓ N_{i,ℓ}·spin_ℓ
// (each request may be on the critical path: Dinh et al. 2018, §4). A lock that ends up local
// runs the ceiling protocol with the spin still charged (pessimistic, sound).
FederatedLocks federated_lock_spins(const TaskSet& set, std::size_t cores,
                                    const std::optional<PeriodicServer>& server);

// charge_federated_blocking adds the blocking term to each light task of `plan` (made from
// locks.inflated) once placed: the ceiling term of the local locks on its core and the longest
// lower-priority MSRP section there, then R_i = C'_i + B_i + Σ_hp ⌈R_i/T_j⌉·C'_j with `above`
// (the kernel's server) in every hp set; a bound past D refuses the task naming the lock. Heavy
// tasks run on cores of their own and are never blocked. Adds the refusals and notes.
void charge_federated_blocking(Plan& plan, const TaskSet& set, const FederatedLocks& locks,
                               const std::vector<RtaInterferer>& above);

}  // namespace rtpar::analysis
