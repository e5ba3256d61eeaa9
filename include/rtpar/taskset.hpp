// rtpar/taskset.hpp — the task model: a set of periodic parallel tasks on a set of cores.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/channel_kind.hpp"
#include "rtpar/error.hpp"
#include "rtpar/kernel_spec.hpp"
#include "rtpar/steal_config.hpp"
#include "rtpar/task_kinds.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/topology.hpp"
#include "rtpar/wait_policy.hpp"

namespace rtpar {

// Kernel is a task's job code (rtpar/ext/kernel.hpp); the model only holds a pointer to it, so
// that planning does not depend on the runtime the code runs on.
class Kernel;

// SegmentSpec is one segment of a parallel-synchronous task ([[task.segment]]): `strands`
// independent strands of `length` each, all released together once the previous segment is done.
struct SegmentSpec {
  std::int64_t strands = 1;
  Duration length{0};
  SourceLocation where;
};

// DagNode is one node of an explicit DAG task ([[task.node]]), for analysis-only use.
struct DagNode {
  std::string name;
  Duration length{0};
  std::vector<int> after;  // indices (into DagSpec::nodes) of the nodes that must finish first
  SourceLocation where;
};

// DagSpec is an explicit DAG task: nodes in file order; edges are `after` lists (acyclic).
struct DagSpec {
  std::vector<DagNode> nodes;
};

// SystemSpec is the [system] table: the machine the task set is analysed for and run on.
struct SystemSpec {
  std::vector<int> cores;         // CPU ids usable by real-time tasks, ascending, distinct
  bool cores_from_count = false;  // true when the file gave a count (a target machine for analysis)
  PlannerKind planner = PlannerKind::federated;
  double delta = 1.5;            // δ, the critical-path coefficient of federated-ws (RTWS §V-B)
  std::vector<int> nonrt_cores;  // CPU ids reserved for non-real-time work (not given to RT tasks)
  FitKind fit = FitKind::fbb_ffd;  // decomposition: how strands are packed onto cores
  int sockets = 1;                 // sockets the cores are split into evenly (core-count targets)
  // fork_join_overhead is charged per fork by fork-join-rta when no measured overhead profile is
  // given (`rtpar check --overhead FILE`); zero when the file does not say.
  Duration fork_join_overhead{0};
  // isolate: `rtpar run` removes the kernel's interference from the real-time cores for the run
  // (root only; docs/taskset.md), and the planners then charge none.
  bool isolate = false;
  // memory_limit bounds the memory a run preallocates for the set's channels, in bytes; 0 means
  // the default, half the machine's physical memory (docs/taskset.md, "Memory limit").
  std::uint64_t memory_limit = 0;
  // budget is the budget mode of every task that does not name its own; nullopt: each thread
  // gets enforce when it shares a core with another task, monitor on cores of its own
  // (model/budget_rules.hpp, docs/reliability.md "Budgets").
  std::optional<BudgetMode> budget;
  // budget_margin is added to every job's charged CPU time before a budget counts as spent: it
  // covers the budget mechanism's own system calls, a kernel's clock-read overshoot and, on a
  // virtual machine, host steal time counted in the thread's CPU clock, so that a job that uses
  // exactly its declared work is not an overrun.
  Duration budget_margin{std::chrono::microseconds(100)};
  // shared_wait, when set, is the wait policy fork-join-rta charges and `rtpar run` uses for a
  // task whose candidate placement shares a core with a task placed before it (FJOS §VIII: the
  // spin versions "use blocking when multiple tasks share a core"; decision F15 of
  // docs/internals/experiment-spec.md). TaskPlan::wait records the switch. nullopt: every task
  // keeps its own `wait`. Other planners ignore it (a plan note says so).
  std::optional<WaitKind> shared_wait;
  SourceLocation where;  // location of [system] (or of the file when absent)
};

// TaskSpec is one [[task]]: a periodic (implicit or constrained deadline) parallel task.
struct TaskSpec {
  std::string name;
  Duration period{0};           // T
  Duration deadline{0};         // D ≤ T (defaults to T)
  Duration phase{0};            // offset of the first release
  Duration work{0};             // C: WCET on one core
  Duration span{0};             // L: critical-path length (defaults to C)
  std::optional<int> priority;  // SCHED_FIFO priority override (1..99)
  std::string kernel;           // kernel name as written ("spin", "segments", "lib:./x.so:f")
  KernelSpec kernel_spec;       // the code `kernel` describes (the loader creates none of it)
  // code is the job code: bound via System, or created from kernel_spec when a run starts
  // (System::run, `rtpar run`); null after load_taskset, which runs no code.
  std::shared_ptr<Kernel> code;
  RuntimeKind runtime = RuntimeKind::team;
  StealConfig steal;                  // budget of runtime = "steal" ([task.steal])
  std::vector<SegmentSpec> segments;  // parallel-synchronous structure (empty: unknown)
  std::optional<DagSpec> dag;         // explicit DAG (analysis only; exclusive with segments)
  std::vector<int> places;            // partitioned: the cores this task's threads may use
  int threads = 0;                    // partitioned: team size (0: one thread per place)
  OverrunPolicy overrun = OverrunPolicy::queue;
  // budget overrides [system] budget for this task (nullopt: the system's, or the default rule).
  std::optional<BudgetMode> budget;
  WaitPolicy wait;       // how team members wait inside a job (default hybrid, 50 µs)
  SourceLocation where;  // location of this [[task]] table

  // utilization is C/T.
  [[nodiscard]] double utilization() const {
    return static_cast<double>(work.count()) / static_cast<double>(period.count());
  }
};

// kNonRtEndpoint is the writer/reader name that stands for a non-real-time thread of the user's
// program, which attaches to the channel through rtpar::System. No task may use this name.
inline constexpr std::string_view kNonRtEndpoint = "nonrt";

// ChannelSpec is one [[channel]]: a fixed-size value that one endpoint writes and others read.
struct ChannelSpec {
  std::string name;
  ChannelKind kind = ChannelKind::latest;
  std::size_t size_bytes = 0;
  int numtries = 2;                  // retry only: attempts per read
  std::string writer;                // a task name or kNonRtEndpoint
  std::vector<std::string> readers;  // task names and/or kNonRtEndpoint, distinct
  // hold is a lock channel's longest critical section: the most execution time any job of any
  // user spends holding the lock in one access (its payload copy and whatever the job does while
  // holding it). Lock channels must declare it (0 < hold < every user's deadline); other kinds
  // must not (0). Admission control charges it as blocking (docs/analysis.md).
  Duration hold{0};
  // accesses is how many times, at most, each job of each user (the writer and every reader)
  // takes the lock (lock only; default 1). Docs: docs/taskset.md "Lock channels".
  int accesses = 1;
  SourceLocation where;  // location of this [[channel]] table
};

// ChainSpec is one [[chain]]: a cause-effect chain of tasks, each consecutive pair connected by a
// `latest` or `double_buffer` channel written by the earlier task and read by the later one
// (camera → tracker → control). Admission control bounds its data age and reaction time
// (docs/analysis.md, "Cause-effect chains"); with max_age the data-age bound is part of the
// verdict.
struct ChainSpec {
  std::string name;
  std::vector<std::string> tasks;     // ≥ 2 task names, source first
  std::optional<Duration> max_age;    // the largest data age admitted (none: reported only)
  SourceLocation where;               // location of this [[chain]] table
};

// TaskSet is a validated system plus its tasks and channels, in file order.
struct TaskSet {
  SystemSpec system;
  std::vector<TaskSpec> tasks;
  std::vector<ChannelSpec> channels;
  std::vector<ChainSpec> chains;
  std::string source;  // the file it was loaded from ("<memory>" when built in code)
};

// validate_taskset checks a task set built in code against the same rules as the file format.
// Throws InputError (with field paths, and locations when known). Task code is not required here
// (planning needs none); the executor refuses a task without code.
void validate_taskset(const TaskSet& set);

// system_topology is the machine a task set describes: system.cores split, in id order, into
// system.sockets groups as evenly as possible (the first sockets get one more core when the
// count does not divide). Declared here, beside SystemSpec, because model/ implements it.
Topology system_topology(const SystemSpec& system);

}  // namespace rtpar

// The file readers (load_taskset, parse_taskset) are implemented by src/load/, a floor above the
// types: they are declared in rtpar/taskset_file.hpp, included here so that code written when
// they were declared in this header still compiles (the layering test's COMPAT list names it).
#include "rtpar/taskset_file.hpp"
