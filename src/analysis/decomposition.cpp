// decomposition.cpp — plan_decomposition: RT-OpenMP's scheduler (rt-openmp.md §IV-A). Every task
// is decomposed into strands with release offsets and deadlines (decompose.hpp), the strands are
// partitioned onto the cores (fbb_ffd.hpp, heuristic from system.fit), and each segment gets a
// deadline-monotonic priority shared by its strands (the segment-level fixed-priority scheduler).
// A task is admitted when every one of its strands is placed; it then completes by D_i, because
// its last segment's window ends exactly at D_i.
#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "analysis/decompose.hpp"
#include "analysis/fbb_ffd.hpp"
#include "analysis/light_assign.hpp"
#include "analysis/priorities.hpp"
#include "analysis/stages.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/topology.hpp"

namespace rtpar {

Plan plan_decomposition(const TaskSet& set, const PlanOptions& options) {
  model::check_task_parameters(set);
  Plan plan;
  plan.planner = PlannerKind::decomposition;
  plan.cores =
      options.target != nullptr ? options.target->cpus() : analysis::realtime_cores(set.system);
  plan.tasks.resize(set.tasks.size());
  plan.schedulable = !set.tasks.empty() && !plan.cores.empty();
  if (plan.cores.empty()) plan.notes.push_back("no real-time cores to place strands on");

  std::vector<std::vector<analysis::DecomposedSegment>> decomposed(set.tasks.size());
  std::vector<analysis::FbbStrand> strands;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    const TaskSpec& task = set.tasks[i];
    TaskPlan& tp = plan.tasks[i];
    tp.name = task.name;
    tp.heavy = task.work > task.deadline;
    tp.utilization = task.utilization();
    std::string why;
    const auto stages = analysis::stages_of(task, why);
    std::optional<std::vector<analysis::DecomposedSegment>> parts;
    if (stages) parts = analysis::decompose(*stages, task.deadline.count(), why);
    if (!parts) {
      tp.reason = why;
      plan.schedulable = false;
      continue;
    }
    decomposed[i] = *parts;
    for (std::size_t j = 0; j < parts->size(); ++j) {
      const analysis::DecomposedSegment& seg = (*parts)[j];
      for (std::int64_t k = 0; k < seg.strands; ++k) {
        strands.push_back(
            analysis::FbbStrand{i, j, seg.length, seg.offset, seg.window, task.period.count()});
      }
    }
  }

  const std::vector<int> core_index =
      analysis::fbb_place(strands, static_cast<int>(plan.cores.size()), set.system.fit);

  // Segment-level deadline-monotonic priorities in fbb_order: one distinct value per segment,
  // 90 downwards (clamped at 1, where segments beyond the 90th share the lowest priority).
  std::vector<std::vector<int>> seg_priority(set.tasks.size());
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    seg_priority[i].assign(decomposed[i].size(), analysis::kBottomPriority);
  }
  int next = analysis::kTopPriority;
  std::set<std::pair<std::size_t, std::size_t>> ranked;
  for (const std::size_t k : analysis::fbb_order(strands)) {
    const auto key = std::make_pair(strands[k].task, strands[k].segment);
    if (!ranked.insert(key).second) continue;
    seg_priority[key.first][key.second] = std::max(analysis::kBottomPriority, next--);
  }
  if (next < analysis::kBottomPriority - 1) {
    plan.notes.push_back(
        "more than 90 segments: the lowest-priority segments share SCHED_FIFO priority 1, which "
        "the load condition does not model exactly");
  }

  std::size_t k = 0;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    TaskPlan& tp = plan.tasks[i];
    if (tp.reason) continue;
    int unplaced = 0;
    std::set<int> used;
    for (std::size_t j = 0; j < decomposed[i].size(); ++j) {
      const analysis::DecomposedSegment& seg = decomposed[i][j];
      SegmentPlan sp;
      sp.length_ns = seg.length;
      sp.offset_ns = seg.offset;
      sp.deadline_ns = seg.offset + seg.window;
      for (std::int64_t s = 0; s < seg.strands; ++s, ++k) {
        const int q = core_index[k];
        if (q < 0) {
          ++unplaced;
          sp.strands.push_back(StrandPlan{-1, seg_priority[i][j]});
          continue;
        }
        const int cpu = plan.cores[static_cast<std::size_t>(q)];
        used.insert(cpu);
        sp.strands.push_back(StrandPlan{cpu, seg_priority[i][j]});
      }
      tp.segments.push_back(std::move(sp));
    }
    tp.cores.assign(used.begin(), used.end());
    tp.cores_needed = static_cast<int>(used.size());
    tp.priority = *std::max_element(seg_priority[i].begin(), seg_priority[i].end());
    if (unplaced > 0) {
      tp.reason = fmt::format("{} strand(s) fit on no core under the {} load condition", unplaced,
                              to_string(set.system.fit));
      plan.schedulable = false;
    } else {
      tp.response_bound_ns = set.tasks[i].deadline.count();
    }
  }
  return plan;
}

}  // namespace rtpar
