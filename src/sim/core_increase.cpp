// core_increase.cpp — core_increase: RTWS's required-cores search by per-task core increase
// (rtpar/tools/simulate.hpp; RTWS §VII (3), Fig. 8 c, f, i, l).
#include <algorithm>
#include <set>
#include <string>

#include "rtpar/error.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar {

namespace {

// cpus_of is every CPU a plan's tasks run on.
std::set<int> cpus_of(const Plan& plan) {
  std::set<int> cpus;
  for (const TaskPlan& tp : plan.tasks) {
    cpus.insert(tp.cores.begin(), tp.cores.end());
    cpus.insert(tp.thread_cores.begin(), tp.thread_cores.end());
  }
  return cpus;
}

// dedicated says whether no other task of the plan uses a core of task i.
bool dedicated(const Plan& plan, std::size_t i) {
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    if (j == i) continue;
    for (const int cpu : plan.tasks[j].cores) {
      const auto& mine = plan.tasks[i].cores;
      if (std::find(mine.begin(), mine.end(), cpu) != mine.end()) return false;
    }
  }
  return !plan.tasks[i].cores.empty();
}

// above says whether task result r missed more than `threshold` of its jobs.
bool above(const SimTaskResult& r, double threshold) {
  return r.jobs > 0 && static_cast<double>(r.misses) > threshold * static_cast<double>(r.jobs);
}

}  // namespace

CoreIncreaseResult core_increase(const Plan& plan, const TaskSet& set, const SimOptions& sim,
                                 const CoreIncreaseOptions& options) {
  // Written so that NaN fails too.
  if (!(options.miss_threshold >= 0.0 && options.miss_threshold <= 1.0)) {
    throw InputError(SourceLocation{"<core increase>", 0, 0}, "miss_threshold",
                     "must be in [0, 1]");
  }
  if (options.max_cores < 1) {
    throw InputError(SourceLocation{"<core increase>", 0, 0}, "max_cores", "must be >= 1");
  }
  const bool strands = std::any_of(plan.tasks.begin(), plan.tasks.end(),
                                   [](const TaskPlan& tp) { return !tp.segments.empty(); });
  if (strands) {
    throw InputError(SourceLocation{"<core increase>", 0, 0}, "planner",
                     "the core increase grows teams: it needs a team plan (federated, "
                     "federated-ws), not strands");
  }
  Plan grown = plan;
  std::set<int> used = cpus_of(grown);
  int next_cpu = used.empty() ? 0 : *used.rbegin() + 1;
  CoreIncreaseResult result;
  // Each round adds at least one core, so at most max_cores + 1 rounds reach an answer.
  for (;;) {
    const SimResult r = simulate_plan(grown, set, sim);
    ++result.rounds;
    result.task_cores.clear();
    bool helpless = false;
    std::vector<std::size_t> grow;
    for (std::size_t i = 0; i < r.tasks.size(); ++i) {
      const TaskPlan& tp = grown.tasks[i];
      result.task_cores.push_back(r.tasks[i].simulated ? static_cast<int>(tp.cores.size()) : 0);
      if (!r.tasks[i].simulated) helpless = true;
      if (!above(r.tasks[i], options.miss_threshold)) continue;
      if (dedicated(grown, i)) {
        grow.push_back(i);
      } else {
        helpless = true;  // it shares its cores: another dedicated one is not its fix
      }
    }
    if (helpless) return result;
    if (grow.empty()) {
      const auto n = static_cast<int>(used.size());
      if (n <= options.max_cores) result.cores = n;
      return result;
    }
    if (static_cast<int>(used.size() + grow.size()) > options.max_cores) return result;
    for (const std::size_t i : grow) {
      TaskPlan& tp = grown.tasks[i];
      const int cpu = next_cpu++;
      tp.cores.push_back(cpu);
      if (!tp.thread_cores.empty()) tp.thread_cores.push_back(cpu);
      tp.cores_needed = static_cast<int>(tp.cores.size());
      grown.cores.push_back(cpu);
      used.insert(cpu);
    }
  }
}

}  // namespace rtpar
