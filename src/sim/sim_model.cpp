// sim_model.cpp — build_sim_model: Plan + TaskSet → threads and job templates (sim_model.hpp).
#include "sim/sim_model.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>

#include "analysis/bounds/overhead_charge.hpp"
#include "analysis/bounds/supply_server.hpp"
#include "analysis/planners/fork_join_charge.hpp"
#include "core/checked_math.hpp"
#include "model/overhead_statistic.hpp"
#include "rtpar/error.hpp"
#include "rtpar/tools/planners.hpp"
#include "sim/lock_sections.hpp"

namespace rtpar::sim {

namespace {

// kUnitsPerThread is how finely the parallel part C − L of a structure-less job is cut per team
// thread: fine enough that the greedy schedule approaches the fluid (C−L)/p + L, coarse enough to
// keep the number of events per job small.
constexpr std::int64_t kUnitsPerThread = 8;

// Injection is the profile read at the four stated points of OverheadQuantiles (for a fixed
// statistic all four are the profile at that statistic, so every instance is constant), and the
// statistic: fixed values are folded into node lengths, sampled ones kept as SimNode::draws.
struct Injection {
  std::array<const OverheadProfile*, 4> columns{};  // null: no overheads injected
  OverheadStatistic statistic = OverheadStatistic::p999;

  [[nodiscard]] bool enabled() const { return columns[0] != nullptr; }
  // nonzero: the instance can add anything (a node that could only be empty is not built).
  [[nodiscard]] bool nonzero(const OverheadQuantiles& q) const {
    return statistic == OverheadStatistic::sampled ? q.max > 0 : value_at(q, statistic) > 0;
  }
  // apply adds one instance to a node. Saturating: a charge the planner could not add without
  // overflow was never admitted (and the engine refuses a sampled length that overflows).
  void apply(SimNode& node, const OverheadQuantiles& q) const {
    if (!nonzero(q)) return;
    if (statistic == OverheadStatistic::sampled) {
      node.draws.push_back(q);
    } else {
      node.length = sat_add(node.length, value_at(q, statistic));
      node.folded = sat_add(node.folded, value_at(q, statistic));
    }
  }
  // quantiles evaluates one charge (a function of a profile) at the four columns.
  template <typename F>
  OverheadQuantiles quantiles(F&& charge_of) const {
    std::array<std::int64_t, 4> v{};
    for (std::size_t c = 0; c < v.size(); ++c) v[c] = charge_of(*columns[c]);
    return quantiles_of(v);
  }
};

// TeamCharge is what a team job is injected (docs/internals/simulation.md, "Overheads"): the
// release latency once per job and the fork/join cost per region, both on the master.
struct TeamCharge {
  OverheadQuantiles release;
  OverheadQuantiles fork;  // 0 for a team of 1 (it never forks)
};

// StrandCharge is the extra execution of every strand of one segment of a strand plan:
// extra[k] lists the overhead instances of strand k (its release latency, barrier or fork/join,
// as its planner charges them).
struct StrandCharge {
  std::vector<std::vector<OverheadQuantiles>> extra;
};

// team_charge is the injection of a team job: job_charge, the federated planners' and
// partitioned's charge, for the team that runs it.
TeamCharge team_charge(const Injection& inj, const TaskSpec& spec, int team) {
  if (!inj.enabled()) return {};
  TeamCharge out;
  out.release = inj.quantiles(
      [&](const OverheadProfile& p) { return analysis::job_charge(p, spec, team).release_ns; });
  out.fork = inj.quantiles([&](const OverheadProfile& p) {
    const analysis::JobCharge c = analysis::job_charge(p, spec, team);
    return c.regions > 0 ? c.fork_ns : 0;
  });
  return out;
}

// strand_charges is the injection of a strand plan, per segment and strand: decomposition's
// segment_charge (Λ(1) on every strand, β(team) on every strand after the first segment, team the
// planner's min(Σ strands, plan cores)), or fork-join-rta's fj_charge_for (F(N) on one strand per
// core of a stage on more than one core, Λ(N) on one strand per core of the first stage: the
// aggregate strand of that core). Empty without a profile.
std::vector<StrandCharge> strand_charges(const Injection& inj, const Plan& plan, const TaskSet& set,
                                         const TaskSpec& spec, const TaskPlan& tp) {
  std::vector<StrandCharge> out;
  if (!inj.enabled()) return out;
  for (const SegmentPlan& seg : tp.segments) {
    out.push_back(StrandCharge{std::vector<std::vector<OverheadQuantiles>>(seg.strands.size())});
  }
  if (plan.planner == PlannerKind::fork_join_rta) {
    const auto n = static_cast<std::int64_t>(tp.cores.size());
    auto fj = [&](const OverheadProfile& p) {
      PlanOptions options;
      options.overhead = &p;
      return analysis::fj_charge_for(set, spec, options, n);
    };
    const OverheadQuantiles fork = inj.quantiles([&](const auto& p) { return fj(p).ns; });
    const OverheadQuantiles release =
        inj.quantiles([&](const auto& p) { return fj(p).release_ns; });
    for (std::size_t j = 0; j < tp.segments.size(); ++j) {
      const auto& strands = tp.segments[j].strands;
      std::map<int, std::size_t> first_on_core;  // CPU id → first strand there (the aggregate's)
      for (std::size_t k = 0; k < strands.size(); ++k) first_on_core.emplace(strands[k].core, k);
      for (const auto& [core, k] : first_on_core) {
        if (first_on_core.size() > 1) out[j].extra[k].push_back(fork);
        if (j == 0) out[j].extra[k].push_back(release);
      }
    }
    return out;
  }
  std::int64_t strands = 0;
  for (const SegmentPlan& seg : tp.segments) {
    strands = sat_add(strands, static_cast<std::int64_t>(seg.strands.size()));
  }
  const int team = static_cast<int>(std::clamp<std::int64_t>(
      strands, 1, std::max<std::int64_t>(1, static_cast<std::int64_t>(plan.cores.size()))));
  const OverheadQuantiles release = inj.quantiles(
      [&](const OverheadProfile& p) { return analysis::segment_charge(p, spec, team).release_ns; });
  const OverheadQuantiles barrier = inj.quantiles(
      [&](const OverheadProfile& p) { return analysis::segment_charge(p, spec, team).barrier_ns; });
  for (std::size_t j = 0; j < out.size(); ++j) {
    for (auto& e : out[j].extra) {
      e.push_back(release);
      if (j > 0) e.push_back(barrier);
    }
  }
  return out;
}

// Builder accumulates one task's nodes.
struct Builder {
  SimTask& task;

  int add(SimNode node) {
    task.nodes.push_back(std::move(node));
    return static_cast<int>(task.nodes.size()) - 1;
  }
  void edge(int from, int to) {
    task.nodes[static_cast<std::size_t>(from)].successors.push_back(to);
    ++task.nodes[static_cast<std::size_t>(to)].predecessors;
  }
  // barrier makes every node of `before` precede every node of `after` through one join node,
  // so a segment boundary costs m + m' edges instead of m·m'.
  void barrier(const std::vector<int>& before, const std::vector<int>& after) {
    if (before.empty() || after.empty()) return;
    SimNode join;
    join.deadline = task.deadline;
    const int j = add(std::move(join));
    for (const int b : before) edge(b, j);
    for (const int a : after) edge(j, a);
  }
};

// add_strand_plan models TaskPlan::segments (decomposition, fork-join-rta): one thread per
// distinct core, each running exactly its strands (RT-OpenMP §IV-B Algorithm 1: "wait until
// segment relative release", run my strands, team barrier).
// A thread waiting for segment j − 1's join spins as the dispatcher's wait_gate does: hybrid
// spin_ns, spin the segment's makespan (strands × length on its busiest core), block not at all.
void add_strand_plan(const TaskPlan& tp, const WaitPolicy& wait,
                     const std::vector<StrandCharge>& charges, const Injection& inj, SimTask& task,
                     std::vector<std::pair<int, int>>& threads) {
  std::map<int, int> thread_of_core;  // CPU id → model thread (local index until offset below)
  for (const SegmentPlan& seg : tp.segments) {
    for (const StrandPlan& strand : seg.strands) {
      if (thread_of_core.count(strand.core) != 0) continue;
      const int local = static_cast<int>(thread_of_core.size());
      thread_of_core[strand.core] = local;
      threads.emplace_back(strand.core, local);
    }
  }
  Builder b{task};
  std::vector<int> previous;
  std::int64_t makespan = 0;  // of the last segment with strands
  for (std::size_t j = 0; j < tp.segments.size(); ++j) {
    const SegmentPlan& seg = tp.segments[j];
    const std::int64_t spin = previous.empty()                ? 0
                              : wait.kind == WaitKind::hybrid ? wait.spin_ns.count()
                              : wait.kind == WaitKind::spin   ? makespan
                                                              : 0;
    std::map<int, std::int64_t> per_core;  // strands of this segment per CPU
    for (const StrandPlan& strand : seg.strands) ++per_core[strand.core];
    std::vector<int> current;
    for (std::size_t k = 0; k < seg.strands.size(); ++k) {
      const StrandPlan& strand = seg.strands[k];
      SimNode node;
      node.length = seg.length_ns;
      if (!charges.empty()) {
        for (const OverheadQuantiles& q : charges[j].extra[k]) inj.apply(node, q);
      }
      node.thread = thread_of_core[strand.core];
      node.priority = strand.priority;
      node.offset = seg.offset_ns;
      node.deadline = seg.deadline_ns > 0 ? seg.deadline_ns : task.deadline;
      node.spin = spin;
      current.push_back(b.add(std::move(node)));
    }
    if (current.empty()) continue;
    makespan = 0;
    for (const auto& [cpu, count] : per_core) {
      makespan = std::max(makespan, sat_mul(count, seg.length_ns));
    }
    b.barrier(previous, current);
    previous = std::move(current);
  }
}

// add_team_job models one job of a team-run task (federated, federated-ws, partitioned) on
// `team` threads (local indices 0..team−1), as described in sim_model.hpp.
void add_team_job(const TaskSpec& spec, int priority, int team, const TeamCharge& charge,
                  const Injection& inj, SimTask& task) {
  Builder b{task};
  auto node = [&](std::int64_t length, int thread) {
    SimNode n;
    n.length = length;
    n.thread = thread;
    n.priority = priority;
    n.deadline = task.deadline;
    return n;
  };
  // The release latency: a sequential prefix on the master before anything else of the job.
  std::vector<int> prefix;
  if (inj.nonzero(charge.release)) {
    SimNode release = node(0, 0);
    inj.apply(release, charge.release);
    prefix.push_back(b.add(std::move(release)));
  }
  // fork appends a fork/join node on the master after `previous` and returns it as the new front.
  auto fork = [&](std::vector<int> previous) {
    if (!inj.nonzero(charge.fork)) return previous;
    SimNode fork_node = node(0, 0);
    inj.apply(fork_node, charge.fork);
    const int f = b.add(std::move(fork_node));
    for (const int p : previous) b.edge(p, f);
    return std::vector<int>{f};
  };
  if (!spec.segments.empty()) {
    // The `segments` kernel: parallel_for_static over the strands (include/rtpar/team.hpp).
    std::vector<int> previous = prefix;
    for (const SegmentSpec& seg : spec.segments) {
      // A segment of ≥ 2 strands is one fork/join region: its cost on the master at its start.
      if (seg.strands >= 2 && team >= 2) {
        std::vector<int> front = fork({});
        if (!front.empty()) {
          b.barrier(previous, front);
          previous = std::move(front);
        }
      }
      std::vector<int> current;
      const std::int64_t p = team;
      for (int r = 0; r < team; ++r) {
        const std::int64_t count = seg.strands / p + (r < seg.strands % p ? 1 : 0);
        if (count == 0) continue;
        // ≤ C for a validated task; saturating keeps a set built in code from wrapping.
        current.push_back(b.add(node(sat_mul(count, seg.length.count()), r)));
      }
      b.barrier(previous, current);
      previous = std::move(current);
    }
    return;
  }
  // Everything below is one region (a parallel job forks once) or none (team 1, L = C).
  const std::int64_t c = spec.work.count();
  const std::int64_t l = std::min(spec.span.count(), c);
  const std::vector<int> front = team >= 2 && c != l ? fork(prefix) : prefix;
  auto after_front = [&](int n) {
    for (const int f : front) b.edge(f, n);
  };
  if (spec.dag) {
    const int base = static_cast<int>(task.nodes.size());
    for (const DagNode& n : spec.dag->nodes) {
      const int id = b.add(node(n.length.count(), -1));
      if (n.after.empty()) after_front(id);
    }
    for (std::size_t i = 0; i < spec.dag->nodes.size(); ++i) {
      for (const int before : spec.dag->nodes[i].after) {
        b.edge(base + before, base + static_cast<int>(i));
      }
    }
    return;
  }
  if (team == 1 || c == l) {
    after_front(b.add(node(c, team == 1 ? 0 : -1)));
    return;
  }
  // Units of at most L (so the modeled DAG's span stays L), about kUnitsPerThread per thread.
  const std::int64_t parallel = c - l;
  // ⌈parallel / (k·team)⌉ without parallel + k·team − 1, which overflows for C near 2^63 ns.
  const std::int64_t per = kUnitsPerThread * team;
  const std::int64_t want = parallel / per + (parallel % per != 0 ? 1 : 0);
  const std::int64_t unit = std::max<std::int64_t>(1, std::min(want, l));
  SimNode units = node(parallel, -1);
  units.piece = unit;
  after_front(b.add(std::move(units)));
  after_front(b.add(node(l, -1)));  // the chain, taken only when no unit is left (higher index)
}

}  // namespace

SimModel build_sim_model(const Plan& plan, const TaskSet& set, const OverheadProfile* overhead,
                         OverheadStatistic statistic) {
  if (plan.tasks.size() != set.tasks.size()) {
    throw InputError(SourceLocation{set.source, 0, 0}, "",
                     "the plan has " + std::to_string(plan.tasks.size()) + " tasks, the set " +
                         std::to_string(set.tasks.size()));
  }
  // The profile at each stated point; p99.9 is the profile itself (what the planners charge).
  std::vector<OverheadProfile> at;
  Injection inj;
  inj.statistic = statistic;
  if (overhead != nullptr) {
    if (statistic == OverheadStatistic::sampled) {
      for (const OverheadStatistic c : kProfileColumns)
        at.push_back(rtpar::model::profile_at(*overhead, c));
      for (std::size_t c = 0; c < at.size(); ++c) inj.columns[c] = &at[c];
    } else if (statistic == OverheadStatistic::p999) {
      inj.columns.fill(overhead);
    } else {
      at.push_back(rtpar::model::profile_at(*overhead, statistic));
      inj.columns.fill(&at[0]);
    }
  }
  SimModel model;
  model.task_of_set.assign(set.tasks.size(), -1);
  std::vector<std::pair<int, int>> cpu_threads;  // (CPU id, model task index) per thread
  std::vector<int> thread_task_local;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    const TaskSpec& spec = set.tasks[i];
    const TaskPlan& tp = plan.tasks[i];
    if (tp.name != spec.name) {
      throw InputError(
          spec.where, "task[" + std::to_string(i) + "]",
          "the plan's task '" + tp.name + "' does not match the set's '" + spec.name + "'");
    }
    SimTask task;
    task.set_index = i;
    task.period = spec.period.count();
    task.deadline = spec.deadline.count();
    task.phase = spec.phase.count();
    task.overrun = spec.overrun;
    task.edf = tp.scheduling == CoreScheduling::edf;

    std::vector<std::pair<int, int>> threads;  // (CPU id, local thread index)
    const bool strands = !tp.segments.empty() &&
                         std::all_of(tp.segments.begin(), tp.segments.end(), [](const auto& s) {
                           return std::all_of(s.strands.begin(), s.strands.end(),
                                              [](const StrandPlan& st) { return st.core >= 0; });
                         });
    if (strands) {
      // The members wait, and are charged, as the plan says (TaskPlan::wait, [system] shared_wait).
      const std::optional<TaskSpec> planned = as_planned(spec, tp);
      const TaskSpec& as = planned ? *planned : spec;
      add_strand_plan(tp, as.wait, strand_charges(inj, plan, set, as, tp), inj, task, threads);
    } else {
      const std::vector<int>& cpus = tp.thread_cores.empty() ? tp.cores : tp.thread_cores;
      for (const int cpu : cpus) threads.emplace_back(cpu, static_cast<int>(threads.size()));
      if (!threads.empty()) {
        const int team = static_cast<int>(threads.size());
        add_team_job(spec, tp.priority, team, team_charge(inj, spec, team), inj, task);
      }
    }
    if (threads.empty() || task.nodes.empty()) continue;

    const int task_index = static_cast<int>(model.tasks.size());
    const int first_thread = static_cast<int>(cpu_threads.size());
    for (const auto& [cpu, local] : threads) {
      cpu_threads.emplace_back(cpu, task_index);
      task.threads.push_back(first_thread + local);
    }
    for (SimNode& n : task.nodes) {
      if (n.thread >= 0) n.thread = first_thread + n.thread;
    }
    model.task_of_set[i] = task_index;
    model.tasks.push_back(std::move(task));
  }

  for (const auto& [cpu, task] : cpu_threads) model.cpus.push_back(cpu);
  std::sort(model.cpus.begin(), model.cpus.end());
  model.cpus.erase(std::unique(model.cpus.begin(), model.cpus.end()), model.cpus.end());
  for (const auto& [cpu, task] : cpu_threads) {
    const auto dense = std::lower_bound(model.cpus.begin(), model.cpus.end(), cpu);
    model.threads.push_back(SimThread{static_cast<int>(dense - model.cpus.begin()), task});
  }
  model.locks = sim_locks(model, set);  // before the blackouts: they use no lock
  const bool worst = statistic == OverheadStatistic::p999 || statistic == OverheadStatistic::max;
  const std::optional<analysis::PeriodicServer> supply =
      overhead != nullptr && worst ? analysis::supply_server(*overhead, set) : std::nullopt;
  if (supply) {
    for (std::size_t c = 0; c < model.cpus.size(); ++c) {
      SimTask blackout;
      blackout.set_index = set.tasks.size() + c;  // its own (unused) draw stream
      blackout.period = blackout.deadline = supply->period_ns;
      blackout.supply = true;
      blackout.threads.push_back(static_cast<int>(model.threads.size()));
      SimNode n;
      n.length = n.folded = supply->budget_ns;  // folded: stochastic execution never scales it
      n.thread = blackout.threads.front();
      n.deadline = supply->period_ns;
      blackout.nodes.push_back(n);
      model.threads.push_back(SimThread{static_cast<int>(c), static_cast<int>(model.tasks.size())});
      model.tasks.push_back(std::move(blackout));
    }
  }
  return model;
}

}  // namespace rtpar::sim
