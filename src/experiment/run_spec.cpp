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
  return s;
}

std::string describe(const RunSpec& run) {
  std::string out = run.admission ? "runs if admitted, " : "runs whatever the planner says, ";
  out += format_duration(Duration(run.duration_ns));
  out += run.best_effort ? " best effort (SCHED_OTHER)" : " at SCHED_FIFO";
  out += run.cpu_latency_us >= 0 ? fmt::format(", CPU latency cap {} µs", run.cpu_latency_us)
                                 : ", no CPU latency cap";
  return out;
}

}  // namespace rtpar::experiment
