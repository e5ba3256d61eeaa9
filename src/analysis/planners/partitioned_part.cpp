// partitioned_part.cpp — see partitioned_part.hpp.
#include "analysis/planners/partitioned_part.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "analysis/bounds/overhead_charge.hpp"
#include "core/checked_math.hpp"
#include "rtpar/error.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar::analysis {

std::int64_t regions_per_job(const TaskSpec& task) {
  if (task.segments.empty()) return task.span < task.work ? 1 : 0;
  return static_cast<std::int64_t>(
      std::count_if(task.segments.begin(), task.segments.end(),
                    [](const SegmentSpec& s) { return s.strands >= 2; }));
}

PartCharges part_charges(const TaskSpec& task, const SystemSpec& system, std::size_t threads,
                         const PlanOptions& options, std::vector<std::string>& notes) {
  PartCharges out;
  if (options.overhead == nullptr || threads == 0) return out;
  const OverheadProfile& profile = *options.overhead;
  const int n = static_cast<int>(std::min<std::size_t>(threads, kMaxProfiledThreads));
  // The same charges as the other planners (overhead_charge.hpp: the largest bound over team
  // sizes up to n, and a refusal naming the array when the profile cannot bound one).
  const ForkJoinCharge r =
      overhead_up_to(profile, OverheadKind::release, n, task.wait.kind, task.name);
  // The CPU-time budget (budget_charge): once per job on every budgeted thread, like the release.
  // A team on the `team` runtime budgets each member on its own (partitioned_budget.hpp), so each
  // member core is charged one thread's; a steal pool runs without one.
  const int budgeted = task.runtime == RuntimeKind::team ? 1 : static_cast<int>(threads);
  const std::int64_t budget = budget_charge(profile, system, task, budgeted);
  out.release_ns = sat_add(r.ns, budget);
  std::string release_text =
      fmt::format("release latency {} per job (`release`, p99.9 up to {} thread(s){})",
                  format_duration(Duration(r.ns)), n, r.extrapolated ? ", extrapolated" : "");
  if (budget > 0) {
    release_text += fmt::format(" + budget {} per job (docs/reliability.md \"Budgets\")",
                                format_duration(Duration(budget)));
  }
  std::string fork_text;
  // A team that never forks (L = C, no segment of ≥ 2 strands) needs no fork/join entry.
  if (threads >= 2 && regions_per_job(task) > 0) {
    const ForkJoinCharge f =
        overhead_up_to(profile, OverheadKind::fork_join, n, task.wait.kind, task.name);
    out.fork_ns = f.ns;
    out.forks = regions_per_job(task);
    fork_text = fmt::format(
        ", fork/join {} per region × {} region(s) per job (`fork_join`, p99.9 up to {} "
        "threads{})",
        format_duration(Duration(f.ns)), out.forks, n, f.extrapolated ? ", extrapolated" : "");
  }
  notes.push_back(fmt::format("{}: charged {}{}, from {} (docs/analysis/partitioned.md)", task.name,
                              release_text, fork_text, profile_name(profile)));
  return out;
}

namespace {

// add_waiting raises p.core_work by what i's waiting team members burn on their cores at the
// task's level (docs/analysis/partitioned.md, "Waiting members"): after its share of a region a
// member (or the master, at the join) waits once, spinning for up to wait_spin (hybrid) before it
// sleeps, or until the next region (spin) — at most the whole job, so then D. Threads of one
// team on distinct cores only delay other tasks this way; the team's own bound is unaffected.
void add_waiting(Part& p, const TaskSpec& task) {
  const std::int64_t regions = regions_per_job(task);
  if (p.thread_cores.size() < 2 || regions == 0 || task.wait.kind == WaitKind::block) return;
  for (std::int64_t& work : p.core_work) {
    if (task.wait.kind == WaitKind::spin) {
      work = std::max(work, p.d);
      continue;
    }
    const auto spin = checked_mul(regions, task.wait.spin_ns.count());
    const auto total = spin ? checked_add(work, *spin) : std::nullopt;
    work = total ? *total : kInt64Max;  // read as min(work, D) anyway
  }
}

// shape_own fills p.shape, p.own, p.core_work and p.shares without the waiting charge.
void shape_own(Part& p, const TaskSpec& task, const PartCharges& charges) {
  const auto m = static_cast<std::int64_t>(p.thread_cores.size());
  const bool one_per_core = m >= 2 && p.cores.size() == p.thread_cores.size();
  const bool team = task.runtime == RuntimeKind::team;
  const auto forks = checked_mul(charges.forks, charges.fork_ns);
  const auto overheads = forks ? checked_add(*forks, charges.release_ns) : std::nullopt;
  const auto all = overheads ? checked_add(p.c, *overheads) : std::nullopt;
  if (!all) {
    p.reason = "the charged overheads overflow int64 ns (not admitted)";
    return;
  }
  p.shape = PartShape::whole;
  p.own = *all;
  p.core_work.assign(p.cores.size(), *all);
  if (!one_per_core || !team) return;
  if (!task.segments.empty()) {
    // Only the `segments` kernel is known to split each segment in static blocks; another
    // kernel's code decides its own split, so its job may put all of C on one core.
    if (!task.kernel.empty() && task.kernel != "segments") return;
    const std::optional<TeamShares> shares =
        segment_shares(task.segments, m, charges.fork_ns, charges.release_ns);
    if (!shares) {
      p.reason = "a thread's work per job overflows int64 ns (not admitted)";
      return;
    }
    p.shape = PartShape::segments;
    p.shares = *shares;
    p.own = shares->critical;
    for (std::size_t r = 0; r < p.thread_cores.size(); ++r) {
      const auto at = std::lower_bound(p.cores.begin(), p.cores.end(), p.thread_cores[r]);
      p.core_work[static_cast<std::size_t>(at - p.cores.begin())] = shares->thread_work[r];
    }
    return;
  }
  // greedy: a thread may take any part of the job, so core_work stays C plus the charges.
  const std::int64_t span = std::min(task.span.count(), p.c);
  const auto own = checked_add(greedy_length(p.c, span, m), *overheads);
  if (!own) {
    p.reason = "the charged overheads overflow int64 ns (not admitted)";
    return;
  }
  p.shape = PartShape::greedy;
  p.own = *own;
}

}  // namespace

void shape_part(Part& p, const TaskSpec& task, const PartCharges& charges) {
  shape_own(p, task, charges);
  if (!p.reason) add_waiting(p, task);
}

}  // namespace rtpar::analysis
