// sim_metrics.cpp — task_metrics and set_metrics (rtpar/tools/simulate.hpp): RTWS §VII's miss
// ratio and relative response of a simulation.
#include <algorithm>

#include "rtpar/tools/simulate.hpp"

namespace rtpar {

SimMetrics task_metrics(const SimTaskResult& task) {
  SimMetrics m;
  if (!task.simulated) return m;
  m.jobs = task.jobs;
  m.misses = task.misses;
  if (task.jobs > 0) {
    m.miss_ratio = static_cast<double>(task.misses) / static_cast<double>(task.jobs);
  }
  if (task.completed > 0 && task.deadline_ns > 0) {
    m.mean_relative_response = task.relative_response_sum / static_cast<double>(task.completed);
    m.max_relative_response =
        task.max_response_ns.has_value()
            ? static_cast<double>(*task.max_response_ns) / static_cast<double>(task.deadline_ns)
            : 0.0;
  }
  return m;
}

SimMetrics set_metrics(const SimResult& result) {
  SimMetrics m;
  double sum = 0;
  std::int64_t completed = 0;
  for (const SimTaskResult& t : result.tasks) {
    if (!t.simulated) continue;
    m.jobs += t.jobs;
    m.misses += t.misses;
    const SimMetrics tm = task_metrics(t);
    if (tm.max_relative_response) {
      sum += t.relative_response_sum;
      completed += t.completed;
      m.max_relative_response =
          std::max(m.max_relative_response.value_or(0.0), *tm.max_relative_response);
    }
  }
  if (m.jobs > 0) m.miss_ratio = static_cast<double>(m.misses) / static_cast<double>(m.jobs);
  if (completed > 0) m.mean_relative_response = sum / static_cast<double>(completed);
  return m;
}

}  // namespace rtpar
