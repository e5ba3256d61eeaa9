// run_output.cpp — a RunReport for programs (`rtpar run --json`, report.json) and for people (the
// summary table printed when a run ends).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include "core/table.hpp"
#include "model/chain_measure.hpp"
#include "report/budget_output.hpp"
#include "report/interference_line.hpp"
#include "report/response_histogram.hpp"
#include "report/run_verdict.hpp"

#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar {
namespace {

// Json keeps keys in insertion order so documents read in the order docs/cli.md lists them.
using Json = nlohmann::ordered_json;

// bound_of is the plan's response bound of the task named `name`, if the plan gives one.
std::optional<std::int64_t> bound_of(const Plan& plan, const std::string& name) {
  for (const TaskPlan& tp : plan.tasks) {
    if (tp.name == name) return tp.response_bound_ns;
  }
  return std::nullopt;
}

// over_bound counts the recorded jobs whose response exceeded `bound` (none without a bound).
std::optional<std::int64_t> over_bound(const TaskRun& run, std::optional<std::int64_t> bound) {
  if (!bound) return std::nullopt;
  return std::count_if(run.records.begin(), run.records.end(),
                       [&](const JobRecord& r) { return r.finish_ns - r.release_ns > *bound; });
}

// task_stats_json is one entry of run_json's "tasks": the statistics of one task.
Json task_stats_json(const TaskStats& stats, const TaskRun& run, const Plan& plan) {
  const std::optional<std::int64_t> bound = bound_of(plan, run.name);
  const std::optional<std::int64_t> over = over_bound(run, bound);
  Json j = {
      {"name", stats.name},
      {"jobs", stats.jobs},
      {"misses", stats.misses},
      {"skipped", stats.skipped},
      {"miss_ratio", stats.miss_ratio},
      {"response_ns",
       {{"min", stats.response_min_ns},
        {"p50", stats.response_p50_ns},
        {"p99", stats.response_p99_ns},
        {"max", stats.response_max_ns}}},
      {"max_relative_response", stats.max_relative_response},
      // The plan's response bound (with what it charged: --overhead, --interference) and the
      // recorded jobs above it; null when the plan gives no bound.
      {"response_bound_ns", bound ? Json(*bound) : Json(nullptr)},
      {"over_bound", over ? Json(*over) : Json(nullptr)},
      {"records_truncated", run.records_truncated},
      // The recorded responses in log-spaced buckets (report/response_histogram.hpp).
      {"response_histogram", report::histogram_json(run)},
  };
  if (!run.failure.empty()) j["failure"] = run.failure;
  report::add_budget_json(j, run);
  if (run.profiled) {
    // The online measurement of runtime = "steal" (docs/internals/steal.md §5); `rtpar check
    // --measured` reads burdened_span_ns.max back into federated-ws.
    auto dist = [](const ProfileStats& p) {
      return Json{{"p50", p.p50_ns}, {"p99", p.p99_ns}, {"max", p.max_ns}};
    };
    j["profiled_jobs"] = stats.profiled_jobs;
    j["work_ns"] = dist(stats.work);
    j["span_ns"] = dist(stats.span);
    j["burdened_span_ns"] = dist(stats.burdened_span);
  }
  return j;
}

// locks_json lists each lock channel's protocol and its users' longest holds and waits.
Json locks_json(const RunReport& report) {
  Json locks = Json::array();
  for (const LockRun& lock : report.locks) {
    Json users = Json::array();
    for (const LockUserRun& u : lock.users) {
      users.push_back({{"task", u.task},
                       {"acquisitions", u.acquisitions},
                       {"max_hold_ns", u.max_hold_ns},
                       {"max_wait_ns", u.max_wait_ns},
                       {"hold_overruns", u.hold_overruns}});
    }
    locks.push_back({{"channel", lock.channel},
                     {"protocol", to_string(lock.protocol)},
                     {"declared_hold_ns", lock.declared_hold_ns},
                     {"users", std::move(users)}});
  }
  return locks;
}

// channels_json lists each channel's traffic (schema: docs/cli.md, "run --json").
Json channels_json(const RunReport& report) {
  Json out = Json::array();
  for (const ChannelRun& c : report.channels) {
    Json readers = Json::array();
    for (const ChannelReaderRun& r : c.readers) {
      readers.push_back({{"task", r.task},
                         {"reads", r.reads},
                         {"failed_reads", r.failed_reads},
                         {"tries", r.tries}});
    }
    out.push_back({{"name", c.channel},
                   {"kind", to_string(c.kind)},
                   {"writer", c.writer},
                   {"writes", c.writes},
                   {"readers", std::move(readers)}});
  }
  return out;
}

// channels_table lists each channel's writes and reads, and warns of a channel never written
// during the run (its readers read only the initial zeros: a writer that never writes it, or a
// kernel that does not use channels); empty without channels.
std::string channels_table(const RunReport& report) {
  if (report.channels.empty()) return {};
  std::vector<std::vector<std::string>> rows = {
      {"channel", "kind", "writer", "writes", "reader", "reads", "failed", "tries"}};
  std::string warnings;
  for (const ChannelRun& c : report.channels) {
    bool first = true;
    for (const ChannelReaderRun& r : c.readers) {
      rows.push_back({first ? c.channel : "", first ? to_string(c.kind) : "", first ? c.writer : "",
                      first ? fmt::format("{}", c.writes) : "", r.task, fmt::format("{}", r.reads),
                      fmt::format("{}", r.failed_reads), fmt::format("{}", r.tries)});
      first = false;
    }
    if (c.writes == 0) {
      warnings += fmt::format(
          "warning: channel '{}' was never written during the run: its readers read only the "
          "initial zeros (does '{}''s kernel write it? docs/taskset.md, \"Channels\")\n",
          c.channel, c.writer);
    }
  }
  return "\nchannels (this run's traffic)\n" +
         report::render_table(rows, {false, false, false, true, false, true, true, true}) +
         warnings;
}

// locks_table lists the lock channels' records and names every hold longer than declared (each
// breaks an assumption of the admission test, like a deadline miss); empty without locks.
std::string locks_table(const RunReport& report) {
  if (report.locks.empty()) return {};
  std::vector<std::vector<std::string>> rows = {
      {"lock", "protocol", "hold", "task", "accesses", "max hold", "max wait", "overruns"}};
  std::string named;
  for (const LockRun& lock : report.locks) {
    for (const LockUserRun& u : lock.users) {
      rows.push_back({lock.channel, to_string(lock.protocol),
                      lock.declared_hold_ns > 0
                          ? format_duration(Duration(lock.declared_hold_ns), 3)
                          : std::string("-"),
                      u.task, fmt::format("{}", u.acquisitions),
                      u.acquisitions > 0 ? format_duration(Duration(u.max_hold_ns), 3) : "-",
                      u.acquisitions > 0 ? format_duration(Duration(u.max_wait_ns), 3) : "-",
                      fmt::format("{}", u.hold_overruns)});
      if (u.hold_overruns > 0) {
        named += fmt::format(
            "HOLD OVERRUN: {} held channel '{}' longer than its declared hold {} in {} access{} "
            "(longest {}): the admission test's blocking bound does not cover this run\n",
            u.task, lock.channel, format_duration(Duration(lock.declared_hold_ns), 3),
            u.hold_overruns, u.hold_overruns == 1 ? "" : "es",
            format_duration(Duration(u.max_hold_ns), 3));
      }
    }
  }
  return "\nlocks (hold: declared; max hold/wait: measured, wall time)\n" +
         report::render_table(rows, {false, false, true, false, true, true, true, true}) + named;
}

// run_document builds the run_json object; report_json extends the same object so the two
// documents can never disagree on a statistic.
Json run_document(const RunReport& report) {
  const std::vector<TaskStats> stats = report.stats();
  Json tasks = Json::array();
  for (std::size_t i = 0; i < stats.size(); ++i) {
    tasks.push_back(task_stats_json(stats[i], report.tasks[i], report.plan));
  }
  return {
      {"duration_ns", report.duration_ns},
      {"best_effort", report.best_effort},
      {"interrupted", report.interrupted},
      // The CPU latency QoS cap held during the run (µs), null when none was held.
      {"cpu_latency_us", report.cpu_latency_us >= 0 ? Json(report.cpu_latency_us) : Json(nullptr)},
      {"tasks", std::move(tasks)},
      // The plan's kernel interference: what ran above the tasks, or what the run isolated.
      {"interference", Json::parse(plan_json(report.plan, TaskSet{}))["interference"]},
      {"channels", channels_json(report)},
      {"locks", locks_json(report)},
      {"total_hold_overruns", report.total_hold_overruns()},
      // Each chain's measured data age and reaction beside its bounds (origins stamped through
      // the channels: docs/analysis.md, "Cause-effect chains").
      {"chains", model::chain_measures_json(report.chains)},
      {"chains_exceeding", model::chains_exceeding(report.chains)},
      // What explains a broken bound: the profile charged, the host's steal time.
      {"overhead_profile",
       report.overhead_profile.empty() ? Json(nullptr) : Json(report.overhead_profile)},
      {"host_steal_ns", report.host_steal_ns ? Json(*report.host_steal_ns) : Json(nullptr)},
      // Whether the run kept the plan's promise, and the likely cause when not (docs/cli.md).
      {"verdict", report::run_verdict_json(report::run_verdict(report))},
  };
}

// profile_table lists the online work/span of the tasks that measure it (runtime = "steal"); empty
// when none does. Parallelism = work / span shows how many cores the job could use.
std::string profile_table(const std::vector<TaskStats>& stats, const std::vector<TaskRun>& runs) {
  std::vector<std::vector<std::string>> rows = {{"task", "jobs", "work p50", "work max", "span p50",
                                                 "span max", "burdened max", "parallelism"}};
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const TaskStats& s = stats[i];
    if (!runs[i].profiled || s.profiled_jobs == 0) continue;
    auto d = [](std::int64_t ns) { return format_duration(Duration(ns), 3); };
    rows.push_back({s.name, fmt::format("{}", s.profiled_jobs), d(s.work.p50_ns), d(s.work.max_ns),
                    d(s.span.p50_ns), d(s.span.max_ns), d(s.burdened_span.max_ns),
                    s.span.p50_ns > 0
                        ? fmt::format("{:.2f}", static_cast<double>(s.work.p50_ns) /
                                                    static_cast<double>(s.span.p50_ns))
                        : "-"});
  }
  if (rows.size() == 1) return {};
  return "\nwork and span (measured online, runtime = \"steal\")\n" +
         report::render_table(rows, {false, true, true, true, true, true, true, true});
}

}  // namespace

std::string run_json(const RunReport& report) { return run_document(report).dump(2); }

std::string report_json(const RunReport& report) {
  Json doc = run_document(report);
  for (std::size_t i = 0; i < report.tasks.size(); ++i) {
    const TaskRun& run = report.tasks[i];
    Json& task = doc["tasks"][i];
    task["cores"] = run.cores;
    task["master_tid"] = run.master_tid;
    task["worker_tids"] = run.worker_tids;
    task["period_ns"] = run.period_ns;
    task["deadline_ns"] = run.deadline_ns;
  }
  doc["start_ns"] = report.start_ns;
  doc["memory_locked"] = report.memory_locked;
  doc["total_misses"] = report.total_misses();
  // The report has no TaskSet, so the plan goes through the public plan_json with an empty one:
  // the plan's own fields are all there and the per-task C/L/D/T extras are simply omitted
  // (D and T are in "tasks" above).
  doc["plan"] = Json::parse(plan_json(report.plan, TaskSet{}));
  return doc.dump(2);
}

std::string stats_table(const RunReport& report) {
  return stats_table(report, TableDetail::summary);
}

std::string stats_table(const RunReport& report, TableDetail detail) {
  const std::vector<TaskStats> stats = report.stats();
  std::string out;
  // Best effort comes first and loud: without SCHED_FIFO the numbers are not real-time evidence.
  if (report.best_effort) out += "*** BEST EFFORT (no real-time scheduling) ***\n";
  std::int64_t misses = 0;
  for (const TaskStats& s : stats) misses += s.misses;
  const std::int64_t overruns = report.total_hold_overruns();
  out += fmt::format(
      "run {}{}, {} task{}, {} deadline miss{}{}\n",
      format_duration(Duration(report.duration_ns), 3),
      report.interrupted ? " (interrupted: stopped early by a signal)" : "", stats.size(),
      stats.size() == 1 ? "" : "s", misses, misses == 1 ? "" : "es",
      overruns > 0 ? fmt::format(", {} lock hold overrun{}", overruns, overruns == 1 ? "" : "s")
                   : std::string());
  // A requested CPU latency cap that was refused: releases woke from deep idle states.
  if (!report.cpu_latency_refused.empty()) {
    out += fmt::format("cpu latency: not held ({}); releases may wake from deep idle states\n",
                       report.cpu_latency_refused);
  } else if (report.cpu_latency_us >= 0) {
    out += fmt::format("cpu latency: idle cores capped at {} µs exit latency\n",
                       report.cpu_latency_us);
  }
  // The kernel's interference on the real-time cores during the run (docs/cli.md).
  const KernelInterference& k = report.plan.interference;
  out += fmt::format("kernel interference: {}\n", detail == TableDetail::full
                                                      ? report::interference_detail(k)
                                                      : report::interference_summary(k));

  std::vector<std::vector<std::string>> rows = {{"task", "jobs", "misses", "miss%", "skipped",
                                                 "min", "p50", "p99", "max", "max R/D", "R bound",
                                                 "over"}};
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const TaskStats& s = stats[i];
    auto response = [&](std::int64_t ns) {
      return s.jobs > 0 ? format_duration(Duration(ns), 3) : std::string("-");
    };
    const std::optional<std::int64_t> bound = bound_of(report.plan, s.name);
    const std::optional<std::int64_t> over = over_bound(report.tasks[i], bound);
    rows.push_back({s.name, fmt::format("{}", s.jobs), fmt::format("{}", s.misses),
                    fmt::format("{:.2f}%", s.miss_ratio * 100.0), fmt::format("{}", s.skipped),
                    response(s.response_min_ns), response(s.response_p50_ns),
                    response(s.response_p99_ns), response(s.response_max_ns),
                    s.jobs > 0 ? fmt::format("{:.3f}", s.max_relative_response) : "-",
                    bound ? format_duration(Duration(*bound), 3) : "-",
                    over ? fmt::format("{}", *over) : "-"});
  }
  out += '\n';
  out += report::render_table(
      rows, {false, true, true, true, true, true, true, true, true, true, true, true});

  out += report::histogram_table(report);
  out += profile_table(stats, report.tasks);
  out += report::budget_table(stats, report.tasks);
  out += channels_table(report);
  out += locks_table(report);
  out += model::chain_measures_table(report.chains, "measured");
  for (const TaskRun& run : report.tasks) {
    if (!run.records_truncated) continue;
    out += fmt::format(
        "warning: {}: more jobs ran than the record storage held; statistics cover only the {} "
        "recorded jobs\n",
        run.name, run.records.size());
  }
  return out;
}

}  // namespace rtpar
