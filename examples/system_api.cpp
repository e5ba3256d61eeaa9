// system_api.cpp — using rtpar as a library: build a task set in code, bind a callable to each
// task, run it for a while and print the report.
//
//   ./system_api [seconds]     (real-time if permitted, otherwise falls back to best effort)
#include <rtpar/system.hpp>
#include <rtpar/tools/report_io.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;

  rtpar::TaskSet set;
  set.system.cores = {0};  // one core is enough for these two light tasks: runs anywhere
  rtpar::TaskSpec control;
  control.name = "control";
  control.period = 5ms;
  control.deadline = 5ms;
  control.work = 200us;
  control.span = 200us;
  rtpar::TaskSpec logger = control;
  logger.name = "telemetry";
  logger.period = 20ms;
  logger.deadline = 20ms;
  logger.work = 1ms;
  logger.span = 1ms;
  set.tasks = {control, logger};

  rtpar::System system(set);
  std::vector<double> state(1024, 1.0);
  std::atomic<long> jobs{0};
  system.bind("control", [&](rtpar::JobContext& job) {
    // A control step: a parallel loop over the team (size 1 here: a light task).
    rtpar::parallel_for_static(*job.team, 0, static_cast<std::int64_t>(state.size()),
                               [&](std::int64_t i) { state[i] = state[i] * 0.5 + 1.0; });
    jobs.fetch_add(1, std::memory_order_relaxed);
  });
  system.bind("telemetry", [&](rtpar::JobContext&) { jobs.fetch_add(1); });

  const rtpar::Plan plan = system.plan();
  std::fputs(rtpar::plan_table(plan, system.taskset()).c_str(), stdout);

  rtpar::RunConfig config;
  config.duration =
      std::chrono::duration_cast<rtpar::Duration>(std::chrono::duration<double>(seconds));
  config.lock_memory = false;
  rtpar::RunReport report;
  try {
    report = system.run(config);
  } catch (const rtpar::EnvironmentError& e) {
    std::fprintf(stderr, "no real-time scheduling (%s); running best effort\n", e.what());
    config.best_effort = true;
    report = system.run(config);
  }
  std::fputs(rtpar::stats_table(report).c_str(), stdout);
  std::printf("bound callables ran %ld jobs\n", jobs.load());
  return jobs.load() > 0 ? 0 : 1;
}
