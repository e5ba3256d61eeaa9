// run_spec.cpp — reading a series' run keys.
#include "experiment/run_spec.hpp"

#include <fmt/core.h>

#include <stdexcept>

#include "platform/cpu_latency.hpp"

namespace rtpar::experiment {

RunSpec read_run_spec(const model::TableReader& t) {
  RunSpec s;
  if (const toml::node* n = t.node("admission")) {
    if (!n->is_boolean()) t.fail(n, "admission", "expected true or false");
    s.admission = n->as_boolean()->get();
  }
  if (const std::optional<Duration> d = t.duration("duration")) {
    if (d->count() <= 0 || d->count() > kMaxRunDurationNs) {
      t.fail(t.node("duration"), "duration", "must be in (0, 10min]");
    }
    s.duration_ns = d->count();
  }
  if (const toml::node* n = t.node("cpu_latency")) {
    if (n->is_string() && n->as_string()->get() == "off") {
      s.cpu_latency_us = -1;
    } else {
      const std::optional<Duration> d = t.duration("cpu_latency");
      try {
        s.cpu_latency_us = detail::cpu_latency_us(d->count());
      } catch (const std::invalid_argument& e) {
        t.fail(n, "cpu_latency", std::string(e.what()) + " (or \"off\")");
      }
    }
  }
  if (const toml::node* n = t.node("best_effort")) {
    if (!n->is_boolean()) t.fail(n, "best_effort", "expected true or false");
    s.best_effort = n->as_boolean()->get();
  }
  if (const toml::node* n = t.node("baseline")) {
    if (!n->is_string() || n->as_string()->get() != kBaselineOpenmpTasks) {
      t.fail(n, "baseline", fmt::format("expected \"{}\"", kBaselineOpenmpTasks));
    }
    s.baseline = kBaselineOpenmpTasks;
    // The baseline has no admission control, no placement and no real-time priority: the keys
    // that say otherwise would be silently ignored, so they are refused.
    if (s.admission && t.node("admission") != nullptr) {
      t.fail(t.node("admission"), "admission", "a baseline series runs every set: leave it out");
    }
    if (t.node("best_effort") != nullptr || t.node("cpu_latency") != nullptr) {
      const char* key = t.node("best_effort") != nullptr ? "best_effort" : "cpu_latency";
      t.fail(t.node(key), key, "a baseline series runs at SCHED_OTHER without a latency cap");
    }
    s.admission = false;
    s.best_effort = true;
    s.cpu_latency_us = -1;
  }
  return s;
}

std::string describe(const RunSpec& run) {
  if (run.baseline == kBaselineOpenmpTasks) {
    return "runs every set as OpenMP tasks with loops and delays (libgomp, SCHED_OTHER, "
           "unpinned), " +
           format_duration(Duration(run.duration_ns));
  }
  std::string out = run.admission ? "runs if admitted, " : "runs whatever the planner says, ";
  out += format_duration(Duration(run.duration_ns));
  out += run.best_effort ? " best effort (SCHED_OTHER)" : " at SCHED_FIFO";
  out += run.cpu_latency_us >= 0 ? fmt::format(", CPU latency cap {} µs", run.cpu_latency_us)
                                 : ", no CPU latency cap";
  return out;
}

}  // namespace rtpar::experiment
