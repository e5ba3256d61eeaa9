// fork_join_charge.cpp — see fork_join_charge.hpp.
#include "analysis/planners/fork_join_charge.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "analysis/bounds/overhead_charge.hpp"
#include "core/checked_math.hpp"
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

namespace rtpar::analysis {

FjCharge fj_charge_for(const TaskSet& set, const TaskSpec& task, const PlanOptions& options,
                       std::int64_t n) {
  FjCharge c;
  c.ns = task.span == task.work ? 0 : set.system.fork_join_overhead.count();
  if (options.overhead == nullptr) return c;
  c.release_ns =
      overhead_up_to(*options.overhead, OverheadKind::release,
                     static_cast<int>(std::max<std::int64_t>(n, 1)), task.wait.kind, task.name)
          .ns;
  if (n <= 1) return c;
  c.measured = options.overhead->fork_join_bound(static_cast<int>(n), task.wait.kind);
  if (!c.measured) {
    const std::string file =
        options.overhead->source.empty() ? "overhead profile" : options.overhead->source;
    throw InputError(SourceLocation{file, 0, 0}, "fork_join",
                     fmt::format("cannot bound the fork/join cost of task '{}' on {} threads: no "
                                 "entry with wait = \"{}\" and 2 threads or more (`rtpar "
                                 "calibrate` measures every policy)",
                                 task.name, n, to_string(task.wait.kind)));
  }
  c.ns = c.measured->ns;
  return c;
}

std::string fj_charge_note(const TaskSpec& task, std::int64_t n, const FjCharge& charge,
                           const OverheadProfile& profile) {
  return fmt::format(
      "overhead: task '{}' charged release {} on each aggregate strand of its first stage + "
      "fork/join {} on each aggregate strand of a stage on more than one core (team of {}, wait "
      "= {}, from {}; fjos.md §VI, docs/analysis.md \"Overhead profiles\")",
      task.name, format_duration(Duration(charge.release_ns)),
      format_duration(Duration(n > 1 ? charge.ns : 0)), n, to_string(task.wait.kind),
      profile_name(profile));
}

std::optional<FjTask> with_release(std::optional<FjTask> t, std::int64_t release) {
  if (!t || t->stages.empty() || release == 0) return t;
  for (FjGroup& g : t->stages.front().groups) {
    const auto wcet = checked_add(g.wcet, release);
    if (!wcet) return std::nullopt;
    g.wcet = *wcet;
  }
  return t;
}

std::string fj_extrapolation_note(const TaskSpec& task, std::int64_t n, const ForkJoinCharge& m,
                                  const OverheadProfile& profile) {
  return fmt::format(
      "{}: fork/join cost of a team of {} ({}) extrapolated from the largest measured team ({} "
      "threads) of {}: {} charged per fork (docs/analysis.md, \"Overhead profiles\")",
      task.name, n, to_string(task.wait.kind), m.measured_threads,
      profile.source.empty() ? "the overhead profile" : profile.source,
      format_duration(Duration(m.ns)));
}

}  // namespace rtpar::analysis
