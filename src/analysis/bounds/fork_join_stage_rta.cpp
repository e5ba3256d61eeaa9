// fjrta.cpp — see fjrta.hpp; derivations in docs/analysis/fork_join_rta.md.
#include "analysis/bounds/fork_join_stage_rta.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "analysis/bounds/rta.hpp"
#include "core/checked_math.hpp"

namespace rtpar::analysis {

namespace {

// Interferer is a strand (or, with chains, a block of back-to-back strands) of a task of priority
// ≥ P_i on the analysed core: at most ⌈(Δ + jitter)/period⌉ releases of `wcet` in a window Δ.
struct Interferer {
  std::int64_t wcet;
  std::int64_t period;
  std::int64_t jitter;
};

// CoreLoad is what the other tasks put on one core: the interferers and whether one of them has
// the analysed task's own priority (then runs on that core are not chained, see fj_analyse).
struct CoreLoad {
  std::vector<Interferer> hp;
  bool equal = false;
};

// group_on is task u's aggregate strand of stage v on `core`, or nullptr.
const FjGroup* group_on(const FjTask& u, std::size_t v, int core) {
  for (const FjGroup& g : u.stages[v].groups) {
    if (g.core == core) return &g;
  }
  return nullptr;
}

// interferers_on lists the interference sources on `core` for `task` (fjrta.hpp, I_q). With
// chains, a strand of u on the core whose stage has no other strand is merged with u's strand on
// the same core in the next stage: that stage is released exactly when this strand completes, so
// the core has u's work pending without a gap, as if it were one job released at the first
// strand's release (jitter J_v = B_{u,v−1}); ⌈(Δ+J_v)/T⌉·(c_v + c_{v+1}) never exceeds the
// separate terms because J_{v+1} = B_{u,v} ≥ J_v. With options.server the core's server comes
// first: Interferer{Q, P, P − Q} (fork_join_stage_rta.hpp, FjOptions::server).
// `descending`: `others` is in non-increasing priority order, so the scan stops at the first task
// below task.priority. Sources with the same period and jitter are merged into one (their terms
// ⌈(Δ + J)/T⌉·c_1 + ⌈(Δ + J)/T⌉·c_2 = ⌈(Δ + J)/T⌉·(c_1 + c_2) exactly; not merged when the sum
// would pass INT64_MAX): busy_window's steps then cost O(distinct (T, J)) — for light tasks the
// number of distinct periods on the core — instead of O(tasks on the core), with the same sums.
CoreLoad interferers_on(int core, const FjTask& task, const std::vector<const FjTask*>& others,
                        bool descending, const FjOptions& options) {
  const bool chains = options.chains;
  CoreLoad load;
  load.hp.reserve(others.size() + 1);
  if (options.server) {
    // The kernel's server on this core (FjOptions::server): ⌈(Δ + P − Q)/P⌉·Q, above every task.
    const PeriodicServer& s = *options.server;
    // A sliding-window server (not deferred) has no jitter: ⌈Δ/P⌉·Q.
    load.hp.push_back(
        Interferer{s.budget_ns, s.period_ns, s.deferred ? s.period_ns - s.budget_ns : 0});
  }
  for (const FjTask* u : others) {
    if (u->priority < task.priority && descending) break;
    if (u == &task || u->priority < task.priority) continue;
    for (std::size_t v = 0; v < u->stages.size(); ++v) {
      const FjGroup* g = group_on(*u, v, core);
      if (g == nullptr) continue;
      if (u->priority == task.priority) load.equal = true;
      // The strand plus its member's gate spin before it (FjGroup::spin). The spin starts at or
      // after u's activation and ends when stage v − 1 completes, by B_{u,v−1}: at most that
      // long, whatever the policy allows. u was accepted, so the sum stays below 2·D_u.
      const std::int64_t jitter = v == 0 ? 0 : u->finish.at(v - 1);
      Interferer h{sat_add(g->wcet, std::min(g->spin, jitter)), u->period, jitter};
      while (chains && u->stages[v].groups.size() == 1 && v + 1 < u->stages.size()) {
        const FjGroup* next = group_on(*u, v + 1, core);
        if (next == nullptr) break;
        // u was accepted: these strands run one after the other within its bound R_u ≤ D_u, so
        // the sum stays below INT64_MAX; saturating only guards against misuse.
        // next's stage follows one on this core only, so its gate holds no other member: no spin.
        h.wcet = sat_add(h.wcet, next->wcet);
        ++v;
      }
      load.hp.push_back(h);
    }
  }
  std::sort(load.hp.begin(), load.hp.end(), [](const Interferer& a, const Interferer& b) {
    return a.period != b.period ? a.period < b.period : a.jitter < b.jitter;
  });
  std::size_t kept = 0;
  for (std::size_t k = 0; k < load.hp.size(); ++k) {
    const Interferer& h = load.hp[k];
    if (kept > 0) {
      Interferer& last = load.hp[kept - 1];
      if (last.period == h.period && last.jitter == h.jitter) {
        if (const auto sum = checked_add(last.wcet, h.wcet)) {
          last.wcet = *sum;
          continue;
        }
      }
    }
    load.hp[kept++] = h;
  }
  load.hp.resize(kept);
  return load;
}

// busy_window is the least fixed point of w = demand + Σ_h ⌈(w + J_h)/T_h⌉·c_h, iterated from
// `start` (which must not exceed it: callers pass demand, or the window of the same run one stage
// shorter plus the new demand, a lower bound shown in the doc). Returns nullopt once base + w
// exceeds the deadline: the iteration only grows, so the bound is then > D. Exact in __int128:
// w ≤ D − base < 2^63 while iterating, each term ⌈(w + J)/T⌉·c < 2^127 / 2, and the sum stops as
// soon as it passes D, so no sum ever holds two such terms.
std::optional<std::int64_t> busy_window(std::int64_t demand, std::int64_t start,
                                        const std::vector<Interferer>& hp, std::int64_t base,
                                        std::int64_t deadline) {
  __int128 w = std::max(start, demand);
  if (base + w > deadline) return std::nullopt;
  // Capped like every RTA (analysis/bounds/rta.hpp): past kRtaIterationCap steps the window
  // counts as exceeding the deadline, a conservative "not schedulable" instead of a hang.
  for (std::uint64_t step = 0; step < kRtaIterationCap; ++step) {
    __int128 next = demand;
    for (const Interferer& h : hp) {
      next += ceil_div(w + h.jitter, h.period) * h.wcet;
      if (base + next > deadline) return std::nullopt;
    }
    if (base + next > deadline) return std::nullopt;
    if (next <= w) return static_cast<std::int64_t>(w);
    w = next;
  }
  return std::nullopt;
}

// Run is a run of consecutive stages j0..j on one core whose strands may follow each other
// without a gap: base = P(j0, q), demand = Σ c_{q,k}, window = W_q(j0..j).
struct Run {
  std::int64_t base;
  std::int64_t demand;
  std::int64_t window;
};

// merged is a stage with its groups on the same core combined (they run back to back in one
// thread, FJOS §V), so the analysis can assume one aggregate strand per core; std::nullopt when
// a core's sum exceeds INT64_MAX (then it exceeds every deadline).
std::optional<std::vector<FjGroup>> merged(const FjStage& stage) {
  std::vector<FjGroup> out;
  for (const FjGroup& g : stage.groups) {
    auto it =
        std::find_if(out.begin(), out.end(), [&g](const FjGroup& o) { return o.core == g.core; });
    if (it == out.end()) {
      out.push_back(g);
    } else {
      const auto sum = checked_add(it->wcet, g.wcet);
      if (!sum) return std::nullopt;
      it->wcet = *sum;
    }
  }
  return out;
}

}  // namespace

void FjCoreIndex::add(const FjTask* task) {
  std::vector<int> cores;
  for (const FjStage& stage : task->stages) {
    for (const FjGroup& g : stage.groups) cores.push_back(g.core);
  }
  std::sort(cores.begin(), cores.end());
  cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
  for (const int core : cores) {
    std::vector<const FjTask*>& list = by_core_[core];
    if (!list.empty() && list.back()->priority < task->priority) unsorted_.insert(core);
    list.push_back(task);
  }
}

const std::vector<const FjTask*>& FjCoreIndex::on(int core) const {
  const auto it = by_core_.find(core);
  return it == by_core_.end() ? none_ : it->second;
}

bool FjCoreIndex::descending(int core) const { return unsorted_.count(core) == 0; }

std::optional<std::int64_t> fj_analyse(FjTask& task, const std::vector<const FjTask*>& others,
                                       const FjOptions& options) {
  FjCoreIndex index;
  for (const FjTask* u : others) index.add(u);
  return fj_analyse_indexed(task, index, options);
}

std::optional<std::int64_t> fj_analyse_indexed(FjTask& task, const FjCoreIndex& index,
                                               const FjOptions& options) {
  if (options.server) {
    const PeriodicServer& sv = *options.server;
    // The same precondition as server_interference: 0 < Q ≤ P (P − Q is the jitter, P divides).
    if (sv.budget_ns <= 0 || sv.period_ns <= 0 || sv.budget_ns > sv.period_ns) {
      throw std::invalid_argument("fj_analyse: the server needs 0 < Q <= P");
    }
  }
  task.finish.clear();
  std::map<int, CoreLoad> load;                    // per core, built on first use
  std::map<int, std::vector<Run>> runs;            // per core: the runs reaching this stage
  std::vector<std::pair<int, std::int64_t>> prev;  // F_{j−1}(q) per core of stage j−1
  std::int64_t prev_bound = 0;                     // B_{j−1}
  for (std::size_t j = 0; j < task.stages.size(); ++j) {
    const auto stage_groups = merged(task.stages[j]);
    if (!stage_groups) return std::nullopt;
    const std::vector<FjGroup>& groups = *stage_groups;
    std::vector<std::pair<int, std::int64_t>> finish;
    std::int64_t bound = prev_bound;  // a stage without strands completes when released
    for (const FjGroup& g : groups) {
      auto found = load.find(g.core);
      if (found == load.end()) {
        found = load.emplace(g.core, interferers_on(g.core, task, index.on(g.core),
                                                    index.descending(g.core), options))
                    .first;
      }
      const std::vector<Interferer>& hp = found->second.hp;
      // Chains need every job that delays the run to preempt it. A job of equal priority does
      // not (SCHED_FIFO queues each newly released strand behind it), so such a core is analysed
      // stage by stage, where one job of each equal-priority task per strand is what the
      // ceilings already count (docs/analysis/fork_join_rta.md, "Equal priorities").
      const bool chain = options.chains && !found->second.equal;
      std::vector<Run>& alive = runs[g.core];
      const bool continues =
          std::any_of(prev.begin(), prev.end(), [&g](const auto& f) { return f.first == g.core; });
      // A run survives only through consecutive stages that all have a strand on this core.
      if (!chain || !continues) alive.clear();
      for (Run& run : alive) {
        // A demand past INT64_MAX is past every deadline (D ≤ INT64_MAX): the stage fails.
        const auto demand = checked_add(run.demand, g.wcet);
        const auto start = checked_add(run.window, g.wcet);
        if (!demand || !start) return std::nullopt;
        run.demand = *demand;
        const auto w = busy_window(run.demand, *start, hp, run.base, task.deadline);
        if (!w) return std::nullopt;
        run.window = *w;
      }
      // A new run starting at stage j. Its release is the end of stage j−1: B_{j−1} when not
      // chaining; with chains a strand of stage j−1 on another core q' finished last (had it been
      // this core's strand, the run would start earlier), so the release is ≤ F_{j−1}(q').
      std::optional<std::int64_t> base;
      if (j == 0) {
        base = 0;
      } else if (!chain || prev.empty()) {
        base = prev_bound;
      } else {
        for (const auto& [core, f] : prev) {
          if (core != g.core) base = std::max(base.value_or(f), f);
        }
      }
      if (base) {
        const auto w = busy_window(g.wcet, g.wcet, hp, *base, task.deadline);
        if (!w) return std::nullopt;
        alive.push_back(Run{*base, g.wcet, *w});
      }
      std::int64_t f = 0;
      for (const Run& run : alive) f = std::max(f, run.base + run.window);
      finish.emplace_back(g.core, f);
      bound = std::max(bound, f);
    }
    prev = std::move(finish);
    prev_bound = bound;
    task.finish.push_back(bound);
  }
  return prev_bound;
}

}  // namespace rtpar::analysis
