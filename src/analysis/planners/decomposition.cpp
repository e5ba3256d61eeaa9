// decomposition.cpp — plan_decomposition: RT-OpenMP's scheduler (RT-OpenMP §IV-A). Every task
// is decomposed into strands with release offsets and deadlines (decompose.hpp), all strands are
// partitioned onto the cores in deadline-monotonic order (fbb_ffd.hpp, heuristic from
// system.fit), and each strand gets the deadline-monotonic priority of its segment among the
// segments on its core (the paper's segment-level fixed-priority scheduler, ranked per core).
// A task is admitted when every one of its strands is placed: each then meets its window, so each
// segment completes by the next one's offset and the last by D_i. Formulas, sources and the
// soundness argument: docs/analysis/decomposition.md. A charged kernel interference
// (PlanOptions::interference) enters the load condition as the server's I(d) (fbb_ffd.hpp).
// With an overhead profile (PlanOptions::overhead) every strand of segment j is decomposed and
// placed with length e_j + Λ(1) + (j > 0 ? β(n) : 0) (RT-OpenMP §VI-B's two measured
// overheads; overhead_charge.hpp, docs/analysis.md "Overhead profiles"); the plan states the
// declared e_j, which is what the kernel runs.
// With PlanOptions::force_place the strands the load condition refuses are placed anyway
// (fbb_place's `force`): the plan stays refused, says force_placed, and bounds no such task.
#include <fmt/core.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bounds/fbb_ffd.hpp"
#include "analysis/bounds/light_first_fit.hpp"
#include "analysis/bounds/overhead_charge.hpp"
#include "analysis/bounds/priorities.hpp"
#include "analysis/bounds/segment_decomposition.hpp"
#include "analysis/bounds/stages.hpp"
#include "analysis/planners/interference_charge.hpp"
#include "analysis/planners/lock_blocking.hpp"
#include "core/checked_math.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar {

namespace {

// segments_of returns the task's parallel-synchronous segments ([[task.segment]], the synchronous
// form of its [[task.node]] DAG, or one strand of C for a sequential task), or nullopt with `why`
// when a parallel task has no structure to decompose.
std::optional<std::vector<SegmentSpec>> segments_of(const TaskSpec& task, std::string& why) {
  if (task.segments.empty() && !task.dag && task.work != task.span) {
    why = fmt::format(
        "a parallel task (C = {} ns > L = {} ns) needs [[task.segment]] or [[task.node]] "
        "structure to be decomposed into strands{}",
        task.work.count(), task.span.count(), analysis::structure_hint(task));
    return std::nullopt;
  }
  return analysis::stages_of(task, why);
}

// unplaced_reason describes the first segment of a task with strands no core admits.
// With a charged server the condition it names has the server's I(d) in it.
std::string unplaced_reason(const analysis::DecomposedSegment& seg, std::size_t index,
                            std::int64_t unplaced, bool level_full, FitKind fit,
                            const std::optional<analysis::PeriodicServer>& server) {
  std::string why = fmt::format(
      "segment {}: {} of {} strand(s) fit on no core: none passes the {} load condition "
      "d − ΣRBF{} ≥ e with window d = {} ns, strand e = {} ns",
      index, unplaced, seg.strands, to_string(fit), server ? " − I(d)" : "", seg.window,
      seg.length);
  if (server) {
    why += fmt::format(" (I(d) = {} ns: {}, {} ns every {} ns, per core)",
                       analysis::server_interference(*server, seg.window), server->what,
                       server->budget_ns, server->period_ns);
  }
  if (level_full) {
    why += fmt::format(
        " (or the cores that pass already hold {} segments, one per SCHED_FIFO "
        "priority {}..{})",
        analysis::kPriorityLevels, analysis::kBottomPriority, analysis::kTopPriority);
  }
  return why;
}

// charge_segments raises `segments` by the profile's release latency of one member and barrier
// cost for a team of at most min(cores, Σ strands) members (the members are the distinct cores
// its strands land on), noting the charge; nullopt with `why` when a length overflows.
std::optional<std::vector<SegmentSpec>> charge_segments(
    const TaskSpec& task, const std::vector<SegmentSpec>& segments, const OverheadProfile& profile,
    const SystemSpec& system, int cores, std::vector<std::string>& notes, std::string& why) {
  const std::int64_t strands = std::accumulate(
      segments.begin(), segments.end(), std::int64_t{0},
      [](std::int64_t sum, const SegmentSpec& s) { return sat_add(sum, s.strands); });
  const int team = static_cast<int>(std::clamp<std::int64_t>(strands, 1, std::max(1, cores)));
  const analysis::SegmentCharge charge = analysis::segment_charge(profile, task, team, &system);
  notes.push_back(analysis::segment_charge_note(task, segments.size(), charge, profile));
  auto charged = analysis::charged_segments(segments, charge);
  if (!charged) {
    why =
        "bound overflows: a segment's length plus its release and barrier overheads exceeds "
        "2^63 ns";
  }
  return charged;
}

}  // namespace

Plan plan_decomposition(const TaskSet& set, const PlanOptions& options) {
  model::check_task_parameters(set);
  Plan plan;
  plan.planner = PlannerKind::decomposition;
  plan.cores =
      options.target != nullptr ? options.target->cpus() : analysis::realtime_cores(set.system);
  plan.tasks.resize(set.tasks.size());
  plan.schedulable = !set.tasks.empty() && !plan.cores.empty();
  if (plan.cores.empty()) plan.notes.push_back("no real-time cores to place strands on");

  // 1. Decompose every task; collect its strands (segment order, strand order).
  std::vector<std::optional<analysis::Decomposition>> decomposed(set.tasks.size());
  std::vector<std::vector<SegmentSpec>> declared(set.tasks.size());  // before overheads
  std::vector<analysis::FbbStrand> strands;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    const TaskSpec& task = set.tasks[i];
    TaskPlan& tp = plan.tasks[i];
    tp.name = task.name;
    tp.heavy = task.work > task.deadline;
    tp.utilization = task.utilization();
    std::string why;
    auto segments = segments_of(task, why);
    if (segments && options.overhead != nullptr) {
      declared[i] = *segments;
      segments = charge_segments(task, *segments, *options.overhead, set.system,
                                 static_cast<int>(plan.cores.size()), plan.notes, why);
    }
    if (segments) decomposed[i] = analysis::decompose(*segments, task.deadline.count(), why);
    if (!decomposed[i]) {
      tp.reason = why;
      plan.schedulable = false;
      continue;
    }
    if (!decomposed[i]->paper_rule) {
      plan.notes.push_back(fmt::format(
          "{}: 2.5·L ≥ D (no slack on RT-OpenMP's speed-2 machine); its windows split D in "
          "proportion to segment lengths (the all-light rule, the limit of §IV-A as the slack "
          "goes to 0), outside the capacity-augmentation bound",
          task.name));
    }
    if (task.priority) {
      plan.notes.push_back(fmt::format(
          "{}: priority = {} is ignored: decomposition ranks every segment deadline-monotonically "
          "per core, which its analysis relies on",
          task.name, *task.priority));
    }
    const auto& segs = decomposed[i]->segments;
    // Room for the task's strands at once, growing geometrically: a set holds thousands.
    std::size_t need = strands.size();
    for (const auto& seg : segs) need += static_cast<std::size_t>(seg.strands);
    if (need > strands.capacity()) strands.reserve(std::max(need, 2 * strands.capacity()));
    for (std::size_t j = 0; j < segs.size(); ++j) {
      for (std::int64_t k = 0; k < segs[j].strands; ++k) {
        strands.push_back(analysis::FbbStrand{i, j, segs[j].length, segs[j].offset, segs[j].window,
                                              task.period.count()});
      }
    }
  }

  // 2. Partition all strands at once, in deadline-monotonic order; 3. rank segments per core.
  //    With the kernel's interference charged, every core's load condition also counts the
  //    server's I(d) (fbb_ffd.hpp), so strands go where they still fit with it.
  const std::optional<analysis::PeriodicServer> server = analysis::charged_server(options, set);
  const analysis::FbbResult placed =
      analysis::fbb_place(strands, static_cast<int>(plan.cores.size()), set.system.fit,
                          analysis::kPriorityLevels, server, options.force_place);
  const std::vector<int>& priority = placed.priority;  // strand_priorities(strands, placed.core)

  // 4. Assemble the task plans; strands were generated task by task, segment by segment.
  const bool cores_ascending = std::adjacent_find(plan.cores.begin(), plan.cores.end(),
                                                  std::greater_equal<int>()) == plan.cores.end();
  std::size_t k = 0;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    TaskPlan& tp = plan.tasks[i];
    if (!decomposed[i]) continue;
    // Which cores (by index into plan.cores, ascending CPU ids) the task's strands use.
    std::vector<char> used(plan.cores.size(), 0);
    const auto& segs = decomposed[i]->segments;
    for (std::size_t j = 0; j < segs.size(); ++j) {
      SegmentPlan sp;
      sp.strands.reserve(static_cast<std::size_t>(segs[j].strands));
      // The declared length: the charged one is only the analysis' (the kernel runs e_j).
      sp.length_ns = declared[i].empty() ? segs[j].length : declared[i][j].length.count();
      sp.offset_ns = segs[j].offset;
      sp.deadline_ns = segs[j].offset + segs[j].window;
      std::int64_t unplaced = 0;  // refused by the test, placed by force or not at all
      std::int64_t forced = 0;
      bool level_full = false;
      for (std::int64_t s = 0; s < segs[j].strands; ++s, ++k) {
        const int q = placed.core[k];
        if (q < 0 || placed.forced[k]) {
          ++unplaced;
          level_full = level_full || placed.level_full[k];
        }
        if (q < 0) {
          sp.strands.push_back(StrandPlan{-1, 0});
          continue;
        }
        forced += placed.forced[k] ? 1 : 0;
        const int cpu = plan.cores[static_cast<std::size_t>(q)];
        used[static_cast<std::size_t>(q)] = 1;
        sp.strands.push_back(StrandPlan{cpu, priority[k]});
        tp.priority = std::max(tp.priority, priority[k]);
      }
      if (unplaced > 0 && !tp.reason) {
        tp.reason = unplaced_reason(segs[j], j, unplaced, level_full, set.system.fit, server);
        if (forced > 0) {
          *tp.reason += fmt::format(
              "; {} of them placed anyway (force_place: {}, no admission claim)", forced,
              set.system.fit == FitKind::worst_fit ? "the least-loaded core" : "the first core");
        }
      }
      plan.force_placed = plan.force_placed || forced > 0;
      tp.segments.push_back(std::move(sp));
    }
    for (std::size_t q = 0; q < used.size(); ++q) {
      if (used[q] != 0) tp.cores.push_back(plan.cores[q]);
    }
    if (!cores_ascending) {  // as a std::set of CPU ids would give them
      std::sort(tp.cores.begin(), tp.cores.end());
      tp.cores.erase(std::unique(tp.cores.begin(), tp.cores.end()), tp.cores.end());
    }
    tp.cores_needed = static_cast<int>(tp.cores.size());
    if (tp.reason) {
      plan.schedulable = false;
    } else {
      tp.response_bound_ns = set.tasks[i].deadline.count();
    }
  }
  // The segment deadlines assume independent strands: a shared lock refuses the set.
  analysis::refuse_lock_channels(plan, set, "decomposition");
  if (plan.force_placed) {
    plan.notes.push_back(
        "force_place: strands the FBB-FFD load condition refuses were placed anyway (first-fit: "
        "the first core, worst-fit: the least-loaded); the set is NOT admitted (no response "
        "bound for those tasks): only an execution can judge it");
  }
  return plan;
}

}  // namespace rtpar
