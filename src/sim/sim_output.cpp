// sim_output.cpp — simulation_json and simulation_table (rtpar/tools/simulate.hpp; docs/cli.md).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/table.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar {

namespace {

// Json keeps keys in insertion order so documents read in the order docs/cli.md lists them.
using Json = nlohmann::ordered_json;

Json optional_json(const std::optional<std::int64_t>& v) { return v ? Json(*v) : Json(nullptr); }

std::string duration_cell(const std::optional<std::int64_t>& ns) {
  return ns ? format_duration(Duration(*ns), 3) : std::string("-");
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
    tasks.push_back(std::move(entry));
  }
  const Json doc = {
      {"planner", to_string(result.planner)},
      {"plan_schedulable", result.plan_schedulable},
      {"horizon_ns", result.horizon_ns},
      {"horizon_capped", result.horizon_capped},
      {"end_ns", result.end_ns},
      {"misses", result.misses},
      {"tasks", std::move(tasks)},
  };
  return doc.dump(2);
}

std::string simulation_table(const SimResult& result) {
  std::string out = fmt::format("simulated {} of releases{}, {} deadline miss{}\n",
                                format_duration(Duration(result.horizon_ns), 3),
                                result.horizon_capped ? " (capped; the hyperperiod is longer)" : "",
                                result.misses, result.misses == 1 ? "" : "es");
  std::vector<std::vector<std::string>> rows = {
      {"task", "jobs", "misses", "skipped", "max R", "R bound", "D", "max R/D"}};
  for (const SimTaskResult& t : result.tasks) {
    if (!t.simulated) {
      rows.push_back({t.name, "-", "-", "-", "not placed", "-", duration_cell(t.deadline_ns), "-"});
      continue;
    }
    const std::string ratio = t.max_response_ns && t.deadline_ns > 0
                                  ? fmt::format("{:.3f}", static_cast<double>(*t.max_response_ns) /
                                                              static_cast<double>(t.deadline_ns))
                                  : std::string("-");
    rows.push_back({t.name, fmt::format("{}", t.jobs), fmt::format("{}", t.misses),
                    fmt::format("{}", t.skipped), duration_cell(t.max_response_ns),
                    duration_cell(t.response_bound_ns), duration_cell(t.deadline_ns), ratio});
  }
  out += '\n';
  out += report::render_table(rows, {false, true, true, true, true, true, true, true});
  return out;
}

}  // namespace rtpar
