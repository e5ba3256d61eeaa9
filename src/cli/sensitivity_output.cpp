// sensitivity_output.cpp — see sensitivity_output.hpp.
#include "cli/sensitivity_output.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/names.hpp"
#include "core/table.hpp"
#include "rtpar/time.hpp"

namespace rtpar::cli {

namespace {

using Json = nlohmann::ordered_json;

// kMillion is kSensitivityScale under a shorter name for the digit arithmetic below.
constexpr std::int64_t kMillion = kSensitivityScale;

// factor_cell is the admitted factor of a margin: "none" when no factor was admitted, "≥ limit"
// when the set was still admitted where the search stops.
std::string factor_cell(const ScalingMargin& m) {
  if (!m.admitted) return "none";
  if (!m.refused) return "≥ " + factor_text(*m.admitted);
  return factor_text(*m.admitted);
}

// optional_factor renders an optional factor, "-" when absent.
std::string optional_factor(const std::optional<std::int64_t>& f) {
  return f ? factor_text(*f) : std::string("-");
}

// margin_json is one ScalingMargin: the exact factors in millionths, null when absent.
Json margin_json(const ScalingMargin& m) {
  auto opt = [](const std::optional<std::int64_t>& v) { return v ? Json(*v) : Json(nullptr); };
  Json out;
  out["factor"] = m.admitted ? Json(static_cast<double>(*m.admitted) / kMillion) : Json(nullptr);
  out["factor_ppm"] = opt(m.admitted);
  out["refused_ppm"] = opt(m.refused);
  out["limit_ppm"] = m.limit;
  out["refused_below_ppm"] = opt(m.refused_below);
  out["probes"] = m.probes;
  return out;
}

}  // namespace

std::string factor_text(std::int64_t factor) {
  int decimals = 3;
  if (factor < kMillion) {
    decimals = 4;  // 4 significant digits: 0.xxxx, 0.0xxxx, 0.00xxxx, then the resolution
    for (std::int64_t bound = kMillion / 10; factor < bound && decimals < 6; bound /= 10) {
      ++decimals;
    }
  }
  std::int64_t unit = 1;  // millionths per last printed digit
  for (int d = decimals; d < 6; ++d) unit *= 10;
  const std::int64_t shown = factor / unit;  // rounded down
  std::int64_t scale = 1;
  for (int d = 0; d < decimals; ++d) scale *= 10;
  return fmt::format("{}.{:0{}}", shown / scale, shown % scale, decimals);
}

std::string sensitivity_table(const Sensitivity& s) {
  const std::string planner = names::name_of(names::kPlanners, s.planner);
  std::vector<std::vector<std::string>> rows = {
      {"task", "C factor", "C then", "refused at", "D − R", "R/D"}};
  if (!s.monotone) rows[0].push_back("smaller refused");
  for (const TaskSensitivity& t : s.tasks) {
    rows.push_back({t.name, factor_cell(t.work),
                    t.work_at_factor_ns ? format_duration(Duration(*t.work_at_factor_ns), 3) : "-",
                    optional_factor(t.work.refused),
                    t.slack_ns ? format_duration(Duration(*t.slack_ns), 3) : std::string("-"),
                    t.response_ratio ? fmt::format("{:.3f}", *t.response_ratio) : "-"});
    if (!s.monotone) rows.back().push_back(optional_factor(t.work.refused_below));
  }
  rows.push_back({"all tasks", factor_cell(s.all), "", optional_factor(s.all.refused), "", ""});
  if (!s.monotone) rows.back().push_back(optional_factor(s.all.refused_below));
  std::vector<bool> align(rows[0].size(), true);
  align[0] = false;

  std::string out = fmt::format("\nsensitivity ({}, set {} at ×1)\n", planner,
                                s.admitted ? "admitted" : "refused");
  out += report::render_table(rows, align);
  out +=
      "\nC factor: the largest factor s found at which the set is admitted with the task's C and "
      "L (every task's, for 'all tasks') multiplied by s, rounded up to the ns; C then: the "
      "task's C at s; refused at: the smallest factor found above s that is refused. D − R, R/D: "
      "the task's worst-case response bound at ×1 against its deadline.\n";
  const bool none = !s.all.admitted || std::any_of(s.tasks.begin(), s.tasks.end(),
                                                   [](const auto& t) { return !t.work.admitted; });
  if (none) {
    out +=
        "none: not admitted at any factor tried down to 0.000001 (another task, or something "
        "other than C, refuses the set)\n";
  }
  if (s.monotone) {
    out += fmt::format("{}, so each factor is exact to 0.1 %\n", s.monotonicity);
  } else {
    out += fmt::format(
        "warning: {}. Each factor is a bisection result: a smaller factor may still be refused. "
        "{} factors evenly below each were checked; smaller refused: the smallest of them the "
        "planner refused (- if none)\n",
        s.monotonicity, s.grid_points);
  }
  return out;
}

Json sensitivity_json(const Sensitivity& s) {
  Json out;
  out["planner"] = names::name_of(names::kPlanners, s.planner);
  out["admitted"] = s.admitted;
  out["monotone"] = s.monotone;
  out["monotonicity"] = s.monotonicity;
  out["grid_points"] = s.grid_points;
  Json tasks = Json::array();
  for (const TaskSensitivity& t : s.tasks) {
    Json entry;
    entry["name"] = t.name;
    entry["work"] = margin_json(t.work);
    entry["work"]["work_ns"] = t.work_at_factor_ns ? Json(*t.work_at_factor_ns) : Json(nullptr);
    entry["slack_ns"] = t.slack_ns ? Json(*t.slack_ns) : Json(nullptr);
    entry["response_ratio"] = t.response_ratio ? Json(*t.response_ratio) : Json(nullptr);
    tasks.push_back(std::move(entry));
  }
  out["tasks"] = std::move(tasks);
  out["all"] = margin_json(s.all);
  return out;
}

}  // namespace rtpar::cli
