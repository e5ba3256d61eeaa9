// trace.cpp — trace.json: the run as Chrome trace events, for ui.perfetto.dev or chrome://tracing.
//
// Format: https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
// Timestamps ("ts", "dur") are microseconds as floating point, relative to RunReport::start_ns so
// they stay small and keep nanosecond precision.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "rtpar/report.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar {
namespace {

using Json = nlohmann::ordered_json;

// kPid is the single trace process every task's thread belongs to.
constexpr int kPid = 1;

// kSyntheticTidBase numbers tasks whose master tid is unknown (0). Linux caps pid_max at 2^22
// (PID_MAX_LIMIT), so ids above it cannot collide with a real thread id in the same trace.
constexpr std::int64_t kSyntheticTidBase = (std::int64_t{1} << 22) + 1;

// EventStream appends events one by one. Each event is a small nlohmann object dumped at once, so
// a run with millions of jobs never holds the whole trace as a JSON tree (only as text).
class EventStream {
 public:
  // add appends one event to the traceEvents array.
  void add(const Json& event) {
    text_ += first_ ? "\n" : ",\n";
    first_ = false;
    text_ += event.dump();
  }
  // finish closes the document; other_data records what a viewer cannot infer from events.
  std::string finish(const Json& other_data) {
    text_ += "\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": ";
    text_ += other_data.dump();
    text_ += "\n}";
    return std::move(text_);
  }

 private:
  std::string text_ = "{\"traceEvents\": [";
  bool first_ = true;
};

// micros converts an absolute CLOCK_MONOTONIC time into trace microseconds since the run start.
double micros(std::int64_t abs_ns, std::int64_t origin_ns) {
  return static_cast<double>(abs_ns - origin_ns) / 1000.0;
}

}  // namespace

std::string trace_json(const RunReport& report) {
  EventStream events;
  const std::int64_t origin = report.start_ns;
  events.add({{"name", "process_name"},
              {"ph", "M"},
              {"pid", kPid},
              {"args", {{"name", report.best_effort ? "rtpar (best effort)" : "rtpar"}}}});

  for (std::size_t t = 0; t < report.tasks.size(); ++t) {
    const TaskRun& run = report.tasks[t];
    const std::int64_t tid = run.master_tid != 0 ? std::int64_t{run.master_tid}
                                                 : kSyntheticTidBase + static_cast<std::int64_t>(t);
    events.add({{"name", "thread_name"},
                {"ph", "M"},
                {"pid", kPid},
                {"tid", tid},
                {"args", {{"name", run.name}}}});
    // Without a sort index viewers order threads by tid, which says nothing about the task set.
    events.add({{"name", "thread_sort_index"},
                {"ph", "M"},
                {"pid", kPid},
                {"tid", tid},
                {"args", {{"sort_index", t}}}});

    for (const JobRecord& r : run.records) {
      const std::int64_t response = r.finish_ns - r.release_ns;
      const bool missed = response > run.deadline_ns;  // the miss rule of report.hpp
      events.add({{"name", "release"},
                  {"cat", "release"},
                  {"ph", "i"},
                  {"s", "t"},
                  {"ts", micros(r.release_ns, origin)},
                  {"pid", kPid},
                  {"tid", tid},
                  {"args", {{"job", r.index}}}});
      // dur must not be negative or viewers drop the event; a record can only be inverted if the
      // runtime stored a job it never finished.
      auto job = Json{{"name", run.name + " #" + std::to_string(r.index)},
                      {"cat", "job"},
                      {"ph", "X"},
                      {"ts", micros(r.start_ns, origin)},
                      {"dur", micros(std::max(r.finish_ns, r.start_ns), r.start_ns)},
                      {"pid", kPid},
                      {"tid", tid},
                      {"args",
                       {{"release_offset_ns", r.release_ns - origin},
                        {"start_offset_ns", r.start_ns - origin},
                        {"response_ns", response},
                        {"missed", missed}}}};
      if (run.profiled && r.work_ns > 0) {
        // The job's online measurement (runtime = "steal"), shown when the job is selected.
        job["args"]["work_ns"] = r.work_ns;
        job["args"]["span_ns"] = r.span_ns;
        job["args"]["burdened_span_ns"] = r.burdened_span_ns;
      }
      events.add(std::move(job));
      if (missed) {
        events.add({{"name", "deadline miss"},
                    {"cat", "miss"},
                    {"ph", "i"},
                    {"s", "t"},
                    {"ts", micros(r.release_ns + run.deadline_ns, origin)},
                    {"pid", kPid},
                    {"tid", tid},
                    {"args", {{"job", r.index}, {"lateness_ns", response - run.deadline_ns}}}});
      }
    }
  }

  return events.finish({{"start_ns", report.start_ns},
                        {"duration_ns", report.duration_ns},
                        {"best_effort", report.best_effort},
                        {"interrupted", report.interrupted}});
}

}  // namespace rtpar
