// check.cpp — `rtpar check FILE [--planner NAME|all] [--target SPEC] [--overhead FILE] [--json]
// [--sensitivity]`: load, validate, plan, print (with --sensitivity, each planner's margins in C
// after its plan). Exit 0 schedulable (with `all`: at least one planner admits the set), 1 not
// schedulable, 2 bad input.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/plan_options.hpp"
#include "cli/progress_line.hpp"
#include "cli/sensitivity_output.hpp"
#include "core/table.hpp"
#include "report/note_lines.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar::cli {

namespace {

struct CheckOptions {
  std::string file;
  bool json = false;
  bool sensitivity = false;  // --sensitivity: analyse_sensitivity for every planner run
  bool progress = false;     // --progress: progress lines on stderr even when not a terminal
  bool verbose = false;      // -v: the tables in full detail (TableDetail::full)
  PlanningFlags planning;
};

// cores_used counts the distinct CPUs a plan gives its tasks (team threads, strands, cores).
std::size_t cores_used(const Plan& plan) {
  std::set<int> used;
  for (const TaskPlan& t : plan.tasks) {
    used.insert(t.cores.begin(), t.cores.end());
    used.insert(t.thread_cores.begin(), t.thread_cores.end());
    for (const SegmentPlan& s : t.segments) {
      for (const StrandPlan& st : s.strands) used.insert(st.core);
    }
  }
  return used.size();
}

// ratio_cell is a task's predicted response over its deadline: the worst-case bound when the
// plan gives one, else "E" and the expected-response bound (federated-ws), "fail" for a task that
// does not fit, "-" when the planner states no bound.
std::string ratio_cell(const TaskPlan& t, const TaskSpec& spec) {
  const double d = static_cast<double>(spec.deadline.count());
  if (t.reason) return "fail";
  if (t.response_bound_ns)
    return fmt::format("{:.3f}", static_cast<double>(*t.response_bound_ns) / d);
  if (t.expected_response_ns) return fmt::format("E {:.3f}", *t.expected_response_ns / d);
  return "-";
}

// comparison_table renders `--planner all`: one column per planner; rows for the verdict, the
// cores used and each task's R/D; then every planner's reasons and notes (long lists in full
// when `full`, report/note_lines.hpp).
std::string comparison_table(const std::vector<Plan>& plans, const TaskSet& set, bool full) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({""});
  rows.push_back({"verdict"});
  rows.push_back({"cores used"});
  for (const TaskSpec& spec : set.tasks) rows.push_back({spec.name + " R/D"});
  for (const Plan& plan : plans) {
    rows[0].push_back(to_string(plan.planner));
    rows[1].push_back(plan.schedulable ? "yes" : "no");
    rows[2].push_back(fmt::format("{}", cores_used(plan)));
    for (std::size_t i = 0; i < set.tasks.size(); ++i) {
      rows[3 + i].push_back(i < plan.tasks.size() ? ratio_cell(plan.tasks[i], set.tasks[i]) : "-");
    }
  }
  std::vector<bool> align(plans.size() + 1, true);
  align[0] = false;
  // The plans' core lists reflect --target; the file's may describe another machine.
  std::string out = fmt::format("task set  {} ({} tasks, {} cores)\n\n", set.source,
                                set.tasks.size(), plans.front().cores.size());
  out += report::render_table(rows, align);
  out +=
      "\nR/D: worst-case response bound / deadline (E: bound on the expected response, "
      "federated-ws); fail: the task does not fit\n";
  for (const Plan& plan : plans) {
    std::string details;
    for (const TaskPlan& t : plan.tasks) {
      if (t.reason) details += fmt::format("  {}: {}\n", t.name, *t.reason);
    }
    for (const std::string& note : plan.notes) {
      // Printed once: a note that is also a task's reason is under that task above.
      if (std::any_of(plan.tasks.begin(), plan.tasks.end(),
                      [&](const TaskPlan& t) { return t.reason && *t.reason == note; })) {
        continue;
      }
      const std::vector<std::string> lines = report::note_lines(note, full);
      details += fmt::format("  note: {}\n", lines.front());
      for (std::size_t k = 1; k < lines.size(); ++k) {
        details += fmt::format("        {}\n", lines[k]);
      }
    }
    if (!details.empty()) out += fmt::format("\n{}\n{}", to_string(plan.planner), details);
  }
  return out;
}

// check_cores_online refuses a [system] CPU list naming CPUs this process cannot run on, unless
// the file gives a core count or --target names another machine: the plan would otherwise admit
// a set `run` must refuse (docs/cli.md). InputError at system.cores: exit status 2.
void check_cores_online(const TaskSet& set, const Planning& planning) {
  if (set.system.cores_from_count || planning.options.target != nullptr) return;
  const std::vector<int> online = online_cpus();
  std::vector<int> declared = set.system.cores;
  declared.insert(declared.end(), set.system.nonrt_cores.begin(), set.system.nonrt_cores.end());
  for (const int cpu : declared) {
    if (std::binary_search(online.begin(), online.end(), cpu)) continue;
    throw InputError(set.system.where, "system.cores",
                     fmt::format("CPU {} is not online for this process (online: {}); to analyse "
                                 "the set for another machine give `--target` (e.g. --target 8c) "
                                 "or a core count (`cores = 8`)",
                                 cpu, fmt::join(online, ", ")));
  }
}

}  // namespace

Command add_check(CLI::App& app) {
  auto opts = std::make_shared<CheckOptions>();
  app.add_option("file", opts->file, "Task-set file (TOML)")->required();
  app.add_flag("--json", opts->json,
               "Print the plan as JSON on stdout (with --planner all: a list of plans)");
  app.add_flag("-v,--verbose", opts->verbose,
               "Show every detail in the tables: the kernel interference's sources, every "
               "segment");
  app.add_flag("--sensitivity", opts->sensitivity,
               "Also find each task's margin: the largest factor its C (and all tasks' C "
               "together) can be scaled by and still be admitted, and D - R (with --planner all: "
               "per planner)");
  app.add_flag("--progress", opts->progress,
               "Show the planning's progress on stderr even when it is not a terminal (on a "
               "terminal it shows once planning takes more than a second)");
  add_planning_flags(app, opts->planning, /*allow_all=*/true);
  return [opts]() {
    const TaskSet set = load_taskset(opts->file);
    const std::unique_ptr<Planning> planning = resolve_planning(opts->planning, set);
    check_cores_online(set, *planning);
    std::vector<Plan> plans;
    {
      ProgressLine line(opts->progress);
      const char* planner = "";
      const PlanProgressScope scope([&](const char* stage, std::int64_t done, std::int64_t total) {
        line.report((std::string(planner) + ": " + stage).c_str(), done, total);
      });
      for (const PlannerKind kind : planning->planners) {
        planner = to_string(kind);
        plans.push_back(plan_with(kind, set, planning->options));
        plans.back().notes.push_back(planning->overhead_note);
      }
    }
    const bool admitted =
        std::any_of(plans.begin(), plans.end(), [](const Plan& p) { return p.schedulable; });
    std::vector<Sensitivity> margins;
    if (opts->sensitivity) {
      for (const PlannerKind kind : planning->planners) {
        margins.push_back(analyse_sensitivity(kind, set, planning->options));
      }
    }
    // document is one planner's `check --json` document, with its "sensitivity" object last.
    auto document = [&](std::size_t k) {
      nlohmann::ordered_json doc = nlohmann::ordered_json::parse(plan_json(plans[k], set));
      if (opts->sensitivity) doc["sensitivity"] = sensitivity_json(margins[k]);
      return doc;
    };
    if (!opts->json) fmt::print("{}", resolved_kernels_text(set));
    if (!planning->all) {
      if (opts->json) {
        fmt::print("{}\n", opts->sensitivity ? document(0).dump(2) : plan_json(plans[0], set));
      } else {
        fmt::print("{}", plan_table(plans[0], set,
                                    opts->verbose ? TableDetail::full : TableDetail::summary));
      }
    } else if (opts->json) {
      // The list holds each planner's `check --json` document (unchanged without --sensitivity).
      nlohmann::ordered_json list = nlohmann::ordered_json::array();
      for (std::size_t k = 0; k < plans.size(); ++k) list.push_back(document(k));
      fmt::print("{}\n", list.dump(2));
    } else {
      fmt::print("{}", comparison_table(plans, set, opts->verbose));
    }
    if (!opts->json) {
      for (const Sensitivity& s : margins) fmt::print("{}", sensitivity_table(s));
    }
    return admitted ? kExitOk : kExitFail;
  };
}

}  // namespace rtpar::cli
