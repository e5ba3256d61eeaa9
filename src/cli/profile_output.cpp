// profile_output.cpp — see profile_output.hpp.
#include "cli/profile_output.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/names.hpp"
#include "core/table.hpp"
#include "rtpar/report.hpp"
#include "rtpar/time.hpp"

namespace rtpar::cli {

namespace {

// Json keeps keys in insertion order, as the documented schema lists them.
using Json = nlohmann::ordered_json;

// Dist is p50/p99/max of a sample, the shape of report.json's distributions.
struct Dist {
  std::int64_t min = 0, p50 = 0, p99 = 0, max = 0;
};

// dist_of summarises a sample (nearest-rank percentiles, as the run statistics); zeros when empty.
Dist dist_of(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return {};
  return {v.front(), percentile(v, 0.50), percentile(v, 0.99), v.back()};
}

// dist_json is a distribution as report.json writes one: p50, p99, max.
Json dist_json(const Dist& d) { return Json{{"p50", d.p50}, {"p99", d.p99}, {"max", d.max}}; }

// profile_stats_json is dist_json for the steal runtime's online statistics.
Json profile_stats_json(const ProfileStats& p) {
  return Json{{"p50", p.p50_ns}, {"p99", p.p99_ns}, {"max", p.max_ns}};
}

// responses is finish − release of every job of a run.
std::vector<std::int64_t> responses(const TaskRun& run) {
  std::vector<std::int64_t> r;
  r.reserve(run.records.size());
  for (const JobRecord& j : run.records) r.push_back(j.finish_ns - j.release_ns);
  return r;
}

// up_to_us rounds ns up to a whole µs: the fragment never states less than was measured.
std::int64_t up_to_us(std::int64_t ns) { return (ns + 999) / 1000 * 1000; }

// d3 renders ns for tables: the largest unit, 3 decimals.
std::string d3(std::int64_t ns) { return format_duration(Duration(ns), 3); }

// sequential says the task is declared sequential: no structure and C = L (e.g. the spin kernel).
bool sequential(const TaskSpec& task) {
  return task.segments.empty() && !task.dag && task.work == task.span;
}

// histogram renders the sample in 10 bins, one bar each. When the deadline falls inside the
// sample's range it is a bin edge (6 equal bins up to D, 4 above it), so the bars show the misses
// apart however long the tail; otherwise 10 equal bins from the sample's min to its max.
std::string histogram(const std::vector<std::int64_t>& sample, std::int64_t deadline_ns) {
  if (sample.empty()) return {};
  const auto [lo_it, hi_it] = std::minmax_element(sample.begin(), sample.end());
  const std::int64_t lo = *lo_it, hi = *hi_it + 1;  // bins are [from, to)
  std::vector<std::int64_t> edges;                  // 11 edges: 10 bins
  const auto split = [&edges](std::int64_t from, std::int64_t to, int bins) {
    for (int b = 0; b < bins; ++b) {
      edges.push_back(from +
                      static_cast<std::int64_t>(static_cast<__int128>(to - from) * b / bins));
    }
  };
  if (lo < deadline_ns && deadline_ns < hi) {
    split(lo, deadline_ns + 1, 6);  // responses ≤ D meet the deadline
    split(deadline_ns + 1, hi, 4);
  } else {
    split(lo, hi, 10);
  }
  edges.push_back(hi);
  std::vector<std::size_t> counts(edges.size() - 1, 0);
  for (const std::int64_t v : sample) {
    const auto at = std::upper_bound(edges.begin(), edges.end(), v) - edges.begin() - 1;
    counts[static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(at, 0, counts.size() - 1))]++;
  }
  constexpr std::size_t kBarWidth = 40;
  const std::size_t top = *std::max_element(counts.begin(), counts.end());
  std::string out;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const std::size_t n = counts[b];
    const std::size_t bar = top == 0 ? 0 : (n * kBarWidth + top - 1) / top;
    out += fmt::format("  {:>11} .. {:<11} {:>6}  {}{}\n", d3(edges[b]), d3(edges[b + 1]), n,
                       std::string(bar, '#'), edges[b] > deadline_ns ? "  (> D: missed)" : "");
  }
  return out;
}

// span_source_text is the fragment's comment on its span.
std::string_view span_source_text(SpanSource s) {
  switch (s) {
    case SpanSource::burdened_span:
      return "largest burdened span measured online (runtime = \"steal\")";
    case SpanSource::response_bound:
      return "largest response on its team: an upper bound of L (no job finishes before its "
             "critical path)";
    case SpanSource::sequential:
      return "a sequential task (declared C = L, no structure): the span is the work";
    case SpanSource::declared:
      return "declared value kept: a team of one thread cannot show the span";
  }
  return "";
}

// span_source_key is the JSON spelling of a SpanSource (fragment.span_from).
std::string_view span_source_key(SpanSource s) {
  switch (s) {
    case SpanSource::burdened_span:
      return "burdened_span";
    case SpanSource::response_bound:
      return "response_bound";
    case SpanSource::sequential:
      return "sequential";
    case SpanSource::declared:
      return "declared";
  }
  return "";
}

}  // namespace

Fragment fragment_of(const TaskSpec& task, const TaskMeasurement& m) {
  Fragment f;
  const TaskStats team = summarize(m.team);
  const bool steal = m.team_ran && m.team.profiled && team.profiled_jobs > 0;
  if (steal) {
    f.span_source = SpanSource::burdened_span;
    f.span_ns = team.burdened_span.max_ns;
  } else if (sequential(task)) {
    f.span_source = SpanSource::sequential;
  } else if (m.team_ran && m.team_threads >= 2 && !m.team.records.empty()) {
    f.span_source = SpanSource::response_bound;
    f.span_ns = team.response_max_ns;
  } else {
    f.span_source = SpanSource::declared;
    f.span_ns = task.span.count();
  }
  // The CPU time on one core is the work; the online work (steal) is wall-clock and only stands in
  // when no job was timed on one core (as `check --measured` chooses).
  const Dist cpu = dist_of(m.cpu_ns);
  const std::int64_t work = !m.cpu_ns.empty() ? cpu.max : steal ? team.work.max_ns : 0;
  f.work_ns = std::max(work, f.span_ns);
  if (f.span_source == SpanSource::sequential) f.span_ns = f.work_ns;
  f.work_ns = up_to_us(f.work_ns);
  f.span_ns = up_to_us(f.span_ns);
  return f;
}

std::string measurement_text(const TaskSpec& task, const TaskMeasurement& m, bool best_effort) {
  const std::string mode = best_effort ? "SCHED_OTHER (--best-effort)" : "SCHED_FIFO";
  std::vector<std::vector<std::string>> rows = {{"measure", "jobs", "p50", "p99", "max", "how"}};
  const Dist cpu = dist_of(m.cpu_ns);
  const Dist wall = dist_of(m.one_core_wall_ns);
  rows.push_back({"work (CPU time)", fmt::format("{}", m.cpu_ns.size()), d3(cpu.p50), d3(cpu.p99),
                  d3(cpu.max), fmt::format("alone on CPU {}, process CPU time", m.cpu)});
  rows.push_back({"wall, one core", fmt::format("{}", m.one_core_wall_ns.size()), d3(wall.p50),
                  d3(wall.p99), d3(wall.max), "start to finish (includes preemption)"});
  const TaskStats team = summarize(m.team);
  std::string cores;
  for (const int c : m.team_cores) cores += (cores.empty() ? "" : ",") + std::to_string(c);
  if (m.team_ran) {
    rows.push_back(
        {"response", fmt::format("{}", team.jobs), d3(team.response_p50_ns),
         d3(team.response_p99_ns), d3(team.response_max_ns),
         fmt::format("release to finish, {} threads on CPUs {}", m.team_threads, cores)});
  }
  if (m.team_ran && m.team.profiled && team.profiled_jobs > 0) {
    const std::string jobs = fmt::format("{}", team.profiled_jobs);
    rows.push_back({"online work", jobs, d3(team.work.p50_ns), d3(team.work.p99_ns),
                    d3(team.work.max_ns), "steal pool, on the team"});
    rows.push_back({"span", jobs, d3(team.span.p50_ns), d3(team.span.p99_ns), d3(team.span.max_ns),
                    "steal pool, on the team"});
    rows.push_back({"burdened span", jobs, d3(team.burdened_span.p50_ns),
                    d3(team.burdened_span.p99_ns), d3(team.burdened_span.max_ns),
                    "span + one steal cost per stolen edge"});
  }
  std::string out = fmt::format("task \"{}\" ({}, kernel {}; {})\n", task.name,
                                names::name_of(names::kRuntimes, task.runtime), task.kernel, mode);
  out += report::render_table(rows, {false, true, true, true, true, false});
  if (!m.team_ran) out += "  (not run on a team: the plan gives the task no cores)\n";
  if (m.cpu_ns.empty()) return out;

  const Fragment f = fragment_of(task, m);
  out += fmt::format(
      "\n# rtpar profile: \"{}\", {} jobs; replaces work and span of its [[task]] (declared: "
      "work = \"{}\", span = \"{}\")\n",
      task.name, m.cpu_ns.size(), format_duration(task.work), format_duration(task.span));
  out += fmt::format("[[task]]\nname = \"{}\"\n", task.name);
  out += fmt::format("work = \"{}\"  # max(largest CPU time on one core, span), rounded up\n",
                     format_duration(Duration(f.work_ns)));
  out += fmt::format("span = \"{}\"  # {}\n", format_duration(Duration(f.span_ns)),
                     span_source_text(f.span_source));
  const std::vector<std::int64_t> sample = m.team_ran ? responses(m.team) : m.one_core_wall_ns;
  out += fmt::format("\n{} histogram ({} jobs; D = {})\n",
                     m.team_ran ? "response (on the team)" : "wall-clock time (one core)",
                     sample.size(), format_duration(task.deadline));
  out += histogram(sample, task.deadline.count());
  return out;
}

std::string profile_json(const TaskSet& set, PlannerKind planner,
                         const std::vector<TaskMeasurement>& measured,
                         const ProfileSettings& settings) {
  Json tasks = Json::array();
  for (const TaskMeasurement& m : measured) {
    const auto spec = std::find_if(set.tasks.begin(), set.tasks.end(),
                                   [&](const TaskSpec& t) { return t.name == m.name; });
    const TaskSpec& task = *spec;
    const Fragment f = fragment_of(task, m);
    const TaskStats team = summarize(m.team);
    Json j = {
        {"name", task.name},
        {"runtime", names::name_of(names::kRuntimes, task.runtime)},
        {"kernel", task.kernel},
        {"declared_work_ns", task.work.count()},
        {"declared_span_ns", task.span.count()},
        {"period_ns", task.period.count()},
        {"deadline_ns", task.deadline.count()},
        {"cpu", m.cpu},
        {"one_core_period_ns", m.one_core_period.count()},
        {"cpu_jobs", static_cast<std::int64_t>(m.cpu_ns.size())},
        {"cpu_work_ns", dist_json(dist_of(m.cpu_ns))},
        {"one_core_wall_ns", dist_json(dist_of(m.one_core_wall_ns))},
    };
    if (m.team_ran) {
      j["cores"] = m.team_cores;
      j["threads"] = m.team_threads;
      j["jobs"] = team.jobs;
      j["misses"] = team.misses;
      j["response_ns"] = Json{{"min", team.response_min_ns},
                              {"p50", team.response_p50_ns},
                              {"p99", team.response_p99_ns},
                              {"max", team.response_max_ns}};
      if (f.span_source == SpanSource::response_bound) {
        j["span_bound_ns"] = Json{{"p50", team.response_p50_ns},
                                  {"p99", team.response_p99_ns},
                                  {"max", team.response_max_ns}};
      }
      if (m.team.profiled) {
        j["profiled_jobs"] = team.profiled_jobs;
        j["work_ns"] = profile_stats_json(team.work);
        j["span_ns"] = profile_stats_json(team.span);
        j["burdened_span_ns"] = profile_stats_json(team.burdened_span);
      }
    }
    j["fragment"] = Json{{"work_ns", f.work_ns},
                         {"span_ns", f.span_ns},
                         {"span_from", span_source_key(f.span_source)}};
    tasks.push_back(std::move(j));
  }
  const Json doc = {
      {"tool", "rtpar profile"},
      {"source", set.source},
      {"planner", to_string(planner)},
      {"runs", settings.runs},
      {"best_effort", settings.best_effort},
      {"cpu_clock", "CLOCK_PROCESS_CPUTIME_ID"},
      {"tasks", std::move(tasks)},
  };
  return doc.dump(2) + "\n";
}

}  // namespace rtpar::cli
