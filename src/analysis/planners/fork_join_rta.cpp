// fork_join_rta.cpp — plan_fork_join_rta: FJOS's overhead-aware greedy assignment (FJOS §VII)
// checked by the fork/join response-time analysis (fjrta.hpp, FJOS §VI).
//
// Steps (FJOS §VII, numbered as there):
//  1. deadline-monotonic priorities (stages.hpp), shared by all strands of a task;
//  2. tasks from the highest priority to the lowest;
//  3. N = ⌈U_i⌉ = ⌈C_i / T_i⌉ cores to start with (integer ceiling, at least 1);
//  4. S = ⌈N / CPS⌉ sockets, CPS = cores per socket;
//  5. N > Q ⇒ fail; else the S sockets with the most available utilization, filled one after the
//     other with their most available cores (ties: lower CPU id) → cores[0..N−1] (choose_cores);
//  6. strands stage by stage, strand k of a stage on cores[k mod N];
//  7. the RTA of the task on that placement (lower-priority tasks cannot change the bounds of
//     higher-priority ones under partitioned FP, so only the new task is analysed);
//  8. failure ⇒ N + 1 and back to 4; success ⇒ next task.
// PlanOptions::assign = worst_fit replaces steps 3–6 and 8 by FJOS §VIII-A's "Naive" (decision
// F11, worst_fit_assign.hpp): every strand, stage by stage, on the least-utilized core, then step 7
// once; a task that fails is not retried, its strands stay placed, and the tasks of lower priority
// sharing one of its cores are reported "not analysed" (no bound can include it). The plan is
// schedulable iff every task passes.
// Overheads (FJOS §VI): a stage that runs on more than one core pays the measured fork/join
// cost for a team of N once on every aggregate strand (the parent's and each worker's), because
// on a shared core all of them delay other tasks. The cost is OverheadProfile::fork_join_bound(N,
// wait) when a profile is given (extrapolated above its largest team and noted in the plan; a
// profile without the task's policy is refused), else system.fork_join_overhead. Costs are summed
// with checked arithmetic: a core whose strands plus overhead pass 2^63 − 1 ns has no bound.
// With a profile the job's release latency for a team of N (OverheadProfile::release, taken as
// overhead_up_to) is also charged, once, on every aggregate strand of its first stage: it delays
// the job's start, and charging it as execution of the first stage's strands bounds that delay
// (docs/analysis.md "Overhead profiles"). A profile without `release` entries for the policy is
// refused. Each admitted task's charges are stated in the plan's notes.
// Shared cores (decision F15; FJOS §VIII: its spin versions "use blocking when multiple tasks
// share a core"): with [system] shared_wait, a candidate placement with a core that already holds
// a task placed before (a higher or equal priority; the tasks are placed by priority) is charged
// the shared policy's fork/join and release costs and gate waits instead of the task's own, and
// TaskPlan::wait makes the run use it. A task placed later on the cores of a spinning task does
// not switch it back: that task's spin is charged as interference on the later one
// (with_gate_spin), so its bound stays sound.
//
// Kernel interference (PlanOptions::interference charged): every analysis, during the greedy
// search and in the equal-priority rounds, has the kernel's server on each core as an interferer
// above every task (FjOptions::server, fork_join_stage_rta.hpp), so the search adds cores where
// the server needs them. Uncharged, the analyses and hence the plans are unchanged.
// Cost: the placed tasks are indexed by core (FjCoreIndex), so one analysis reads the tasks on the
// cores it uses, not every placed task (10,000 light tasks on 8 cores: 1/8 of the scans).
#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/bounds/fork_join_stage_rta.hpp"
#include "analysis/bounds/stages.hpp"
#include "analysis/planners/fork_join_charge.hpp"
#include "analysis/planners/interference_charge.hpp"
#include "analysis/planners/lock_blocking.hpp"
#include "analysis/planners/worst_fit_assign.hpp"
#include "core/checked_math.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar {

namespace {

// Machine is the cores the planner may use, by socket, and their load so far.
struct Machine {
  std::vector<std::vector<int>> sockets;
  std::vector<__int128> load_num;  // per CPU index: Σ c/T as a fraction over a common scale
  std::vector<int> cpus;           // all CPUs, ascending
};

// kScale turns utilizations into integers: load = Σ ⌈c · kScale / T⌉ (rounded up so a core never
// looks emptier than it is). Only used to rank cores (steps 5), never to decide schedulability.
constexpr std::int64_t kScale = 1'000'000'000;

Machine make_machine(const TaskSet& set, const PlanOptions& options) {
  Topology topo = options.target != nullptr ? *options.target : system_topology(set.system);
  Machine m;
  for (auto& socket : topo.sockets) {
    std::vector<int> usable;
    for (const int cpu : socket) {
      const bool reserved = options.target == nullptr &&
                            std::find(set.system.nonrt_cores.begin(), set.system.nonrt_cores.end(),
                                      cpu) != set.system.nonrt_cores.end();
      if (!reserved) usable.push_back(cpu);
    }
    if (!usable.empty()) {
      m.cpus.insert(m.cpus.end(), usable.begin(), usable.end());
      m.sockets.push_back(std::move(usable));
    }
  }
  std::sort(m.cpus.begin(), m.cpus.end());
  m.load_num.assign(m.cpus.size(), 0);
  return m;
}

std::size_t cpu_index(const Machine& m, int cpu) {
  return static_cast<std::size_t>(std::lower_bound(m.cpus.begin(), m.cpus.end(), cpu) -
                                  m.cpus.begin());
}

// choose_cores is steps 4–5: n cores from the fewest, least loaded sockets. The S = ⌈n/CPS⌉
// sockets with the most available utilization are filled one after the other, each with its
// least loaded cores first (ties: lower CPU id), so a task crosses a socket boundary only once it
// has every core of the sockets before (FJOS §VI: "tasks only cross a socket boundary when
// they are assigned to all the cores on that socket", which keeps the team shapes those the
// overhead profile measured). With equal sockets this is also §VII step 5's "N cores with the
// largest available utilization within those sockets", up to the choice of the partial socket.
std::vector<int> choose_cores(const Machine& m, std::size_t n) {
  auto load = [&m](int cpu) { return m.load_num[cpu_index(m, cpu)]; };
  std::vector<std::size_t> order(m.sockets.size());
  std::iota(order.begin(), order.end(), 0);
  auto available = [&](std::size_t s) {
    __int128 used = 0;
    for (const int cpu : m.sockets[s]) used += load(cpu);
    // Available utilization = cores·1 − used; compared as scaled integers.
    return static_cast<__int128>(m.sockets[s].size()) * kScale - used;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return available(a) > available(b); });
  std::vector<int> chosen;
  for (std::size_t k = 0; k < order.size() && chosen.size() < n; ++k) {
    std::vector<int> socket = m.sockets[order[k]];
    std::stable_sort(socket.begin(), socket.end(),
                     [&](int a, int b) { return load(a) != load(b) ? load(a) < load(b) : a < b; });
    socket.resize(std::min(socket.size(), n - chosen.size()));
    chosen.insert(chosen.end(), socket.begin(), socket.end());
  }
  return chosen;
}

// place is step 6 plus the overheads: the aggregate strands of every stage on `cores` (each of the
// first stage's also charged `release`), or
// std::nullopt when an aggregate strand's cost count · length + overhead does not fit in int64
// (then no bound can be computed: the caller reports "bound overflows", never a wrapped value).
std::optional<analysis::FjTask> place(const std::vector<SegmentSpec>& stages,
                                      const std::vector<int>& cores, std::int64_t overhead,
                                      std::int64_t release) {
  analysis::FjTask t;
  const auto n = static_cast<std::int64_t>(cores.size());
  for (const SegmentSpec& s : stages) {
    analysis::FjStage stage;
    const auto used = static_cast<std::size_t>(std::min<std::int64_t>(s.strands, n));
    for (std::size_t q = 0; q < used; ++q) {
      // Strands q, q+N, q+2N, ... land on cores[q]: ⌈(strands − q)/N⌉ of them.
      const std::int64_t rest = s.strands - static_cast<std::int64_t>(q);
      const auto count = static_cast<std::int64_t>(ceil_div(rest, n));
      const auto work = checked_mul(count, s.length.count());
      const auto forked = work ? checked_add(*work, used > 1 ? overhead : 0) : std::nullopt;
      const bool first = t.stages.empty();
      const auto wcet = forked ? checked_add(*forked, first ? release : 0) : std::nullopt;
      if (!wcet) return std::nullopt;
      stage.groups.push_back(analysis::FjGroup{cores[q], *wcet});
    }
    t.stages.push_back(std::move(stage));
  }
  return t;
}

// ChangeLog records, per core and priority, the last step at which a placed task with a strand
// there was added or had its stage bounds changed. fj_analyse reads, on each core of a task, only
// the tasks of priority ≥ its own (their stages, periods and bounds), so a task whose cores saw no
// such change since its last analysis would get the same result again: the equal-priority rounds
// skip it. This changes no plan, only how many analyses the rounds repeat.
class ChangeLog {
 public:
  // record notes a change of `t` (added, or new bounds) on each of its cores, as a new step.
  void record(const analysis::FjTask& t) {
    ++step_;
    for (const analysis::FjStage& stage : t.stages) {
      for (const analysis::FjGroup& g : stage.groups) last_[g.core][t.priority] = step_;
    }
  }
  // now is the step of the last change recorded.
  std::uint64_t now() const { return step_; }
  // changed_since says whether a task of priority ≥ t.priority changed on one of t's cores after
  // step `since`.
  bool changed_since(const analysis::FjTask& t, std::uint64_t since) const {
    for (const analysis::FjStage& stage : t.stages) {
      for (const analysis::FjGroup& g : stage.groups) {
        const auto core = last_.find(g.core);
        if (core == last_.end()) continue;
        for (auto it = core->second.lower_bound(t.priority); it != core->second.end(); ++it) {
          if (it->second > since) return true;
        }
      }
    }
    return false;
  }

 private:
  std::uint64_t step_ = 0;
  std::map<int, std::map<int, std::uint64_t>> last_;  // core → priority → last step
};

}  // namespace

Plan plan_fork_join_rta(const TaskSet& set, const PlanOptions& options) {
  model::check_task_parameters(set);
  Plan plan;
  plan.planner = PlannerKind::fork_join_rta;
  Machine machine = make_machine(set, options);
  plan.cores = machine.cpus;
  const std::vector<int> priority = analysis::dm_priorities(set);

  std::vector<std::size_t> order(set.tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&priority](std::size_t a, std::size_t b) { return priority[a] > priority[b]; });

  std::vector<TaskPlan> tasks(set.tasks.size());
  std::vector<analysis::FjTask> placed(set.tasks.size());
  analysis::FjCoreIndex accepted;  // the placed tasks, by core (each analysis reads its cores')
  ChangeLog changes;               // what the equal-priority rounds must look at again
  std::vector<std::uint64_t> analysed_at(set.tasks.size(), 0);  // step of each task's last result
  analysis::FjOptions fj_options;
  fj_options.server = analysis::charged_server(options, set);
  plan.schedulable = !set.tasks.empty() && !machine.cpus.empty();
  if (machine.cpus.empty()) plan.notes.push_back("no real-time cores to assign");
  if (options.assign == AssignKind::worst_fit && !machine.cpus.empty()) {
    plan.notes.push_back(
        "assign = worst-fit: each strand on the least-utilized core (ties: lower CPU id), then "
        "one fork/join RTA per task (FJOS §VIII-A \"Naive\"; no core-count search)");
  }

  std::vector<analysis::WorstFitCores> worst_fit;  // assign = worst-fit: the cores' utilization
  std::set<int> unbounded;  // worst-fit: cores holding strands of a task without a bound
  // accept records placed[i] (analysed, response bound r) as admitted on `cores`: the index, the
  // change log, the task's plan (strand k of stage j on cpu_of(j, k)) and the cores' loads.
  // `as` is the task as charged: set.tasks[i], or its copy with the shared wait policy (F15).
  const auto accept = [&](std::size_t i, const TaskSpec& as, const std::vector<SegmentSpec>& stages,
                          const std::vector<int>& cores, std::int64_t r, const auto& cpu_of) {
    accepted.add(&placed[i]);
    changes.record(placed[i]);
    if (as.wait.kind != set.tasks[i].wait.kind) {
      tasks[i].wait = as.wait.kind;
      plan.notes.push_back(fmt::format(
          "{}: shares a core with a task placed before it, so it is charged and run with wait = "
          "{} instead of {} ([system] shared_wait; FJOS §VIII, decision F15)",
          as.name, to_string(as.wait.kind), to_string(set.tasks[i].wait.kind)));
    }
    if (auto note = analysis::fj_spin_note(as, placed[i])) {
      plan.notes.push_back(std::move(*note));
    }
    analysed_at[i] = changes.now();  // its own addition is not a change of its inputs
    TaskPlan& tp = tasks[i];
    tp.cores = cores;
    std::sort(tp.cores.begin(), tp.cores.end());
    tp.cores_needed = static_cast<int>(cores.size());
    tp.response_bound_ns = r;
    for (std::size_t j = 0; j < stages.size(); ++j) {
      SegmentPlan sp;
      sp.length_ns = stages[j].length.count();
      sp.deadline_ns = placed[i].finish[j];
      for (std::int64_t k = 0; k < stages[j].strands; ++k) {
        sp.strands.push_back(StrandPlan{cpu_of(j, k), priority[i]});
      }
      tp.segments.push_back(std::move(sp));
    }
    for (const analysis::FjStage& stage : placed[i].stages) {
      for (const analysis::FjGroup& g : stage.groups) {
        machine.load_num[cpu_index(machine, g.core)] +=
            ceil_div(static_cast<__int128>(g.wcet) * kScale, set.tasks[i].period.count());
      }
    }
  };

  for (const std::size_t i : order) {
    const TaskSpec& task = set.tasks[i];
    TaskPlan& tp = tasks[i];
    tp.name = task.name;
    tp.heavy = task.work > task.deadline;
    tp.priority = priority[i];
    tp.utilization = task.utilization();
    // charged_as is the task as a placement on `cores` is charged (F15): with [system]
    // shared_wait, a copy with that wait policy when one of the cores already holds a task.
    std::optional<TaskSpec> switched;
    const auto charged_as = [&](const std::vector<int>& cores) -> const TaskSpec& {
      const std::optional<WaitKind> shared = set.system.shared_wait;
      if (!shared || *shared == task.wait.kind) return task;
      const bool held = std::any_of(cores.begin(), cores.end(), [&](int cpu) {
        return machine.load_num[cpu_index(machine, cpu)] > 0 || unbounded.count(cpu) != 0;
      });
      if (!held) return task;
      if (!switched) {
        switched = task;
        switched->wait.kind = *shared;
      }
      return *switched;
    };
    std::string why;
    const auto stages = analysis::stages_of(task, why);
    if (!stages) {
      tp.reason = why;
      plan.schedulable = false;
      continue;
    }
    if (options.assign == AssignKind::worst_fit && machine.cpus.empty()) {
      tp.reason = "no real-time cores to place strands on";
      plan.schedulable = false;
      continue;
    }
    if (options.assign == AssignKind::worst_fit) {
      // FJOS §VIII-A "Naive" (F11): every strand on the least-utilized core, then one RTA.
      if (worst_fit.empty()) worst_fit.emplace_back(machine.cpus);
      const analysis::StrandCores strands =
          analysis::worst_fit_strands(*stages, task.period.count(), worst_fit.front());
      const std::vector<int> cores = analysis::distinct_cores(strands);
      const auto n = static_cast<std::int64_t>(cores.size());
      const TaskSpec& as = charged_as(cores);
      const analysis::FjCharge charge = analysis::fj_charge_for(set, as, options, n);
      std::optional<analysis::FjTask> candidate = analysis::with_gate_spin(
          analysis::with_release(analysis::aggregate_strands(*stages, strands, charge.ns),
                                 charge.release_ns),
          as.wait);
      const bool blocked = std::any_of(cores.begin(), cores.end(),
                                       [&](int cpu) { return unbounded.count(cpu) != 0; });
      std::optional<std::int64_t> r;
      if (candidate && !blocked) {
        candidate->period = task.period.count();
        candidate->deadline = task.deadline.count();
        candidate->priority = priority[i];
        r = analysis::fj_analyse_indexed(*candidate, accepted, fj_options);
      }
      if (!r) {
        // Its strands stay where worst-fit put them, without a bound: the tasks of lower
        // priority on these cores cannot be bounded either.
        unbounded.insert(cores.begin(), cores.end());
        tp.reason = !candidate ? fmt::format(
                                     "bound overflows: on its worst-fit placement ({} "
                                     "cores) a core's strands plus fork/join overhead "
                                     "exceed 2^63 ns",
                                     n)
                    : blocked ? std::string(
                                    "not analysed: a task of higher priority on its "
                                    "worst-fit cores has no bound")
                              : fmt::format(
                                    "its worst-fit placement on {} cores fails the "
                                    "fork/join RTA (deadline {})",
                                    n, format_duration(task.deadline));
        plan.schedulable = false;
        continue;
      }
      if (charge.measured && charge.measured->extrapolated) {
        plan.notes.push_back(
            analysis::fj_extrapolation_note(as, n, *charge.measured, *options.overhead));
      }
      if (options.overhead != nullptr) {
        plan.notes.push_back(analysis::fj_charge_note(as, n, charge, *options.overhead));
      }
      placed[i] = std::move(*candidate);
      accept(i, as, *stages, cores, *r, [&](std::size_t j, std::int64_t k) {
        return strands[j][static_cast<std::size_t>(k)];
      });
      continue;
    }
    std::int64_t widest = 0;
    for (const SegmentSpec& s : *stages) widest = std::max(widest, s.strands);
    // Step 3: N = ⌈C/T⌉, exactly, at least one core (written without C + T − 1, which can
    // overflow for periods near 2^63 ns).
    const std::int64_t c_total = task.work.count();
    const std::int64_t t_period = task.period.count();
    const std::int64_t start =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(ceil_div(c_total, t_period)));
    const auto q_total = static_cast<std::int64_t>(machine.cpus.size());
    // More cores than the widest stage has strands cannot help: they would get no strand.
    const std::int64_t stop = std::min(q_total, widest);
    bool done = false;
    bool overflowed = false;
    std::optional<std::int64_t> first_extrapolated;
    for (std::int64_t n = start; n <= stop && !done; ++n) {
      const std::vector<int> cores = choose_cores(machine, static_cast<std::size_t>(n));
      const TaskSpec& as = charged_as(cores);
      const analysis::FjCharge charge = analysis::fj_charge_for(set, as, options, n);
      if (charge.measured && charge.measured->extrapolated && !first_extrapolated) {
        first_extrapolated = n;
      }
      std::optional<analysis::FjTask> candidate =
          analysis::with_gate_spin(place(*stages, cores, charge.ns, charge.release_ns), as.wait);
      if (!candidate) {
        overflowed = true;
        continue;
      }
      candidate->period = task.period.count();
      candidate->deadline = task.deadline.count();
      candidate->priority = priority[i];
      const auto r = analysis::fj_analyse_indexed(*candidate, accepted, fj_options);
      if (!r) continue;
      done = true;
      if (charge.measured && charge.measured->extrapolated) {
        plan.notes.push_back(
            analysis::fj_extrapolation_note(as, n, *charge.measured, *options.overhead));
      }
      if (options.overhead != nullptr) {
        plan.notes.push_back(analysis::fj_charge_note(as, n, charge, *options.overhead));
      }
      placed[i] = std::move(*candidate);
      accept(i, as, *stages, cores, *r,
             [&](std::size_t, std::int64_t k) { return cores[static_cast<std::size_t>(k % n)]; });
    }
    if (!done && first_extrapolated) {
      plan.notes.push_back(fmt::format(
          "{}: fork/join costs of teams of {}..{} ({}) were extrapolated from the largest team "
          "measured by {} (docs/analysis.md, \"Overhead profiles\")",
          task.name, *first_extrapolated, stop, to_string(task.wait.kind),
          options.overhead->source.empty() ? "the overhead profile" : options.overhead->source));
    }
    if (!done) {
      tp.cores_needed = 0;
      tp.reason =
          start > stop ? fmt::format("needs at least {} cores (⌈C/T⌉) but at most {} can be used",
                                     start, stop)
          : overflowed
              ? fmt::format(
                    "bound overflows: on some of {}..{} cores a core's strands plus "
                    "fork/join overhead exceed 2^63 ns (no bound), and no other placement "
                    "passes the fork/join RTA (deadline {})",
                    start, stop, format_duration(task.deadline))
              : fmt::format("no placement on {}..{} cores passes the fork/join RTA (deadline {})",
                            start, stop, format_duration(task.deadline));
      plan.schedulable = false;
    }
  }
  // Equal priorities: a task analysed during the greedy pass did not yet see the equal-priority
  // tasks placed after it, and their stage jitters depend on each other. Re-analyse every placed
  // task against all others until the stage bounds stop growing (they only grow, and each is
  // capped by its deadline, so this terminates); a task that now fails makes the plan fail. A task
  // whose inputs did not change since its last analysis (ChangeLog) would get the same result: it
  // is skipped, with the same outcome as analysing it.
  bool changed = true;
  for (int round = 0; changed && round < 1000; ++round) {
    changed = false;
    for (const std::size_t i : order) {
      if (tasks[i].reason) continue;
      if (!changes.changed_since(placed[i], analysed_at[i])) continue;
      const std::vector<std::int64_t> before = placed[i].finish;
      const auto r = analysis::fj_analyse_indexed(placed[i], accepted, fj_options);
      if (!r) {
        tasks[i].reason = fmt::format(
            "fails the fork/join RTA once tasks of equal priority (SCHED_FIFO {}) on its cores "
            "are counted",
            priority[i]);
        tasks[i].response_bound_ns.reset();
        placed[i].finish = before;  // keep the last bounds for the tasks that depend on them
        plan.schedulable = false;
        continue;
      }
      if (placed[i].finish != before) {
        changed = true;
        changes.record(placed[i]);
      }
      analysed_at[i] = changes.now();
      tasks[i].response_bound_ns = *r;
      for (std::size_t j = 0; j < tasks[i].segments.size(); ++j) {
        tasks[i].segments[j].deadline_ns = placed[i].finish[j];
      }
    }
  }
  if (changed) {
    // Bounds still growing after the cap: they are not a fixed point, so none of them is a bound.
    plan.schedulable = false;
    plan.notes.push_back(
        "the stage bounds of tasks with equal priorities did not converge in 1000 rounds; give "
        "them distinct priorities");
  }
  plan.tasks = std::move(tasks);
  // The stage bounds assume independent tasks: a shared lock refuses the set.
  analysis::refuse_lock_channels(plan, set, "fork-join-rta");
  return plan;
}

}  // namespace rtpar
