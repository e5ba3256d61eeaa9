// check.cpp — `rtpar check FILE [--json]`: load, validate, plan, print. Exit 0 schedulable,
// 1 not schedulable, 2 bad input.
#include <fmt/core.h>

#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report_io.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::cli {

namespace {
struct CheckOptions {
  std::string file;
  bool json = false;
};
}  // namespace

Command add_check(CLI::App& app) {
  auto opts = std::make_shared<CheckOptions>();
  app.add_option("file", opts->file, "Task-set file (TOML)")->required();
  app.add_flag("--json", opts->json, "Print the plan as JSON on stdout");
  return [opts]() {
    const TaskSet set = load_taskset(opts->file);
    const Plan plan = plan_taskset(set);
    if (opts->json) {
      fmt::print("{}\n", plan_json(plan, set));
    } else {
      fmt::print("{}", plan_table(plan, set));
    }
    return plan.schedulable ? kExitOk : kExitFail;
  };
}

}  // namespace rtpar::cli
