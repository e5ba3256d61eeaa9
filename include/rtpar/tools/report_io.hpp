// rtpar/tools/report_io.hpp — rendering Plans and RunReports for people (tables) and programs
// (JSON, CSV, Chrome trace events). Schemas are documented in docs/cli.md.
#pragma once

#include <string>

#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar {

// plan_json renders the `rtpar check --json` document for a plan.
std::string plan_json(const Plan& plan, const TaskSet& set);

// TableDetail is how much a human-readable table shows: `summary` (the default) the kernel's
// interference as one plain line and each strand-level task's segments as one line; `full`
// (`rtpar check -v`, `rtpar run -v`) the interference's sources and every segment.
enum class TableDetail { summary, full };

// plan_table renders the plan as an aligned, human-readable table (with the verdict and reasons),
// in summary detail.
std::string plan_table(const Plan& plan, const TaskSet& set);

// plan_table renders the plan table in the given detail.
std::string plan_table(const Plan& plan, const TaskSet& set, TableDetail detail);

// run_json renders the `rtpar run --json` document (duration and per-task statistics).
std::string run_json(const RunReport& report);

// stats_table renders the per-task summary table printed at the end of `rtpar run` (summary
// detail).
std::string stats_table(const RunReport& report);

// stats_table renders the run's summary in the given detail (the kernel interference line).
std::string stats_table(const RunReport& report, TableDetail detail);

// jobs_csv renders one row per job:
// task,job,release_ns,start_ns,finish_ns,response_ns,deadline_ns,missed.
std::string jobs_csv(const RunReport& report);

// trace_json renders the run in Chrome trace-event format (opens in ui.perfetto.dev): each job is
// a complete event on its task's master thread, releases and misses are instant events.
std::string trace_json(const RunReport& report);

// report_json renders report.json: the run_json content plus the plan, run flags and environment.
std::string report_json(const RunReport& report);

// prepare_report_dir creates dir if missing and checks that write_report_dir can replace it:
// it holds nothing but report files, is not a mount point nor the current directory, and its
// parent is writable. Throws InputError otherwise (call it before a run, not after).
void prepare_report_dir(const std::string& dir);

// write_report_dir writes report.json, jobs.csv and trace.json into dir as a set: they are
// written into a new directory beside dir, which then replaces dir in one rename, so dir always
// holds the complete files of one run (docs/internals/executor.md). Throws InputError when
// prepare_report_dir would, and std::system_error (with the errno: EFBIG, ENOSPC, ...) when
// writing fails, in which case dir still holds its previous reports and no temporary is left.
void write_report_dir(const RunReport& report, const std::string& dir);

// load_measured_profile reads the per-task work and burdened span maxima from a report.json, and
// the CPU work and span bound of a profile (`rtpar profile --out`; tasks without a measurement are
// skipped; docs/analysis.md "Measured report"). Throws InputError naming the file and the field for an
// unreadable or malformed report (exit status 2).
MeasuredProfile load_measured_profile(const std::string& path);

}  // namespace rtpar
