// sim_output.cpp — simulation_json, simulation_table, required_cores_json and
// required_cores_text (rtpar/tools/simulate.hpp; docs/cli.md).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <vector>

#include "core/table.hpp"
#include "model/chain_measure.hpp"
#include "rtpar/report.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar {

namespace {

// Json keeps keys in insertion order so documents read in the order docs/cli.md lists them.
using Json = nlohmann::ordered_json;

Json optional_json(const std::optional<std::int64_t>& v) { return v ? Json(*v) : Json(nullptr); }
Json optional_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::string duration_cell(const std::optional<std::int64_t>& ns) {
  return ns ? format_duration(Duration(*ns), 3) : std::string("-");
}

std::string ratio_cell(const std::optional<double>& v) {
  return v ? fmt::format("{:.3f}", *v) : std::string("-");
}

// add_metrics appends a SimMetrics' ratios to a JSON object (after its existing keys, so those
// keep their places).
void add_metrics(Json& object, const SimMetrics& m) {
  object["miss_ratio"] = optional_json(m.miss_ratio);
  object["mean_relative_response"] = optional_json(m.mean_relative_response);
  object["max_relative_response"] = optional_json(m.max_relative_response);
}

// add_response_quantiles appends the p50 and p99 response (nearest rank, as `rtpar run` reports
// them) of a task's completed jobs when its jobs were recorded (SimOptions::record_jobs), else
// null: the simulation keeps no per-job data unless asked.
void add_response_quantiles(Json& object, const SimTaskResult& t) {
  std::vector<std::int64_t> responses;
  responses.reserve(t.jobs_log.size());
  for (const SimJob& j : t.jobs_log) {
    if (j.finish_ns >= 0) responses.push_back(j.finish_ns - j.release_ns);
  }
  std::sort(responses.begin(), responses.end());
  const bool known = !responses.empty();
  object["response_p50_ns"] = known ? Json(percentile(responses, 0.5)) : Json(nullptr);
  object["response_p99_ns"] = known ? Json(percentile(responses, 0.99)) : Json(nullptr);
}

}  // namespace

std::string simulation_json(const SimResult& result) {
  Json tasks = Json::array();
  for (const SimTaskResult& t : result.tasks) {
    Json entry = {
        {"name", t.name},
        {"simulated", t.simulated},
        {"jobs", t.jobs},
        {"completed", t.completed},
        {"misses", t.misses},
        {"skipped", t.skipped},
        {"max_response_ns", optional_json(t.max_response_ns)},
        {"response_bound_ns", optional_json(t.response_bound_ns)},
        {"deadline_ns", t.deadline_ns},
    };
    entry["preemptions"] = t.preemptions;
    add_metrics(entry, task_metrics(t));
    add_response_quantiles(entry, t);
    tasks.push_back(std::move(entry));
  }
  Json doc = {
      {"planner", to_string(result.planner)},
      {"plan_schedulable", result.plan_schedulable},
      {"horizon_ns", result.horizon_ns},
      {"horizon_capped", result.horizon_capped},
      {"end_ns", result.end_ns},
      {"misses", result.misses},
      {"tasks", std::move(tasks)},
  };
  add_metrics(doc, set_metrics(result));
  // Only when set (--force-place): other outputs keep their bytes.
  if (result.plan_force_placed) doc["plan_force_placed"] = true;
  doc["overhead_statistic"] =
      result.overhead_statistic ? Json(to_string(*result.overhead_statistic)) : Json(nullptr);
  doc["seed"] = result.seed;
  doc["context_switch_ns"] = result.context_switch_ns;
  // The stochastic execution range as factors of the declared work ([1, 1]: fixed).
  doc["execution"] = {static_cast<double>(result.execution_min_ppm) / 1e6,
                      static_cast<double>(result.execution_max_ppm) / 1e6};
  doc["team_model"] = to_string(result.team_model);
  doc["queue_lock_ns"] = result.queue_lock_ns;
  if (result.team_model == TeamModel::centralized) {  // only then: other models' output is unchanged
    doc["queue_contention_ns"] = result.queue_contention_ns;
    doc["queue_grain_ns"] = result.queue_grain_ns;
  }
  if (result.team_model == TeamModel::steal) {  // only then: other models' output is unchanged
    doc["steal_cost_ns"] = result.steal_cost_ns;
    doc["steal_attempt_ns"] = result.steal_attempt_ns;
    doc["spawn_cost_ns"] = result.spawn_cost_ns;
  }
  if (!result.locks.empty()) {  // only then: lock-free sets' output is unchanged
    Json locks = Json::array();
    for (const SimLockResult& l : result.locks) {
      locks.push_back(Json{{"name", l.name},
                           {"protocol", l.global ? "msrp" : "priority-ceiling"},
                           {"hold_ns", l.hold_ns},
                           {"sections", l.sections},
                           {"max_wait_ns", l.max_wait_ns},
                           {"max_hold_ns", l.max_hold_ns}});
    }
    doc["locks"] = std::move(locks);
  }
  if (!result.chains.empty()) {  // only then: chain-free sets' output is unchanged
    doc["chains"] = model::chain_measures_json(result.chains);
  }
  return doc.dump(2);
}

std::string simulation_table(const SimResult& result) {
  std::string out = fmt::format("simulated {} of releases{}, {} deadline miss{}\n",
                                format_duration(Duration(result.horizon_ns), 3),
                                result.horizon_capped ? " (capped; the hyperperiod is longer)" : "",
                                result.misses, result.misses == 1 ? "" : "es");
  const SimMetrics set = set_metrics(result);
  out += fmt::format("set: miss ratio {}, relative response R/D mean {} max {}\n",
                     ratio_cell(set.miss_ratio), ratio_cell(set.mean_relative_response),
                     ratio_cell(set.max_relative_response));
  std::vector<std::vector<std::string>> rows = {{"task", "jobs", "misses", "skipped", "max R",
                                                 "R bound", "D", "max R/D", "miss ratio",
                                                 "mean R/D", "preempt"}};
  for (const SimTaskResult& t : result.tasks) {
    if (!t.simulated) {
      rows.push_back({t.name, "-", "-", "-", "not placed", "-", duration_cell(t.deadline_ns), "-",
                      "-", "-", "-"});
      continue;
    }
    const SimMetrics m = task_metrics(t);
    rows.push_back({t.name, fmt::format("{}", t.jobs), fmt::format("{}", t.misses),
                    fmt::format("{}", t.skipped), duration_cell(t.max_response_ns),
                    duration_cell(t.response_bound_ns), duration_cell(t.deadline_ns),
                    ratio_cell(m.max_relative_response), ratio_cell(m.miss_ratio),
                    ratio_cell(m.mean_relative_response), fmt::format("{}", t.preemptions)});
  }
  out += '\n';
  out += report::render_table(rows,
                              {false, true, true, true, true, true, true, true, true, true, true});
  if (!result.locks.empty()) {
    std::vector<std::vector<std::string>> locks = {
        {"lock", "protocol", "hold", "sections", "max wait", "max hold"}};
    for (const SimLockResult& l : result.locks) {
      locks.push_back({l.name, l.global ? "msrp" : "priority-ceiling", duration_cell(l.hold_ns),
                       fmt::format("{}", l.sections), duration_cell(l.max_wait_ns),
                       duration_cell(l.max_hold_ns)});
    }
    out += '\n';
    out += report::render_table(locks, {false, false, true, true, true, true});
  }
  out += model::chain_measures_table(result.chains, "simulated");
  return out;
}

std::string required_cores_json(const RequiredCoresResult& result) {
  Json steps = Json::array();
  for (const RequiredCoresStep& s : result.steps) {
    steps.push_back(Json{{"cores", s.cores},
                         {"placed", s.placed},
                         {"plan_schedulable", s.plan_schedulable},
                         {"miss_ratio", optional_json(s.miss_ratio)},
                         {"meets", s.meets}});
  }
  const Json doc = {
      {"planner", to_string(result.planner)},
      {"miss_threshold", result.miss_threshold},
      {"max_cores", result.max_cores},
      {"required_cores", result.cores ? Json(*result.cores) : Json(nullptr)},
      {"steps", std::move(steps)},
  };
  return doc.dump(2);
}

std::string required_cores_text(const RequiredCoresResult& result) {
  std::string out = result.cores
                        ? fmt::format("required cores: {} (set miss ratio <= {})\n", *result.cores,
                                      result.miss_threshold)
                        : fmt::format("required cores: none up to {} (set miss ratio <= {})\n",
                                      result.max_cores, result.miss_threshold);
  std::vector<std::vector<std::string>> rows = {{"cores", "plan", "miss ratio", "meets"}};
  const std::vector<RequiredCoresStep>& steps = result.steps;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const RequiredCoresStep& s = steps[i];
    if (!s.placed) {
      // A run of unplaced steps is one row "a..b": a refusal can last hundreds of core counts.
      std::size_t j = i;
      while (j + 1 < steps.size() && !steps[j + 1].placed) ++j;
      const std::string cores =
          j == i ? fmt::format("{}", s.cores) : fmt::format("{}..{}", s.cores, steps[j].cores);
      rows.push_back({cores, "task unplaced", "-", "no"});
      i = j;
      continue;
    }
    rows.push_back({fmt::format("{}", s.cores),
                    s.plan_schedulable ? "schedulable" : "placed, refused",
                    ratio_cell(s.miss_ratio), s.meets ? "yes" : "no"});
  }
  out += '\n';
  out += report::render_table(rows, {true, false, true, false});
  return out;
}

}  // namespace rtpar
