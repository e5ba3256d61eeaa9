// partitioned.cpp — plan_partitioned: OpenMP-RT's model (OpenMP-RT §3.2–3.3). The user pins
// each task's threads to `places`; tasks with a `priority` run in the static-priority band
// (SCHED_FIFO), tasks without one in the EDF band, which sits above it (OpenMP-RT §3.3: an EDF
// rttask is above every static-priority one, as SCHED_DEADLINE is above SCHED_FIFO in Linux).
//
// The analysis, per task i with cores K_i (the distinct places its threads use), is in
// docs/analysis/partitioned.md. In short:
//  * own term (analysis/planners/partitioned_part.hpp): a team on the `team` runtime with one
//    thread per core runs its declared structure — the static-blocks shares of each segment
//    ([[task.segment]]), or greedy list scheduling of its DAG / (C, L) — so its own term is the
//    job's length on idle cores (Σ_s max_r share, or ⌈(C − L)/m⌉ + L). Otherwise (one thread,
//    threads sharing cores, `steal`) a job may put its whole work C on every core of K_i: a thread
//    can take its preempted teammates' work. Measured overheads (--overhead) are added to it;
//  * demand on core k (what i takes from others there): the most a job executes on k — its
//    threads' static shares there (segments) or C — capped by D_i, charges included;
//  * EDF, exact: if every EDF task on core k uses only core k, the EDF band of k is tested with the
//    processor-demand criterion (QPA, analysis/edf_demand.hpp); its tasks get bound D_i;
//  * otherwise sufficient response-time bounds, the smaller one admitted:
//    (a) whole window: R_i = own_i + Σ_{k∈K_i} Σ_{j∈I_k(i)} W_jk(R_i);
//    (b) segments shape only, per segment (analysis/bounds/team_response.hpp): R_i = Σ_s max_r
//        x_{s,r}, x_{s,r} = e_{s,r} + Σ_{j∈I_{k_r}(i)} W_jk(x_{s,r}) (FJOS §V: a fork/join
//        segment ends with its slowest strand, each strand delayed only on its own core);
//  where
//    I_k(i) = the other EDF tasks on k (for an EDF task), or the EDF tasks plus the static tasks of
//    priority ≥ P_i on k (for a static task), and W_jk(x) bounds j's execution on k in a window
//    (c_jk = j's demand on k):
//     - i and j both on one core: W = ⌈x/T_j⌉·c_jk. i's job keeps core k busy at level i from r_i
//       to its completion, so the classic critical-instant argument applies (Joseph & Pandya 1986;
//       Audsley et al. 1993: exact RTA for a single-core task with single-core interferers);
//     - otherwise the window is not one busy period of k (i spans cores) or j's work on k appears
//       piecewise after r_j (j spans cores: self-suspension-like), so W is the carry-in workload
//       bound for an arbitrary window of Bertogna & Cirinei (RTSS 2007, eq. (5)):
//       N = ⌊(x + D_j − c)/T_j⌋, W = N·c + min(c, x + D_j − c − N·T_j), valid when every
//       job of j runs its work within [r_j, r_j + D_j] — true up to the first deadline miss, so
//       admitting only sets where every bound is ≤ D is sound by induction on the first miss;
//     - for an EDF task i, only jobs of j with deadlines in (r_i, r_i + D_i] run before i on k:
//       at most ⌈D_i/T_j⌉ of them, so W is also capped by ⌈D_i/T_j⌉·c_jk.
//    Soundness of (a): until i's job completes, at each instant either the thread that the job
//    waits for (the slowest of the current segment, or for greedy the critical path / every
//    thread) executes — at most own_i such instants — or it is ready but preempted on its core,
//    an instant charged to that core's interferers (docs/analysis/partitioned.md for the greedy
//    case).
#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/bounds/edf_blocking.hpp"
#include "analysis/bounds/edf_demand.hpp"
#include "analysis/bounds/light_first_fit.hpp"
#include "analysis/bounds/rta.hpp"
#include "analysis/planners/interference_charge.hpp"
#include "analysis/planners/lock_blocking.hpp"
#include "analysis/planners/partitioned_budget.hpp"
#include "analysis/planners/partitioned_part.hpp"
#include "core/checked_math.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar {

namespace {

using analysis::Part;
using analysis::PartShape;

std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (const int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// quotient is ⌊a/b⌋ for 0 ≤ a < 2^64 and 0 < b, in 64 bits (a 128-bit division is a library call
// several times slower, and this is the inner loop of every bound).
std::uint64_t quotient(__int128 a, std::int64_t b) {
  return static_cast<std::uint64_t>(a) / static_cast<std::uint64_t>(b);
}

// interference is W_jk(x), j's execution on a core of i in a window of length x (file comment),
// where a job of j executes at most `work` there (Part::core_work, capped by D_j: one core runs at
// most D_j of a job that meets its deadline). 0 ≤ x ≤ D_i < 2^63, so x + T_j and x + D_j stay
// below 2^64 and the quotients fit 64 bits.
__int128 interference(const Part& i, const Part& j, std::int64_t work, __int128 x) {
  const __int128 c = std::min(work, j.d);
  const __int128 t = j.t;
  __int128 w = 0;
  if (i.cores.size() == 1 && j.cores.size() == 1) {
    w = static_cast<__int128>(quotient(x + t - 1, j.t)) * c;  // ⌈x/T_j⌉·C_j
  } else {
    // Bertogna & Cirinei 2007: carry-in job as late as its deadline allows, the rest as early as
    // possible (c ≤ D_j, so the slack is ≥ 0 and the formula monotone).
    const __int128 slack = j.d - c;
    const __int128 n = quotient(x + slack, j.t);
    w = n * c + std::min(c, x + slack - n * t);
  }
  if (i.edf) w = std::min(w, static_cast<__int128>(quotient(i.d + t - 1, j.t)) * c);
  return w;
}

// BoundStatus is how a response bound ended: a bound ≤ D, a bound > D, or the iteration cap.
enum class BoundStatus { met, missed, capped };

// BoundResult is a response bound's outcome; value is meaningful only when met.
struct BoundResult {
  BoundStatus status = BoundStatus::missed;
  std::int64_t value = 0;
};

// Interferer is one task that can delay i on one of i's cores, with its work per job there.
struct Interferer {
  const Part* part = nullptr;
  std::int64_t work = 0;
};

// interferers lists, per core of i (parallel to i.cores), the tasks that can preempt i there.
// `on_core[k]` lists the parts whose threads use CPU k (built once per plan, so gathering is
// O(|I(i)|), not O(n)).
std::vector<std::vector<Interferer>> interferers(
    const Part& i, const std::vector<Part>& parts,
    const std::map<int, std::vector<std::size_t>>& on_core) {
  std::vector<std::vector<Interferer>> out(i.cores.size());
  for (std::size_t x = 0; x < i.cores.size(); ++x) {
    const int k = i.cores[x];
    const auto it = on_core.find(k);
    if (it == on_core.end()) continue;
    for (const std::size_t jx : it->second) {
      const Part& j = parts[jx];
      if (j.index == i.index || j.reason) continue;
      if (!(j.edf || (!i.edf && j.priority >= i.priority))) continue;
      const auto at = std::lower_bound(j.cores.begin(), j.cores.end(), k);
      out[x].push_back(Interferer{&j, j.core_work[static_cast<std::size_t>(at - j.cores.begin())]});
    }
  }
  return out;
}

// whole_window_bound iterates R = own_i + B_i + Σ_k Σ_{j ∈ I_k(i)} W_jk(R) from R = own_i + B_i,
// B_i the blocking of a local lock (lock_blocking.hpp; 0 for most tasks); missed once
// R > D_i, capped after analysis::kRtaIterationCap steps (each step raises R by ≥ 1 ns while
// R ≤ D_i, so without the cap a long deadline could take ~D_i steps). With `server`, each core
// of i adds the kernel's server above everything: + |K_i|·I(R).
BoundResult whole_window_bound(const Part& i, const std::vector<std::vector<Interferer>>& inter,
                               const std::optional<analysis::PeriodicServer>& server,
                               std::int64_t blocking) {
  BoundResult out;
  __int128 r = __int128(i.own) + blocking;
  for (std::uint64_t step = 0; step < analysis::kRtaIterationCap; ++step) {
    __int128 next = __int128(i.own) + blocking;
    for (const std::vector<Interferer>& core : inter) {
      for (const Interferer& j : core) {
        next += interference(i, *j.part, j.work, r);
        if (next > i.d) return out;  // also keeps the sum far below 2^127
      }
    }
    if (server) {
      next += __int128(i.cores.size()) *
              analysis::server_interference(*server, static_cast<std::int64_t>(r));
    }
    if (next > i.d) return out;  // own > D_i with no interferer (or the server alone)
    if (next == r) {
      out.status = BoundStatus::met;
      out.value = static_cast<std::int64_t>(r);
      return out;
    }
    r = next;
  }
  out.status = BoundStatus::capped;
  return out;
}

// segment_bound is analysis::segmented_response for a PartShape::segments task: thread r's
// window sees only the interferers of its own core.
BoundResult segment_bound(const Part& i, const std::vector<std::vector<Interferer>>& inter,
                          const std::optional<analysis::PeriodicServer>& server) {
  std::vector<std::size_t> core_of_rank;
  for (const int cpu : i.thread_cores) {
    const auto at = std::lower_bound(i.cores.begin(), i.cores.end(), cpu);
    core_of_rank.push_back(static_cast<std::size_t>(at - i.cores.begin()));
  }
  const analysis::RtaResult r =
      analysis::segmented_response(i.shares, i.d, [&](std::size_t rank, __int128 x) {
        __int128 sum = 0;
        for (const Interferer& j : inter[core_of_rank[rank]]) {
          sum += interference(i, *j.part, j.work, x);
          if (sum > i.d) return sum;  // already past any deadline: keeps the sum small
        }
        if (server) sum += analysis::server_interference(*server, static_cast<std::int64_t>(x));
        return sum;
      });
  BoundResult out;
  if (r.status == analysis::RtaStatus::met) {
    out.status = BoundStatus::met;
    out.value = r.response.count();
  } else if (r.status == analysis::RtaStatus::capped) {
    out.status = BoundStatus::capped;
  }
  return out;
}

// response_bound is the smallest of the bounds that apply to i (each is sound on its own): the
// whole-window bound always, and for a segments-shaped team the per-segment bound too.
// A task charged blocking (one thread on one core) gets the whole-window bound only.
BoundResult response_bound(const Part& i, const std::vector<Part>& parts,
                           const std::map<int, std::vector<std::size_t>>& on_core,
                           const std::optional<analysis::PeriodicServer>& server,
                           std::int64_t blocking) {
  const std::vector<std::vector<Interferer>> inter = interferers(i, parts, on_core);
  BoundResult best = whole_window_bound(i, inter, server, blocking);
  if (i.shape != PartShape::segments || blocking != 0) return best;
  const BoundResult seg = segment_bound(i, inter, server);
  if (seg.status == BoundStatus::met) {
    if (best.status != BoundStatus::met || seg.value < best.value) best = seg;
  } else if (best.status == BoundStatus::missed && seg.status == BoundStatus::capped) {
    best = seg;  // say "capped" rather than "exceeds the deadline" when one bound was cut short
  }
  return best;
}

// shape_text says which own term the bound used, so a rejected heavy task shows how to fix it.
std::string shape_text(const Part& p, const TaskSpec& task) {
  switch (p.shape) {
    case PartShape::segments:
      return fmt::format("team of {} on its own cores, static-blocks segments: {} on idle cores",
                         p.thread_cores.size(), format_duration(Duration(p.own)));
    case PartShape::greedy:
      return fmt::format("team of {} on its own cores, greedy ⌈(C − L)/m⌉ + L = {}",
                         p.thread_cores.size(), format_duration(Duration(p.own)));
    case PartShape::whole:
      break;
  }
  if (p.thread_cores.size() >= 2 && task.runtime == RuntimeKind::team &&
      p.cores.size() < p.thread_cores.size()) {
    return "whole work C per core: threads share cores; one thread per core allows a team bound";
  }
  return "whole work C per core";
}

}  // namespace

Plan plan_partitioned(const TaskSet& set, const PlanOptions& options) {
  // The user fixes the places, so there is nothing to size for another machine; a charged kernel
  // server goes into every bound (the exact EDF test does not model it, so it is then skipped).
  const std::optional<analysis::PeriodicServer> server = analysis::charged_server(options, set);
  model::check_task_parameters(set);
  Plan plan;
  plan.planner = PlannerKind::partitioned;
  plan.cores = analysis::realtime_cores(set.system);
  const std::set<int> rt(plan.cores.begin(), plan.cores.end());
  const std::set<int> nonrt(set.system.nonrt_cores.begin(), set.system.nonrt_cores.end());

  std::vector<Part> parts;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    const TaskSpec& task = set.tasks[i];
    Part p;
    p.index = i;
    p.edf = !task.priority.has_value();
    p.priority = task.priority.value_or(0);
    p.c = task.work.count();
    p.d = task.deadline.count();
    p.t = task.period.count();
    if (task.places.empty()) {
      p.reason = "the partitioned planner needs `places` (the CPUs of the task's threads)";
    }
    for (const int cpu : task.places) {
      if (p.reason) break;
      if (nonrt.count(cpu) != 0) {
        p.reason =
            fmt::format("CPU {} is reserved for non-real-time work (system.nonrt_cores)", cpu);
      } else if (rt.count(cpu) == 0) {
        p.reason = fmt::format("CPU {} is not one of the real-time cores [{}]", cpu,
                               join_ints(plan.cores));
      }
    }
    const std::size_t threads =
        task.threads > 0 ? static_cast<std::size_t>(task.threads) : task.places.size();
    for (std::size_t k = 0; k < threads && !task.places.empty(); ++k) {
      p.thread_cores.push_back(task.places[k % task.places.size()]);
    }
    p.cores = p.thread_cores;
    std::sort(p.cores.begin(), p.cores.end());
    p.cores.erase(std::unique(p.cores.begin(), p.cores.end()), p.cores.end());
    if (!p.reason) {
      analysis::shape_part(p, task,
                           analysis::part_charges(task, set.system, threads, options, plan.notes));
    }
    parts.push_back(std::move(p));
  }

  // At run time the EDF band of a core occupies SCHED_FIFO priorities 90 (dispatch) down to
  // 90 − n_k, n_k = the EDF threads on core k (runtime/edf_band.hpp); a static-priority task
  // sharing the core must sit below it for "EDF above static priority" to hold.
  std::map<int, int> edf_threads;
  for (const Part& p : parts) {
    if (!p.reason && p.edf) {
      for (const int cpu : p.thread_cores) ++edf_threads[cpu];
    }
  }
  for (Part& p : parts) {
    if (p.reason || p.edf) continue;
    for (const int k : p.cores) {
      const auto it = edf_threads.find(k);
      if (it == edf_threads.end()) continue;
      const int lowest_band = 89 - it->second + 1;
      if (p.priority >= lowest_band) {
        p.reason = fmt::format(
            "static priority {} is not below the EDF band on core {} (priorities {}..90 for its "
            "{} EDF thread(s)); use a priority ≤ {}",
            p.priority, k, lowest_band, it->second, lowest_band - 1);
        break;
      }
    }
  }

  // Cores whose EDF band is made of single-core tasks only get the exact demand test (not with a
  // charged server, which that test does not model).
  std::set<int> exact_bands;
  for (const int k : plan.cores) {
    bool simple = !server;
    bool any = false;
    for (const Part& p : parts) {
      if (p.reason || !p.edf || !std::binary_search(p.cores.begin(), p.cores.end(), k)) continue;
      any = true;
      simple = simple && p.cores.size() == 1;
    }
    if (any && simple) exact_bands.insert(k);
  }

  // Shared locks: local ones charge the ceiling protocol's blocking, global ones MSRP's spin
  // (added to the user's C, so to what it takes from others too) and blocking; the others refuse
  // (lock_blocking.hpp). On an exact band the sections are B(t) of the demand test below.
  const analysis::LockCharge locks =
      analysis::partitioned_lock_charge(set, parts, server, exact_bands);
  for (Part& p : parts) {
    const std::int64_t spin = locks.spin[p.index];
    if (spin == 0 || p.reason || locks.refusal[p.index]) continue;
    p.own = sat_add(p.own, spin);  // one thread (lock_blocking.hpp): one core, one work entry
    for (std::int64_t& w : p.core_work) w = sat_add(w, spin);
  }
  plan.notes.insert(plan.notes.end(), locks.notes.begin(), locks.notes.end());

  // Exact EDF demand test per such core, with the non-preemptive sections that can block it
  // (Baruah, RTSS 2006: h(t) + B(t) ≤ t; analysis/bounds/edf_blocking.hpp).
  std::map<int, bool> exact_core_ok;
  std::set<int> exact_core_capped;  // cores whose test stopped at its iteration cap
  for (const int k : exact_bands) {
    std::vector<analysis::DemandTask> band;
    for (const Part& p : parts) {
      if (p.reason || !p.edf || !std::binary_search(p.cores.begin(), p.cores.end(), k)) continue;
      band.push_back(analysis::DemandTask{p.own, p.d, p.t});
    }
    const std::vector<analysis::DemandBlocker> blockers =
        analysis::edf_band_blockers(parts, locks, k);
    const analysis::DemandVerdict v = analysis::edf_demand_test_blocking(band, blockers);
    exact_core_ok[k] = v.schedulable;
    if (v.capped) exact_core_capped.insert(k);
    const std::int64_t b_max = analysis::blocking_at(blockers, -1);
    if (b_max > 0) {
      plan.notes.push_back(fmt::format(
          "core {}: the EDF band's demand test charges non-preemptive lock sections as blocking "
          "B(t), up to {} (docs/analysis.md, \"Blocking (shared locks)\")",
          k, format_duration(Duration(b_max))));
    }
    if (!v.schedulable) {
      plan.notes.push_back(fmt::format(
          "core {}: the EDF band fails the processor-demand test ({}{})", k, v.reason,
          v.failing_t ? fmt::format(": demand exceeds t = {} ns", *v.failing_t) : std::string()));
    }
  }

  std::map<int, std::vector<std::size_t>> on_core;  // CPU → parts with a thread there
  for (std::size_t x = 0; x < parts.size(); ++x) {
    for (const int k : parts[x].cores) on_core[k].push_back(x);
  }

  plan.schedulable = !set.tasks.empty();
  for (const Part& p : parts) {
    const TaskSpec& task = set.tasks[p.index];
    TaskPlan tp;
    tp.name = task.name;
    tp.heavy = task.work > task.deadline;
    tp.cores = p.cores;
    tp.thread_cores = p.thread_cores;
    if (auto shares = analysis::member_budgets(task, p.thread_cores))
      tp.member_budget_ns = std::move(*shares);
    tp.priority = p.priority;
    tp.scheduling = p.edf ? CoreScheduling::edf : CoreScheduling::fixed_priority;
    tp.utilization = task.utilization();
    tp.cores_needed = static_cast<int>(p.cores.size());
    tp.reason = p.reason ? p.reason : locks.refusal[p.index];
    const std::int64_t blocking = locks.blocking[p.index];
    if (!tp.reason && blocking != 0) {
      plan.notes.push_back(fmt::format(
          "task '{}': blocking B = {} charged ({}; docs/analysis.md, \"Blocking (shared "
          "locks)\")",
          task.name, format_duration(Duration(blocking)), locks.blocking_lock[p.index]));
    }
    if (!tp.reason) {
      if (p.edf && p.cores.size() == 1 && exact_core_ok.count(p.cores[0]) != 0) {
        if (exact_core_ok[p.cores[0]]) {
          tp.response_bound_ns = p.d;
        } else if (exact_core_capped.count(p.cores[0]) != 0) {
          tp.reason =
              fmt::format("{} (EDF band of core {})", analysis::kDemandCapReason, p.cores[0]);
        } else {
          tp.reason =
              fmt::format("the EDF tasks on core {} fail the processor-demand test", p.cores[0]);
        }
      } else if (const BoundResult r = response_bound(p, parts, on_core, server, blocking);
                 r.status == BoundStatus::met) {
        tp.response_bound_ns = r.value;
      } else if (r.status == BoundStatus::capped) {
        tp.reason = analysis::kRtaCapReason;
      } else {
        tp.reason = fmt::format(
            "response-time bound exceeds the deadline {} on cores [{}] ({}; {})",
            format_duration(task.deadline), join_ints(p.cores),
            p.edf ? "EDF band, sufficient test for tasks spanning cores"
                  : "static priority, interference from the EDF band and priorities ≥ " +
                        std::to_string(p.priority),
            shape_text(p, task));
      }
    }
    plan.schedulable = plan.schedulable && !tp.reason;
    plan.tasks.push_back(std::move(tp));
  }

  // OpenMP-RT §3.2: tasks of one priority level with overlapping places compete for that
  // level's thread pool, and one can leave the other sequential.
  // Only pairs where one task has ≥ 2 threads qualify: walk the other index over those only when
  // `a` has one thread, which keeps the note order (a, then b ascending) in O(n·multi) pairs.
  std::vector<std::size_t> multi;
  for (std::size_t b = 0; b < parts.size(); ++b) {
    if (parts[b].thread_cores.size() >= 2) multi.push_back(b);
  }
  for (std::size_t a = 0; a < parts.size(); ++a) {
    const bool a_multi = parts[a].thread_cores.size() >= 2;
    auto next_multi = std::upper_bound(multi.begin(), multi.end(), a);
    for (std::size_t b = a + 1; b < parts.size(); ++b) {
      if (!a_multi) {
        if (next_multi == multi.end()) break;
        b = *next_multi++;
      }
      const Part& x = parts[a];
      const Part& y = parts[b];
      if (x.edf != y.edf || (!x.edf && x.priority != y.priority)) continue;
      if (x.thread_cores.size() < 2 && y.thread_cores.size() < 2) continue;
      std::vector<int> shared;
      std::set_intersection(x.cores.begin(), x.cores.end(), y.cores.begin(), y.cores.end(),
                            std::back_inserter(shared));
      if (shared.empty()) continue;
      plan.notes.push_back(fmt::format(
          "warning: tasks '{}' and '{}' are at the same level ({}) and share cores [{}]: with "
          "OpenMP-RT's per-level thread pool one could take the other's threads and run it "
          "sequentially (OpenMP-RT §3.2). rtpar gives each task its own pinned threads, so "
          "that starvation cannot happen here, but the two still delay each other on the shared "
          "cores (counted in the bounds); separate their places to isolate them",
          set.tasks[x.index].name, set.tasks[y.index].name,
          x.edf ? std::string("EDF") : "priority " + std::to_string(x.priority),
          join_ints(shared)));
    }
  }
  return plan;
}

}  // namespace rtpar
