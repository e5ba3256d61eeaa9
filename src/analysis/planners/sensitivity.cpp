// sensitivity.cpp — analyse_sensitivity (rtpar/tools/planners.hpp): the critical scaling factor
// of each task's C, and of all of them together, for one planner; docs/analysis.md "Sensitivity".
#include "analysis/planners/sensitivity.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analysis/planners/measured_inputs.hpp"
#include "analysis/planners/sensitivity_search.hpp"
#include "core/checked_math.hpp"
#include "core/names.hpp"
#include "model/structure.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

namespace {

// scaled is ⌈d·factor/10^6⌉, or nullopt when it does not fit in int64 (d < 2^63 and factor ≤
// kSensitivityMaxFactor < 2^40, so the product is exact in 128 bits).
std::optional<Duration> scaled(Duration d, std::int64_t factor) {
  const auto v = checked_narrow(ceil_div(static_cast<__int128>(d.count()) * factor,
                                         static_cast<__int128>(kSensitivityScale)));
  if (!v) return std::nullopt;
  return Duration(*v);
}

// planner_name is the planner's name as the file spells it, for the monotonicity sentences.
std::string planner_name(PlannerKind planner) {
  return std::string(names::name_of(names::kPlanners, planner));
}

// measured_applied is `set` with options.measured applied the way plan_with applies it for
// `planner` (the structure scaled for the planners that place it, dropped for the others), so
// that the search scales the C and L the planner really analyses.
TaskSet measured_applied(PlannerKind planner, const TaskSet& set, const PlanOptions& options) {
  if (options.measured == nullptr) return set;
  const StructureRule rule =
      planner == PlannerKind::decomposition || planner == PlannerKind::fork_join_rta
          ? StructureRule::scale
          : StructureRule::drop;
  std::vector<std::string> notes;  // plan_with states them in the plan itself
  return with_measured(set, *options.measured, rule, notes);
}

}  // namespace

std::optional<TaskSpec> scaled_task(const TaskSpec& task, std::int64_t factor) {
  TaskSpec out = task;
  if (!out.segments.empty()) {
    for (SegmentSpec& s : out.segments) {
      const auto length = scaled(s.length, factor);
      if (!length) return std::nullopt;
      s.length = *length;
    }
    out.work = model::segments_work(out.segments);
    out.span = model::segments_span(out.segments);
  } else if (out.dag) {
    for (DagNode& n : out.dag->nodes) {
      const auto length = scaled(n.length, factor);
      if (!length) return std::nullopt;
      n.length = *length;
    }
    out.work = model::dag_work(*out.dag);
    out.span = model::dag_span(*out.dag);
  } else {
    const auto work = scaled(task.work, factor);
    const auto span = scaled(task.span, factor);
    if (!work || !span) return std::nullopt;
    out.work = *work;
    out.span = *span;
  }
  // The structure's sums saturate at the largest Duration rather than overflow (structure.hpp).
  if (out.work == Duration::max() || out.span == Duration::max()) return std::nullopt;
  return out;
}

std::int64_t span_limit(const TaskSpec& task) {
  const __int128 l = std::max<std::int64_t>(task.span.count(), 1);
  return sat_narrow(static_cast<__int128>(task.deadline.count()) * kSensitivityScale / l + 1);
}

MonotoneVerdict monotone_in_work(PlannerKind planner) {
  const std::string name = planner_name(planner);
  switch (planner) {
    case PlannerKind::partitioned:
      return {true, name +
                        " is monotone in C: the file fixes every task's places and priority, "
                        "and each of its tests (response-time bounds, EDF demand) only grows "
                        "with each C"};
    case PlannerKind::federated:
    case PlannerKind::federated_ws:
      return {false, name +
                         " is not monotone in C: light tasks are placed by first-fit in "
                         "decreasing utilization, a bin-packing heuristic whose packing can "
                         "improve when a C grows, and a task turns heavy when its C exceeds D"};
    case PlannerKind::decomposition:
      return {false, name +
                         " is not monotone in C: strands are packed by a first-fit heuristic "
                         "(system.fit) whose packing can improve when a C grows"};
    case PlannerKind::fork_join_rta:
      return {false, name +
                         " is not monotone in C: each task's cores are chosen greedily from "
                         "the load of the tasks placed before it, so a larger C elsewhere can "
                         "lead to a better placement"};
  }
  return {false, name + " is not known to be monotone in C"};
}

}  // namespace rtpar::analysis

namespace rtpar {

Sensitivity analyse_sensitivity(PlannerKind planner, const TaskSet& set,
                                const PlanOptions& options) {
  Sensitivity out;
  out.planner = planner;
  const analysis::MonotoneVerdict verdict = analysis::monotone_in_work(planner);
  out.monotone = verdict.monotone;
  out.monotonicity = verdict.why;
  out.grid_points = verdict.monotone ? 0 : analysis::kSensitivityGridPoints - 1;

  // The measured values are applied once, here; every probe then plans without them.
  const TaskSet base = analysis::measured_applied(planner, set, options);
  PlanOptions rest = options;
  rest.measured = nullptr;
  const Plan plan = plan_with(planner, base, rest);
  out.admitted = plan.schedulable;

  // margin searches the factor of the tasks `targets`: each probe plans a copy of `base` in
  // which only those tasks are scaled (×1 is the plan above).
  auto margin = [&](const std::vector<std::size_t>& targets) {
    analysis::SearchInput input;
    input.monotone = verdict.monotone;
    input.limit = analysis::kSensitivityMaxFactor;
    for (const std::size_t i : targets) {
      input.limit = std::min(input.limit, analysis::span_limit(base.tasks[i]));
    }
    TaskSet scaled = base;
    auto admits = [&](std::int64_t factor) {
      if (factor == kSensitivityScale) return plan.schedulable;
      for (const std::size_t i : targets) {
        std::optional<TaskSpec> task = analysis::scaled_task(base.tasks[i], factor);
        if (!task) return false;  // C or L beyond 2^63 ns: no planner admits it
        scaled.tasks[i] = std::move(*task);
      }
      return plan_with(planner, scaled, rest).schedulable;
    };
    return analysis::search_margin(admits, input);
  };

  std::vector<std::size_t> every;
  for (std::size_t i = 0; i < base.tasks.size(); ++i) {
    const TaskSpec& spec = base.tasks[i];
    TaskSensitivity t;
    t.name = spec.name;
    t.work = margin({i});
    if (t.work.admitted) {
      if (const auto at = analysis::scaled_task(spec, *t.work.admitted)) {
        t.work_at_factor_ns = at->work.count();
      }
    }
    if (i < plan.tasks.size() && !plan.tasks[i].reason && plan.tasks[i].response_bound_ns) {
      const std::int64_t r = *plan.tasks[i].response_bound_ns;
      t.slack_ns = spec.deadline.count() - r;
      t.response_ratio = static_cast<double>(r) / static_cast<double>(spec.deadline.count());
    }
    out.tasks.push_back(std::move(t));
    every.push_back(i);
  }
  out.all = margin(every);
  return out;
}

}  // namespace rtpar
