// trace.cpp — trace.json: the run as Chrome trace events, for ui.perfetto.dev or chrome://tracing.
//
// Format: https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
// Timestamps ("ts", "dur") are microseconds as floating point, relative to RunReport::start_ns so
// they stay small and keep nanosecond precision.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

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

// kThreadPid and kCpuPid are the trace processes of the per-thread and per-CPU tracks.
constexpr int kThreadPid = 2;
constexpr int kCpuPid = 3;

// kThreadTidBase and kCpuTidBase number those tracks, above every synthetic task tid, so a track
// never merges with a task's (viewers key threads by tid).
constexpr std::int64_t kThreadTidBase = kSyntheticTidBase + (std::int64_t{1} << 20);
constexpr std::int64_t kCpuTidBase = kThreadTidBase + (std::int64_t{1} << 20);
// kLaneStride separates the lanes of one CPU (kCpuTidBase + lane · kLaneStride + cpu).
constexpr std::int64_t kLaneStride = std::int64_t{1} << 12;

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

// kind_name is a ThreadSliceKind's "cat" in the trace.
const char* kind_name(ThreadSliceKind kind) {
  switch (kind) {
    case ThreadSliceKind::job:
      return "job";
    case ThreadSliceKind::segment:
      return "segment";
    case ThreadSliceKind::wait:
      return "wait";
    case ThreadSliceKind::overrun:
      return "overrun";
    case ThreadSliceKind::share:
      return "share";
    case ThreadSliceKind::steal:
      return "steal";
  }
  return "?";
}

// slice_name is how a thread slice is labelled: what ran, or what the thread did.
std::string slice_name(const std::string& task, const ThreadSlice& s) {
  const std::string job = task + " #" + std::to_string(s.job);
  switch (s.kind) {
    case ThreadSliceKind::job:
      return job;
    case ThreadSliceKind::segment:
      return job + " seg " + std::to_string(s.segment);
    case ThreadSliceKind::wait:
      return "wait (gate " + std::to_string(s.segment - 1) + ")";
    case ThreadSliceKind::overrun:
      return "overrun";
    case ThreadSliceKind::share:
      return job + " share";
    case ThreadSliceKind::steal:
      return job + " steal";
  }
  return job;
}

// named_track emits the metadata that names track `tid` of process `pid` and orders it.
void named_track(EventStream& events, int pid, std::int64_t tid, const std::string& name,
                 std::int64_t sort_index) {
  events.add({{"name", "thread_name"},
              {"ph", "M"},
              {"pid", pid},
              {"tid", tid},
              {"args", {{"name", name}}}});
  events.add({{"name", "thread_sort_index"},
              {"ph", "M"},
              {"pid", pid},
              {"tid", tid},
              {"args", {{"sort_index", sort_index}}}});
}

// CpuSlice is a thread slice placed on the CPU its thread was pinned to.
struct CpuSlice {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::string name;
  std::int64_t job = 0;
  int tid = 0;
  const std::string* task = nullptr;
};

// thread_tracks emits one track per thread that recorded slices (process "threads") and one per
// CPU (process "CPUs"): every job or segment slice of a thread pinned there. Slices on a CPU nest
// when a thread preempts another; one that would overlap another only partly (a thread that
// blocked inside its slice) goes to a further lane of the CPU, "CPU n (lane k)". Returns the
// number of slices dropped because a thread's storage was full.
std::int64_t thread_tracks(EventStream& events, const RunReport& report, std::int64_t origin) {
  std::int64_t dropped = 0;
  std::int64_t index = 0;
  std::map<int, std::vector<CpuSlice>> by_cpu;
  for (const TaskRun& run : report.tasks) {
    for (const ThreadTrack& thread : run.threads) {
      const std::int64_t tid = kThreadTidBase + index;
      dropped += thread.dropped;
      std::string name = run.name + " " + thread.role;
      if (thread.cpu >= 0) name += " (CPU " + std::to_string(thread.cpu) + ")";
      named_track(events, kThreadPid, tid, name, index++);
      for (const ThreadSlice& s : thread.slices) {
        events.add({{"name", slice_name(run.name, s)},
                    {"cat", kind_name(s.kind)},
                    {"ph", "X"},
                    {"ts", micros(s.start_ns, origin)},
                    {"dur", micros(std::max(s.end_ns, s.start_ns), s.start_ns)},
                    {"pid", kThreadPid},
                    {"tid", tid},
                    {"args",
                     {{"task", run.name},
                      {"job", s.job},
                      {"segment", s.segment},
                      {"thread_tid", thread.tid}}}});
        const bool ran = s.kind == ThreadSliceKind::job || s.kind == ThreadSliceKind::segment ||
                         s.kind == ThreadSliceKind::share || s.kind == ThreadSliceKind::steal;
        if (ran && thread.cpu >= 0) {
          by_cpu[thread.cpu].push_back({s.start_ns, std::max(s.end_ns, s.start_ns),
                                        slice_name(run.name, s), s.job, thread.tid, &run.name});
        }
      }
    }
  }
  if (index > 0) {
    events.add({{"name", "process_name"},
                {"ph", "M"},
                {"pid", kThreadPid},
                {"args", {{"name", "threads"}}}});
  }
  if (!by_cpu.empty()) {
    events.add(
        {{"name", "process_name"}, {"ph", "M"}, {"pid", kCpuPid}, {"args", {{"name", "CPUs"}}}});
  }
  for (auto& [cpu, slices] : by_cpu) {
    // Longest first among equal starts, so an enclosing slice opens before what it encloses.
    std::sort(slices.begin(), slices.end(), [](const CpuSlice& a, const CpuSlice& b) {
      return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
    });
    std::vector<std::vector<std::int64_t>> lanes;  // per lane: the ends of its open slices
    for (const CpuSlice& s : slices) {
      std::size_t lane = 0;
      for (; lane < lanes.size(); ++lane) {
        std::vector<std::int64_t>& open = lanes[lane];
        while (!open.empty() && open.back() <= s.start_ns) open.pop_back();
        if (open.empty() || open.back() >= s.end_ns) break;
      }
      if (lane == lanes.size()) {
        lanes.emplace_back();
        const std::int64_t tid = kCpuTidBase + static_cast<std::int64_t>(lane) * kLaneStride + cpu;
        named_track(events, kCpuPid, tid,
                    "CPU " + std::to_string(cpu) +
                        (lane == 0 ? "" : " (lane " + std::to_string(lane) + ")"),
                    tid - kCpuTidBase);
      }
      lanes[lane].push_back(s.end_ns);
      events.add({{"name", s.name},
                  {"cat", "cpu"},
                  {"ph", "X"},
                  {"ts", micros(s.start_ns, origin)},
                  {"dur", micros(s.end_ns, s.start_ns)},
                  {"pid", kCpuPid},
                  {"tid", kCpuTidBase + static_cast<std::int64_t>(lane) * kLaneStride + cpu},
                  {"args", {{"task", *s.task}, {"job", s.job}, {"thread_tid", s.tid}}}});
    }
  }
  return dropped;
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

  const std::int64_t dropped = thread_tracks(events, report, origin);
  return events.finish({{"start_ns", report.start_ns},
                        {"thread_slices_dropped", dropped},
                        {"duration_ns", report.duration_ns},
                        {"best_effort", report.best_effort},
                        {"interrupted", report.interrupted}});
}

}  // namespace rtpar
