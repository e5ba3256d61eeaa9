// test_fbb_ffd.cpp — the strand partitioning of the decomposition planner (fbb_ffd.hpp, rbf.hpp):
// hand-derived RBF values, placements where the fit heuristics differ, boundaries, the carry-in
// counterexample to the paper's literal RBF*, and randomized checks of placements and whole plans
// against an exact uniprocessor fixed-priority simulation of each core.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "analysis/bounds/fbb_ffd.hpp"
#include "analysis/bounds/rbf.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/planners.hpp"

using rtpar::FitKind;
using rtpar::analysis::core_interference;
using rtpar::analysis::CoreSegment;
using rtpar::analysis::fbb_place;
using rtpar::analysis::FbbStrand;

namespace {

// SimJob is one stream of jobs on one core: the strands of one segment of one task placed there
// (one thread runs them back to back), released at `release0 + n·period`, due `window` later.
struct SimStream {
  std::int64_t release0 = 0;
  std::int64_t period = 0;
  std::int64_t work = 0;
  std::int64_t window = 0;
  int priority = 0;
};

// first_miss simulates preemptive fixed-priority scheduling of `streams` on one core (higher
// priority first; equal priorities in release order) with releases before `horizon`, until every
// released job is done, and returns a description of the first deadline miss ("" when none).
// Event-driven and exact on integers: time advances to the next release or the running job's
// completion. For periodic streams with offsets, releases over [0, max offset + 2·H) cover the
// schedule's repeating part (Leung & Whitehead 1982), so no miss there means none ever.
std::string first_miss(const std::vector<SimStream>& streams, std::int64_t horizon) {
  struct Job {
    std::size_t stream;
    std::int64_t release;
    std::int64_t left;
  };
  std::vector<Job> ready;
  std::vector<std::int64_t> next(streams.size());
  for (std::size_t k = 0; k < streams.size(); ++k) next[k] = streams[k].release0;
  std::int64_t now = 0;
  for (;;) {
    for (std::size_t k = 0; k < streams.size(); ++k) {
      while (next[k] <= now && next[k] < horizon) {
        ready.push_back(Job{k, next[k], streams[k].work});
        next[k] += streams[k].period;
      }
    }
    std::int64_t release = INT64_MAX;
    for (std::size_t k = 0; k < streams.size(); ++k) {
      if (next[k] < horizon) release = std::min(release, next[k]);
    }
    if (ready.empty()) {
      if (release == INT64_MAX) return "";
      now = release;
      continue;
    }
    auto run = std::min_element(ready.begin(), ready.end(), [&](const Job& a, const Job& b) {
      const int pa = streams[a.stream].priority;
      const int pb = streams[b.stream].priority;
      if (pa != pb) return pa > pb;
      return a.release < b.release;
    });
    const std::int64_t until = std::min(release, now + run->left);
    run->left -= until - now;
    now = until;
    if (run->left == 0) {
      const SimStream& s = streams[run->stream];
      if (now > run->release + s.window) {
        return fmt::format("stream {} job released at {} finished at {} > deadline {}", run->stream,
                           run->release, now, run->release + s.window);
      }
      ready.erase(run);
    }
  }
}

std::int64_t lcm_all(const std::vector<std::int64_t>& v) {
  std::int64_t l = 1;
  for (const std::int64_t x : v) l = std::lcm(l, x);
  return l;
}

// simulate_cores builds each core's streams from a placement (phase per task) and returns the
// first miss on any core ("" when none).
std::string simulate_cores(const std::vector<FbbStrand>& strands, const std::vector<int>& core,
                           const std::vector<int>& priority,
                           const std::vector<std::int64_t>& phase) {
  std::map<int, std::map<std::pair<std::size_t, std::size_t>, SimStream>> per_core;
  std::vector<std::int64_t> periods;
  std::int64_t max_release = 0;
  for (std::size_t k = 0; k < strands.size(); ++k) {
    if (core[k] < 0) continue;
    const FbbStrand& s = strands[k];
    SimStream& stream = per_core[core[k]][{s.task, s.segment}];
    stream.release0 = phase[s.task] + s.offset;
    stream.period = s.period;
    stream.work += s.wcet;
    stream.window = s.window;
    stream.priority = priority[k];
    periods.push_back(s.period);
    max_release = std::max(max_release, stream.release0);
  }
  const std::int64_t horizon = max_release + 2 * lcm_all(periods);
  for (const auto& [q, streams] : per_core) {
    std::vector<SimStream> list;
    for (const auto& [key, stream] : streams) list.push_back(stream);
    const std::string miss = first_miss(list, horizon);
    if (!miss.empty()) return fmt::format("core {}: {}", q, miss);
  }
  return "";
}

}  // namespace

TEST_CASE("rbf: FBB's RBF and the offset-aware RBF* by hand") {
  // Task j on core q: segments A (r = 0, W = 4), B (r = 10, W = 4), T = 100.
  const std::vector<CoreSegment> j = {{1, 0, 0, 10, 100, 4}, {1, 1, 10, 10, 100, 4}};
  // d = 10: from A, B is at δ = 10, not < 10 → 4; from B, A is at δ = (0 − 10) mod 100 = 90 → 4.
  CHECK(rtpar::analysis::offset_burst(j, 10) == 4);
  // RBF* = 4 + ⌈10·8/100⌉ = 4 + 1 = 5.
  CHECK(rtpar::analysis::rbf_star(j, 10) == 5);
  // d = 11: from A both are within → 8; RBF* = 8 + ⌈88/100⌉ = 9.
  CHECK(rtpar::analysis::rbf_star(j, 11) == 9);
  // d = 91: from B, A (δ = 90) is within → 8 as well; ⌈91·8/100⌉ = ⌈7.28⌉ = 8 → 16.
  CHECK(rtpar::analysis::rbf_star(j, 91) == 16);
  // FBB's original RBF of the same work: 8 + ⌈10·8/100⌉ = 9 (it ignores the offsets).
  CHECK(rtpar::analysis::rbf_fbb(8, 100, 10) == 9);
  // Integral ceilings: ⌈5·2/10⌉ = 1 exactly; ⌈5·2/9⌉ = ⌈1.11⌉ = 2.
  CHECK(rtpar::analysis::rbf_fbb(2, 10, 5) == 3);
  CHECK(rtpar::analysis::rbf_fbb(2, 9, 5) == 4);
}

TEST_CASE("fbb: offset-aware RBF* admits what FBB's original RBF rejects (fbb-ffd vs first-fit)") {
  // Task 0: A (e 4, r 0, d 10), B (e 4, r 10, d 10), T = 100. Task 1: one strand e = 3, d = 10.
  // Order (window, task): A, B, s. A, B go on core 0 under every fit (own task's other segment:
  // no other task on the core, so nothing counts). For s on core 0:
  //   fbb-ffd:   RBF*(task 0, 10) = 5 (above) → 10 − 5 = 5 ≥ 3 → core 0;
  //   first-fit: RBF(task 0, 10) = 8 + 1 = 9 → 10 − 9 = 1 < 3 → core 1.
  const std::vector<FbbStrand> strands = {
      {0, 0, 4, 0, 10, 100}, {0, 1, 4, 10, 10, 100}, {1, 0, 3, 0, 10, 100}};
  CHECK(fbb_place(strands, 2, FitKind::fbb_ffd).core == std::vector<int>{0, 0, 0});
  CHECK(fbb_place(strands, 2, FitKind::first_fit).core == std::vector<int>{0, 0, 1});
  // Worst-fit: A → core 0 (tie, lowest index); B: core 0 load 0 (own task only), core 1 load 0
  // → core 0; s: core 0 load 5, core 1 load 0 → core 1.
  CHECK(fbb_place(strands, 2, FitKind::worst_fit).core == std::vector<int>{0, 0, 1});
}

TEST_CASE("fbb: first-fit packs, worst-fit spreads (a handful of strands)") {
  // Four one-strand tasks, T = d = 20, e = 3, 4, 5, 6 (tasks 0..3, visited in task order).
  // fbb-ffd: t0 → c0; t1 on c0: 3 + ⌈20·3/20⌉ = 6, 20 − 6 = 14 ≥ 4 → c0; t2 on c0:
  //   (3 + 3) + (4 + 4) = 14, 20 − 14 = 6 ≥ 5 → c0; t3 on c0: 6 + 8 + 10 = 24 > 20 → c1.
  // worst-fit: t0 → c0; t1 → c1 (load 0 < 6); t2: c0 6, c1 8, c2 0 → c2; t3: c0 6 → c0
  //   (c0 6 < c1 8, c2 10).
  std::vector<FbbStrand> strands;
  for (std::size_t t = 0; t < 4; ++t) {
    strands.push_back({t, 0, static_cast<std::int64_t>(3 + t), 0, 20, 20});
  }
  CHECK(fbb_place(strands, 3, FitKind::fbb_ffd).core == std::vector<int>{0, 0, 0, 1});
  CHECK(fbb_place(strands, 3, FitKind::worst_fit).core == std::vector<int>{0, 1, 2, 0});
}

TEST_CASE("fbb: a strand that fits nowhere is -1; zero cores place nothing; levels run out") {
  std::vector<FbbStrand> strands = {{0, 0, 6, 0, 10, 10}, {1, 0, 6, 0, 10, 10}};
  // One core: the second strand sees RBF* = 6 + ⌈10·6/10⌉ = 12 > 10 − 6.
  CHECK(fbb_place(strands, 1, FitKind::fbb_ffd).core == std::vector<int>{0, -1});
  CHECK_FALSE(fbb_place(strands, 1, FitKind::fbb_ffd).level_full[1]);
  CHECK(fbb_place(strands, 2, FitKind::fbb_ffd).core == std::vector<int>{0, 1});
  CHECK(fbb_place(strands, 0, FitKind::fbb_ffd).core == std::vector<int>{-1, -1});
  // Tiny strands, one core, but only one priority level per core: the second segment cannot
  // share it although the load condition passes; a strand of the SAME segment still can.
  const std::vector<FbbStrand> tiny = {
      {0, 0, 1, 0, 100, 1000}, {0, 0, 1, 0, 100, 1000}, {1, 0, 1, 0, 100, 1000}};
  const auto r = fbb_place(tiny, 1, FitKind::fbb_ffd, 1);
  CHECK(r.core == std::vector<int>{0, 0, -1});
  CHECK(r.level_full[2]);
}

TEST_CASE("fbb: equal windows rank by task, priorities distinct per core and DM") {
  // Three one-strand tasks with equal windows 10 and one with window 5, all on one core.
  const std::vector<FbbStrand> strands = {
      {0, 0, 1, 0, 10, 100}, {1, 0, 1, 0, 10, 100}, {2, 0, 1, 0, 5, 100}, {3, 0, 1, 0, 10, 100}};
  const auto r = fbb_place(strands, 1, FitKind::fbb_ffd);
  CHECK(r.core == std::vector<int>{0, 0, 0, 0});
  // DM: task 2 (window 5) first → 90; then windows 10 by task index: 0 → 89, 1 → 88, 3 → 87.
  CHECK(rtpar::analysis::strand_priorities(strands, r.core) == std::vector<int>{89, 88, 90, 87});
  // Per core: on two cores (worst-fit) each core counts from 90 again.
  const auto w = fbb_place(strands, 2, FitKind::worst_fit);
  CHECK(w.core == std::vector<int>{1, 0, 0, 1});
  CHECK(rtpar::analysis::strand_priorities(strands, w.core) == std::vector<int>{90, 89, 90, 89});
}

TEST_CASE("fbb: the paper's RBF* misses carry-in through the task's own earlier segment") {
  // One core, T = 10⁹ for both tasks (the utilization terms round up to 1 ns).
  // Task 0: X (e 5000, r 0, d 5000), then s (e ?, r 5000, d 10000): D_0 = 15000.
  // Task 1: A, B, C (e 900 each, r 0, 6000, 12000, d 6000 each): D_1 = 18000.
  // Order: X (5000), A, B, C (6000), s (10000). A: 5000 + ⌈6000·5000/10⁹⌉ = 5001 → 900 ≤ 999;
  // B, C likewise (their own task's other segments are ≥ 6000 away, not within d = 6000).
  // s, as the paper writes RBF* (own task: only its own segment): task 1's burst within 10000 is
  // 1800 (A+B or B+C), + ⌈10000·2700/10⁹⌉ = 1 → 1801, so e = 8199 would pass. Simulated from a
  // common release: X [0,5000), A [5000,5900), s 100 ns, B [6000,6900), s until 12000 (5200 ns
  // done), C [12000,12900), s ends at 15899 > 15000: a miss. A was delayed by X into s's window
  // although the paper's window from A's release (δ_C = 12000 ≥ 10000) excludes C.
  // rtpar adds X (r_s − r_X = 5000 < 10000, another task on the core): 1801 + 5000 = 6801.
  std::vector<FbbStrand> strands = {{0, 0, 5000, 0, 5000, 1'000'000'000},
                                    {0, 1, 8199, 5000, 10000, 1'000'000'000},
                                    {1, 0, 900, 0, 6000, 1'000'000'000},
                                    {1, 1, 900, 6000, 6000, 1'000'000'000},
                                    {1, 2, 900, 12000, 6000, 1'000'000'000}};
  const std::vector<CoreSegment> core = {{0, 0, 0, 5000, 1'000'000'000, 5000},
                                         {1, 0, 0, 6000, 1'000'000'000, 900},
                                         {1, 1, 6000, 6000, 1'000'000'000, 900},
                                         {1, 2, 12000, 6000, 1'000'000'000, 900}};
  CHECK(core_interference(core, strands[1], FitKind::fbb_ffd) == 6801);
  // The paper's literal placement, simulated: the miss is real.
  const std::vector<int> on_one_core(5, 0);
  const std::vector<int> prio = rtpar::analysis::strand_priorities(strands, on_one_core);
  CHECK(prio == std::vector<int>{90, 86, 89, 88, 87});
  const std::vector<std::int64_t> phase = {0, 0};
  CHECK(simulate_cores(strands, on_one_core, prio, phase).find("15899") != std::string::npos);
  // rtpar rejects e = 8199 on the core and admits e = 10000 − 6801 = 3199, which then meets it.
  CHECK(fbb_place(strands, 1, FitKind::fbb_ffd).core == std::vector<int>{0, -1, 0, 0, 0});
  strands[1].wcet = 3199;
  const auto r = fbb_place(strands, 1, FitKind::fbb_ffd);
  CHECK(r.core == on_one_core);
  CHECK(simulate_cores(strands, r.core, prio, phase).empty());
  strands[1].wcet = 3200;
  CHECK(fbb_place(strands, 1, FitKind::fbb_ffd).core[1] == -1);
}

TEST_CASE("fbb: own earlier segments do not count when the task is alone on the core") {
  // D = L task: X (e 2, r 0, d 2), Y (2 strands, e 3, r 2, d 3). Alone, X is done by Y's
  // release: Y's first strand fits on core 0 (load 0), its second needs core 1 (3 + 3 > 3).
  const std::vector<FbbStrand> strands = {
      {0, 0, 2, 0, 2, 10}, {0, 1, 3, 2, 3, 10}, {0, 1, 3, 2, 3, 10}};
  CHECK(fbb_place(strands, 2, FitKind::fbb_ffd).core == std::vector<int>{0, 0, 1});
  CHECK(fbb_place(strands, 1, FitKind::fbb_ffd).core == std::vector<int>{0, 0, -1});
  // FBB's original RBF counts X as an independent sporadic task: 2 + ⌈3·2/10⌉ = 3 > 0.
  CHECK(fbb_place(strands, 2, FitKind::first_fit).core == std::vector<int>{0, 1, -1});
}

namespace {

// Rng draws integers with a fixed recipe (no std distributions, whose output differs between
// standard libraries) so a failing seed reproduces everywhere.
struct Rng {
  std::mt19937_64 engine;
  explicit Rng(std::uint64_t seed) : engine(seed) {}
  // in draws from [lo, hi] (the ranges are tiny, so modulo bias is irrelevant).
  std::int64_t in(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(engine() % static_cast<std::uint64_t>(hi - lo + 1));
  }
};

// add_random_task appends the strands of task t shaped like a decomposition: [0, D) cut into
// 1..max_segments consecutive windows, each segment 1..max_strands strands of 1 ≤ e ≤ window.
void add_random_task(Rng& rng, std::size_t t, std::int64_t period, std::int64_t deadline,
                     std::int64_t max_segments, std::int64_t max_strands,
                     std::vector<FbbStrand>& strands) {
  const std::int64_t segments = rng.in(1, max_segments);
  std::vector<std::int64_t> cuts = {0, deadline};
  for (std::int64_t s = 1; s < segments; ++s) cuts.push_back(rng.in(1, deadline - 1));
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
    const std::int64_t window = cuts[s + 1] - cuts[s];
    const std::int64_t e = rng.in(1, window);
    const std::int64_t m = rng.in(1, max_strands);
    for (std::int64_t k = 0; k < m; ++k) strands.push_back({t, s, e, cuts[s], window, period});
  }
}

// dump renders a strand set for a failure message.
std::string dump(const std::vector<FbbStrand>& strands) {
  std::string out;
  for (const FbbStrand& s : strands) {
    out += fmt::format("{{task {} seg {} e {} r {} d {} T {}}} ", s.task, s.segment, s.wcet,
                       s.offset, s.window, s.period);
  }
  return out;
}

}  // namespace

TEST_CASE("fbb: randomized placements meet every deadline in exact per-core FP simulation") {
  // Random strand sets shaped like decompositions (D ≤ T), placed by each fit on 1..3 cores;
  // every placed strand (admitted or not: a later strand never disturbs an earlier one) is
  // simulated per core with its segment's priority, for four task phasings.
  Rng rng(20240611);
  constexpr std::int64_t kPeriods[] = {24, 48, 72, 144};
  const FitKind fits[] = {FitKind::fbb_ffd, FitKind::first_fit, FitKind::worst_fit};
  int placed = 0;
  int total = 0;
  for (int iter = 0; iter < 10000; ++iter) {
    const auto tasks = static_cast<std::size_t>(rng.in(1, 6));
    std::vector<FbbStrand> strands;
    std::vector<std::int64_t> periods;
    for (std::size_t t = 0; t < tasks; ++t) {
      const std::int64_t period = kPeriods[rng.in(0, 3)];
      periods.push_back(period);
      add_random_task(rng, t, period, rng.in(period / 8, period), 4, 4, strands);
    }
    const int cores = static_cast<int>(rng.in(1, 3));
    const FitKind fit = fits[iter % 3];
    const auto r = fbb_place(strands, cores, fit);
    const auto prio = rtpar::analysis::strand_priorities(strands, r.core);
    total += static_cast<int>(strands.size());
    placed +=
        static_cast<int>(std::count_if(r.core.begin(), r.core.end(), [](int c) { return c >= 0; }));
    for (int phasing = 0; phasing < 4; ++phasing) {
      std::vector<std::int64_t> phase(tasks, 0);
      if (phasing > 0) {
        for (std::size_t t = 0; t < tasks; ++t) phase[t] = rng.in(0, periods[t] - 1);
      }
      const std::string miss = simulate_cores(strands, r.core, prio, phase);
      if (!miss.empty()) {
        FAIL(fmt::format("iter {} fit {} cores {}: {}\n{}", iter, rtpar::to_string(fit), cores,
                         miss, dump(strands)));
      }
    }
  }
  // Not vacuous: many strands get placed, and some do not.
  CHECK(placed > total / 4);
  CHECK(placed < total);
}

TEST_CASE("fbb: randomized carry-in family at the admission boundary, every relative phase") {
  // Random members of the counterexample's family on one core, T = 10000 for both tasks: task 0
  // is X (window w_X, e = w_X) then s (window d > w_X); task 1 has 2..4 segments with windows in
  // [w_X, d) (so all of them outrank s). s gets the LARGEST WCET rtpar admits, e = d − load, and
  // is simulated for every relative phase of task 1 where the jobs overlap (elsewhere the tasks
  // cannot interfere): it must never miss. The same set with the largest WCET the paper's literal
  // RBF* admits (own task: only its own segment) must miss in some of them, or the test (and the
  // correction in core_interference) would be pointless.
  Rng rng(99);
  constexpr std::int64_t kPeriod = 10000;
  int boundary_sets = 0;
  int paper_misses = 0;
  for (int iter = 0; iter < 600; ++iter) {
    std::vector<FbbStrand> strands;
    const std::int64_t wx = rng.in(10, 100);
    const std::int64_t d = rng.in(wx + 2, 300);
    strands.push_back({0, 0, wx, 0, wx, kPeriod});
    strands.push_back({0, 1, 1, wx, d, kPeriod});
    std::vector<CoreSegment> core = {{0, 0, 0, wx, kPeriod, wx}};
    std::vector<CoreSegment> task1;
    const std::int64_t segments = rng.in(2, 4);
    std::int64_t offset = 0;
    for (std::int64_t p = 0; p < segments; ++p) {
      const std::int64_t w = rng.in(wx, d - 1);
      const std::int64_t e = rng.in(w / 8, w / 2);
      const auto seg = static_cast<std::size_t>(p);
      strands.push_back({1, seg, e, offset, w, kPeriod});
      core.push_back({1, seg, offset, w, kPeriod, e});
      task1.push_back({1, seg, offset, w, kPeriod, e});
      offset += w;
    }
    // Task 1 must fit below X (otherwise the family member is degenerate).
    const std::vector<int> first = fbb_place(strands, 1, FitKind::fbb_ffd).core;
    if (std::count(first.begin(), first.end(), 0) < 2 + segments) continue;
    const auto rtpar_max =
        static_cast<std::int64_t>(d - core_interference(core, strands[1], FitKind::fbb_ffd));
    const auto paper_max = static_cast<std::int64_t>(d - rtpar::analysis::rbf_star(task1, d));
    const std::vector<int> one_core(strands.size(), 0);
    const auto prio = rtpar::analysis::strand_priorities(strands, one_core);
    auto misses_somewhere = [&] {
      for (std::int64_t ph = kPeriod - offset; ph < kPeriod + wx + d; ++ph) {
        const std::string miss = simulate_cores(strands, one_core, prio, {0, ph % kPeriod});
        if (!miss.empty()) return fmt::format("phase {}: {}", ph % kPeriod, miss);
      }
      return std::string();
    };
    if (rtpar_max >= 1) {
      ++boundary_sets;
      strands[1].wcet = rtpar_max;
      REQUIRE(fbb_place(strands, 1, FitKind::fbb_ffd).core == one_core);
      const std::string miss = misses_somewhere();
      if (!miss.empty()) FAIL(fmt::format("iter {}: {}\n{}", iter, miss, dump(strands)));
      strands[1].wcet = rtpar_max + 1;
      CHECK(fbb_place(strands, 1, FitKind::fbb_ffd).core[1] == -1);
    }
    if (paper_max > std::max<std::int64_t>(rtpar_max, 0)) {
      strands[1].wcet = paper_max;
      if (!misses_somewhere().empty()) ++paper_misses;
    }
  }
  CHECK(boundary_sets > 150);
  CHECK(paper_misses > 5);
}

TEST_CASE("decomposition plan: randomized admitted plans are consistent and meet every deadline") {
  // Random task sets (sequential, [[task.segment]] and small DAG tasks) planned by
  // plan_decomposition with each fit. Every admitted plan must be well-formed (contiguous
  // windows ending at D, DM priorities distinct per core) and its per-core strand sets must
  // pass the exact FP simulation for the tasks' phases and three random phasings.
  Rng rng(4242);
  constexpr std::int64_t kPeriods[] = {24, 48, 72, 144};
  const FitKind fits[] = {FitKind::fbb_ffd, FitKind::first_fit, FitKind::worst_fit};
  int admitted = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    rtpar::TaskSet set;
    set.source = "<random>";
    set.system.planner = rtpar::PlannerKind::decomposition;
    set.system.fit = fits[iter % 3];
    const int cores = static_cast<int>(rng.in(1, 4));
    for (int c = 0; c < cores; ++c) set.system.cores.push_back(c);
    const auto n = static_cast<std::size_t>(rng.in(1, 4));
    for (std::size_t i = 0; i < n; ++i) {
      rtpar::TaskSpec t;
      t.name = fmt::format("t{}", i);
      const std::int64_t period = kPeriods[rng.in(0, 3)];
      const std::int64_t deadline = rng.in(period / 2, period);
      t.period = rtpar::Duration(period);
      t.deadline = rtpar::Duration(deadline);
      t.phase = rtpar::Duration(rng.in(0, 1) == 0 ? 0 : rng.in(0, period - 1));
      std::int64_t work = 0;
      std::int64_t span = 0;
      const std::int64_t kind = rng.in(0, 2);
      if (kind == 0) {
        work = span = rng.in(1, deadline / 2);
      } else if (kind == 1) {
        for (std::int64_t s = rng.in(1, 3); s > 0; --s) {
          const std::int64_t strands = rng.in(1, 4);
          const std::int64_t length = rng.in(1, std::max<std::int64_t>(1, deadline / 5));
          t.segments.push_back(rtpar::SegmentSpec{strands, rtpar::Duration(length), {}});
          work += strands * length;
          span += length;
        }
      } else {
        rtpar::DagSpec dag;
        std::vector<std::int64_t> finish;
        for (int k = 0; k < static_cast<int>(rng.in(2, 4)); ++k) {
          rtpar::DagNode node;
          node.name = fmt::format("n{}", k);
          const std::int64_t length = rng.in(1, std::max<std::int64_t>(1, deadline / 5));
          node.length = rtpar::Duration(length);
          std::int64_t start = 0;
          for (int before = 0; before < k; ++before) {
            if (rng.in(0, 1) == 0) {
              node.after.push_back(before);
              start = std::max(start, finish[static_cast<std::size_t>(before)]);
            }
          }
          finish.push_back(start + length);
          span = std::max(span, start + length);
          work += length;
          dag.nodes.push_back(std::move(node));
        }
        t.dag = std::move(dag);
      }
      t.work = rtpar::Duration(work);
      t.span = rtpar::Duration(span);
      set.tasks.push_back(std::move(t));
    }
    const rtpar::Plan plan = rtpar::plan_taskset(set);
    if (!plan.schedulable) continue;
    ++admitted;
    // Rebuild the strands (one per StrandPlan) and check the plan's shape on the way.
    std::vector<FbbStrand> strands;
    std::vector<int> core;
    std::vector<int> prio;
    for (std::size_t i = 0; i < n; ++i) {
      const rtpar::TaskSpec& t = set.tasks[i];
      const rtpar::TaskPlan& tp = plan.tasks[i];
      CHECK(tp.response_bound_ns == t.deadline.count());
      REQUIRE_FALSE(tp.segments.empty());
      CHECK(tp.segments.front().offset_ns == 0);
      CHECK(tp.segments.back().deadline_ns == t.deadline.count());
      std::set<int> used;
      int top = 0;
      for (std::size_t j = 0; j < tp.segments.size(); ++j) {
        const rtpar::SegmentPlan& sp = tp.segments[j];
        if (j > 0) CHECK(sp.offset_ns == tp.segments[j - 1].deadline_ns);
        CHECK(sp.deadline_ns - sp.offset_ns >= sp.length_ns);
        for (const rtpar::StrandPlan& st : sp.strands) {
          strands.push_back(
              {i, j, sp.length_ns, sp.offset_ns, sp.deadline_ns - sp.offset_ns, t.period.count()});
          core.push_back(st.core);
          prio.push_back(st.priority);
          used.insert(st.core);
          top = std::max(top, st.priority);
          CHECK(st.priority >= 1);
          CHECK(st.priority <= 90);
        }
      }
      CHECK(tp.cores == std::vector<int>(used.begin(), used.end()));
      CHECK(tp.cores_needed == static_cast<int>(used.size()));
      CHECK(tp.priority == top);
    }
    // Per core: one priority per segment, distinct between segments, deadline-monotonic.
    for (std::size_t a = 0; a < strands.size(); ++a) {
      for (std::size_t b = 0; b < strands.size(); ++b) {
        if (core[a] != core[b]) continue;
        const bool same =
            strands[a].task == strands[b].task && strands[a].segment == strands[b].segment;
        CHECK((prio[a] == prio[b]) == same);
        if (strands[a].window < strands[b].window) CHECK(prio[a] > prio[b]);
      }
    }
    for (int phasing = 0; phasing < 4; ++phasing) {
      std::vector<std::int64_t> phase;
      for (const rtpar::TaskSpec& t : set.tasks) {
        phase.push_back(phasing == 0 ? t.phase.count() : rng.in(0, t.period.count() - 1));
      }
      const std::string miss = simulate_cores(strands, core, prio, phase);
      if (!miss.empty()) FAIL(fmt::format("iter {}: {}\n{}", iter, miss, dump(strands)));
    }
  }
  CHECK(admitted > 600);
}

TEST_CASE("fbb-ffd: offsets with a period near 2^63 ns (no int64 overflow, UBSan)") {
  // Task 0 (T = 2^63 − 1) has segment 0 (offset 0, 10 ns) on the core; its segment 1 (offset
  // 2^62, e = 5, d = 2^61) is being placed; task 1 (7 ns, same period) shares the core.
  constexpr std::int64_t kT = INT64_MAX;
  constexpr std::int64_t kQuarter = std::int64_t{1} << 62;
  constexpr std::int64_t kD = std::int64_t{1} << 61;
  const std::vector<CoreSegment> core = {{0, 0, 0, kQuarter, kT, 10}, {1, 0, 0, kQuarter, kT, 7}};
  const FbbStrand s{0, 1, 5, kQuarter, kD, kT};
  // δ of segment 1 after segment 0 is 2^62 mod T = 2^62 ≥ d: not in segment 0's window. Before,
  // (x mod T + T) mod T overflowed int64 for x = 2^62 and counted it (burst 15 instead of 10).
  const std::vector<CoreSegment> own = {core[0], CoreSegment{0, 1, kQuarter, kD, kT, 5}};
  CHECK(rtpar::analysis::offset_burst(own, kD) == 10);
  // Task 1: RBF* = 7 + ⌈d·7/T⌉ = 9. Task 0: case (A) holds nothing (segment 0 was released 2^62
  // before, the previous job's tail starts at r_k + T − d, which overflowed int64 before and
  // counted segment 0), case (B) is the burst 10 minus e = 5. Total 14.
  CHECK(core_interference(core, s, FitKind::fbb_ffd) == 14);
}
