// omprt.cpp — the OpenMP-RT application generator (OpenMP-RT §5.1–5.2, decisions O1–O4 of
// docs/internals/experiment-spec.md §3). Tasks are the benchmarks of Table 1 (sequential and
// 2-thread WCETs); cores are taken in pairs so that every core sits exactly at the target
// utilization: core A of a pair splits the base utilization among U{tasks_min..tasks_max} tasks by
// UUniFast-discard, each 1- or 2-threaded (a 2-thread task has places = the pair and also loads
// core B with its share); core B splits what is left among its own 1-thread tasks. Periods are
// WCET/share at base_util (the 2-core WCET for 2-thread tasks, the paper's accounting), then scaled
// by base_util/util_per_core (O3) and rounded up to whole µs, so the same seed gives the same mix
// at every utilization. Deadlines are implicit; tasks have no priority (the EDF band). The WCETs
// are the paper's Table 1, or with wcet_table those `rtpar bench wcet --json` measured here
// (experiments/openmp-rt-table1.toml); the tasks stay spin kernels of those lengths.
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "core/rng.hpp"
#include "gen/build.hpp"
#include "gen/families.hpp"
#include "gen/omprt_wcet_table.hpp"
#include "gen/utilizations.hpp"

namespace rtpar::gen {

FamilyInfo omprt_family() {
  return {
      "omprt",
      "OpenMP-RT applications (OpenMP-RT §5.2; O1-O4): Table 1 benchmarks, 1-2 threads, EDF, "
      "channels",
      {
          {"cores", "16", "cores, all real-time (O1; the paper's machine has 16)"},
          {"util_per_core", "0.6", "target utilization of every core (Table 2: 0.6 .. 0.99)"},
          {"base_util", "0.6", "utilization the mix is drawn at before scaling the periods (O3)"},
          {"tasks_min", "2", "fewest tasks split the utilization of a core (O2)"},
          {"tasks_max", "6", "most tasks split the utilization of a core (O2)"},
          {"two_thread_prob", "0.5",
           "probability that a task has 2 threads (intra-task parallelism 1-2)"},
          {"comm_prob", "0.5", "probability that the application has one communicating pair (O4)"},
          {"channel_size", "32768", "bytes of the pair's channel (two 64x64 int matrices)"},
          {"max_redraws", "100000", "give up (error) after this many rejected UUniFast draws"},
          {"planner", "partitioned", "[system] planner written into the set"},
          {"wcet_table", "",
           "a `rtpar bench wcet --json` file whose measured WCETs (max_ns) replace the paper's "
           "Table 1 (default: the paper's)"},
          {"wcet_runtime", "rtpar", "the runtime whose rows of wcet_table are used"},
      }};
}

namespace {

// Bench is one row of Table 1: WCETs in µs, sequential and on 2 threads.
struct Bench {
  const char* name;
  std::int64_t seq_us, two_us;
};

// Wcet is one row of the table a set is drawn from: the paper's (µs scaled) or measured, in ns.
struct Wcet {
  std::string name;
  std::int64_t seq_ns, two_ns;
};

// kTable1 is OpenMP-RT Table 1 (11 BOTS and 4 EPCC tasks).
constexpr Bench kTable1[] = {
    {"alignment", 1237, 652}, {"fft", 212, 117},       {"fib", 248, 130},
    {"floorplan", 507, 262},  {"health", 957, 503},    {"nqueens", 610, 319},
    {"knapsack", 752, 411},   {"sort", 227, 142},      {"sparselu", 833, 456},
    {"strassen", 451, 273},   {"uts", 489, 251},       {"taskbench", 197, 113},
    {"arraybench", 143, 82},  {"syncbench", 205, 117}, {"schedbench", 151, 96},
};

// wcet_rows is the table a set is drawn from: kTable1, or every kernel of kTable1 with the WCETs
// of r's wcet_table file (a kernel missing from the file is an error naming it).
std::vector<Wcet> wcet_rows(const ParamReader& r) {
  std::vector<Wcet> rows;
  const std::string& path = r.text_of("wcet_table");
  if (path.empty()) {
    for (const Bench& b : kTable1) rows.push_back({b.name, b.seq_us * 1000, b.two_us * 1000});
    return rows;
  }
  std::map<std::string, WcetPair> measured;
  try {
    measured = read_wcet_table(path, r.text_of("wcet_runtime"));
  } catch (const std::runtime_error& e) {
    r.fail("wcet_table", path + ": " + e.what());
  }
  for (const Bench& b : kTable1) {
    const auto it = measured.find(b.name);
    if (it == measured.end()) r.fail("wcet_table", path + " has no kernel " + b.name);
    rows.push_back({b.name, it->second.seq_ns, it->second.two_ns});
  }
  return rows;
}

// Draft is a task before its period is scaled.
struct Draft {
  const Wcet* bench;
  bool two;
  std::vector<int> places;
  double share;  // utilization on each of its cores at base_util
};

}  // namespace

Generated generate_omprt(const ParamReader& r, std::uint64_t seed) {
  const auto cores = static_cast<int>(r.integer("cores", 1, 8192));
  const double target = r.real("util_per_core", 0, 1);
  if (target <= 0) r.fail("util_per_core", "must be > 0");
  const double base = r.real("base_util", 0, 1);
  if (base <= 0) r.fail("base_util", "must be > 0");
  const auto kmin = static_cast<int>(r.integer("tasks_min", 1, 1000));
  const auto kmax = static_cast<int>(r.integer("tasks_max", 1, 1000));
  if (kmax < kmin) r.fail("tasks_max", "must be >= tasks_min");
  const double two_prob = r.real("two_thread_prob", 0, 1);
  const double comm_prob = r.real("comm_prob", 0, 1);
  const auto channel_size = r.integer("channel_size", 1, std::int64_t{1} << 30);
  const auto max_redraws = r.integer("max_redraws", 0, INT64_MAX);
  const std::vector<Wcet> table = wcet_rows(r);
  Rng rng(seed);
  Generated out;
  auto split_util = [&](int k, double total) {
    auto u = uunifast_discard(rng, k, total, 1.0, max_redraws, &out.redraws);
    if (!u) r.fail("max_redraws", "UUniFast-discard kept failing");
    return *u;
  };
  auto pick = [&] { return &table[rng.below(table.size())]; };
  std::vector<Draft> drafts;
  for (int a = 0; a < cores; a += 2) {
    const bool paired = a + 1 < cores;
    double left_on_b = base;
    const std::vector<double> shares =
        split_util(static_cast<int>(rng.uniform_int(kmin, kmax)), base);
    for (double s : shares) {
      const bool two = paired && rng.uniform01() < two_prob && s <= left_on_b;
      if (two) {
        left_on_b -= s;
        drafts.push_back({pick(), true, {a, a + 1}, s});
      } else {
        drafts.push_back({pick(), false, {a}, s});
      }
    }
    if (paired && left_on_b > 1e-9) {
      for (double s : split_util(static_cast<int>(rng.uniform_int(kmin, kmax)), left_on_b)) {
        drafts.push_back({pick(), false, {a + 1}, s});
      }
    }
  }
  TaskSet set;
  set.system = count_system(cores, 1, read_planner(r, "planner"));
  for (std::size_t i = 0; i < drafts.size(); ++i) {
    const Draft& d = drafts[i];
    const Duration seq = std::chrono::nanoseconds(d.bench->seq_ns);
    const Duration two = std::chrono::nanoseconds(d.bench->two_ns);
    TaskSpec t = spin_task(fmt::format("{}{}", d.bench->name, i), seq, d.two ? two : seq);
    const double per_core = static_cast<double>((d.two ? two : seq).count());
    // Whole µs, rounded up: the per-core utilization never exceeds the target.
    const double period_us = std::ceil(per_core / d.share * base / target / 1000.0);
    if (!(period_us < 9.2e15)) r.fail("util_per_core", "a period does not fit 64-bit nanoseconds");
    t.period = std::chrono::microseconds(static_cast<std::int64_t>(std::max(1.0, period_us)));
    if (t.period < t.span) t.period = t.span;  // a share near 1: at least the critical path
    t.deadline = t.period;
    t.places = d.places;
    t.threads = d.two ? 2 : 1;
    set.tasks.push_back(std::move(t));
  }
  // O4: one communicating pair in comm_prob of the applications, kind uniform over the three.
  if (set.tasks.size() >= 2 && rng.uniform01() < comm_prob) {
    const std::size_t w = rng.below(set.tasks.size());
    std::size_t rd = rng.below(set.tasks.size() - 1);
    if (rd >= w) ++rd;
    constexpr ChannelKind kKinds[] = {ChannelKind::lock, ChannelKind::retry,
                                      ChannelKind::double_buffer};
    ChannelSpec c;
    c.name = "pair";
    c.kind = kKinds[rng.below(3)];
    c.size_bytes = static_cast<std::size_t>(channel_size);
    c.writer = set.tasks[w].name;
    c.readers = {set.tasks[rd].name};
    if (c.kind == ChannelKind::lock) {
      // hold: a critical section is at most the copy inside it, bounded here by a tenth of the
      // shorter deadline (at least 1 ns), which the loader requires to be below every deadline.
      const Duration shorter = std::min(set.tasks[w].deadline, set.tasks[rd].deadline);
      c.hold = std::max(Duration(1), shorter / 10);
    }
    set.channels.push_back(std::move(c));
  }
  out.set = finish(std::move(set), "omprt");
  return out;
}

}  // namespace rtpar::gen
