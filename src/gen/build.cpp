// build.cpp — task and system construction shared by the generators (build.hpp).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include "gen/build.hpp"

#include <cmath>
#include <utility>

#include "core/checked_math.hpp"
#include "core/names.hpp"
#include "model/structure.hpp"

namespace rtpar::gen {

SystemSpec count_system(int cores, int sockets, PlannerKind planner) {
  SystemSpec sys;
  sys.cores.reserve(static_cast<std::size_t>(cores));
  for (int c = 0; c < cores; ++c) sys.cores.push_back(c);
  sys.cores_from_count = true;
  sys.sockets = sockets;
  sys.planner = planner;
  return sys;
}

PlannerKind read_planner(const ParamReader& reader, std::string_view key) {
  std::vector<std::string_view> names;
  for (const auto& [name, kind] : names::kPlanners) names.push_back(name);
  return *names::value_of(names::kPlanners, reader.choice(key, names));
}

FitKind read_fit(const ParamReader& reader, std::string_view key) {
  std::vector<std::string_view> names;
  for (const auto& [name, kind] : names::kFits) names.push_back(name);
  return *names::value_of(names::kFits, reader.choice(key, names));
}

TaskSpec segment_task(std::string name, std::vector<SegmentSpec> segments) {
  TaskSpec t;
  t.name = std::move(name);
  t.segments = std::move(segments);
  t.work = model::segments_work(t.segments);
  t.span = model::segments_span(t.segments);
  t.kernel = "segments";
  t.kernel_spec.source = KernelSource::builtin;
  t.kernel_spec.name = "segments";
  return t;
}

TaskSpec spin_task(std::string name, Duration work, Duration span) {
  TaskSpec t;
  t.name = std::move(name);
  t.work = work;
  t.span = span;
  t.kernel = "spin";
  t.kernel_spec.source = KernelSource::builtin;
  t.kernel_spec.name = "spin";
  return t;
}

TaskSpec dag_task(std::string name, DagSpec dag) {
  TaskSpec t;
  t.name = std::move(name);
  t.dag = std::move(dag);
  t.work = model::dag_work(*t.dag);
  t.span = model::dag_span(*t.dag);
  return t;
}

std::optional<Duration> period_for(Duration work, double u) {
  const double exact = static_cast<double>(work.count()) / u;
  // 2^63 is exactly representable; anything at or above it does not fit.
  if (!(exact < 9223372036854775808.0)) return std::nullopt;
  auto p = static_cast<std::int64_t>(std::ceil(exact));
  if (p < 1) p = 1;
  while (static_cast<double>(work.count()) / static_cast<double>(p) > u) {
    const auto next = checked_add(p, 1);
    if (!next) return std::nullopt;
    p = *next;
  }
  return Duration(p);
}

std::string task_name(std::size_t index) { return "t" + std::to_string(index); }

TaskSet finish(TaskSet set, std::string_view family) {
  set.source = "<generated:" + std::string(family) + ">";
  try {
    validate_taskset(set);
  } catch (const InputError& e) {
    // Each family checks its parameters, so this is reached only at their extremes (a work that
    // overflows 63-bit ns, say): still bad input, named as such rather than a crash.
    throw InputError(
        {}, "generator",
        "the parameters of \"" + std::string(family) + "\" give an invalid task set: " + e.what());
  }
  return set;
}

}  // namespace rtpar::gen
