// chain_replay.cpp — replay_chains (chain_replay.hpp).
#include "sim/chain_replay.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rtpar::sim {

namespace {

// task_index is the TaskSet index of the task named `name` (-1 if none).
int task_index(const TaskSet& set, const std::string& name) {
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    if (set.tasks[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// forward gives each job of `jobs` (release order) the origin of the newest value published
// before its release by `upstream` (its jobs in finish order, with their origins); −1 when none
// was published yet.
std::vector<std::int64_t> forward(const std::vector<SimJob>& upstream,
                                  const std::vector<std::int64_t>& upstream_origin,
                                  const std::vector<SimJob>& jobs) {
  std::vector<std::int64_t> origin(jobs.size(), -1);
  std::size_t u = 0;
  std::int64_t newest = -1;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    // A value published at the very instant of the release counts as read (ties: write first).
    while (u < upstream.size() && upstream[u].finish_ns >= 0 &&
           upstream[u].finish_ns <= jobs[j].release_ns) {
      newest = upstream_origin[u];
      ++u;
    }
    origin[j] = newest;
  }
  return origin;
}

}  // namespace

std::vector<ChainMeasure> replay_chains(const TaskSet& set, const Plan& plan,
                                        const std::vector<SimTaskResult>& tasks) {
  std::vector<ChainMeasure> out;
  for (const ChainSpec& chain : set.chains) {
    const ChainPlan* bounds = nullptr;
    for (const ChainPlan& p : plan.chains) {
      if (p.name == chain.name) bounds = &p;
    }
    std::vector<const SimTaskResult*> path;
    for (const std::string& name : chain.tasks) {
      const int i = task_index(set, name);
      if (i >= 0 && static_cast<std::size_t>(i) < tasks.size()) {
        path.push_back(&tasks[static_cast<std::size_t>(i)]);
      }
    }
    std::vector<ChainSample> samples;
    if (path.size() == chain.tasks.size() && !path.empty()) {
      // The first task stamps each job's release.
      std::vector<std::int64_t> origin;
      for (const SimJob& j : path[0]->jobs_log) origin.push_back(j.release_ns);
      for (std::size_t k = 1; k < path.size(); ++k) {
        origin = forward(path[k - 1]->jobs_log, origin, path[k]->jobs_log);
      }
      const std::vector<SimJob>& last = path.back()->jobs_log;
      for (std::size_t j = 0; j < last.size(); ++j) {
        if (last[j].finish_ns >= 0) samples.push_back({last[j].finish_ns, origin[j]});
      }
    }
    ChainMeasure m = measure_chain(chain.name, samples, bounds);
    m.traced = path.size() == chain.tasks.size() &&
               std::all_of(path.begin(), path.end(), [](const SimTaskResult* t) { return t->simulated; });
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace rtpar::sim
