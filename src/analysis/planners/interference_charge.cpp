// interference_charge.cpp — see interference_charge.hpp.
#include "analysis/planners/interference_charge.hpp"

#include <string>

#include <fmt/format.h>

#include "analysis/bounds/supply_server.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar::analysis {
namespace {

// server_text renders the charged server for reasons and notes.
std::string server_text(const PeriodicServer& s) {
  return fmt::format("{} every {}{}", format_duration(Duration(s.budget_ns), 3),
                     format_duration(Duration(s.period_ns), 3),
                     s.deferred ? "" : " (in every window of that length)");
}

// source_text says where the charged server comes from: the kernel's interference (as read),
// the overhead profile's supply loss, or both.
std::string source_text(const PeriodicServer& s, const PlanOptions& options) {
  const bool kernel = options.interference.state == "charged" && options.interference.budget_ns > 0;
  const std::string profile = options.overhead != nullptr && !options.overhead->source.empty()
                                  ? options.overhead->source
                                  : std::string("the overhead profile");
  std::string supply =
      fmt::format("{}'s supply entries, docs/analysis.md \"Supply loss\"", profile);
  if (s.deferred) return options.interference.source;
  if (!kernel) return supply;
  return fmt::format("{}; {}", options.interference.source, supply);
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

}  // namespace

std::optional<PeriodicServer> charged_server(const PlanOptions& options, const TaskSet& set) {
  const KernelInterference& k = options.interference;
  std::optional<PeriodicServer> kernel;
  if (k.state == "charged" && k.budget_ns > 0 && k.period_ns >= k.budget_ns) {
    kernel = PeriodicServer{k.budget_ns, k.period_ns};
  }
  const std::optional<PeriodicServer> supply =
      options.overhead != nullptr ? supply_server(*options.overhead, set) : std::nullopt;
  return combined_server(kernel, supply);
}

void charge_interference(Plan& plan, const TaskSet& set, const PlanOptions& options) {
  plan.interference = options.interference;
  if (options.overhead != nullptr) {
    if (const auto loss = supply_server(*options.overhead, set)) {
      plan.supply = SupplyCharge{loss->budget_ns, loss->period_ns, options.overhead->source};
    }
  }
  const std::optional<PeriodicServer> server = charged_server(options, set);
  if (!server) return;
  const std::string kind = server->deferred ? "kernel interference" : "interference";
  const std::string source = source_text(*server, options);
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
      // The light tasks were placed with the server above them (plan_federated_family).
      plan.notes.push_back(fmt::format(
          "{} charged: {} of {} per core above every task ({}); light tasks were placed by "
          "first-fit with it",
          kind, server->what, server_text(*server), source));
      break;
    }
    case PlannerKind::partitioned:
      plan.notes.push_back(fmt::format("{} charged: {} of {} on each core of every task ({})", kind,
                                       server->what, server_text(*server), source));
      break;
    case PlannerKind::decomposition:
      plan.notes.push_back(fmt::format(
          "{} charged: {} of {} on each core, its I(d) in every strand's load condition ({})", kind,
          server->what, server_text(*server), source));
      break;
    case PlannerKind::fork_join_rta:
      plan.notes.push_back(fmt::format(
          "{} charged: {} of {} on each core, above every task in the fork/join RTA ({})", kind,
          server->what, server_text(*server), source));
      break;
  }
  for (const TaskPlan& tp : plan.tasks) {
    if (tp.reason) plan.schedulable = false;
  }
}

}  // namespace rtpar::analysis
