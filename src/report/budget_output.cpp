// budget_output.cpp — see budget_output.hpp.
#include "report/budget_output.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/table.hpp"
#include "rtpar/time.hpp"

namespace rtpar::report {

std::int64_t overrun_misses(const TaskRun& run) {
  return std::count_if(run.records.begin(), run.records.end(), [&](const JobRecord& r) {
    return r.overrun_ns > 0 && r.finish_ns - r.release_ns > run.deadline_ns;
  });
}

void add_budget_json(nlohmann::ordered_json& task, const TaskRun& run) {
  task["budget"] = to_string(run.budget);
  task["budget_ns"] = run.budget_ns;
  task["overruns"] = run.overruns;
  task["max_overrun_ns"] = run.max_overrun_ns;
  task["demoted_ns"] = run.demoted_ns;
  task["overrun_misses"] = overrun_misses(run);
  if (!run.budget_note.empty()) task["budget_note"] = run.budget_note;
  if (run.hung_job >= 0) task["hung_job"] = run.hung_job;
  if (!run.crash_signal.empty()) {
    task["crashed_job"] = run.crashed_job;
    task["crash_signal"] = run.crash_signal;
  }
}

std::string budget_table(const std::vector<TaskStats>& stats, const std::vector<TaskRun>& runs) {
  std::vector<std::vector<std::string>> rows = {
      {"task", "budget", "per job", "overruns", "max excess", "demoted", "own misses", ""}};
  std::vector<std::string> notes;
  auto d = [](std::int64_t ns) { return format_duration(Duration(ns), 3); };
  for (std::size_t i = 0; i < runs.size() && i < stats.size(); ++i) {
    const TaskRun& run = runs[i];
    if (!run.budget_note.empty()) notes.push_back(run.name + ": budget " + run.budget_note);
    if (run.budget == BudgetMode::none) continue;
    const std::int64_t own = overrun_misses(run);
    rows.push_back({run.name, to_string(run.budget), d(run.budget_ns),
                    fmt::format("{}", run.overruns), run.overruns > 0 ? d(run.max_overrun_ns) : "-",
                    run.budget == BudgetMode::enforce ? d(run.demoted_ns) : "-",
                    fmt::format("{}", own), run.overruns > 0 ? "<- OVERRAN" : ""});
  }
  std::string out;
  if (rows.size() > 1) {
    out +=
        "\nbudgets (own misses: missed jobs that overran their own budget; the other misses "
        "were suffered)\n";
    out += render_table(rows, {false, false, true, true, true, true, true, false});
  }
  for (const std::string& note : notes) out += note + "\n";
  return out;
}

}  // namespace rtpar::report
