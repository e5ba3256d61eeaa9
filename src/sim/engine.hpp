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
//    first eligible node of its task's pool (nodes are ordered by index); it keeps that piece
//    until it finishes it, even when preempted (no migration of started work);
//  * a node becomes eligible when all its predecessors are done and its offset (relative to the
//    job's release) has passed; a job is done when all its nodes are;
//  * a task runs one job at a time: a release while its previous job runs is queued (overrun =
//    "queue", started when that job finishes) or dropped and counted (overrun = "skip").
// Events are releases, piece completions and offsets; time advances straight to the next one.
// No overhead of any kind is simulated (release jitter, context switches, barriers, spinning
// waiters): the simulation is one schedule of the declared worst-case lengths.
#pragma once

#include <cstdint>
#include <vector>

#include "rtpar/tools/simulate.hpp"
#include "sim/sim_model.hpp"

namespace rtpar::sim {

// EngineOutput is the per-model-task outcome (SimTaskResult fields the engine fills: jobs,
// completed, misses, skipped, max_response_ns, deadline_ns, jobs_log) and the run's totals.
struct EngineOutput {
  std::vector<SimTaskResult> tasks;  // indexed like SimModel::tasks
  std::int64_t end_ns = 0;
  std::int64_t events = 0;
};

// run_engine releases jobs in [0, horizon_ns) and runs until every released job is done or until
// horizon_ns + the longest deadline, after which every unfinished job has missed.
EngineOutput run_engine(const SimModel& model, std::int64_t horizon_ns, bool record_jobs);

}  // namespace rtpar::sim
