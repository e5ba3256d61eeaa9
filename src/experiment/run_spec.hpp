// run_spec.hpp — the run settings of a series of a `class = "runtime"` manifest
// (docs/experiments.md "Runtime manifests"): how each trial's admitted plan is executed on this
// machine by the real executor (rtpar/executor.hpp) — pinned threads, SCHED_FIFO, real releases.
#pragma once

#include <cstdint>
#include <string>

#include "load/toml_fields.hpp"

namespace rtpar::experiment {

// RunSpec is one series' run settings. A series of a runtime manifest always has one (all
// defaults when it states no run key).
struct RunSpec {
  // admission: run only the plans the planner admits (a refused set counts as `rejected`); false:
  // also run a refused plan when it places every task (RunConfig::run_refused), so the set's
  // verdict is its run's alone — what RT-OpenMP (decision RO5) and OpenMP-RT's baseline did.
  bool admission = true;
  // duration_ns: releases stop after this long (RunConfig::duration); a unit of a runtime study
  // costs about Σ over its series of this, plus set-up.
  std::int64_t duration_ns = 2'000'000'000;
  // cpu_latency_us: the CPU latency QoS cap held for the run (RunConfig::cpu_latency_us; -1:
  // none, written `cpu_latency = "off"`).
  std::int64_t cpu_latency_us = 0;
  // best_effort: run at SCHED_OTHER (no real-time privilege needed; results are then only a
  // functional check, said in the rows' series name by the manifest's author).
  bool best_effort = false;
  // baseline: "" runs the plan on rtpar's executor; "openmp-tasks" runs the set instead as
  // OpenMP-RT's baseline (OpenMP-RT §5.2): OpenMP tasks with loops and delays on stock libgomp,
  // SCHED_OTHER, unpinned, no admission (rtpar-omp-looptasks, bench/omp/looptasks.c). The plan is
  // still made, for the plan_admitted column only.
  std::string baseline;
};

// kBaselineOpenmpTasks names OpenMP-RT's baseline (RunSpec::baseline).
inline constexpr const char* kBaselineOpenmpTasks = "openmp-tasks";

// kMaxRunDurationNs bounds `duration`: one trial of one series at most 10 minutes of real time.
inline constexpr std::int64_t kMaxRunDurationNs = 600'000'000'000;

// read_run_spec reads a series' run keys (admission, duration, cpu_latency, best_effort,
// baseline); errors
// name file, line, column and field.
RunSpec read_run_spec(const model::TableReader& t);

// describe is one line of a runtime series' settings (`rtpar experiment show`).
std::string describe(const RunSpec& run);

}  // namespace rtpar::experiment
