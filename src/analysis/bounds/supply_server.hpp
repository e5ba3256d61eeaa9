// supply_server.hpp — the measured supply loss of an overhead profile (`rtpar calibrate
// --supply`, OverheadProfile::supply) as the server the planners charge, alone or together with
// the kernel's server.
//
// Model (docs/analysis.md "Supply loss"): the core supplies every instant of a window of length t
// except at most L_s(t); the profile states L(w) for some window lengths w, each the largest loss
// seen in any window of length w. A window of length t is the union of ⌈t/w⌉ windows of length w,
// so L_s(t) ≤ ⌈t/w⌉·L(w) for every measured w: a periodic task (L(w), w) without jitter above every
// task (the supply bound function sbf(t) = t − ⌈t/w⌉·L(w) of a bounded-loss resource; Mok, Feng &
// Chen, "Resource partition for real-time systems", RTAS 2001, §3, and Shin & Lee, "Periodic
// resource model for compositional real-time guarantees", RTSS 2003, §3, give such supply bounds
// for a partition; here the partition is what the host leaves to the virtual CPU). Condition: the
// measurement saw the worst window, which is what every measured WCET assumes too.
#pragma once

#include <optional>

#include "analysis/bounds/server_interference.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar::analysis {

// supply_server is the profile's supply loss for `set` as a sliding-window server (deferred =
// false): among the measured windows, the (Q, P) = (L(w), w) whose largest I(D_i)/D_i over the
// tasks of the set is smallest (ties: the shorter window), compared exactly in 128 bits. Any
// choice is sound (every measured w bounds every window); this one loses the least supply where
// it matters most. nullopt when the profile has no supply entry, when a window lost nothing
// (L(w) = 0 bounds every window's loss by 0) or when the set has no task.
std::optional<PeriodicServer> supply_server(const OverheadProfile& profile, const TaskSet& set);

// combined_server is one server whose I(t) bounds the kernel's server K = (Q₁, P₁, deferred) and
// the supply server H = (Q₂, P₂, sliding) together, both on every core:
//   P = min(P₁, P₂),  Q = min(P, 2·Q₁ + Q₂),  not deferred,
// since I_K(t) ≤ Q₁·(⌈t/P₁⌉ + 1) ≤ Q₁·(⌈t/P⌉ + 1) and I_H(t) ≤ Q₂·⌈t/P⌉, so for t > 0
// I_K(t) + I_H(t) ≤ (2·Q₁ + Q₂)·⌈t/P⌉ (and never more than t). Either alone is returned as it is.
std::optional<PeriodicServer> combined_server(const std::optional<PeriodicServer>& kernel,
                                              const std::optional<PeriodicServer>& supply);

}  // namespace rtpar::analysis
