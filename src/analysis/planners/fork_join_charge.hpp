// fork_join_charge.hpp — what fork-join-rta charges a task for a team of n cores: the fork/join
// cost per aggregate strand (FJOS §VI; the profile's or system.fork_join_overhead) and, with an
// overhead profile, the release latency on the first stage (docs/analysis.md "Overhead
// profiles"), and the notes that state them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/bounds/fork_join_stage_rta.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

// FjCharge is the fork/join cost charged per fork for one team size, and where it came from.
struct FjCharge {
  std::int64_t ns = 0;
  std::optional<ForkJoinCharge> measured;  // set when it comes from the overhead profile
  std::int64_t release_ns = 0;             // release latency on the first stage (profile only)
};

// fj_charge_for is the per-fork cost of a team of n for `task`: the profile's bound when a profile
// is given (extrapolated above its largest team, never zero), else system.fork_join_overhead;
// with a profile also the release latency Λ(n) (overhead_up_to). A profile that cannot bound them
// is refused (InputError, exit 2): one without any entry for the task's wait policy (spin, block
// and hybrid wake workers by different paths, so no policy's cost bounds another's), or one that
// measured only teams of one thread (which wake no worker).
FjCharge fj_charge_for(const TaskSet& set, const TaskSpec& task, const PlanOptions& options,
                       std::int64_t n);

// fj_charge_note states an admitted task's charges from the profile in the plan's notes.
std::string fj_charge_note(const TaskSpec& task, std::int64_t n, const FjCharge& charge,
                           const OverheadProfile& profile);

// with_release charges `release` on every aggregate strand of t's first stage; nullopt when a
// cost overflows (or t is nullopt).
std::optional<FjTask> with_release(std::optional<FjTask> t, std::int64_t release);

// with_gate_spin sets each aggregate strand's FjGroup::spin from the task's wait policy, as the
// strand runner waits (docs/internals/dispatcher.md, "Waiting inside a job"): before its strands
// of stage v ≥ 1 a member waits for stage v − 1's gate, spinning first — `hybrid` for spin_ns,
// `spin` for at most the stage's makespan (bounded here by its largest charged aggregate strand),
// `block` not at all. Only a gate with a member on another core can keep it waiting.
std::optional<FjTask> with_gate_spin(std::optional<FjTask> t, const WaitPolicy& wait);

// fj_spin_note states the gate spin charged for an admitted task whose members spin, or nothing.
std::optional<std::string> fj_spin_note(const TaskSpec& task, const FjTask& placed);

// fj_extrapolation_note says which team size's fork/join cost was extrapolated for a task, from
// what.
std::string fj_extrapolation_note(const TaskSpec& task, std::int64_t n, const ForkJoinCharge& m,
                                  const OverheadProfile& profile);

}  // namespace rtpar::analysis
