// light_assign.cpp — first-fit of light tasks under exact RTA.
#include "analysis/bounds/light_first_fit.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/bounds/rta.hpp"
#include "rtpar/error.hpp"

namespace rtpar::analysis {
namespace {

// Wide holds products of two nanosecond counts (utilization comparison) without overflow.
using Wide = __int128;

// rta_view is the RTA input for `members` sharing one core under the final priorities.
std::vector<RtaTask> rta_view(const TaskSet& set, const std::vector<std::size_t>& members,
                              const PriorityScheme& priorities) {
  const std::vector<int> prio = priorities.on_core(members);
  std::vector<RtaTask> core;
  core.reserve(members.size());
  for (std::size_t k = 0; k < members.size(); ++k) {
    const TaskSpec& task = set.tasks[members[k]];
    core.push_back({task.work, task.period, task.deadline, prio[k]});
  }
  return core;
}

}  // namespace

std::vector<int> realtime_cores(const SystemSpec& system) {
  const std::set<int> reserved(system.nonrt_cores.begin(), system.nonrt_cores.end());
  std::set<int> cores;  // sorted and distinct whatever the input order
  for (int core : system.cores) {
    if (!reserved.count(core)) cores.insert(core);
  }
  return {cores.begin(), cores.end()};
}

std::vector<LightPlacement> first_fit_light(const TaskSet& set,
                                            const std::vector<std::size_t>& light,
                                            const std::vector<int>& cores,
                                            const PriorityScheme& priorities) {
  std::vector<std::size_t> order = light;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const TaskSpec& ta = set.tasks[a];
    const TaskSpec& tb = set.tasks[b];
    // C_a/T_a > C_b/T_b  ⇔  C_a·T_b > C_b·T_a (T > 0): exact, unlike comparing doubles.
    const Wide lhs = Wide(ta.work.count()) * tb.period.count();
    const Wide rhs = Wide(tb.work.count()) * ta.period.count();
    if (lhs != rhs) return lhs > rhs;
    if (ta.name != tb.name) return ta.name < tb.name;
    return a < b;
  });

  std::vector<std::vector<std::size_t>> members(cores.size());
  for (std::size_t task : order) {
    for (auto& core : members) {
      std::vector<std::size_t> trial = core;
      trial.push_back(task);
      // Every member is re-checked: a newcomer with a shorter deadline outranks earlier tasks.
      if (all_schedulable(response_times(rta_view(set, trial, priorities)))) {
        core = std::move(trial);
        break;
      }
    }
  }

  std::vector<LightPlacement> out(set.tasks.size());
  for (std::size_t task : light) out[task].priority = priorities.on_core({task}).front();
  for (std::size_t c = 0; c < cores.size(); ++c) {
    const std::vector<RtaTask> view = rta_view(set, members[c], priorities);
    const auto responses = response_times(view);  // equals the last admission test of core c
    for (std::size_t k = 0; k < members[c].size(); ++k) {
      LightPlacement& placement = out[members[c][k]];
      placement.core = cores[c];
      placement.response = responses[k];
      placement.priority = view[k].priority;
    }
  }
  return out;
}

}  // namespace rtpar::analysis
