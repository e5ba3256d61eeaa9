// measured.cpp — see measured.hpp.
#include "analysis/planners/measured_inputs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "rtpar/time.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

TaskSet with_measured(const TaskSet& set, const MeasuredProfile& measured,
                      std::vector<std::string>& notes) {
  TaskSet out = set;
  for (const MeasuredTask& m : measured.tasks) {
    auto it = std::find_if(out.tasks.begin(), out.tasks.end(),
                           [&](const TaskSpec& t) { return t.name == m.name; });
    if (it == out.tasks.end()) {
      notes.push_back(fmt::format("{}: measured task '{}' is not in this task set (ignored)",
                                  measured.source, m.name));
      continue;
    }
    const Duration span{std::max(it->span.count(), m.burdened_span_max_ns)};
    // Work is at least the span. A measured span above the measured work means the job was
    // preempted while on its critical path (the measurement is wall-clock: best effort, or other
    // threads on its cores); C then takes the span so the set stays consistent (L ≤ C).
    const Duration work{std::max({it->work.count(), m.work_max_ns, span.count()})};
    notes.push_back(fmt::format(
        "{}: C = max(declared {}, measured work {}) = {}; L̂ = max(declared L {}, measured "
        "burdened span {}) = {} (max over {} jobs of {})",
        it->name, format_duration(it->work), format_duration(Duration(m.work_max_ns)),
        format_duration(work), format_duration(it->span),
        format_duration(Duration(m.burdened_span_max_ns)), format_duration(span), m.jobs,
        measured.source));
    // federated-ws sizes a task with C and L̂ alone. A task with a structure ([[task.segment]],
    // the segments kernel, [[task.node]]) would now disagree with it (the model requires C and L
    // to equal the structure's sums) and be refused as bad input, so the copy drops the structure.
    if ((work != it->work || span != it->span) && (!it->segments.empty() || it->dag)) {
      it->segments.clear();
      it->dag.reset();
    }
    it->work = work;
    it->span = span;
  }
  return out;
}

}  // namespace rtpar::analysis
