// engine.hpp — the discrete-event core of the simulator: per-core preemptive scheduling of the
// model's threads over time, job by job.
//
// Scheduling rules (each core independently, re-decided at every event):
//  * a thread is ready when it holds an unfinished piece of work, or a node pinned to it is
//    eligible, or (team threads) its task's shared pool has an eligible node;
//  * the core runs its most urgent ready thread: threads of EDF tasks (CoreScheduling::edf) above
//    every fixed-priority thread, among them the earliest absolute deadline; fixed-priority
//    threads by priority, higher number first (SCHED_FIFO). Equal urgency: the thread that ran
//    last on the core keeps it (FIFO threads are not preempted by equals), else the one ready the
//    longest, else the lower thread index;
//  * a thread chosen to run with nothing in hand takes its first eligible pinned node, else the
//    first eligible node of its task's pool (nodes are ordered by index; under the centralized
//    model by the time they entered the queue, and each enqueue and dequeue holds the task's queue
//    lock for queue_lock_ns: a dequeue adds the wait for the lock and the hold to the piece, an
//    enqueue makes the node eligible when its hold ends; the policy is NodeQueue, node_queue.hpp);
//    it keeps that piece until it finishes it, even when preempted (no migration of started work);
//  * a node becomes eligible when all its predecessors are done and its offset (relative to the
//    job's release) has passed; a job is done when all its nodes are;
//  * a task runs one job at a time: a release while its previous job runs is queued (overrun =
//    "queue", started when that job finishes) or dropped and counted (overrun = "skip").
// The steal model (SimOptions::team_model = steal; docs/internals/simulation.md, "Team
// models"), for the shared nodes of a team of W threads, worker w = the task's w-th thread
// (worker 0 = the master):
//  * each worker has a deque; a node made eligible by the release (or an offset) is pushed on
//    worker 0's bottom; one made eligible by worker w's completion of a node is pushed on w's
//    bottom, in successor order, after w spends spawn_cost_ns per such node on its core (a spawn
//    piece; the nodes are pushed when it ends). An empty node completes at once, its successors
//    counted as enabled by the same worker;
//  * a worker with nothing in hand pops its own bottom (LIFO). With an empty deque, W ≥ 2, its
//    job running and shared work in the task (pinned strands have no thieves), it is a thief:
//    it picks a victim uniformly among the other W − 1 workers from steal_victim(seed, task's
//    TaskSet index, job's release index, w, its attempt index in the job); a non-empty victim loses
//    its top (oldest) node to it, whose piece is steal_cost_ns + the node's (one unit of a bag,
//    which stays on the victim's deque while units are left); an empty victim costs a failed
//    attempt of steal_attempt_ns, after which it tries again. A thief has its task's priority and
//    deadline and keeps its core while it tries (spinning, like a work-stealing runtime's idle
//    workers);
//  * ties of events at one instant are resolved in core order: completions first (a spawn piece
//    ending pushes before a thief on a later core decides), then decisions core by core.
// Gate spin (strand plans, SimNode::spin; the dispatcher's wait_gate): a thread with nothing in
// hand or eligible whose next own node still waits for predecessors after its offset has passed
// holds a spin piece of SimNode::spin ns of execution at that node's priority (deadline) — it
// competes for its core like work — that ends when it has run that long (the thread then sleeps)
// or when the node becomes eligible (the thread takes it next; GateWaits, gate_waits.hpp).
// Locks (SimModel::locks; lock_sections.hpp): a piece holding critical sections runs as steps;
// at a section's start its thread requests the lock (local: runs at the lock's ceiling; global,
// MSRP: becomes non-preemptive — Urgency band 2, above EDF, below a supply blackout — and spins,
// its core busy, until the lock is granted FIFO), and at its end releases it.
// Events are releases, piece completions and offsets; time advances straight to the next one.
// Overheads are what the model injects (SimNode lengths and draws) plus, with a context-switch
// cost c > 0, c ns of execution added to a thread's piece when it resumes after a preemption
// (it was running a piece and another thread took its core). Nothing else is simulated (a
// team's waiting members, cache effects beyond c): the simulation is one schedule of those
// lengths.
//
// A node's length for one job is its work (SimNode::length − SimNode::folded), scaled by the
// job's execution factor for that node when the execution range is not [1, 1] (the draw of
// instance kExecutionInstance + node index: a stream apart from the overheads'), plus
// SimNode::folded, plus its draws, each draw the sample_at of
// draw_index(seed, the task's TaskSet index, the job's release index k (release = φ + k·T),
// the draw's index among the job's draws in node order): a function of those numbers only, never
// of the order in which events happen.
#pragma once

#include <cstdint>
#include <vector>

#include "rtpar/tools/simulate.hpp"
#include "sim/node_queue.hpp"
#include "sim/sim_model.hpp"

namespace rtpar::sim {

// EngineOutput is the per-model-task outcome (SimTaskResult fields the engine fills: jobs,
// completed, misses, skipped, max_response_ns, deadline_ns, jobs_log) and the run's totals.
struct EngineOutput {
  std::vector<SimTaskResult> tasks;  // indexed like SimModel::tasks
  std::vector<SimLockResult> locks;  // indexed like SimModel::locks (empty: none)
  std::int64_t end_ns = 0;
  std::int64_t events = 0;
};

// EngineParams are the options of one run: the resolved release window and the simulator's
// settings as given (seed, context switch, execution range, team model and its costs). The
// engine reads the settings themselves, so that a new one is not restated here.
struct EngineParams {
  std::int64_t horizon_ns = 0;
  SimOptions settings;
};
// run_engine releases jobs in [0, horizon_ns) and runs until every released job is done or until
// horizon_ns + the longest deadline, after which every unfinished job has missed. Throws
// InputError when a job's length (with its draws) or a piece with its context switches would
// overflow 2^63 − 1 ns.
EngineOutput run_engine(const SimModel& model, const EngineParams& params);

}  // namespace rtpar::sim
