// measured_inputs.cpp — see measured_inputs.hpp.
#include "analysis/planners/measured_inputs.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "model/structure.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

namespace {

// Ratio is num/den > 0: the factor a structure's lengths are scaled by.
struct Ratio {
  std::int64_t num = 1;
  std::int64_t den = 1;
};

// larger returns the larger of two ratios (exact: the cross products fit in 128 bits).
Ratio larger(Ratio a, Ratio b) {
  return static_cast<__int128>(a.num) * b.den >= static_cast<__int128>(b.num) * a.den ? a : b;
}

// scaled is ⌈d · r⌉, saturating at the largest Duration (a saturated sum is then refused by the
// planners as too large, never wrapped to a small value).
Duration scaled(Duration d, Ratio r) {
  const __int128 v = (static_cast<__int128>(d.count()) * r.num + r.den - 1) / r.den;
  return Duration(v > std::numeric_limits<std::int64_t>::max()
                      ? std::numeric_limits<std::int64_t>::max()
                      : static_cast<std::int64_t>(v));
}

// scale_structure multiplies every segment or node length of t by f = max(work/C, span/L), so
// that the structure's sums reach at least the raised C and L, and sets C and L to those sums.
// Returns f as text for the note.
std::string scale_structure(TaskSpec& t, Duration work, Duration span) {
  Ratio f;
  if (t.work.count() > 0) f = larger(f, Ratio{work.count(), t.work.count()});
  if (t.span.count() > 0) f = larger(f, Ratio{span.count(), t.span.count()});
  if (!t.segments.empty()) {
    for (SegmentSpec& s : t.segments) s.length = scaled(s.length, f);
    t.work = model::segments_work(t.segments);
    t.span = model::segments_span(t.segments);
  } else {
    for (DagNode& n : t.dag->nodes) n.length = scaled(n.length, f);
    t.work = model::dag_work(*t.dag);
    t.span = model::dag_span(*t.dag);
  }
  return fmt::format("{:.4f}", static_cast<double>(f.num) / static_cast<double>(f.den));
}

// work_note is the "C = max(...)" part of a task's note: every measurement that entered it.
std::string work_note(const TaskSpec& declared, const MeasuredTask& m, Duration work) {
  std::string text = "C = max(declared " + format_duration(declared.work);
  if (m.cpu_jobs > 0) {
    text += fmt::format(", measured CPU work {} (one core, max over {} jobs)",
                        format_duration(Duration(m.cpu_work_max_ns)), m.cpu_jobs);
  } else if (m.jobs > 0) {
    text += ", measured work " + format_duration(Duration(m.work_max_ns));
  }
  text += ") = " + format_duration(work);
  if (m.cpu_jobs > 0 && m.jobs > 0) {
    text += " (the online work " + format_duration(Duration(m.work_max_ns)) +
            " is wall-clock: the CPU work replaces it)";
  }
  return text;
}

// span_note is the "L = max(...)" part of a task's note.
std::string span_note(const TaskSpec& declared, const MeasuredTask& m, Duration span,
                      bool sequential) {
  std::string text =
      (m.jobs > 0 ? "L̂ = max(declared L " : "L = max(declared ") + format_duration(declared.span);
  if (m.jobs > 0) {
    text += fmt::format(", measured burdened span {} (max over {} jobs)",
                        format_duration(Duration(m.burdened_span_max_ns)), m.jobs);
  }
  if (m.span_jobs > 0) {
    text +=
        fmt::format(", measured response on its team {} (an upper bound of L, max over {} jobs)",
                    format_duration(Duration(m.span_bound_max_ns)), m.span_jobs);
  }
  if (sequential) text += ", C: a sequential task";
  return text + ") = " + format_duration(span);
}

}  // namespace

TaskSet with_measured(const TaskSet& set, const MeasuredProfile& measured, StructureRule rule,
                      std::vector<std::string>& notes) {
  TaskSet out = set;
  for (const MeasuredTask& m : measured.tasks) {
    auto it = std::find_if(out.tasks.begin(), out.tasks.end(),
                           [&](const TaskSpec& t) { return t.name == m.name; });
    if (it == out.tasks.end()) {
      notes.push_back(fmt::format("{}: measured task '{}' is not in this task set (ignored)",
                                  measured.source, m.name));
      continue;
    }
    const bool structured = !it->segments.empty() || it->dag.has_value();
    // A task declared without structure and with C = L runs sequentially: its span is its work.
    const bool sequential = !structured && it->work == it->span;
    const std::int64_t measured_span = std::max(m.jobs > 0 ? m.burdened_span_max_ns : 0,
                                                m.span_jobs > 0 ? m.span_bound_max_ns : 0);
    // The online work of a steal task is wall-clock time summed over its workers (preemption and
    // steal bookkeeping included); a CPU-time work on one core, when measured, is C itself.
    const std::int64_t measured_work = m.cpu_jobs > 0 ? m.cpu_work_max_ns
                                       : m.jobs > 0   ? m.work_max_ns
                                                      : 0;
    Duration span{std::max(it->span.count(), measured_span)};
    // Work is at least the span. A measured span above the measured work means the job was
    // preempted while on its critical path (the online measurement and the response are
    // wall-clock: best effort, or other threads on its cores); C then takes the span so the set
    // stays consistent (L ≤ C).
    const Duration work{std::max({it->work.count(), measured_work, span.count()})};
    if (sequential) span = work;
    std::string note = fmt::format("{}: {}; {} (from {})", it->name, work_note(*it, m, work),
                                   span_note(*it, m, span, sequential), measured.source);
    if ((work != it->work || span != it->span) && structured) {
      if (rule == StructureRule::drop) {
        // Planned from C and L alone: a structure that now disagrees with them would be refused as
        // bad input (the model requires C and L to equal the structure's sums).
        it->segments.clear();
        it->dag.reset();
      } else {
        note += "; every " + std::string(it->dag ? "node" : "segment") + " length scaled by " +
                scale_structure(*it, work, span) + ": C = " + format_duration(it->work) +
                ", L = " + format_duration(it->span);
        notes.push_back(std::move(note));
        continue;
      }
    }
    it->work = work;
    it->span = span;
    notes.push_back(std::move(note));
  }
  return out;
}

TaskSet with_measured(const TaskSet& set, const MeasuredProfile& measured,
                      std::vector<std::string>& notes) {
  return with_measured(set, measured, StructureRule::drop, notes);
}

}  // namespace rtpar::analysis
