// test_fbb_ffd_memo.cpp — fbb_place's shortcuts change no placement (fbb_ffd.cpp: a core's load
// memo split into own and other tasks, the scan resumed after the last core of a segment's
// previous strand, a refused segment refused again) and offset_burst's linear path gives the
// pairwise definition's value: both against the definitions, re-stated here, on random inputs
// shaped like decomposed fork/join sets (many strands per segment, few cores, tight windows).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "analysis/bounds/fbb_ffd.hpp"
#include "analysis/bounds/rbf.hpp"
#include "analysis/bounds/server_interference.hpp"

using rtpar::FitKind;
using rtpar::analysis::CoreSegment;
using rtpar::analysis::FbbStrand;

namespace {

// reference_place is fbb_place as fbb_ffd.hpp states it, without shortcuts: every strand in
// fbb_order, every core's core_interference computed afresh.
rtpar::analysis::FbbResult reference_place(
    const std::vector<FbbStrand>& strands, int cores, FitKind fit, int levels,
    const std::optional<rtpar::analysis::PeriodicServer>& server) {
  rtpar::analysis::FbbResult r;
  r.core.assign(strands.size(), -1);
  r.level_full.assign(strands.size(), false);
  std::vector<std::vector<CoreSegment>> on(static_cast<std::size_t>(cores));
  for (const std::size_t k : rtpar::analysis::fbb_order(strands)) {
    const FbbStrand& s = strands[k];
    const __int128 kernel = server ? rtpar::analysis::server_interference(*server, s.window) : 0;
    int chosen = -1;
    __int128 chosen_load = 0;
    bool blocked = false;
    for (std::size_t q = 0; q < on.size(); ++q) {
      const __int128 load = rtpar::analysis::core_interference(on[q], s, fit);
      if (static_cast<__int128>(s.window) - load - kernel < s.wcet) continue;
      const bool has = std::any_of(on[q].begin(), on[q].end(), [&](const CoreSegment& c) {
        return c.task == s.task && c.segment == s.segment;
      });
      if (!has && on[q].size() >= static_cast<std::size_t>(levels)) {
        blocked = true;
        continue;
      }
      if (fit != FitKind::worst_fit) {
        chosen = static_cast<int>(q);
        break;
      }
      if (chosen < 0 || load < chosen_load) {
        chosen = static_cast<int>(q);
        chosen_load = load;
      }
    }
    r.core[k] = chosen;
    if (chosen < 0) {
      r.level_full[k] = blocked;
      continue;
    }
    auto& members = on[static_cast<std::size_t>(chosen)];
    auto it = std::find_if(members.begin(), members.end(), [&](const CoreSegment& c) {
      return c.task == s.task && c.segment == s.segment;
    });
    if (it == members.end()) {
      members.push_back(CoreSegment{s.task, s.segment, s.offset, s.window, s.period, 0});
      it = std::prev(members.end());
    }
    it->work += s.wcet;
  }
  return r;
}

// pairwise_burst is offset_burst's definition (rbf.hpp), O(k²).
__int128 pairwise_burst(const std::vector<CoreSegment>& segs, std::int64_t d) {
  __int128 burst = 0;
  for (const CoreSegment& l : segs) {
    __int128 within = 0;
    for (const CoreSegment& p : segs) {
      std::int64_t delta = (p.offset - l.offset) % p.period;
      if (delta < 0) delta += p.period;
      if (delta < d) within += p.work;
    }
    burst = std::max(burst, within);
  }
  return burst;
}

// random_strands draws `tasks` decomposed-looking tasks: segments in sequence (offset = sum of
// the earlier windows), windows a random share of D = T, 1..strands_max strands per segment.
std::vector<FbbStrand> random_strands(std::mt19937_64& rng, int tasks, int strands_max) {
  std::vector<FbbStrand> out;
  for (int i = 0; i < tasks; ++i) {
    const std::int64_t period = std::uniform_int_distribution<std::int64_t>(200, 2000)(rng);
    const int segments = std::uniform_int_distribution<int>(1, 7)(rng);
    std::int64_t offset = 0;
    for (int j = 0; j < segments; ++j) {
      const std::int64_t left = period - offset;
      if (left < 2) break;
      const std::int64_t window = std::uniform_int_distribution<std::int64_t>(
          1, std::max<std::int64_t>(1, left / (segments - j)))(rng);
      const std::int64_t wcet = std::uniform_int_distribution<std::int64_t>(1, window)(rng);
      const int strands = std::uniform_int_distribution<int>(1, strands_max)(rng);
      for (int k = 0; k < strands; ++k) {
        out.push_back(FbbStrand{static_cast<std::size_t>(i), static_cast<std::size_t>(j), wcet,
                                offset, window, period});
      }
      offset += window;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("fbb memo: fbb_place equals the shortcut-free placement on random decomposed sets") {
  std::mt19937_64 rng(20261124);
  const FitKind fits[] = {FitKind::fbb_ffd, FitKind::first_fit, FitKind::worst_fit};
  int placed = 0, refused = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int tasks = std::uniform_int_distribution<int>(1, 6)(rng);
    const auto strands = random_strands(rng, tasks, 12);
    const int cores = std::uniform_int_distribution<int>(1, 6)(rng);
    const int levels = trial % 5 == 0 ? 2 : rtpar::analysis::kPriorityLevels;
    std::optional<rtpar::analysis::PeriodicServer> server;
    if (trial % 7 == 0) server = rtpar::analysis::PeriodicServer{5, 100};
    for (const FitKind fit : fits) {
      CAPTURE(trial);
      CAPTURE(static_cast<int>(fit));
      const auto got = rtpar::analysis::fbb_place(strands, cores, fit, levels, server);
      const auto want = reference_place(strands, cores, fit, levels, server);
      CHECK(got.core == want.core);
      CHECK(got.level_full == want.level_full);
      CHECK(got.order == rtpar::analysis::fbb_order(strands));
      CHECK(got.priority == rtpar::analysis::strand_priorities(strands, want.core));
      for (const int c : want.core) (c < 0 ? refused : placed) += 1;
    }
  }
  // Both outcomes occur often (the shortcuts for placed and for refused segments are exercised).
  CHECK(placed > 10000);
  CHECK(refused > 10000);
}

TEST_CASE("fbb memo: offset_burst's linear path equals the pairwise definition") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::int64_t period = std::uniform_int_distribution<std::int64_t>(1, 50)(rng);
    const int k = std::uniform_int_distribution<int>(1, 8)(rng);
    std::vector<CoreSegment> segs;
    for (int m = 0; m < k; ++m) {
      // Offsets in [0, T) with ties, sometimes beyond T (the pairwise path), works 1..9.
      const std::int64_t hi = trial % 10 == 0 ? 3 * period : period - 1;
      const std::int64_t offset = std::uniform_int_distribution<std::int64_t>(0, hi)(rng);
      const std::int64_t work = std::uniform_int_distribution<std::int64_t>(1, 9)(rng);
      segs.push_back(CoreSegment{0, static_cast<std::size_t>(m), offset, 1, period, work});
    }
    if (trial % 2 == 0) {
      std::sort(segs.begin(), segs.end(),
                [](const CoreSegment& a, const CoreSegment& b) { return a.offset < b.offset; });
    }
    const std::int64_t d = std::uniform_int_distribution<std::int64_t>(-1, 2 * period)(rng);
    CAPTURE(trial);
    CHECK(rtpar::analysis::offset_burst(segs, d) == pairwise_burst(segs, d));
  }
}

TEST_CASE("fbb memo: offset_burst_until's range keeps offset_burst's value") {
  std::mt19937_64 rng(11);
  int reused = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const std::int64_t period = std::uniform_int_distribution<std::int64_t>(1, 40)(rng);
    const int k = std::uniform_int_distribution<int>(0, 7)(rng);
    std::vector<CoreSegment> segs;
    for (int m = 0; m < k; ++m) {
      const std::int64_t hi = trial % 10 == 0 ? 3 * period : period - 1;
      const std::int64_t offset = std::uniform_int_distribution<std::int64_t>(0, hi)(rng);
      const std::int64_t work = std::uniform_int_distribution<std::int64_t>(0, 9)(rng);
      segs.push_back(CoreSegment{0, static_cast<std::size_t>(m), offset, 1, period, work});
    }
    if (trial % 3 != 0) {
      std::sort(segs.begin(), segs.end(),
                [](const CoreSegment& a, const CoreSegment& b) { return a.offset < b.offset; });
    }
    const std::int64_t d = std::uniform_int_distribution<std::int64_t>(-1, 2 * period)(rng);
    std::int64_t until = 0;
    const __int128 value = rtpar::analysis::offset_burst_until(segs, d, until);
    CAPTURE(trial);
    CHECK(value == pairwise_burst(segs, d));
    CHECK(until >= d);
    // Every window length in [d, until] (up to 3T past d) gives the same value.
    for (std::int64_t x = d; x <= until && x <= d + 3 * period; ++x) {
      CHECK(pairwise_burst(segs, x) == value);
    }
    // ... and the next one, where it is worked out and finite, may not (no claim beyond).
    if (until > d) ++reused;
  }
  CHECK(reused > 5000);
}
