// test_sim_locks.cpp — the simulator's lock channels (src/sim/lock_sections.hpp) by hand: the
// immediate priority ceiling on one core, MSRP's non-preemptive FIFO spinning across cores, and
// sections inside a parallel task's nodes.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/taskset_file.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"

namespace {

// kLockMs is one millisecond in ns.
constexpr std::int64_t kLockMs = 1'000'000;

// lock_task_toml is one [[task]] table: a one-thread task pinned to `core` at `priority`.
std::string lock_task_toml(const std::string& name, const std::string& period,
                           const std::string& work, int core, int priority,
                           const std::string& phase = "0ns") {
  return "[[task]]\nname = \"" + name + "\"\nperiod = \"" + period + "\"\nwork = \"" + work +
         "\"\nphase = \"" + phase + "\"\nplaces = [" + std::to_string(core) +
         "]\nthreads = 1\npriority = " + std::to_string(priority) + "\n\n";
}

// lock_channel_toml is one lock [[channel]] "m" written by `writer`, read by `readers` (a TOML list
// body).
std::string lock_channel_toml(const std::string& writer, const std::string& readers,
                              const std::string& hold, int accesses = 1) {
  return "[[channel]]\nname = \"m\"\nkind = \"lock\"\nsize = 8\nwriter = \"" + writer +
         "\"\nreaders = [" + readers + "]\nhold = \"" + hold +
         "\"\naccesses = " + std::to_string(accesses) + "\n";
}

// simulate_locked plans `text` with the partitioned planner (admitted or not: its placement is what
// the simulation needs) and simulates it with `seed`.
rtpar::SimResult simulate_locked(const std::string& text, std::uint64_t seed = 0) {
  const rtpar::TaskSet set = rtpar::parse_taskset(text, "<test_sim_locks>");
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  rtpar::SimOptions o;
  o.seed = seed;
  return rtpar::simulate_plan(plan, set, o);
}

}  // namespace

TEST_CASE("sim locks: a local lock runs under the priority ceiling on one core") {
  // lo's job is one 5 ms section from 0; hi (released 1 µs later, C = 2 ms, its own section cut
  // to its 2 ms) cannot preempt it. top (priority 30, no lock, released at 1 µs too) is above the
  // ceiling 20 and preempts the section at once: lo's section ends at 6 ms, hi runs [6, 8] ms,
  // R = 8 ms − 1 µs: 2 ms of its own, 1 ms of top's, 5 ms of blocking. Without top: 7 ms − 1 µs.
  const std::string text = "[system]\ncores = [0]\nplanner = \"partitioned\"\n\n" +
                           lock_task_toml("hi", "10ms", "2ms", 0, 20, "1us") +
                           lock_task_toml("lo", "100ms", "5ms", 0, 10) +
                           lock_task_toml("top", "100ms", "1ms", 0, 30, "1us") +
                           lock_channel_toml("hi", "\"lo\"", "5ms");
  const rtpar::SimResult r = simulate_locked(text);
  CHECK(r.misses == 0);
  CHECK(r.tasks[0].max_response_ns == 8 * kLockMs - 1000);
  CHECK(r.tasks[2].max_response_ns == 1 * kLockMs);  // top preempts lo's section
  REQUIRE(r.locks.size() == 1);
  CHECK_FALSE(r.locks[0].global);
  CHECK(r.locks[0].max_wait_ns == 0);            // a local request never waits
  CHECK(r.locks[0].max_hold_ns == 6 * kLockMs);  // lo's 5 ms section, preempted 1 ms by top
  CHECK(r.locks[0].sections == r.tasks[0].jobs + r.tasks[1].jobs);
}

TEST_CASE("sim locks: without the third task hi waits exactly lo's section") {
  const std::string text = "[system]\ncores = [0]\nplanner = \"partitioned\"\n\n" +
                           lock_task_toml("hi", "10ms", "2ms", 0, 20, "1us") +
                           lock_task_toml("lo", "100ms", "5ms", 0, 10) +
                           lock_channel_toml("hi", "\"lo\"", "5ms");
  const rtpar::SimResult r = simulate_locked(text);
  CHECK(r.misses == 0);
  CHECK(r.tasks[0].max_response_ns == 7 * kLockMs - 1000);
  CHECK(r.locks.at(0).max_hold_ns == 5 * kLockMs);
}

TEST_CASE("sim locks: hi's blocking under the ceiling is at most lo's 5 ms section (any seed)") {
  // The brief's example: hi (C = 2 ms, T = 10 ms, priority 20), lo (C = 50 ms, T = 100 ms,
  // priority 10), hold 5 ms: R_hi ≤ 2 + 5 ms, wherever the sections land; 7 ms exactly when lo's
  // section starts just before hi's release (the first test case).
  const std::string text = "[system]\ncores = [0]\nplanner = \"partitioned\"\n\n" +
                           lock_task_toml("hi", "10ms", "2ms", 0, 20) +
                           lock_task_toml("lo", "100ms", "50ms", 0, 10) +
                           lock_channel_toml("hi", "\"lo\"", "5ms");
  const rtpar::TaskSet set = rtpar::parse_taskset(text, "<test_sim_locks>");
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].response_bound_ns == 7 * kLockMs);
  std::int64_t worst = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    rtpar::SimOptions o;
    o.seed = seed;
    const rtpar::SimResult r = rtpar::simulate_plan(plan, set, o);
    CHECK(r.misses == 0);
    REQUIRE(r.tasks[0].max_response_ns.has_value());
    CHECK(*r.tasks[0].max_response_ns <= 7 * kLockMs);
    worst = std::max(worst, *r.tasks[0].max_response_ns);
    CHECK(r.locks.at(0).max_hold_ns == 5 * kLockMs);  // lo's full section, hi's cut to its C
  }
  CHECK(worst > 2 * kLockMs);  // some seed puts lo's section across one of hi's releases
}

TEST_CASE("sim locks: a global lock spins FIFO and non-preemptively (MSRP)") {
  // hi alone on core 0, lo on core 1: lo holds the global lock over [0, 5 ms]; hi requests at
  // 1 µs (its section is its whole 2 ms job) and spins until 5 ms: R = 7 ms − 1 µs.
  const std::string two = "[system]\ncores = [0, 1]\nplanner = \"partitioned\"\n\n" +
                          lock_task_toml("hi", "10ms", "2ms", 0, 20, "1us") +
                          lock_task_toml("lo", "100ms", "5ms", 1, 10) +
                          lock_channel_toml("hi", "\"lo\"", "5ms");
  const rtpar::SimResult r = simulate_locked(two);
  CHECK(r.misses == 0);
  CHECK(r.tasks[0].max_response_ns == 7 * kLockMs - 1000);
  REQUIRE(r.locks.size() == 1);
  CHECK(r.locks[0].global);
  CHECK(r.locks[0].max_wait_ns == 5 * kLockMs - 1000);
  CHECK(r.locks[0].max_hold_ns == 5 * kLockMs);

  // FIFO: b (core 1) asks at 1 µs, c (core 2) at 2 µs; b gets it at 5 ms, c at 7 ms. top, on
  // a's core 0 above a's priority and without the lock, waits for a's non-preemptive section.
  const std::string three = "[system]\ncores = [0, 1, 2]\nplanner = \"partitioned\"\n\n" +
                            lock_task_toml("a", "20ms", "5ms", 0, 10) +
                            lock_task_toml("b", "20ms", "2ms", 1, 10, "1us") +
                            lock_task_toml("c", "20ms", "2ms", 2, 10, "2us") +
                            lock_task_toml("top", "20ms", "1ms", 0, 30, "1us") +
                            lock_channel_toml("a", "\"b\", \"c\"", "5ms");
  const rtpar::SimResult f = simulate_locked(three);
  CHECK(f.tasks[1].max_response_ns == 7 * kLockMs - 1000);
  CHECK(f.tasks[2].max_response_ns == 9 * kLockMs - 2000);
  CHECK(f.tasks[3].max_response_ns == 6 * kLockMs - 1000);
  CHECK(f.locks.at(0).max_wait_ns == 7 * kLockMs - 2000);
}

TEST_CASE("sim locks: sections inside a parallel task's nodes are MSRP sections") {
  // p: a 2-thread team on cores 0-1 (C = 10 ms, L = 5 ms) taking the lock 3 times per job; q on
  // core 2 once per job. Every section is granted, and each is held exactly `hold` (non-
  // preemptive, never stretched), whatever the seed.
  const std::string text =
      "[system]\ncores = [0, 1, 2]\nplanner = \"partitioned\"\n\n"
      "[[task]]\nname = \"p\"\nperiod = \"20ms\"\nwork = \"10ms\"\nspan = \"5ms\"\n"
      "places = [0, 1]\nthreads = 2\npriority = 10\n\n" +
      lock_task_toml("q", "10ms", "2ms", 2, 10) + lock_channel_toml("p", "\"q\"", "500us", 3);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const rtpar::SimResult r = simulate_locked(text, seed);
    REQUIRE(r.locks.size() == 1);
    CHECK(r.locks[0].global);
    CHECK(r.locks[0].sections == 3 * (r.tasks[0].jobs + r.tasks[1].jobs));
    CHECK(r.locks[0].max_hold_ns == 500'000);
    CHECK(r.locks[0].max_wait_ns <= 2 * 500'000);  // FIFO: at most the other 2 threads' sections
  }
}
