// profile_run.cpp — see profile_run.hpp.
#include "cli/profile_run.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>

#include "kernels/cpu_timed.hpp"
#include "kernels/instantiate.hpp"
#include "rtpar/error.hpp"
#include "rtpar/executor.hpp"

namespace rtpar::cli {

namespace {

// kDefaultPriority is the SCHED_FIFO priority of a run whose plan gives the task none (EDF tasks,
// strand-level plans): the task is alone, so only its rank against other processes matters.
constexpr int kDefaultPriority = 50;

// alone is the set reduced to task `index` with release period `period`, phase 0, and `code` as
// its code. The task keeps its own channels (a kernel may refuse to run without them), with the
// other tasks' ends given to the process's non-real-time side (`nonrt`), which never writes or
// reads: a reader sees the channel's initial (zero) value, a write is never read.
TaskSet alone(const TaskSet& set, std::size_t index, Duration period,
              std::shared_ptr<Kernel> code) {
  TaskSet one;
  one.system = set.system;
  one.source = set.source;
  TaskSpec task = set.tasks[index];
  task.phase = Duration(0);
  task.period = period;
  task.code = std::move(code);
  for (const ChannelSpec& c : set.channels) {
    const bool writes = c.writer == task.name;
    const bool reads = std::find(c.readers.begin(), c.readers.end(), task.name) != c.readers.end();
    if (!writes && !reads) continue;
    ChannelSpec kept = c;
    kept.writer = writes ? task.name : std::string(kNonRtEndpoint);
    kept.readers = {reads ? task.name : std::string(kNonRtEndpoint)};
    one.channels.push_back(std::move(kept));
  }
  one.tasks.push_back(std::move(task));
  return one;
}

// RunOutcome is one execute of a set of one task.
struct RunOutcome {
  TaskRun run;
  bool interrupted = false;
  std::string failure;
};

// run_alone runs `one` (a set of one task) with the single-task plan `placement` for
// `jobs` releases and returns its TaskRun.
RunOutcome run_alone(const TaskSet& one, const TaskPlan& placement, PlannerKind planner,
                     std::int64_t jobs, const ProfileSettings& settings) {
  Plan plan;
  plan.schedulable = true;
  plan.planner = planner;
  plan.cores = one.system.cores;
  plan.tasks = {placement};
  RunConfig config;
  // Releases at 0, T, …, (jobs − 1)·T are due before the end: exactly `jobs` records.
  std::int64_t duration = 0;
  if (__builtin_mul_overflow(one.tasks[0].period.count(), jobs, &duration)) {
    throw InputError(
        SourceLocation{"<command line>", 0, 0}, "--runs",
        "--runs × the period of task '" + one.tasks[0].name + "' overflows the 64-bit clock");
  }
  config.duration = Duration(duration);
  config.best_effort = settings.best_effort;
  config.lock_memory = true;  // as `rtpar run`; a failure is tolerated under best effort only
  config.handle_signals = true;
  config.control_cores = one.system.nonrt_cores;
  RunOutcome out;
  RunReport report;
  try {
    report = execute(one, plan, config);
  } catch (const TaskFailure& f) {
    report = f.report();
    out.failure = report.tasks.empty() ? f.what() : report.tasks[0].failure;
  }
  out.interrupted = report.interrupted;
  if (!report.tasks.empty()) out.run = std::move(report.tasks[0]);
  return out;
}

}  // namespace

Duration one_core_period(const TaskSpec& task) {
  return std::max(task.period,
                  Duration(task.work.count() > INT64_MAX / 2 ? INT64_MAX : 2 * task.work.count()));
}

std::vector<int> team_cpus(const TaskPlan& planned) {
  std::set<int> cpus(planned.cores.begin(), planned.cores.end());
  cpus.insert(planned.thread_cores.begin(), planned.thread_cores.end());
  for (const SegmentPlan& s : planned.segments) {
    for (const StrandPlan& st : s.strands) cpus.insert(st.core);
  }
  return {cpus.begin(), cpus.end()};
}

TaskMeasurement profile_task(const TaskSet& set, std::size_t index, const TaskPlan& planned,
                             PlannerKind planner, const ProfileSettings& settings) {
  const TaskSpec& task = set.tasks[index];
  TaskMeasurement m;
  m.name = task.name;
  m.team_cores = team_cpus(planned);
  const std::vector<int> master_cpus =
      !planned.thread_cores.empty() ? planned.thread_cores : planned.cores;
  // The one-core run uses the core of the task's master, or the set's first real-time core.
  m.cpu = !master_cpus.empty()        ? master_cpus.front()
          : !m.team_cores.empty()     ? m.team_cores.front()
          : !set.system.cores.empty() ? set.system.cores.front()
                                      : 0;
  m.one_core_period = one_core_period(task);

  // 1. Work: alone on one core, a team (or pool) of one thread; CPU time per job.
  {
    TaskPlan one_core;
    one_core.name = task.name;
    one_core.heavy = planned.heavy;
    one_core.cores = {m.cpu};
    one_core.priority =
        planned.priority >= 1 && planned.priority <= 99 ? planned.priority : kDefaultPriority;
    one_core.dedicated_cores = true;  // nothing else runs there
    auto timed = std::make_shared<kernels::CpuTimedKernel>(kernels::make_kernel(task),
                                                           static_cast<std::size_t>(settings.runs));
    const TaskSet one = alone(set, index, m.one_core_period, timed);
    RunOutcome out = run_alone(one, one_core, planner, settings.runs, settings);
    m.cpu_ns = timed->samples();
    for (const JobRecord& r : out.run.records)
      m.one_core_wall_ns.push_back(r.finish_ns - r.start_ns);
    m.interrupted = out.interrupted;
    m.failure = out.failure;
    if (m.interrupted || !m.failure.empty()) return m;
  }

  // 2. Response: alone on its planned team, released every T as in a run of the whole set.
  if (m.team_cores.empty()) return m;  // not placed (the plan's reason says why)
  TaskPlan team = planned;
  if (team.priority < 1 || team.priority > 99) team.priority = kDefaultPriority;
  const TaskSet one = alone(set, index, task.period, kernels::make_kernel(task));
  RunOutcome out = run_alone(one, team, planner, settings.runs, settings);
  m.team_ran = true;
  m.team_threads = static_cast<int>(!planned.thread_cores.empty() ? planned.thread_cores.size()
                                    : !planned.segments.empty()
                                        ? m.team_cores.size()
                                        : std::max<std::size_t>(planned.cores.size(), 1));
  m.team = std::move(out.run);
  m.interrupted = out.interrupted;
  m.failure = out.failure;
  return m;
}

}  // namespace rtpar::cli
