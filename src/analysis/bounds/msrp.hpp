// msrp.hpp — the spin and blocking terms of the Multiprocessor Stack Resource Policy for a
// global lock (users on several cores, or a team).
//
// Source: Gai, Lipari & Di Natale, "Minimizing Memory Utilization of Real-Time Task Sets in
// Single and Multi-Processor Systems-on-a-Chip" (RTSS 2001), §4 (MSRP): a job requesting a
// global resource becomes non-preemptive and busy-waits in a FIFO queue; since a processor has at
// most one pending request (its requester cannot be preempted), a request waits for at most one
// critical section per other processor that can request the resource:
//   spin_ℓ = Σ_{other requesters} cs_ℓ,                                   (§4, "spin_lock time")
// the requester's execution grows by its spins, C'_i = C_i + Σ_ℓ N_{i,ℓ}·spin_ℓ, and a job is
// blocked once, before it starts, by the longest non-preemptive section (spin + critical
// section) of a lower-priority job on its processor, or by a local ceiling:
//   B_i = max(B_local, max_{j on P(i), prio(j) < prio(i), ℓ global used by j} (spin_ℓ + cs_ℓ)).
// For parallel tasks (federated scheduling: a heavy task's team on cores of its own) each node
// that makes a request is inflated by its spin, so a job's work and span both grow by
// N_{i,ℓ}·spin_ℓ per lock, and the greedy bound is applied to the inflated DAG — the spin-lock
// analysis of Dinh, Li, Agrawal, Gill & Lu, "Blocking analysis for spin locks in real-time
// parallel tasks" (IEEE TPDS 29(4), 2018), §4, in its simplest (per-request, every request on
// the critical path) form.
//
// Conditions: the runtime runs exactly this (runtime/channel/lock.cpp): a request raises its
// thread above every priority of the task set, tickets are served in FIFO order, and the holder
// stays non-preemptive until it releases. Global critical sections do not nest inside one
// another (a nested request's spin is part of the outer section's declared hold). cs_ℓ bounds
// one section in wall time: the declared hold plus whatever above the task set (the kernel's
// server, when charged) runs during it (msrp_section).
#pragma once

#include <cstdint>
#include <optional>

#include "analysis/bounds/server_interference.hpp"

namespace rtpar::analysis {

// msrp_section is cs_ℓ, the wall-time length of one critical section of execution `hold` (> 0):
// `hold` itself without a server, else the least x with x = hold + I(x) (server_interference),
// the section stretched by the server that can preempt a non-preemptive holder too. nullopt when
// no such x ≤ `limit` exists (the server leaves too little, or the section outgrows `limit`).
std::optional<std::int64_t> msrp_section(std::int64_t hold,
                                         const std::optional<PeriodicServer>& server,
                                         std::int64_t limit);

// msrp_spin is spin_ℓ = others · section: the longest a request waits when at most `others`
// requests (of other processors) can be ahead of it, each holding for `section`. nullopt on
// overflow. Throws std::invalid_argument for others < 0 or section ≤ 0.
std::optional<std::int64_t> msrp_spin(std::int64_t others, std::int64_t section);

}  // namespace rtpar::analysis
