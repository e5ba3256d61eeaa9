// plan_options.cpp — see plan_options.hpp.
#include "cli/plan_options.hpp"

#include <string>

#include "rtpar/error.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar::cli {

namespace {

// kAllPlanners lists every planner in enum order: the order of `--planner all` outputs.
constexpr PlannerKind kAllPlanners[] = {PlannerKind::federated, PlannerKind::federated_ws,
                                        PlannerKind::decomposition, PlannerKind::fork_join_rta,
                                        PlannerKind::partitioned};

std::string planner_names() {
  std::string names;
  for (const PlannerKind k : kAllPlanners)
    names += (names.empty() ? "" : ", ") + std::string(to_string(k));
  return names;
}

}  // namespace

const CLI::Validator& non_empty() {
  static const CLI::Validator validator(
      [](const std::string& value) {
        return value.empty() ? std::string("an empty value is not allowed") : std::string();
      },
      "", "NONEMPTY");
  return validator;
}

std::string resolved_kernels_text(const TaskSet& set) {
  std::string text;
  for (const TaskSpec& t : set.tasks) {
    if (t.kernel_spec.source != KernelSource::library) continue;
    text += "kernel of task \"" + t.name + "\": " + t.kernel + " resolved: " +
            t.kernel_spec.library + " exports " + t.kernel_spec.symbol +
            " (read from its ELF symbol table; not loaded)\n";
  }
  return text;
}

void add_planning_flags(CLI::App& app, PlanningFlags& flags, bool allow_all) {
  app.add_option("--planner", flags.planner,
                 allow_all ? "Planner to run instead of the file's: a planner name, or 'all' to "
                             "compare every planner"
                           : "Planner to run instead of the file's")
      ->type_name("NAME")
      ->check(non_empty());
  app.add_option("--target", flags.target,
                 "Analyse for this machine instead of the file's cores, e.g. 40c4s (40 cores, 4 "
                 "sockets)")
      ->type_name("SPEC")
      ->check(non_empty());
  app.add_option("--overhead", flags.overhead,
                 "Measured fork/join overhead profile (written by `rtpar calibrate --out`)")
      ->type_name("FILE")
      ->check(non_empty());
  app.add_option("--measured", flags.measured,
                 "Run report (report.json of `rtpar run --out`) whose measured work and burdened "
                 "span federated-ws uses where larger than declared")
      ->type_name("REPORT")
      ->check(non_empty());
}

std::unique_ptr<Planning> resolve_planning(const PlanningFlags& flags, const TaskSet& set) {
  auto planning = std::make_unique<Planning>();
  if (flags.planner.empty()) {
    planning->planners = {set.system.planner};
  } else if (flags.planner == "all") {
    planning->all = true;
    planning->planners.assign(std::begin(kAllPlanners), std::end(kAllPlanners));
  } else {
    for (const PlannerKind k : kAllPlanners) {
      if (flags.planner == to_string(k)) planning->planners = {k};
    }
    if (planning->planners.empty()) {
      throw InputError(SourceLocation{"<command line>", 0, 0}, "--planner",
                       "unknown planner '" + flags.planner + "' (expected one of " +
                           planner_names() + ", or all)");
    }
  }
  if (!flags.target.empty()) {
    planning->target = parse_target(flags.target);
    planning->options.target = &*planning->target;
  }
  if (!flags.overhead.empty()) {
    planning->overhead = load_overhead_profile(flags.overhead);
    planning->options.overhead = &*planning->overhead;
  }
  if (!flags.measured.empty()) {
    planning->measured = load_measured_profile(flags.measured);
    planning->options.measured = &*planning->measured;
  }
  return planning;
}

}  // namespace rtpar::cli
