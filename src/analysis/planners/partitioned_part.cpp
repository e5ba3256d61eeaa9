// partitioned_part.cpp — see partitioned_part.hpp.
#include "analysis/planners/partitioned_part.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "core/checked_math.hpp"
#include "rtpar/error.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar::analysis {

namespace {

// profile_name is how notes and errors name the overhead profile.
std::string profile_name(const OverheadProfile& profile) {
  return profile.source.empty() ? std::string("the overhead profile") : profile.source;
}

// refuse throws the InputError of a profile section that cannot bound a team's cost.
[[noreturn]] void refuse(const OverheadProfile& profile, const char* section, const TaskSpec& task,
                         std::size_t threads) {
  throw InputError(SourceLocation{profile_name(profile), 0, 0}, section,
                   fmt::format("cannot bound the {} cost of task '{}' on {} thread(s): no entry "
                               "with wait = \"{}\" that bounds that team (`rtpar calibrate` "
                               "measures every policy)",
                               section, task.name, threads, to_string(task.wait.kind)));
}

}  // namespace

std::int64_t regions_per_job(const TaskSpec& task) {
  if (task.segments.empty()) return task.span < task.work ? 1 : 0;
  return static_cast<std::int64_t>(
      std::count_if(task.segments.begin(), task.segments.end(),
                    [](const SegmentSpec& s) { return s.strands >= 2; }));
}

PartCharges part_charges(const TaskSpec& task, std::size_t threads, const PlanOptions& options,
                         std::vector<std::string>& notes) {
  PartCharges out;
  if (options.overhead == nullptr || threads == 0) return out;
  const OverheadProfile& profile = *options.overhead;
  const int n = static_cast<int>(std::min<std::size_t>(threads, kMaxProfiledThreads));
  std::string release_text;
  if (profile.release.empty()) {
    release_text = "no release latency (the profile has no `release` entries)";
  } else {
    const std::optional<ForkJoinCharge> r = profile.release_bound(n, task.wait.kind);
    if (!r) refuse(profile, "release", task, threads);
    out.release_ns = r->ns;
    release_text = fmt::format("release latency {} per job (`release`, p99.9 of {} thread(s){})",
                               format_duration(Duration(r->ns)), r->measured_threads,
                               r->extrapolated ? ", extrapolated" : "");
  }
  std::string fork_text;
  // A team that never forks (L = C, no segment of ≥ 2 strands) needs no fork/join entry.
  if (threads >= 2 && regions_per_job(task) > 0) {
    const std::optional<ForkJoinCharge> f = profile.fork_join_bound(n, task.wait.kind);
    if (!f) refuse(profile, "fork_join", task, threads);
    out.fork_ns = f->ns;
    out.forks = regions_per_job(task);
    fork_text = fmt::format(
        ", fork/join {} per region × {} region(s) per job (`fork_join`, p99.9 "
        "of {} threads{})",
        format_duration(Duration(f->ns)), out.forks, f->measured_threads,
        f->extrapolated ? ", extrapolated" : "");
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
