// make_seeds.cpp — writes the JSON seeds of the profile fuzz targets with rtpar's own writers, so
// the seeds always have the current format: make_seeds OVERHEAD_DIR MEASURED_DIR.
//
// OVERHEAD_DIR gets overhead profiles from overhead_profile_json (what `rtpar calibrate --out`
// writes); MEASURED_DIR gets run reports from report_json (what `rtpar run --out` writes), one
// with a work-stealing task whose work and span were measured and one without.
#include <cstdio>
#include <fstream>
#include <string>

#include "rtpar/report.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/report_io.hpp"

namespace {

// write_file writes text to path or exits non-zero.
void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) {
    std::fprintf(stderr, "make_seeds: cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

// cost is one measured fork/join entry.
rtpar::ForkJoinCost cost(int threads, rtpar::WaitKind wait, bool parked, std::int64_t p999) {
  rtpar::ForkJoinCost c;
  c.threads = threads;
  c.wait = wait;
  c.parked = parked;
  c.samples = 20000;
  c.mean_ns = static_cast<double>(p999) / 3.0;
  c.p50_ns = p999 / 4;
  c.p99_ns = p999 / 2;
  c.p999_ns = p999;
  c.max_ns = p999 * 3;
  return c;
}

// job is one recorded job of a run that started at 0.
rtpar::JobRecord job(std::int64_t index, std::int64_t period, std::int64_t response,
                     std::int64_t work) {
  rtpar::JobRecord r;
  r.index = index;
  r.release_ns = index * period;
  r.start_ns = r.release_ns + 1000;
  r.finish_ns = r.release_ns + response;
  r.work_ns = work;
  r.span_ns = work / 20;
  r.burdened_span_ns = work / 15;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_seeds OVERHEAD_DIR MEASURED_DIR\n");
    return 2;
  }
  const std::string overhead_dir = argv[1];
  const std::string measured_dir = argv[2];

  rtpar::OverheadProfile two_cores;
  two_cores.machine = "2-core KVM guest";
  for (const rtpar::WaitKind wait :
       {rtpar::WaitKind::spin, rtpar::WaitKind::block, rtpar::WaitKind::hybrid}) {
    two_cores.fork_join.push_back(cost(1, wait, false, 900));
    two_cores.fork_join.push_back(cost(2, wait, false, 4200));
    two_cores.fork_join.push_back(cost(2, wait, true, 61000));
  }
  write_file(overhead_dir + "/calibrate_2c.json", rtpar::overhead_profile_json(two_cores));
  // The same with release, barrier and supply entries (`rtpar calibrate --supply`).
  rtpar::OverheadProfile full = two_cores;
  full.release.push_back(cost(2, rtpar::WaitKind::hybrid, true, 190'000));
  full.barrier.push_back(cost(2, rtpar::WaitKind::hybrid, false, 60'000));
  full.supply = {{100'000, 41'000, 400}, {1'000'000, 153'000, 400}, {50'000'000, 9'499'000, 400}};
  write_file(overhead_dir + "/calibrate_2c_supply.json", rtpar::overhead_profile_json(full));
  rtpar::OverheadProfile one_entry;
  one_entry.fork_join.push_back(cost(8, rtpar::WaitKind::hybrid, false, 12000));
  write_file(overhead_dir + "/calibrate_one_entry.json", rtpar::overhead_profile_json(one_entry));

  rtpar::RunReport run;
  run.duration_ns = 300'000'000;
  run.memory_locked = true;
  rtpar::TaskRun solver;
  solver.name = "solver";
  solver.period_ns = solver.deadline_ns = 30'000'000;
  solver.profiled = true;
  solver.cores = {0, 1};
  for (std::int64_t i = 0; i < 10; ++i)
    solver.records.push_back(job(i, 30'000'000, 12'000'000 + i, 20'000'000));
  rtpar::TaskRun tick;
  tick.name = "tick";
  tick.period_ns = tick.deadline_ns = 10'000'000;
  tick.cores = {0};
  for (std::int64_t i = 0; i < 30; ++i) tick.records.push_back(job(i, 10'000'000, 250'000, 0));
  run.tasks = {solver, tick};
  write_file(measured_dir + "/report_steal.json", rtpar::report_json(run));
  run.tasks = {tick};
  write_file(measured_dir + "/report_no_steal.json", rtpar::report_json(run));
  return 0;
}
