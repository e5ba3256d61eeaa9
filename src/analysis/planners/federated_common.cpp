// federated_common.cpp — dedicated cores for heavy tasks, first-fit for light ones, and the Plan.
#include "analysis/planners/federated_common.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/bounds/light_first_fit.hpp"
#include "analysis/bounds/priorities.hpp"
#include "analysis/bounds/rta.hpp"
#include "analysis/planners/lock_blocking.hpp"
#include "core/names.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {
namespace {

// join_ints renders CPU ids for notes ("0, 1, 3").
std::string join_ints(const std::vector<int>& values) {
  return values.empty() ? std::string("none") : fmt::format("{}", fmt::join(values, ", "));
}

// light_cores_needed is how many cores first-fit opens for `light` given an unlimited supply.
// Each light task fits on a core alone (R = C ≤ D), so |light| fresh cores always suffice —
// except with the kernel's server `above` them, where one that fits no core alone is not counted.
std::size_t light_cores_needed(const TaskSet& set, const std::vector<std::size_t>& light,
                               const PriorityScheme& priorities,
                               const std::vector<RtaInterferer>& above) {
  std::vector<int> fresh(light.size());
  for (std::size_t k = 0; k < fresh.size(); ++k) fresh[k] = static_cast<int>(k);
  std::set<int> opened;
  for (const LightPlacement& p : first_fit_light(set, light, fresh, priorities, above)) {
    if (p.core) opened.insert(*p.core);
  }
  return opened.size();
}

// core_priority_note is shared_priority_note for the light tasks `placed` on `core`.
std::string core_priority_note(const TaskSet& set, int core, const std::vector<std::size_t>& light,
                               const std::vector<LightPlacement>& placed) {
  std::vector<std::size_t> members;
  std::vector<int> prio;
  for (std::size_t i : light) {
    if (placed[i].core == core) {
      members.push_back(i);
      prio.push_back(placed[i].priority);
    }
  }
  return shared_priority_note(set, core, members, prio);
}

// size_with_server raises a federated heavy task's core count n to the least n' ≥ n (at most
// `cores`) whose bound with the kernel's server, R = L + ⌈(C − L)/n'⌉ + n'·I(R)
// (dag_response_with_server), is ≤ D, and takes that bound; sizing stays as it is when no n'
// up to `cores` has one (interference_charge then gives the reason). More cores do not always
// help: ⌈(C − L)/n'⌉ shrinks but n'·I(R) grows, hence the search from n upward.
void size_with_server(const TaskSpec& task, const PeriodicServer& server, int cores,
                      HeavySizing& sizing) {
  if (!sizing.response_bound_ns || sizing.cores_needed < 1) return;
  for (int n = sizing.cores_needed; n <= cores; ++n) {
    const DagResponse r = dag_response_with_server(task.work.count(), task.span.count(), n,
                                                   task.deadline.count(), server);
    if (r.response_ns) {
      sizing.cores_needed = n;
      sizing.response_bound_ns = r.response_ns;
      return;
    }
  }
}

// server_above is the kernel's server as interferers above every light task (server_rta_tasks:
// (Q, P) and one Q with a period of the largest light deadline, so ⌈R/H⌉ = 1 for R ≤ D ≤ H),
// or nothing when it is not charged.
std::vector<RtaInterferer> server_above(const TaskSet& set, const std::vector<std::size_t>& light,
                                        const std::optional<PeriodicServer>& server) {
  if (!server) return {};
  std::int64_t horizon = 1;
  for (const std::size_t i : light) horizon = std::max(horizon, set.tasks[i].deadline.count());
  std::vector<RtaInterferer> out;
  for (const RtaTask& t : server_rta_tasks(*server, horizon, 0)) {
    out.push_back({t.wcet.count(), t.period.count()});
  }
  return out;
}

// plan_placed is plan_federated_family for a set whose locks, if any, are already charged into
// C and L (federated_lock_spins); blocking is added by the caller.
Plan plan_placed(const TaskSet& set, PlannerKind kind, const HeavySizer& size_heavy,
                 const std::optional<PeriodicServer>& server) {
  Plan plan;
  plan.planner = kind;
  plan.cores = realtime_cores(set.system);
  const int total_cores = static_cast<int>(plan.cores.size());
  if (plan.cores.empty()) {
    plan.notes.push_back(
        fmt::format("no real-time cores: system.cores [{}] minus nonrt_cores [{}] leaves none",
                    join_ints(set.system.cores), join_ints(set.system.nonrt_cores)));
  }

  // Heavy iff C > D: such a job cannot finish by its deadline on one core, so it needs
  // parallelism (Li et al. ECRTS'14 use u > 1 for implicit deadlines; C > D is the same test
  // when D = T and the right one for constrained deadlines).
  std::vector<bool> heavy(set.tasks.size());
  std::vector<std::size_t> light;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    heavy[i] = set.tasks[i].work > set.tasks[i].deadline;
    if (!heavy[i]) light.push_back(i);
  }
  const PriorityScheme priorities(set, heavy);
  if (!priorities.global()) {
    plan.notes.push_back(fmt::format(
        "more than {} tasks need a computed priority, so priorities are distinct per core "
        "instead of globally (heavy tasks {}, light tasks {} downward on each core)",
        kTopPriority - kBottomPriority + 1, kTopPriority, kTopPriority - 1));
  }

  plan.tasks.resize(set.tasks.size());
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    plan.tasks[i].name = set.tasks[i].name;
    plan.tasks[i].heavy = heavy[i];
    plan.tasks[i].utilization = set.tasks[i].utilization();
  }

  // Heavy tasks: sized first (every one, so cores_needed is always reported), then placed.
  std::vector<HeavySizing> sizing(set.tasks.size());
  std::int64_t heavy_demand = 0;
  std::vector<std::string> infeasible;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    if (!heavy[i]) continue;
    sizing[i] = size_heavy(set.tasks[i]);
    if (server && kind == PlannerKind::federated)
      size_with_server(set.tasks[i], *server, total_cores, sizing[i]);
    if (sizing[i].infeasible) {
      infeasible.push_back(set.tasks[i].name);
    } else {
      heavy_demand += sizing[i].cores_needed;
    }
  }
  bool short_of_cores = false;
  std::size_t next_free = 0;  // cores are never released, so the free ones are a suffix
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    if (!heavy[i]) continue;
    TaskPlan& tp = plan.tasks[i];
    const HeavySizing& s = sizing[i];
    tp.cores_needed = s.cores_needed;
    tp.priority = priorities.heavy_priority(i);
    if (s.infeasible) {
      tp.reason = *s.infeasible;
      continue;
    }
    const std::size_t remaining = plan.cores.size() - next_free;
    if (static_cast<std::size_t>(s.cores_needed) > remaining) {
      short_of_cores = true;
      tp.reason = fmt::format(
          "needs {} cores; only {} remain after the heavy tasks listed before it "
          "(total heavy demand {} of {} cores)",
          s.cores_needed, remaining, heavy_demand, total_cores);
      continue;
    }
    tp.cores.assign(plan.cores.begin() + static_cast<std::ptrdiff_t>(next_free),
                    plan.cores.begin() + static_cast<std::ptrdiff_t>(next_free + s.cores_needed));
    next_free += static_cast<std::size_t>(s.cores_needed);
    tp.dedicated_cores = true;  // nothing else is placed on a heavy task's cores
    tp.response_bound_ns = s.response_bound_ns;
    tp.expected_response_ns = s.expected_response_ns;
  }

  // Light tasks: first-fit on what the heavy tasks left.
  const std::vector<int> rest(plan.cores.begin() + static_cast<std::ptrdiff_t>(next_free),
                              plan.cores.end());
  const std::vector<RtaInterferer> above = server_above(set, light, server);
  const std::vector<LightPlacement> placed = first_fit_light(set, light, rest, priorities, above);
  for (std::size_t i : light) {
    TaskPlan& tp = plan.tasks[i];
    tp.cores_needed = 1;
    tp.priority = placed[i].priority;
    if (placed[i].core && placed[i].response) {
      tp.cores = {*placed[i].core};
      tp.response_bound_ns = placed[i].response->count();
      continue;
    }
    // A placed task always has a response (its core's last admission test is the final RTA), so
    // only unplaced tasks get here.
    assert(!placed[i].core);
    short_of_cores = true;
    if (rest.empty()) {
      tp.reason = fmt::format(
          "no core remains for light tasks ({}); one more core would be needed",
          plan.cores.empty()
              ? std::string("no real-time cores are available")
              : fmt::format("all {} real-time cores are dedicated to heavy tasks", total_cores));
    } else if (placed[i].capped) {
      tp.reason = std::string(kRtaCapReason) + " on a core that might otherwise admit it";
    } else {
      tp.reason =
          "no remaining core admits it (a response would exceed D on every core); one more core "
          "would be needed";
    }
  }

  // Equal priorities on one core can only come from overrides or the >89-per-core clamp.
  for (int core : rest) {
    std::string note = core_priority_note(set, core, light, placed);
    if (!note.empty()) plan.notes.push_back(std::move(note));
  }

  if (short_of_cores) {
    const std::size_t light_cores = light_cores_needed(set, light, priorities, above);
    std::string note = fmt::format(
        "the task set needs {} real-time cores (heavy {} + light {} by first-fit); {} available",
        heavy_demand + static_cast<std::int64_t>(light_cores), heavy_demand, light_cores,
        total_cores);
    if (!infeasible.empty()) {
      note += fmt::format(" (not counting {}, which no number of cores can schedule)",
                          fmt::join(infeasible, ", "));
    }
    plan.notes.push_back(std::move(note));
  }

  plan.schedulable = !plan.cores.empty();
  for (const TaskPlan& tp : plan.tasks) {
    if (tp.reason) plan.schedulable = false;
  }
  return plan;
}

}  // namespace

Plan plan_federated_family(const TaskSet& set, PlannerKind kind, const HeavySizer& size_heavy,
                           const std::optional<PeriodicServer>& server) {
  // The analysis is only sound for valid parameters (0 < L ≤ C, 0 < D ≤ T, ...). Files were
  // checked when loaded; sets built in code are checked here by the same rules.
  model::check_task_parameters(set);
  if (!has_lock_channels(set)) return plan_placed(set, kind, size_heavy, server);
  // Shared locks (lock_blocking.hpp): MSRP spins charged into C and L before placement, the
  // blocking of each light task on its core after.
  const FederatedLocks locks = federated_lock_spins(set, realtime_cores(set.system).size(), server);
  Plan plan = plan_placed(locks.inflated, kind, size_heavy, server);
  std::vector<std::size_t> light;
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    if (!plan.tasks[i].heavy) light.push_back(i);
    plan.tasks[i].utilization = set.tasks[i].utilization();  // the file's C/T, as without locks
  }
  charge_federated_blocking(plan, set, locks, server_above(locks.inflated, light, server));
  return plan;
}

}  // namespace rtpar::analysis
