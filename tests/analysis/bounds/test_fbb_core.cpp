// test_fbb_core.cpp — FbbCore (analysis/fbb_core.hpp), fbb_place's per-core state: its load is
// core_interference's value for every fit, after any sequence of additions (the own term as a
// function of the segment's work, the memos); its lower bound never exceeds the load when windows
// do not decrease; a worked example of the own term; fbb_order and strand_priorities against
// their definitions (the stable sort of all strands, the map of ranks per core); own_lower and
// the refined bound between the lower bound and the load.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <vector>

#include "analysis/bounds/fbb_core.hpp"
#include "analysis/bounds/fbb_ffd.hpp"

using rtpar::FitKind;
using rtpar::analysis::CoreSegment;
using rtpar::analysis::FbbCore;
using rtpar::analysis::FbbStrand;

namespace {

// add_plain is FbbCore::add as fbb_ffd.cpp did it before FbbCore: the entry of s's (task,
// segment) gains s's WCET, a new entry goes after the task's entries with offsets ≤ s's.
void add_plain(std::vector<CoreSegment>& members, const FbbStrand& s) {
  auto it = std::find_if(members.begin(), members.end(), [&](const CoreSegment& c) {
    return c.task == s.task && c.segment == s.segment;
  });
  if (it == members.end()) {
    const auto at =
        std::upper_bound(members.begin(), members.end(), std::make_pair(s.task, s.offset),
                         [](const std::pair<std::size_t, std::int64_t>& key, const CoreSegment& c) {
                           return key.first != c.task ? key.first < c.task : key.second < c.offset;
                         });
    it = members.insert(at, CoreSegment{s.task, s.segment, s.offset, s.window, s.period, 0});
  }
  it->work += s.wcet;
}

// random_strand draws a strand of one of `tasks` tasks whose segments are fixed per (task,
// segment) by `shape` (offset, window, period, WCET), as decomposition makes them.
FbbStrand random_strand(std::mt19937_64& rng, const std::vector<std::vector<FbbStrand>>& shape) {
  const auto& t = shape[std::uniform_int_distribution<std::size_t>(0, shape.size() - 1)(rng)];
  return t[std::uniform_int_distribution<std::size_t>(0, t.size() - 1)(rng)];
}

// random_shape draws `tasks` tasks of 1..6 segments in sequence within D = T; with `wild`, some
// windows exceed the period and some offsets pass it (inputs fbb_place accepts, decomposition
// never makes: offset_burst's pairwise path, a segment in its own tail).
std::vector<std::vector<FbbStrand>> random_shape(std::mt19937_64& rng, int tasks, bool wild) {
  std::vector<std::vector<FbbStrand>> shape;
  for (int i = 0; i < tasks; ++i) {
    const std::int64_t period = std::uniform_int_distribution<std::int64_t>(20, 400)(rng);
    const int segments = std::uniform_int_distribution<int>(1, 6)(rng);
    std::vector<FbbStrand> segs;
    std::int64_t offset = 0;
    for (int j = 0; j < segments && offset < period - 1; ++j) {
      std::int64_t window = std::uniform_int_distribution<std::int64_t>(
          1, std::max<std::int64_t>(1, (period - offset) / (segments - j)))(rng);
      if (wild && j % 3 == 2)
        window = std::uniform_int_distribution<std::int64_t>(1, 3 * period)(rng);
      const std::int64_t wcet = std::uniform_int_distribution<std::int64_t>(0, 30)(rng);
      segs.push_back(FbbStrand{static_cast<std::size_t>(i), static_cast<std::size_t>(j), wcet,
                               offset, window, period});
      offset += std::max<std::int64_t>(window, 1);
    }
    if (segs.empty()) segs.push_back(FbbStrand{static_cast<std::size_t>(i), 0, 1, 0, 1, period});
    shape.push_back(segs);
  }
  return shape;
}

}  // namespace

TEST_CASE("fbb core: load equals core_interference after any additions, for every fit") {
  std::mt19937_64 rng(424242);
  const FitKind fits[] = {FitKind::fbb_ffd, FitKind::first_fit, FitKind::worst_fit};
  for (int trial = 0; trial < 1500; ++trial) {
    const auto shape =
        random_shape(rng, std::uniform_int_distribution<int>(1, 5)(rng), trial % 4 == 0);
    const FitKind fit = fits[trial % 3];
    FbbCore core;
    std::vector<CoreSegment> plain;
    for (int step = 0; step < 40; ++step) {
      // Several queries between additions, repeating strands so the memos are hit.
      for (int probe = 0; probe < 3; ++probe) {
        const FbbStrand s = random_strand(rng, shape);
        CAPTURE(trial);
        CAPTURE(step);
        const __int128 want = rtpar::analysis::core_interference(plain, s, fit);
        CHECK(core.load(s, fit) == want);
        CHECK(core.load(s, fit) == want);  // from the memos
        const bool has = std::any_of(plain.begin(), plain.end(), [&](const CoreSegment& c) {
          return c.task == s.task && c.segment == s.segment;
        });
        CHECK(core.has_segment(s) == has);
      }
      const FbbStrand add = random_strand(rng, shape);
      // Repeat a strand several times, as the strands of one segment join a core.
      const int times = std::uniform_int_distribution<int>(1, 4)(rng);
      for (int r = 0; r < times; ++r) {
        const __int128 want = rtpar::analysis::core_interference(plain, add, fit);
        CHECK(core.load(add, fit) == want);
        core.add(add);
        add_plain(plain, add);
      }
      CHECK(core.members().size() == plain.size());
    }
  }
}

TEST_CASE("fbb core: the lower bound never exceeds the load for non-decreasing windows") {
  std::mt19937_64 rng(99);
  const FitKind fits[] = {FitKind::fbb_ffd, FitKind::first_fit, FitKind::worst_fit};
  int tight = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    auto shape = random_shape(rng, std::uniform_int_distribution<int>(1, 6)(rng), false);
    std::vector<FbbStrand> all;
    for (const auto& t : shape) all.insert(all.end(), t.begin(), t.end());
    std::vector<FbbStrand> visit;
    for (int r = 0; r < 60; ++r)
      visit.push_back(all[std::uniform_int_distribution<std::size_t>(0, all.size() - 1)(rng)]);
    std::stable_sort(visit.begin(), visit.end(),
                     [](const FbbStrand& a, const FbbStrand& b) { return a.window < b.window; });
    const FitKind fit = fits[trial % 3];
    FbbCore core;
    for (const FbbStrand& s : visit) {
      CAPTURE(trial);
      const __int128 lb = core.lower_bound(s, fit);
      const __int128 refined = core.refined_lower_bound(s, fit);
      const __int128 room = std::uniform_int_distribution<std::int64_t>(0, 300)(rng);
      const __int128 own_lower = core.own_lower(s, fit);
      const bool exceeds = core.exceeds(s, fit, room);
      const __int128 load = core.load(s, fit);
      CHECK(lb <= load);
      CHECK(lb <= refined);
      CHECK(refined <= load);
      CHECK(own_lower >= 0);
      CHECK(own_lower <= core.own(s, fit));
      if (lb > room || refined > room) CHECK(exceeds);
      if (exceeds) CHECK(load > room);
      if (lb == load && load > 0) ++tight;
      if (std::uniform_int_distribution<int>(0, 2)(rng) > 0) core.add(s);
    }
  }
  CHECK(tight > 1000);  // the bound is often exact, so it refuses often
}

TEST_CASE("fbb core: the own term of a worked example, by hand") {
  // Task 0, T = 100: segment 0 at offset 0 (window 40, e = 10), segment 1 at offset 40 (window
  // 30, e = 5). Task 1, T = 100, segment 0 (window 50, e = 20) is on the core (another task).
  FbbCore core;
  const FbbStrand a0{0, 0, 10, 0, 40, 100};
  const FbbStrand a1{0, 1, 5, 40, 30, 100};
  const FbbStrand b0{1, 0, 20, 0, 50, 100};
  core.add(b0);
  core.add(a0);
  // Strand a1 (d = 30): others = RBF*(b0, 30) = 20 + ⌈30·20/100⌉ = 26. Own, w = 0:
  //   (A) 0 + W_0 [r_1 − r_0 = 40 < 30? no] + tail [r_p > 40 + 100 − 30 = 110? no] = 0;
  //   (B) offset_burst({(0, 10), (40, 5)}, 30) − 5 = max(10, 5) − 5 = 5.  Load 26 + 5 = 31.
  CHECK(core.load(a1, FitKind::fbb_ffd) == 31);
  core.add(a1);
  // w = 5: (B) = offset_burst({(0, 10), (40, 10)}, 30) − 5 = 10 − 5 = 5; (A) = 5: load 26 + 5.
  CHECK(core.load(a1, FitKind::fbb_ffd) == 31);
  core.add(a1);
  // w = 10: (A) = 10; (B) = max(10, 15) − 5 = 10: load 36 (the own term now grows with w).
  CHECK(core.load(a1, FitKind::fbb_ffd) == 36);
  CHECK(core.load(a1, FitKind::fbb_ffd) ==
        rtpar::analysis::core_interference(core.members(), a1, FitKind::fbb_ffd));
}

TEST_CASE("fbb core: fbb_order and strand_priorities equal their definitions") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<FbbStrand> strands;
    const int n = std::uniform_int_distribution<int>(0, 80)(rng);
    for (int k = 0; k < n; ++k) {
      // Few keys, repeated in runs and apart (the same segment may recur with another window).
      const std::size_t task = std::uniform_int_distribution<std::size_t>(0, 3)(rng);
      const std::size_t seg = std::uniform_int_distribution<std::size_t>(0, 3)(rng);
      const std::int64_t window = std::uniform_int_distribution<std::int64_t>(1, 4)(rng);
      const int run = std::uniform_int_distribution<int>(1, 3)(rng);
      for (int r = 0; r < run; ++r) strands.push_back(FbbStrand{task, seg, 1, 0, window, 10});
    }
    std::vector<std::size_t> want(strands.size());
    std::iota(want.begin(), want.end(), std::size_t{0});
    std::stable_sort(want.begin(), want.end(), [&](std::size_t a, std::size_t b) {
      const FbbStrand& x = strands[a];
      const FbbStrand& y = strands[b];
      if (x.window != y.window) return x.window < y.window;
      if (x.task != y.task) return x.task < y.task;
      return x.segment < y.segment;
    });
    CHECK(rtpar::analysis::fbb_order(strands) == want);
    std::vector<int> core(strands.size());
    for (int& c : core) c = std::uniform_int_distribution<int>(-1, 3)(rng);
    // The definition: per core, a map from segment to rank, ranks given in fbb_order.
    std::vector<int> prio(strands.size(), 0);
    std::map<int, std::map<std::pair<std::size_t, std::size_t>, int>> rank;
    for (const std::size_t k : want) {
      if (core[k] < 0) continue;
      auto& segments = rank[core[k]];
      const auto key = std::make_pair(strands[k].task, strands[k].segment);
      auto it = segments.find(key);
      if (it == segments.end()) {
        const int next =
            std::max(rtpar::analysis::kBottomPriority,
                     rtpar::analysis::kTopPriority - static_cast<int>(segments.size()));
        it = segments.emplace(key, next).first;
      }
      prio[k] = it->second;
    }
    CHECK(rtpar::analysis::strand_priorities(strands, core) == prio);
    CHECK(rtpar::analysis::strand_priorities(strands, core, want) == prio);
  }
}
