// test_charged_server_bounds.cpp — the kernel's server (server_interference.hpp) charged inside
// the fork/join stage RTA (FjOptions::server) and the decomposition load condition (fbb_place's
// server): worked examples by hand, the admission boundaries, 64-bit extremes, and the per-core
// index of the fork/join RTA against the list form.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analysis/bounds/fbb_ffd.hpp"
#include "analysis/bounds/fork_join_stage_rta.hpp"
#include "analysis/bounds/server_interference.hpp"

using rtpar::analysis::FbbStrand;
using rtpar::analysis::FjGroup;
using rtpar::analysis::FjOptions;
using rtpar::analysis::FjStage;
using rtpar::analysis::FjTask;
using rtpar::analysis::PeriodicServer;

namespace {

// with_server is the default analysis with `server` on every core.
FjOptions with_server(std::int64_t q, std::int64_t p) {
  FjOptions o;
  o.server = PeriodicServer{q, p};
  return o;
}

// one_strand is a one-stage task with one strand of `c` on core 0.
FjTask one_strand(std::int64_t c, std::int64_t d, int priority) {
  return FjTask{d, d, priority, {FjStage{{{0, c}}}}, {}};
}

}  // namespace

TEST_CASE("fjrta + server: one strand, R = C + Q·⌈(R + P − Q)/P⌉, and its boundary") {
  // C = 3, Q = 1, P = 10: w = 3 → 3 + ⌈12/10⌉ = 5 → 3 + ⌈14/10⌉ = 5. R = 5 = C + I(5), I(5) = 2
  // (the deferred budget of one period and the next one, back to back).
  FjTask at = one_strand(3, 5, 10);
  CHECK(rtpar::analysis::fj_analyse(at, {}, with_server(1, 10)) == 5);
  CHECK(rtpar::analysis::server_interference(PeriodicServer{1, 10}, 5) == 2);
  FjTask below = one_strand(3, 4, 10);
  CHECK_FALSE(rtpar::analysis::fj_analyse(below, {}, with_server(1, 10)));
  // Not charged: the same task ends at C.
  FjTask plain = one_strand(3, 4, 10);
  CHECK(rtpar::analysis::fj_analyse(plain, {}) == 3);
}

TEST_CASE("fjrta + server: above a higher-priority task, on its core only") {
  // hp: T = D = 10, c = 2 on core 0. lp: c = 3 on core 0 and c = 3 on core 1, D = 20.
  //   core 0: w = 3 + ⌈w/10⌉·2 + ⌈(w + 9)/10⌉·1: 3 → 3 + 2 + 2 = 7 → 3 + 2 + ⌈16/10⌉ = 7.
  //   core 1: w = 3 + ⌈(w + 9)/10⌉: 3 → 5 → 5.            B = max(7, 5) = 7.
  FjTask hp = one_strand(2, 10, 20);
  REQUIRE(rtpar::analysis::fj_analyse(hp, {}, with_server(1, 10)) == 4);  // 2 + 2
  FjTask lp{20, 20, 10, {FjStage{{{0, 3}, {1, 3}}}}, {}};
  CHECK(rtpar::analysis::fj_analyse(lp, {&hp}, with_server(1, 10)) == 7);
  CHECK(lp.finish == std::vector<std::int64_t>{7});
}

TEST_CASE("fjrta + server: a server that takes the whole core admits nothing, no overflow") {
  // Q = P: I(t) = t, no fixed point for C > 0.
  FjTask t = one_strand(1, 1'000'000, 1);
  CHECK_FALSE(rtpar::analysis::fj_analyse(t, {}, with_server(100, 100)));
  // 64-bit extremes: Q = P = 2^62, D = INT64_MAX: 1 → 1 + 2^62 → 1 + 2^63 > D, exactly in 128 bits.
  const std::int64_t big = std::int64_t{1} << 62;
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  FjTask huge{max, max, 1, {FjStage{{{0, 1}}}}, {}};
  CHECK_FALSE(rtpar::analysis::fj_analyse(huge, {}, with_server(big, big)));
  // A tiny server in a huge period: R = C + 2Q (one deferred budget plus the next).
  FjTask fine{max, max, 1, {FjStage{{{0, big}}}}, {}};
  CHECK(rtpar::analysis::fj_analyse(fine, {}, with_server(1, max)) == big + 2);
  // An invalid server is refused, never divided by.
  FjTask any = one_strand(1, 10, 1);
  CHECK_THROWS_AS(rtpar::analysis::fj_analyse(any, {}, with_server(0, 10)), std::invalid_argument);
  CHECK_THROWS_AS(rtpar::analysis::fj_analyse(any, {}, with_server(11, 10)), std::invalid_argument);
  CHECK_THROWS_AS(
      rtpar::analysis::fbb_place({FbbStrand{0, 0, 1, 0, 10, 10}}, 1, rtpar::FitKind::fbb_ffd,
                                 rtpar::analysis::kPriorityLevels, PeriodicServer{0, 10}),
      std::invalid_argument);
}

TEST_CASE("fjrta: the per-core index gives the list form's bounds (random placements)") {
  // Deterministic LCG; tasks of 1..3 stages on 4 cores, priorities 1..4 (many equal), each
  // analysed against all the earlier ones in both forms, with and without a server.
  std::uint64_t state = 12345;
  auto rnd = [&state](std::int64_t k) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::int64_t>((state >> 33) % static_cast<std::uint64_t>(k));
  };
  for (int server = 0; server < 2; ++server) {
    FjOptions options;
    if (server == 1) options.server = PeriodicServer{3, 50};
    std::vector<FjTask> tasks(60);
    std::vector<const FjTask*> list;
    rtpar::analysis::FjCoreIndex index;
    int admitted = 0;
    for (FjTask& t : tasks) {
      t.period = 200 + 50 * rnd(10);
      t.deadline = t.period - rnd(50);
      t.priority = 1 + static_cast<int>(rnd(4));
      const std::int64_t stages = 1 + rnd(3);
      for (std::int64_t s = 0; s < stages; ++s) {
        FjStage stage;
        const std::int64_t first = rnd(4);
        const std::int64_t width = 1 + rnd(3);
        for (std::int64_t k = 0; k < width; ++k) {
          stage.groups.push_back(FjGroup{static_cast<int>((first + k) % 4), 1 + rnd(6)});
        }
        t.stages.push_back(stage);
      }
      FjTask copy = t;
      const auto by_list = rtpar::analysis::fj_analyse(t, list, options);
      const auto by_index = rtpar::analysis::fj_analyse_indexed(copy, index, options);
      REQUIRE(by_list == by_index);
      REQUIRE(t.finish == copy.finish);
      if (by_list) {
        ++admitted;
        list.push_back(&t);
        index.add(&t);
      }
    }
    CHECK(admitted > 10);  // the comparison covered loaded cores, not only empty ones
  }
}

TEST_CASE("fbb + server: d − ΣRBF − I(d) ≥ e, at the boundary") {
  // One strand, window d = 10 ms, server 1 ms every 10 ms: I(10 ms) = min(10, 1·⌈19/10⌉) = 2 ms,
  // so e = 8 ms fits and e = 8 ms + 1 ns does not.
  const PeriodicServer server{1'000'000, 10'000'000};
  REQUIRE(rtpar::analysis::server_interference(server, 10'000'000) == 2'000'000);
  const FbbStrand fits{0, 0, 8'000'000, 0, 10'000'000, 10'000'000};
  const FbbStrand over{0, 0, 8'000'001, 0, 10'000'000, 10'000'000};
  const auto fbb = rtpar::FitKind::fbb_ffd;
  const int levels = rtpar::analysis::kPriorityLevels;
  CHECK(rtpar::analysis::fbb_place({fits}, 1, fbb, levels, server).core[0] == 0);
  CHECK(rtpar::analysis::fbb_place({over}, 1, fbb, levels, server).core[0] == -1);
  CHECK(rtpar::analysis::fbb_place({over}, 1, fbb).core[0] == 0);  // not charged
  // With a strand of another task already there: RBF*(d) = 1 + ⌈10·1/10⌉ = 2 ms (e = 1 ms, T =
  // 10 ms), so the next strand may have 10 − 2 − 2 = 6 ms; it goes to the second core otherwise.
  const FbbStrand first{0, 0, 1'000'000, 0, 9'000'000, 10'000'000};
  const FbbStrand six{1, 0, 6'000'000, 0, 10'000'000, 10'000'000};
  const FbbStrand more{1, 0, 6'000'001, 0, 10'000'000, 10'000'000};
  CHECK(rtpar::analysis::fbb_place({first, six}, 2, fbb, levels, server).core ==
        std::vector<int>{0, 0});
  CHECK(rtpar::analysis::fbb_place({first, more}, 2, fbb, levels, server).core ==
        std::vector<int>{0, 1});
  // A server that holds the whole core (Q = P): I(d) = d, nothing fits.
  CHECK(rtpar::analysis::fbb_place({fits}, 1, fbb, levels, PeriodicServer{5, 5}).core[0] == -1);
}
