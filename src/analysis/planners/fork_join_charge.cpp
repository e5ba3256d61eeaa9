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
  // Each member thread has a budget of its own, one per job (strand_runner.cpp): charged with
  // the release, on the first stage's aggregate strands.
  c.release_ns = sat_add(c.release_ns, budget_charge(*options.overhead, set.system, task, 1));
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
      "= {}, from {}; FJOS §VI, docs/analysis.md \"Overhead profiles\")",
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

std::optional<FjTask> with_gate_spin(std::optional<FjTask> t, const WaitPolicy& wait) {
  if (!t || wait.kind == WaitKind::block) return t;
  for (std::size_t v = 1; v < t->stages.size(); ++v) {
    const std::vector<FjGroup>& before = t->stages[v - 1].groups;
    std::int64_t makespan = 0;
    for (const FjGroup& g : before) makespan = std::max(makespan, g.wcet);
    const std::int64_t spin = wait.kind == WaitKind::hybrid ? wait.spin_ns.count() : makespan;
    for (FjGroup& g : t->stages[v].groups) {
      const bool others = std::any_of(before.begin(), before.end(),
                                      [&g](const FjGroup& p) { return p.core != g.core; });
      g.spin = others ? spin : 0;
    }
  }
  return t;
}

std::optional<std::string> fj_spin_note(const TaskSpec& task, const FjTask& placed) {
  std::int64_t most = 0;
  std::int64_t waits = 0;
  for (const FjStage& stage : placed.stages) {
    for (const FjGroup& g : stage.groups) {
      most = std::max(most, g.spin);
      waits += g.spin > 0 ? 1 : 0;
    }
  }
  if (waits == 0) return std::nullopt;
  return fmt::format(
      "{}: its members' gate waits (wait = {}) spin up to {} at its priority before {} aggregate "
      "strand(s) per job, charged as interference on the tasks sharing those cores, at most until "
      "the previous stage's bound (docs/analysis/fork_join_rta.md, \"Waiting members\")",
      task.name, to_string(task.wait.kind), format_duration(Duration(most)), waits);
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
