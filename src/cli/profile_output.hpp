// profile_output.hpp — what `rtpar profile` prints and writes: per task a summary, a `[[task]]`
// fragment with work and span filled, a latency histogram, and the JSON document that `rtpar
// check --measured` reads (docs/analysis.md "Measured report", docs/cli.md "rtpar profile").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/profile_run.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::cli {

// SpanSource says where a fragment's span comes from.
enum class SpanSource {
  burdened_span,   // runtime = "steal": the largest burdened span measured online
  response_bound,  // a team of ≥ 2 threads: the largest response on it (L ≤ R for every job)
  sequential,      // declared C = L and no structure: the span is the work
  declared,        // a team of one thread tells nothing about L: the declared span is kept
};

// Fragment is the work and span a task's `[[task]]` fragment gets (rounded up to the µs), and why.
struct Fragment {
  std::int64_t work_ns = 0;
  std::int64_t span_ns = 0;
  SpanSource span_source = SpanSource::declared;
};

// fragment_of derives the fragment from a measurement: span by span_source; work = max(largest
// CPU time on one core, span), as `check --measured` would raise C.
Fragment fragment_of(const TaskSpec& task, const TaskMeasurement& m);

// measurement_text is what `rtpar profile` prints for one task: the measured distributions, the
// `[[task]]` fragment and a histogram of the response on the team.
std::string measurement_text(const TaskSpec& task, const TaskMeasurement& m, bool best_effort);

// profile_json is the document `rtpar profile --out` writes: one entry per measured task in the
// fields `rtpar run`'s report.json uses, plus cpu_jobs/cpu_work_ns and (team tasks on ≥ 2
// threads) span_bound_ns, which `rtpar check --measured` reads.
std::string profile_json(const TaskSet& set, PlannerKind planner,
                         const std::vector<TaskMeasurement>& measured,
                         const ProfileSettings& settings);

}  // namespace rtpar::cli
