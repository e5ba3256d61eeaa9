// sim_model.hpp — what the simulator runs: threads pinned to cores, and per task a job template
// (a DAG of work nodes) saying which thread may run which piece of a job, at which priority.
//
// build_sim_model turns a Plan plus its TaskSet into this form (docs/internals/simulation.md):
//  * strand plans (TaskPlan::segments, decomposition and fork-join-rta): one thread per distinct
//    core of the task's strands (as the executor's dispatcher creates them); strand k of segment
//    s is a node pinned to the thread of its core, at the strand's priority, eligible at
//    release + offset_ns and after every strand of segment s−1 (a zero-length join node); a
//    thread that waits for that join spins first as the task's wait policy says (SimNode::spin);
//  * team plans (federated, federated-ws, partitioned): the team's threads on thread_cores (or one
//    per entry of `cores`), master first, all at the task's priority, and the job is
//      - TaskSpec::segments: per segment, the static-blocks split of the `segments` kernel
//        (parallel_for_static: rank r gets ⌊m/p⌋ strands, +1 if r < m mod p), one node per rank;
//      - TaskSpec::dag: the DAG's nodes, shared by the team (greedy list scheduling);
//      - otherwise C and L only: one chain node of length L plus C − L of independent units of
//        at most L each, shared by the team, units always preferred over the chain. That is a
//        legal greedy schedule of a DAG with work C and span L, and the slowest kind: the chain
//        starts only when no unit is left, so a job on p idle threads takes ≈ (C−L)/p + L, the
//        greedy bound (Graham; RTWS §V-A) that federated scheduling relies on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/overhead_draw.hpp"

namespace rtpar::sim {

// SimNode is one piece of a job: `length` ns of execution on one thread, without preemption
// points other than the core scheduler's (a preempted node stays with its thread).
struct SimNode {
  std::int64_t length = 0;  // 0: a join node, complete as soon as its predecessors are
  // piece > 0 makes the node a bag of independent units: threads take it `piece` ns at a time
  // (the last piece may be shorter) until it is used up; 0: the node runs as one piece.
  std::int64_t piece = 0;
  int thread = -1;            // model thread index that must run it; -1: any thread of the team
  int priority = 0;           // fixed-priority level while it runs (higher = more urgent)
  std::int64_t offset = 0;    // earliest start, relative to the job's release
  std::int64_t deadline = 0;  // relative deadline used by EDF cores (segment or task deadline)
  std::vector<int> successors;
  int predecessors = 0;
  // draws: overhead instances drawn anew for every job (OverheadStatistic::sampled) and added to
  // `length`, in order; each job's instance indices run over the nodes' draws in node order.
  // Empty for the fixed statistics, which build_sim_model folds into `length`.
  std::vector<OverheadQuantiles> draws;
  // folded: the part of `length` that is a fixed-statistic overhead (not work): stochastic
  // execution scales length − folded only.
  std::int64_t folded = 0;
  // spin (strand plans): how long the node's thread spins, at the node's priority, once it waits
  // for this node's predecessors (a gate, docs/internals/dispatcher.md) before it sleeps: the
  // task's `hybrid` spin_ns, or under `spin` the previous segment's makespan; 0: it sleeps at once.
  std::int64_t spin = 0;
};

// SimThread is one pinned thread.
struct SimThread {
  int core = 0;  // dense core index (SimModel::cpus maps it back to a CPU id)
  int task = 0;  // index into SimModel::tasks
};

// SimTask is one placed task and its job template.
struct SimTask {
  std::size_t set_index = 0;  // index in TaskSet::tasks / Plan::tasks
  std::int64_t period = 0, deadline = 0, phase = 0;
  OverrunPolicy overrun = OverrunPolicy::queue;
  bool edf = false;  // CoreScheduling::edf: ordered by absolute deadline, above FIFO
  // supply: a blackout of the profile's supply loss on one core (no task of the set): above EDF
  // and every priority, never scaled by stochastic execution, and reported by no result.
  bool supply = false;
  std::vector<int> threads;    // model thread indices, master first
  std::vector<SimNode> nodes;  // topologically ordered; pool nodes are preferred by index
};

// SimLock is one `lock` channel as the engine runs it (lock_sections.hpp): its placed users, the
// section length and count per job, and its protocol. local: every user is a one-thread
// fixed-priority task and all share one core, so the lock follows the immediate priority ceiling
// protocol with `ceiling` (its users' highest node priority); otherwise it is global and follows
// MSRP (Gai, Lipari and Di Natale, "Minimizing Memory Utilization of Real-Time Task Sets in
// Single and Multi-Processor Systems-on-a-Chip", RTSS 2001): non-preemptive FIFO spinning.
struct SimLock {
  std::string name;
  std::int64_t hold = 0;   // ChannelSpec::hold: the longest section
  int accesses = 1;        // sections per job of each user
  std::vector<int> users;  // model task indices, ascending (unplaced and non-RT users dropped)
  bool local = false;
  int ceiling = 0;  // local: the priority a section runs at (at least)
};

// SimModel is everything the engine needs.
struct SimModel {
  std::vector<int> cpus;  // CPU id of each dense core index, ascending
  std::vector<SimThread> threads;
  std::vector<SimTask> tasks;
  std::vector<int> task_of_set;  // TaskSet index → SimModel task index, or -1 if not placed
  std::vector<SimLock> locks;    // the set's lock channels in file order (lock_sections.hpp)
};

// build_sim_model converts plan + set as described in the file comment. With `overhead` it also
// injects the overheads the planners charge from that profile (docs/internals/simulation.md,
// "Overheads"): team plans a release node and a fork/join node per region on the master, strand
// plans extra execution on their strands; each at `statistic` (p999: the planners' own values),
// or, for `sampled`, as SimNode::draws. With a profile that has supply entries and statistic p999
// or max, every core also gets the supply loss the planners charge (analysis::supply_server, (Q,
// P)) as a blackout of Q at the start of every P from 0, above every task: a periodic pattern
// that loses exactly Q in every window of P, the model's worst case (docs/internals/simulation.md,
// "Supply loss"). The other statistics inject none: the profile states only the largest loss.
// The blackouts are SimTasks after every task of the set (task_of_set never names them). Throws
// InputError when the plan does not match the set
// (different task count or names) or the profile cannot bound a charge.
SimModel build_sim_model(const Plan& plan, const TaskSet& set,
                         const OverheadProfile* overhead = nullptr,
                         OverheadStatistic statistic = OverheadStatistic::p999);

}  // namespace rtpar::sim
