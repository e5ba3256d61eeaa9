// measured_profile.cpp — load_measured_profile: a run's online work/span, or what `rtpar profile`
// measured, read back for admission control (`rtpar check --measured REPORT`). Strict like the
// overhead profile (model/json_input.hpp): every field read is type- and range-checked and a bad
// one is an InputError naming the file and its JSON path ("tasks[2].work_ns.max"), exit status 2.
// Fields the planner does not read are left alone: a report.json carries many more.
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/checked_math.hpp"
#include "model/json_input.hpp"
#include "rtpar/error.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar {
namespace {

// max_of reads task.<key> as a distribution of non-negative integer ns and returns its "max"; the
// percentiles present must not exceed it (a report that says p99 > max is corrupt).
std::int64_t max_of(const model::JsonAt& task, const char* key) {
  const model::JsonAt dist = task.member(key);
  const std::int64_t max = dist.member("max").integer(0, kInt64Max, "ns");
  for (const char* p : {"p50", "p99"}) {
    if (dist.has(p) && dist.member(p).integer(0, kInt64Max, "ns") > max) {
      dist.member(p).fail("is above max");
    }
  }
  return max;
}

}  // namespace

MeasuredProfile load_measured_profile(const std::string& path) {
  const nlohmann::json doc = model::read_json_file(path, "run report");
  const model::JsonAt root{doc, path, ""};
  if (!doc.is_object() || !doc.contains("tasks")) {
    root.fail("expected a run report with \"tasks\" (rtpar run --out DIR writes DIR/report.json)");
  }
  MeasuredProfile profile;
  profile.source = path;
  const model::JsonAt tasks = root.member("tasks");
  const std::size_t n = tasks.array_size(0);
  std::vector<std::size_t> index;  // tasks[index[k]] is profile.tasks[k]
  for (std::size_t i = 0; i < n; ++i) {
    const model::JsonAt task = tasks.element(i);
    const std::string name = task.member("name").string(true);
    MeasuredTask m;
    m.name = name;
    // runtime = "steal" (rtpar run and rtpar profile): the online work and burdened span.
    if (task.has("burdened_span_ns")) {
      m.jobs = task.member("profiled_jobs").integer(0, kInt64Max);
      m.work_max_ns = max_of(task, "work_ns");
      m.burdened_span_max_ns = max_of(task, "burdened_span_ns");
    }
    // rtpar profile: CPU time per job alone on one core (any task).
    if (task.has("cpu_work_ns")) {
      m.cpu_jobs = task.member("cpu_jobs").integer(0, kInt64Max);
      m.cpu_work_max_ns = max_of(task, "cpu_work_ns");
    }
    // rtpar profile, team tasks: the response on the planned team, an upper bound of the span.
    if (task.has("span_bound_ns")) {
      m.span_jobs = task.member("jobs").integer(0, kInt64Max);
      m.span_bound_max_ns = max_of(task, "span_bound_ns");
    }
    // Measured nothing (or a task of a run report that measures nothing): the declared values
    // stand.
    if (m.jobs == 0 && m.cpu_jobs == 0 && m.span_jobs == 0) continue;
    for (std::size_t k = 0; k < profile.tasks.size(); ++k) {
      if (profile.tasks[k].name != m.name) continue;
      task.member("name").fail(fmt::format(
          "task '{}' is measured twice (also tasks[{}]): which measurement to use is ambiguous",
          m.name, index[k]));
    }
    profile.tasks.push_back(std::move(m));
    index.push_back(i);
  }
  if (profile.tasks.empty()) {
    tasks.fail(
        "no task has a measurement (profiled_jobs > 0 and burdened_span_ns: a run of "
        "runtime = \"steal\" tasks; cpu_jobs > 0 and cpu_work_ns, or jobs > 0 and "
        "span_bound_ns: rtpar profile --out), so --measured would change nothing");
  }
  return profile;
}

}  // namespace rtpar
