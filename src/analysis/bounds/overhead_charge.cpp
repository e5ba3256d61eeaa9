// overhead_charge.cpp — see overhead_charge.hpp.
#include "analysis/bounds/overhead_charge.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "analysis/bounds/stages.hpp"
#include "core/checked_math.hpp"
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

namespace rtpar::analysis {
namespace {

// entries_of is the profile's array for `kind`.
const std::vector<ForkJoinCost>& entries_of(const OverheadProfile& profile, OverheadKind kind) {
  switch (kind) {
    case OverheadKind::release:
      return profile.release;
    case OverheadKind::barrier:
      return profile.barrier;
    case OverheadKind::fork_join:
      break;
  }
  return profile.fork_join;
}

// bound_of applies the profile's rule for `kind` to one team size.
std::optional<ForkJoinCharge> bound_of(const OverheadProfile& profile, OverheadKind kind, int n,
                                       WaitKind wait) {
  switch (kind) {
    case OverheadKind::release:
      return profile.release_bound(n, wait);
    case OverheadKind::barrier:
      return profile.barrier_bound(n, wait);
    case OverheadKind::fork_join:
      break;
  }
  return profile.fork_join_bound(n, wait);
}

// kind_name is the array's JSON name (the field an error names) and what it measures.
const char* kind_name(OverheadKind kind) {
  switch (kind) {
    case OverheadKind::release:
      return "release";
    case OverheadKind::barrier:
      return "barrier";
    case OverheadKind::fork_join:
      break;
  }
  return "fork_join";
}

}  // namespace

std::string profile_name(const OverheadProfile& profile) {
  return profile.source.empty() ? "the overhead profile" : profile.source;
}

ForkJoinCharge overhead_up_to(const OverheadProfile& profile, OverheadKind kind, int threads,
                              WaitKind wait, const std::string& task) {
  const int lowest = kind == OverheadKind::release ? 1 : 2;
  if (threads < lowest) return ForkJoinCharge{0, threads, false};
  // The sizes where the rule's value can change below `threads`: every measured size (the rule
  // takes the nearest larger one) and `threads` itself; above the largest measured size the
  // extrapolation grows with the size, so `threads` covers that range.
  std::set<int> sizes{threads};
  for (const ForkJoinCost& c : entries_of(profile, kind)) {
    if (c.wait == wait && c.threads >= lowest && c.threads < threads) sizes.insert(c.threads);
  }
  ForkJoinCharge worst{0, 0, false};
  for (const int n : sizes) {
    const std::optional<ForkJoinCharge> b = bound_of(profile, kind, n, wait);
    if (!b) {
      throw InputError(
          SourceLocation{profile.source.empty() ? "overhead profile" : profile.source, 0, 0},
          kind_name(kind),
          fmt::format("cannot bound the {} cost of task '{}' on {} threads: no entry with wait = "
                      "\"{}\"{} (`rtpar calibrate` measures release, fork_join and barrier for "
                      "every policy)",
                      kind_name(kind), task, n, to_string(wait),
                      kind == OverheadKind::release ? "" : " and 2 threads or more"));
    }
    if (b->ns >= worst.ns) {
      worst.ns = b->ns;
      worst.measured_threads = b->measured_threads;
    }
    worst.extrapolated = worst.extrapolated || b->extrapolated;
  }
  return worst;
}

std::int64_t parallel_regions(const TaskSpec& task) {
  if (task.work == task.span) return 0;
  std::string why;
  const auto stages = stages_of(task, why);
  if (!stages) return 1;  // parallel without structure: one region per job
  const auto regions = std::count_if(stages->begin(), stages->end(),
                                     [](const SegmentSpec& s) { return s.strands > 1; });
  return std::max<std::int64_t>(1, regions);
}

std::int64_t budget_charge(const OverheadProfile& profile, const SystemSpec& system,
                           const TaskSpec& task, int team) {
  const BudgetMode mode = task.budget ? *task.budget : system.budget.value_or(BudgetMode::enforce);
  // A profile without budget costs charges none, as one without `release` charges no release
  // latency: the plan's notes say so (budget_charge_note).
  if (mode == BudgetMode::none || !profile.budget_job) return 0;
  if (team > 1) {
    // A fork/join team of more than one thread (federated heavy) runs in monitor: its members
    // arm their own timers, the master before the job and each worker before its first region
    // of it (in parallel), so the job's path holds two arms. A steal pool runs in monitor too:
    // the master's measurement once per job and, per pool run, a worker's clock reads on joining
    // and leaving it (StealBudgets; the run's end waits for the last worker's), so 1 + regions
    // arms. A kernel's own (OpenMP) team is budgeted as a fork/join team: the master before the
    // job, each worker of its team before its first region of it (rtpar_omp_bind's hooks).
    if (task.runtime == RuntimeKind::steal) {
      return sat_mul(profile.budget_job->p999_ns, sat_add(1, parallel_regions(task)));
    }
    return sat_mul(profile.budget_job->p999_ns, 2);
  }
  std::int64_t ns = profile.budget_job->p999_ns;
  if (mode == BudgetMode::enforce) {
    ns = sat_add(ns, profile.budget_demotion ? profile.budget_demotion->p999_ns : 0);
    ns = sat_add(ns, system.budget_margin.count());
  }
  return ns;
}

JobCharge job_charge(const OverheadProfile& profile, const TaskSpec& task, int team,
                     const SystemSpec* system) {
  JobCharge c;
  c.team = std::max(1, team);
  if (system != nullptr) c.budget_ns = budget_charge(profile, *system, task, c.team);
  const ForkJoinCharge release =
      overhead_up_to(profile, OverheadKind::release, c.team, task.wait.kind, task.name);
  c.release_ns = release.ns;
  c.extrapolated = release.extrapolated;
  if (c.team > 1) {
    c.regions = parallel_regions(task);
    if (c.regions > 0) {
      const ForkJoinCharge fork =
          overhead_up_to(profile, OverheadKind::fork_join, c.team, task.wait.kind, task.name);
      c.fork_ns = fork.ns;
      c.extrapolated = c.extrapolated || fork.extrapolated;
    }
  }
  const auto forks = checked_mul(c.regions, c.fork_ns);
  const auto fixed = forks ? checked_add(c.release_ns, *forks) : std::nullopt;
  c.total_ns = fixed ? checked_add(*fixed, c.budget_ns) : std::nullopt;
  return c;
}

TaskSpec charged_task(const TaskSpec& task, const JobCharge& charge) {
  TaskSpec out = task;
  const auto work = charge.total_ns ? checked_add(task.work.count(), *charge.total_ns)
                                    : std::optional<std::int64_t>{};
  const auto span = charge.total_ns ? checked_add(task.span.count(), *charge.total_ns)
                                    : std::optional<std::int64_t>{};
  out.work = Duration(work && span ? *work : kInt64Max);
  out.span = Duration(work && span ? *span : kInt64Max);
  if (out.work != task.work || out.span != task.span) {
    out.segments.clear();
    out.dag.reset();
  }
  return out;
}

std::string job_charge_note(const TaskSpec& task, const JobCharge& charge,
                            const OverheadProfile& profile) {
  std::string forks = charge.regions > 0 ? fmt::format(" + {} fork/join × {}", charge.regions,
                                                       format_duration(Duration(charge.fork_ns)))
                                         : std::string();
  if (charge.budget_ns > 0) {
    forks += fmt::format(" + budget {}", format_duration(Duration(charge.budget_ns)));
  }
  return fmt::format(
      "overhead: task '{}' charged release {}{} = {} on C and L (team of {}{}, wait = {}, from {}; "
      "docs/analysis.md \"Overhead profiles\")",
      task.name, format_duration(Duration(charge.release_ns)), forks,
      charge.total_ns ? format_duration(Duration(*charge.total_ns))
                      : std::string("more than 2^63 ns (not admitted)"),
      charge.team, charge.extrapolated ? ", extrapolated above the largest measured team" : "",
      to_string(task.wait.kind), profile_name(profile));
}

SegmentCharge segment_charge(const OverheadProfile& profile, const TaskSpec& task, int team,
                             const SystemSpec* system) {
  SegmentCharge c;
  c.team = std::max(1, team);
  // Every member thread has a budget of its own (strand_runner.cpp), one per job: charged on
  // every strand, since which strand a member runs first is not fixed here.
  if (system != nullptr) c.budget_ns = budget_charge(profile, *system, task, 1);
  // Each member sleeps on its own timer until its segment's release (the strand dispatcher does
  // not fork): one thread's release latency, Λ(1).
  const ForkJoinCharge release =
      overhead_up_to(profile, OverheadKind::release, 1, task.wait.kind, task.name);
  const ForkJoinCharge barrier =
      overhead_up_to(profile, OverheadKind::barrier, c.team, task.wait.kind, task.name);
  c.release_ns = release.ns;
  c.barrier_ns = barrier.ns;
  c.extrapolated = release.extrapolated || barrier.extrapolated;
  return c;
}

std::optional<std::vector<SegmentSpec>> charged_segments(const std::vector<SegmentSpec>& segments,
                                                         const SegmentCharge& charge) {
  std::vector<SegmentSpec> out = segments;
  for (std::size_t j = 0; j < out.size(); ++j) {
    const auto fixed = checked_add(charge.release_ns, charge.budget_ns);
    const auto added = fixed ? checked_add(*fixed, j > 0 ? charge.barrier_ns : 0) : std::nullopt;
    const auto length = added ? checked_add(out[j].length.count(), *added) : std::nullopt;
    if (!length) return std::nullopt;
    out[j].length = Duration(*length);
  }
  return out;
}

std::string segment_charge_note(const TaskSpec& task, std::size_t segments,
                                const SegmentCharge& charge, const OverheadProfile& profile) {
  return fmt::format(
      "overhead: task '{}' charged release {}{} on each of its {} segment(s) + barrier {} on "
      "each after the first, on every strand (release of one member, barrier of a team of {}{}, "
      "wait = {}, from {}; RT-OpenMP §VI-B, docs/analysis.md \"Overhead profiles\")",
      task.name, format_duration(Duration(charge.release_ns)),
      charge.budget_ns > 0
          ? fmt::format(" + budget {}", format_duration(Duration(charge.budget_ns)))
          : std::string(),
      segments, format_duration(Duration(charge.barrier_ns)), charge.team,
      charge.extrapolated ? ", extrapolated above the largest measured team" : "",
      to_string(task.wait.kind), profile_name(profile));
}

}  // namespace rtpar::analysis
