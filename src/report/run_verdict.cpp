// run_verdict.cpp — run_verdict (run_verdict.hpp).
#include "report/run_verdict.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "model/chain_measure.hpp"
#include "rtpar/time.hpp"

namespace rtpar::report {

namespace {

// bound_for is the plan's response bound of the task named `name` (nullopt: none).
std::optional<std::int64_t> bound_for(const Plan& plan, const std::string& name) {
  for (const TaskPlan& tp : plan.tasks) {
    if (tp.name == name) return tp.response_bound_ns;
  }
  return std::nullopt;
}

// ms renders a duration compactly for the verdict line.
std::string ms(std::int64_t ns) { return format_duration(Duration(ns), 3); }

}  // namespace

RunVerdict run_verdict(const RunReport& report) {
  RunVerdict v;
  v.misses = report.total_misses();
  v.hold_overruns = report.total_hold_overruns();
  v.chains_exceeding = model::chains_exceeding(report.chains);
  std::int64_t worst_excess = 0;
  std::string worst_task;
  std::int64_t late_over = 0;     // over-bound jobs whose start lateness covers the excess
  std::int64_t max_lateness = 0;  // the largest start lateness of an over-bound job
  std::vector<std::string> overran;
  for (const TaskRun& run : report.tasks) {
    v.jobs += static_cast<std::int64_t>(run.records.size());
    if (run.overruns > 0) overran.push_back(fmt::format("'{}' ×{}", run.name, run.overruns));
    const std::optional<std::int64_t> bound = bound_for(report.plan, run.name);
    if (!bound) continue;
    for (const JobRecord& r : run.records) {
      const std::int64_t response = r.finish_ns - r.release_ns;
      if (response <= *bound) continue;
      ++v.over_bound;
      const std::int64_t excess = response - *bound;
      const std::int64_t lateness = std::max<std::int64_t>(0, r.start_ns - r.release_ns);
      if (lateness >= excess) ++late_over;
      max_lateness = std::max(max_lateness, lateness);
      if (excess > worst_excess) {
        worst_excess = excess;
        worst_task = run.name;
      }
    }
  }
  const bool any =
      v.misses > 0 || v.over_bound > 0 || v.hold_overruns > 0 || v.chains_exceeding > 0;
  if (report.best_effort) {
    v.promised = false;
    // SCHED_OTHER: the plan's bounds assume real-time scheduling, so nothing was promised.
    v.line = fmt::format(
        "verdict: no real-time promise (--best-effort): {} jobs, {} misses, {} over their bound\n",
        v.jobs, v.misses, v.over_bound);
    return v;
  }
  v.broken = any;
  std::vector<std::string> causes;
  if (v.broken) {
    if (!overran.empty()) {
      causes.push_back(
          fmt::format("overrun: task {} used more than its budget", fmt::join(overran, ", ")));
    }
    if (report.host_steal_ns && *report.host_steal_ns > 0) {
      causes.push_back(
          fmt::format("host stall: the hypervisor stole {} from the real-time cores "
                      "(/proc/stat steal)",
                      ms(*report.host_steal_ns)));
    }
    if (late_over > 0) {
      causes.push_back(fmt::format(
          "release latency: {} of the {} jobs over their bound started late by more than their "
          "excess (up to {}){}",
          late_over, v.over_bound, ms(max_lateness),
          report.overhead_profile.empty()
              ? ", and no overhead profile was charged: measure it once with `rtpar calibrate`"
              : ""));
    }
    if (causes.empty()) causes.push_back("not identified (see the tables above)");
  }
  v.cause = fmt::format("{}", fmt::join(causes, "; "));
  if (!v.broken) {
    v.line =
        fmt::format("verdict: promise kept: {} jobs, 0 misses, every response within its bound{}\n",
                    v.jobs, report.plan.chains.empty() ? "" : ", every chain within its bounds");
    return v;
  }
  std::vector<std::string> what;
  if (v.misses > 0) what.push_back(fmt::format("{} deadline misses", v.misses));
  if (v.over_bound > 0) {
    what.push_back(fmt::format("{} of {} jobs over their response bound (worst +{}, task '{}')",
                               v.over_bound, v.jobs, ms(worst_excess), worst_task));
  }
  if (v.hold_overruns > 0) what.push_back(fmt::format("{} lock hold overruns", v.hold_overruns));
  if (v.chains_exceeding > 0) {
    what.push_back(fmt::format("{} chains above their bounds", v.chains_exceeding));
  }
  v.line = fmt::format("verdict: PROMISE BROKEN: {}; likely cause: {}\n", fmt::join(what, ", "),
                       v.cause);
  return v;
}

nlohmann::ordered_json run_verdict_json(const RunVerdict& verdict) {
  return {{"promised", verdict.promised},
          {"promise_kept", !verdict.broken},
          {"jobs", verdict.jobs},
          {"misses", verdict.misses},
          {"over_bound", verdict.over_bound},
          {"hold_overruns", verdict.hold_overruns},
          {"chains_exceeding", verdict.chains_exceeding},
          {"cause", verdict.cause.empty() ? nlohmann::ordered_json(nullptr)
                                          : nlohmann::ordered_json(verdict.cause)}};
}

}  // namespace rtpar::report
