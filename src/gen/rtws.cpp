// rtws.cpp — the RTWS generator (RTWS §VII-A, with decisions WS2–WS5 of
// docs/internals/experiment-spec.md §3). Each task is one profiled benchmark at one input size
// (work C and burdened span L̂); its utilization is drawn around the largest mean class that does
// not push the set past the target, and T = D = C/u. The profiles are a parameter because they must
// be measured on the machine at hand (WS13); the default is the one public Cilkprof number the
// design quotes (Cholesky n = 1600), to be replaced by measured values.
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "core/rng.hpp"
#include "gen/build.hpp"
#include "gen/families.hpp"
#include "gen/rtws_dags.hpp"

namespace rtpar::gen {

FamilyInfo rtws_family() {
  return {"rtws",
          "RTWS benchmark task sets (RTWS §VII-A; WS2-WS5): profiled C/L tasks, "
          "mean-utilization classes",
          {
              {"cores", "30", "cores (the paper: 32 minus 2 for the OS)"},
              {"total_util", "8", "target total utilization (WS4: 4, 6, ..., 20)"},
              {"classes", "1,3,6,12,15", "mean-utilization classes"},
              {"spread", "0.2",
               "u ~ U[(1 - spread)·mean, (1 + spread)·mean]; class 1: U(1, 1 + spread] (WS2)"},
              {"profiles", "cholesky-1600:18.203954047s:522.39653ms",
               "comma-separated NAME:WORK:SPAN benchmark profiles (measure them: WS13)"},
              {"benchmark", "mixed",
               "profile name prefix to draw from (\"cholesky\", \"heat\", \"lu\"), or \"mixed\""},
              {"dag", "none",
               "\"none\": each task is C and L only; \"template\": the benchmark's DAG template "
               "(tiled Cholesky or LU, Heat as steps of parallel_for) scaled to C and L"},
              {"heat_steps", "16", "dag = template: the Heat template's steps"},
              {"tiles", "0",
               "dag = template: Cholesky's and LU's tiles per side, the grain; 0: the smallest "
               "size reaching C/L"},
              {"heat_strips", "0",
               "dag = template: Heat's strips per step, the grain; 0: the smallest reaching C/L"},
              {"delta", "1.5", "[system] delta of federated-ws"},
              {"planner", "federated-ws", "[system] planner written into the set"},
          }};
}

namespace {

// Profile is one benchmark at one input size.
struct Profile {
  std::string name;
  Duration work{0}, span{0};
};

// split splits s at `sep`.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// benchmark_of is a profile's benchmark: its name up to the first '-' ("cholesky-1600").
std::string benchmark_of(const std::string& name) { return name.substr(0, name.find('-')); }

// read_profiles parses `profiles` and keeps those of `benchmark`.
std::vector<Profile> read_profiles(const ParamReader& r) {
  const std::string bench = r.choice("benchmark", {"mixed", "cholesky", "heat", "lu"});
  std::vector<Profile> out;
  for (const std::string& item : split(r.text_of("profiles"), ',')) {
    const std::vector<std::string> f = split(item, ':');
    if (f.size() != 3 || f[0].empty()) {
      r.fail("profiles", fmt::format("\"{}\" is not NAME:WORK:SPAN", item));
    }
    Profile p{f[0], {}, {}};
    try {
      p.work = parse_duration(f[1]);
      p.span = parse_duration(f[2]);
    } catch (const std::invalid_argument& e) {
      r.fail("profiles", fmt::format("\"{}\": {}", item, e.what()));
    }
    if (p.work <= Duration::zero() || p.span <= Duration::zero() || p.span > p.work) {
      r.fail("profiles", fmt::format("\"{}\": needs 0 < SPAN <= WORK", item));
    }
    if (bench == "mixed" || benchmark_of(p.name) == bench) {
      out.push_back(p);
    }
  }
  if (out.empty()) r.fail("benchmark", "no profile of this benchmark in `profiles`");
  return out;
}

}  // namespace

Generated generate_rtws(const ParamReader& r, std::uint64_t seed) {
  const auto cores = static_cast<int>(r.integer("cores", 1, 8192));
  const double target = r.real("total_util", 0, 1e6);
  std::vector<double> classes;
  for (const std::string& c : split(r.text_of("classes"), ',')) {
    classes.push_back(r.real_text("classes", c, 0, 1e6));
  }
  std::sort(classes.begin(), classes.end());
  if (classes.front() <= 0) r.fail("classes", "every class must be > 0");
  const double spread = r.real("spread", 0, 0.99);
  const std::vector<Profile> profiles = read_profiles(r);
  const bool templates = r.choice("dag", {"none", "template"}) == "template";
  const auto heat_steps = static_cast<int>(r.integer("heat_steps", 1, 1000));
  const auto tiles = static_cast<int>(r.integer("tiles", 0, 4096));
  const auto heat_strips = static_cast<int>(r.integer("heat_strips", 0, 40'000));
  const double delta = r.real("delta", 0, 1e6);
  if (delta <= 0) r.fail("delta", "must be > 0");
  std::vector<std::string> benchmarks;
  for (const Profile& q : profiles) {
    if (std::find(benchmarks.begin(), benchmarks.end(), benchmark_of(q.name)) == benchmarks.end()) {
      benchmarks.push_back(benchmark_of(q.name));
    }
  }
  Rng rng(seed);
  Generated out;
  TaskSet set;
  set.system = count_system(cores, 1, read_planner(r, "planner"));
  set.system.delta = delta;
  double total = 0;
  for (;;) {
    const double remaining = target - total;
    // The largest class that does not exceed what is left; none: the set is done (WS3).
    double mean = 0;
    for (double c : classes) {
      if (c <= remaining) mean = c;
    }
    if (mean == 0) break;
    double u = mean == 1.0 ? 1.0 + spread * (1.0 - rng.uniform01())
                           : rng.uniform_real((1 - spread) * mean, (1 + spread) * mean);
    u = std::min(u, remaining);  // never past the target
    // Mixed: a benchmark uniformly, then one of its sizes, so that Cholesky's 14 sizes do not
    // make it 14/23 of the tasks.
    const std::string& bench = benchmarks[rng.below(benchmarks.size())];
    std::vector<const Profile*> sizes;
    for (const Profile& q : profiles) {
      if (benchmark_of(q.name) == bench) sizes.push_back(&q);
    }
    const Profile& p = *sizes[rng.below(sizes.size())];
    TaskSpec t = spin_task(task_name(set.tasks.size()), p.work, p.span);
    if (templates) {
      // The benchmark's DAG at this profile's C and L̂ (rtws_dags.hpp), for the simulator.
      RtwsBenchmark kind{};
      if (!rtws_benchmark(benchmark_of(p.name), kind)) {
        r.fail("profiles", fmt::format("\"{}\": no DAG template for this benchmark", p.name));
      }
      DagSpec dag;
      std::string why;
      if (!fit_rtws_dag(kind, p.work, p.span, heat_steps, dag, why,
                        kind == RtwsBenchmark::heat ? heat_strips : tiles)) {
        r.fail("dag", fmt::format("\"{}\": {}", p.name, why));
      }
      t = dag_task(task_name(set.tasks.size()), std::move(dag));
    }
    t.runtime = RuntimeKind::steal;
    const auto period = period_for(p.work, u);
    if (!period) r.fail("profiles", "a period does not fit 64-bit nanoseconds");
    t.period = *period;
    t.deadline = *period;
    total += t.utilization();
    set.tasks.push_back(std::move(t));
  }
  if (set.tasks.empty()) r.fail("total_util", "below the smallest class: no task");
  out.set = finish(std::move(set), "rtws");
  return out;
}

}  // namespace rtpar::gen
