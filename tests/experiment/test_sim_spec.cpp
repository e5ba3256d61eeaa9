// test_sim_spec.cpp — a simulation series' barrier team rule (`barrier_team`, decision RO10,
// docs/experiments.md "RT-OpenMP Figs. 4-9"): with "m", a trial on m cores injects the barrier
// row of m, whatever the task's strand count.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>

#include "experiment/sim_spec.hpp"
#include "rtpar/tools/overhead.hpp"

using namespace rtpar;
using namespace rtpar::experiment;

namespace {

// barrier_cost is one measured barrier row: `threads` members, every quantile `ns`.
ForkJoinCost barrier_cost(int threads, std::int64_t ns) {
  ForkJoinCost c;
  c.threads = threads;
  c.wait = WaitKind::block;
  c.p50_ns = c.p99_ns = c.p999_ns = c.max_ns = ns;
  return c;
}

// spec_with is a SimSpec injecting barrier rows of 2, 4 and 12 threads.
SimSpec spec_with(bool team_m) {
  auto p = std::make_shared<OverheadProfile>();
  p->barrier = {barrier_cost(2, 800), barrier_cost(4, 1600), barrier_cost(12, 5000)};
  SimSpec s;
  s.overhead = p;
  s.barrier_team_m = team_m;
  return s;
}

}  // namespace

TEST_CASE("barrier_team = \"m\": the rows below m are dropped, so every barrier is m's") {
  const SimSpec spec = spec_with(true);
  // 4 cores: the 2-thread row goes; the simulator's nearest-at-or-above rule then charges a
  // barrier of 2 strands the 4-thread row (1.6 µs), not 800 ns.
  const auto four = barrier_profile(spec, 4);
  REQUIRE(four);
  REQUIRE(four->barrier.size() == 2);
  CHECK(four->barrier[0].threads == 4);
  CHECK(four->barrier[0].p999_ns == 1600);
  CHECK(four->barrier[1].threads == 12);
  // The spec's own profile is untouched (other trials of other core counts share it).
  CHECK(spec.overhead->barrier.size() == 3);
  // 12 cores: only the 12-thread row remains.
  const auto twelve = barrier_profile(spec, 12);
  REQUIRE(twelve->barrier.size() == 1);
  CHECK(twelve->barrier[0].threads == 12);
  // 36 cores: no row reaches m, so the profile stays whole (its extrapolation grows with the team).
  CHECK(barrier_profile(spec, 36) == spec.overhead);
}

TEST_CASE("barrier_team = \"strands\" (the default) and no profile leave the profile as it is") {
  const SimSpec strands = spec_with(false);
  CHECK(barrier_profile(strands, 4) == strands.overhead);
  const SimSpec none;
  CHECK(barrier_profile(none, 4) == nullptr);
}
