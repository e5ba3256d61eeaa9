// federated_overheads.cpp — see federated_overheads.hpp.
#include "analysis/planners/federated_overheads.hpp"

#include <algorithm>

#include "analysis/bounds/overhead_charge.hpp"

namespace rtpar::analysis {
namespace {

// charge_heavy is the fixed point of federated_overheads.hpp for one task needing a team.
TaskSpec charge_heavy(const TaskSpec& task, const FederatedOverheads& config,
                      std::vector<std::string>& notes) {
  // A team never exceeds the machine; on one core no team of 2 can be admitted, so the task is
  // charged as a team of 1 and rejected by its sizing (it needs ≥ 2 cores).
  const int most = std::max(1, config.cores);
  int n = std::min(2, most);
  if (config.whole_machine) {
    n = most;
  } else if (task.work > task.deadline) {
    const HeavySizing uncharged = config.size_heavy(task);
    if (!uncharged.infeasible) n = std::clamp(uncharged.cores_needed, n, most);
  }
  for (;;) {
    const JobCharge charge = job_charge(*config.profile, task, n, config.system);
    TaskSpec charged = charged_task(task, charge);
    const HeavySizing sized = config.size_heavy(charged);
    if (sized.infeasible || sized.cores_needed <= n || n >= most) {
      notes.push_back(job_charge_note(task, charge, *config.profile));
      return charged;
    }
    n = std::min(sized.cores_needed, most);
  }
}

}  // namespace

TaskSet with_federated_overheads(const TaskSet& set, const FederatedOverheads& config,
                                 std::vector<std::string>& notes) {
  TaskSet out = set;
  for (TaskSpec& task : out.tasks) {
    const JobCharge alone = job_charge(*config.profile, task, 1, config.system);
    const TaskSpec light = charged_task(task, alone);
    if (task.work <= task.deadline && light.work <= light.deadline) {
      notes.push_back(job_charge_note(task, alone, *config.profile));
      task = light;
      continue;
    }
    task = charge_heavy(task, config, notes);
  }
  return out;
}

}  // namespace rtpar::analysis
