// bench_planners.cpp — `rtpar bench planners`: how fast the planners decide many task sets, in
// process and single-threaded (the schedulability studies of docs/internals/experiment-spec.md §2.1
// plan 1000 systems per utilization point; the target is ≤ 1 s per point at 40 cores).
//
// The sets are made first — read (TOML files, or every *.toml of a directory, in name order) or
// drawn by a generator (--generate fjos --param total_util_pct=60 --sets 1000 --seed 1: set k is
// rtpar::gen::generate(family, params, seed + k)); only the
// planning is timed: per planner, each set once per repetition, with the wall clock and the
// thread's CPU clock (on a loaded machine the CPU time is what the planner costs; the wall time
// adds the waits for a core). The digest is FNV-1a over every plan's verdict, response bounds and
// cores, so two builds that plan identically print the same digest.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "common/stats.hpp"
#include "driver/commands.hpp"
#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/generate.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar::bench {

namespace {

// PlannersOptions are the option values of `rtpar bench planners`.
struct PlannersOptions {
  std::vector<std::string> inputs;
  std::string generate;             // generator family; empty: read `inputs`
  std::vector<std::string> params;  // KEY=VALUE generator parameters
  int sets = 1000;
  std::uint64_t seed = 1;
  std::vector<std::string> planners{"fork-join-rta"};
  std::string assign = "greedy";
  std::string target;
  int repeat = 1;
  bool json = false;
};

// thread_cpu_ns is the calling thread's CPU time.
std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// wall_ns is the monotonic clock.
std::int64_t wall_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Digest is FNV-1a (64 bit) over the integers fed to it.
struct Digest {
  std::uint64_t h = 1469598103934665603ULL;
  void add(std::int64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= static_cast<std::uint64_t>(v >> (8 * b)) & 0xff;
      h *= 1099511628211ULL;
    }
  }
};

// digest_plan feeds a plan's verdict, and per task its bound (−1: none), cores and stage bounds.
void digest_plan(Digest& d, const Plan& plan) {
  d.add(plan.schedulable ? 1 : 0);
  for (const TaskPlan& t : plan.tasks) {
    d.add(t.response_bound_ns.value_or(-1));
    d.add(static_cast<std::int64_t>(t.cores.size()));
    for (const int c : t.cores) d.add(c);
    for (const SegmentPlan& s : t.segments) d.add(s.deadline_ns);
  }
}

// input_files expands directories into their *.toml files (sorted); files are kept as given.
std::vector<std::string> input_files(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    if (!std::filesystem::is_directory(in)) {
      files.push_back(in);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& e : std::filesystem::directory_iterator(in)) {
      if (e.path().extension() == ".toml") found.push_back(e.path().string());
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

// planner_of reads a planner name.
PlannerKind planner_of(const std::string& name) {
  for (const PlannerKind k :
       {PlannerKind::federated, PlannerKind::federated_ws, PlannerKind::decomposition,
        PlannerKind::fork_join_rta, PlannerKind::partitioned}) {
    if (name == to_string(k)) return k;
  }
  throw InputError(SourceLocation{"<command line>", 0, 0}, "--planner",
                   "unknown planner '" + name + "'");
}

// make_sets reads the input files, or draws o.sets sets from the generator.
std::vector<TaskSet> make_sets(const PlannersOptions& o) {
  std::vector<TaskSet> sets;
  if (!o.generate.empty()) {
    gen::Params params;
    for (const std::string& kv : o.params) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        throw InputError(SourceLocation{"<command line>", 0, 0}, "--param",
                         "'" + kv + "': expected KEY=VALUE");
      }
      params[kv.substr(0, eq)] = gen::Param{kv.substr(eq + 1), SourceLocation{}};
    }
    for (int k = 0; k < o.sets; ++k) {
      sets.push_back(gen::generate(o.generate, params, o.seed + static_cast<std::uint64_t>(k)).set);
    }
    return sets;
  }
  const std::vector<std::string> files = input_files(o.inputs);
  if (files.empty()) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "INPUTS",
                     "no task-set file given (or --generate FAMILY)");
  }
  sets.reserve(files.size());
  for (const std::string& f : files) sets.push_back(load_taskset(f));
  return sets;
}

int run_planners(const PlannersOptions& o) {
  const std::vector<TaskSet> sets = make_sets(o);
  std::optional<Topology> target;
  PlanOptions options;
  if (!o.target.empty()) {
    target = parse_target(o.target);
    options.target = &*target;
  }
  if (o.assign == "worst-fit") options.assign = AssignKind::worst_fit;
  std::string json_rows;
  if (!o.json) {
    fmt::print("{} sets, {} repetition(s), single thread, planning only\n", sets.size(), o.repeat);
    fmt::print("{:<14} {:>6} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10}  {}\n", "planner", "admit",
               "wall s", "cpu s", "sets/s", "p50 us", "p99 us", "max us", "digest");
  }
  for (const std::string& name : o.planners) {
    const PlannerKind kind = planner_of(name);
    std::vector<std::int64_t> per_set;
    per_set.reserve(sets.size() * static_cast<std::size_t>(o.repeat));
    Digest digest;
    std::int64_t admitted = 0;
    const std::int64_t wall0 = wall_ns(), cpu0 = thread_cpu_ns();
    for (int rep = 0; rep < o.repeat; ++rep) {
      for (const TaskSet& set : sets) {
        const std::int64_t t0 = thread_cpu_ns();
        const Plan plan = plan_with(kind, set, options);
        per_set.push_back(thread_cpu_ns() - t0);
        if (rep == 0) {
          digest_plan(digest, plan);
          admitted += plan.schedulable ? 1 : 0;
        }
      }
    }
    const double wall_s = static_cast<double>(wall_ns() - wall0) / 1e9;
    const double cpu_s = static_cast<double>(thread_cpu_ns() - cpu0) / 1e9;
    std::sort(per_set.begin(), per_set.end());
    const auto q = [&](double p) {
      return static_cast<double>(rtpar_bench::nearest_rank_percentile(per_set, p)) / 1e3;
    };
    const double rate = static_cast<double>(per_set.size()) / cpu_s;
    if (o.json) {
      json_rows += fmt::format(
          "{}{{\"planner\": \"{}\", \"assign\": \"{}\", \"sets\": {}, \"repeat\": {}, "
          "\"admitted\": {}, \"wall_s\": {:.4f}, \"cpu_s\": {:.4f}, \"sets_per_cpu_s\": {:.1f}, "
          "\"p50_cpu_us\": {:.1f}, \"p99_cpu_us\": {:.1f}, \"max_cpu_us\": {:.1f}, "
          "\"digest\": \"{:016x}\"}}",
          json_rows.empty() ? "" : ", ", name, o.assign, sets.size(), o.repeat, admitted, wall_s,
          cpu_s, rate, q(0.5), q(0.99), q(1.0), digest.h);
    } else {
      fmt::print(
          "{:<14} {:>6} {:>9.3f} {:>9.3f} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f}  {:016x}\n", name,
          admitted, wall_s, cpu_s, rate, q(0.5), q(0.99), q(1.0), digest.h);
    }
  }
  if (o.json) fmt::print("[{}]\n", json_rows);
  return 0;
}

}  // namespace

Command add_bench_planners(CLI::App& app) {
  auto opts = std::make_shared<PlannersOptions>();
  app.add_option("INPUTS", opts->inputs, "Task-set files, or directories of *.toml files");
  app.add_option("--generate", opts->generate,
                 "Draw the sets with this generator family instead (rtpar generate --list)");
  app.add_option("--param", opts->params, "Generator parameter KEY=VALUE (repeatable)");
  app.add_option("--sets", opts->sets, "Sets to draw with --generate")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  app.add_option("--seed", opts->seed, "Seed of the first drawn set (set k: seed + k)")
      ->capture_default_str();
  app.add_option("--planner", opts->planners, "Planners to time, in turn")->capture_default_str();
  app.add_option("--assign", opts->assign, "fork-join-rta's strand assignment")
      ->check(CLI::IsMember({"greedy", "worst-fit"}))
      ->capture_default_str();
  app.add_option("--target", opts->target, "Plan for this machine, e.g. 40c4s");
  app.add_option("--repeat", opts->repeat, "Plan every set this many times")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_flag("--json", opts->json, "Print the results as JSON on stdout");
  return [opts]() { return run_planners(*opts); };
}

}  // namespace rtpar::bench
