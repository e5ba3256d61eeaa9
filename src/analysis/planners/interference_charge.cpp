// interference_charge.cpp — see interference_charge.hpp.
#include "analysis/planners/interference_charge.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analysis/bounds/rta.hpp"

namespace rtpar::analysis {
namespace {

// server_text renders the charged server for reasons and notes.
std::string server_text(const PeriodicServer& s) {
  return fmt::format("{} every {}", format_duration(Duration(s.budget_ns), 3),
                     format_duration(Duration(s.period_ns), 3));
}

// charge_heavy replaces a federated heavy task's bound by the fixed point with the server.
void charge_heavy(TaskPlan& tp, const TaskSpec& spec, const PeriodicServer& server) {
  const DagResponse r =
      dag_response_with_server(spec.work.count(), spec.span.count(),
                               static_cast<int>(tp.cores.size()), spec.deadline.count(), server);
  if (r.response_ns) {
    tp.response_bound_ns = r.response_ns;
  } else {
    tp.response_bound_ns.reset();
    tp.reason = r.reason;
  }
}

// charge_ws_heavy adds the server's execution in a window of D on each of the m cores to the
// expected-response bound: at most m·I(D) of the job's instants are lost to it while R ≤ D.
void charge_ws_heavy(TaskPlan& tp, const TaskSpec& spec, const PeriodicServer& server) {
  if (!tp.expected_response_ns) return;
  const auto m = static_cast<double>(tp.cores.size());
  *tp.expected_response_ns +=
      m * static_cast<double>(server_interference(server, spec.deadline.count()));
}

// charge_light_cores re-runs the exact RTA of each core's light tasks with the server above them.
void charge_light_cores(Plan& plan, const TaskSet& set, const PeriodicServer& server,
                        bool expected_too) {
  std::map<int, std::vector<std::size_t>> by_core;  // core → plan task indices
  for (std::size_t i = 0; i < plan.tasks.size() && i < set.tasks.size(); ++i) {
    const TaskPlan& tp = plan.tasks[i];
    if (!tp.heavy && !tp.reason && tp.cores.size() == 1) by_core[tp.cores[0]].push_back(i);
  }
  for (const auto& [core, members] : by_core) {
    std::vector<RtaTask> view;
    std::int64_t horizon = 1;
    int top = 0;
    for (const std::size_t i : members) {
      const TaskSpec& spec = set.tasks[i];
      view.push_back({spec.work, spec.period, spec.deadline, plan.tasks[i].priority});
      horizon = std::max(horizon, spec.deadline.count());
      top = std::max(top, plan.tasks[i].priority);
    }
    // The server outranks every SCHED_FIFO priority (it is a SCHED_DEADLINE entity).
    for (const RtaTask& s : server_rta_tasks(server, horizon, top == INT_MAX ? top : top + 1)) {
      view.push_back(s);
    }
    for (std::size_t k = 0; k < members.size(); ++k) {
      TaskPlan& tp = plan.tasks[members[k]];
      const std::optional<Duration> r = response_time(view, k);
      if (r) {
        tp.response_bound_ns = r->count();
        if (expected_too) tp.expected_response_ns = static_cast<double>(r->count());
      } else {
        tp.response_bound_ns.reset();
        if (expected_too) tp.expected_response_ns.reset();
        tp.reason = fmt::format(
            "with the kernel's server ({}) above it on core {}, the response exceeds D = {}",
            server_text(server), core, format_duration(set.tasks[members[k]].deadline, 3));
      }
    }
  }
}

}  // namespace

std::optional<PeriodicServer> charged_server(const PlanOptions& options) {
  const KernelInterference& k = options.interference;
  if (k.state != "charged" || k.budget_ns <= 0 || k.period_ns < k.budget_ns) return std::nullopt;
  return PeriodicServer{k.budget_ns, k.period_ns};
}

void charge_interference(Plan& plan, const TaskSet& set, const PlanOptions& options) {
  plan.interference = options.interference;
  const std::optional<PeriodicServer> server = charged_server(options);
  if (!server) return;
  switch (plan.planner) {
    case PlannerKind::federated:
    case PlannerKind::federated_ws: {
      const bool ws = plan.planner == PlannerKind::federated_ws;
      for (std::size_t i = 0; i < plan.tasks.size() && i < set.tasks.size(); ++i) {
        TaskPlan& tp = plan.tasks[i];
        if (!tp.heavy || tp.reason || tp.cores.empty()) continue;
        if (ws) {
          charge_ws_heavy(tp, set.tasks[i], *server);
        } else {
          charge_heavy(tp, set.tasks[i], *server);
        }
      }
      charge_light_cores(plan, set, *server, ws);
      plan.notes.push_back(fmt::format(
          "kernel interference charged: a server of {} per core above every task ({}); light "
          "tasks were placed first and re-analysed with it",
          server_text(*server), plan.interference.source));
      break;
    }
    case PlannerKind::partitioned:
      plan.notes.push_back(
          fmt::format("kernel interference charged: a server of {} on each core of every task ({})",
                      server_text(*server), plan.interference.source));
      break;
    case PlannerKind::decomposition:
      plan.notes.push_back(fmt::format(
          "kernel interference charged: a server of {} on each core, its I(d) in every strand's "
          "load condition ({})",
          server_text(*server), plan.interference.source));
      break;
    case PlannerKind::fork_join_rta:
      plan.notes.push_back(fmt::format(
          "kernel interference charged: a server of {} on each core, above every task in the "
          "fork/join RTA ({})",
          server_text(*server), plan.interference.source));
      break;
  }
  for (const TaskPlan& tp : plan.tasks) {
    if (tp.reason) plan.schedulable = false;
  }
}

}  // namespace rtpar::analysis
