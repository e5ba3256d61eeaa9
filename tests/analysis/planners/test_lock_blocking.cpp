// test_lock_blocking.cpp — what every planner does with a `lock` channel
// (src/analysis/planners/lock_blocking.hpp): partitioned and federated charge a local lock's
// ceiling blocking and a global lock's MSRP spin and blocking (hand-worked examples), the other
// planners refuse the set naming the lock; and the `hold` rules of the file format.
#include <doctest/doctest.h>

#include <string>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "support/rejected_input.hpp"

namespace {

// one_core is issue 32's example: hi (2 ms every 10 ms, priority 20) and lo (50 ms every
// 100 ms, priority 10) on core 0, sharing lock "state" of hold `hold`; lo sits on `lo_place`.
std::string lock_hilo(const std::string& hold, int lo_place = 0, const std::string& extra = "") {
  return "[system]\ncores = [0, 1]\nplanner = \"partitioned\"\n"                          // 1-3
         "[[task]]\nname = \"hi\"\nperiod = \"10ms\"\nwork = \"2ms\"\npriority = 20\n"    // 4-8
         "places = [0]\n"                                                                 // 9
         "[[task]]\nname = \"lo\"\nperiod = \"100ms\"\nwork = \"50ms\"\npriority = 10\n"  // 10-14
         "places = [" +
         std::to_string(lo_place) +
         "]\n"                                                           // 15
         "[[channel]]\nname = \"state\"\nkind = \"lock\"\nsize = 64\n"   // 16-19
         "writer = \"lo\"\nreaders = [\"hi\"]\n" +                       // 20-21
         (hold.empty() ? std::string() : "hold = \"" + hold + "\"\n") +  // 22
         extra;
}

bool lock_note(const rtpar::Plan& plan, const std::string& fragment) {
  for (const std::string& n : plan.notes) {
    if (n.find(fragment) != std::string::npos) return true;
  }
  return false;
}

// lock_rejected expects `text` to be refused at `field`, `line`, saying `fragment`.
void lock_rejected(const std::string& text, const std::string& field, int line,
                   const std::string& fragment) {
  testsupport::expect_rejected(text, "l.toml", field, line, fragment);
}

}  // namespace

TEST_CASE("lock blocking: partitioned charges hold(lo) to hi on one core: R(hi) = 7 ms") {
  const rtpar::TaskSet set = rtpar::parse_taskset(lock_hilo("5ms"), "l.toml");
  REQUIRE(set.channels.size() == 1);
  CHECK(set.channels[0].hold == std::chrono::milliseconds(5));
  CHECK(set.channels[0].accesses == 1);
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].response_bound_ns == 7'000'000);   // 2 ms + B = 5 ms
  CHECK(plan.tasks[1].response_bound_ns == 64'000'000);  // lo: not blocked, 50 + 7·2 ms
  CHECK(lock_note(plan, "task 'hi': blocking B = 5ms charged (channel 'state'"));
  CHECK_FALSE(lock_note(plan, "task 'lo': blocking"));
  // A hold that leaves hi no room: 2 ms + 8.5 ms > 10 ms.
  const rtpar::Plan tight = rtpar::plan_with(rtpar::PlannerKind::partitioned,
                                             rtpar::parse_taskset(lock_hilo("8500us"), "l"));
  CHECK_FALSE(tight.schedulable);
  CHECK(tight.tasks[0].reason.has_value());
}

TEST_CASE("lock blocking: the two-core variant is charged as MSRP: R(hi) = 2 + 5 ms spin") {
  // Gai et al. 2001 §4: one other core can be ahead of each request, so spin = 1 × 5 ms; both
  // users' C grows by it (one access per job); nobody shares a core, so no blocking term.
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned,
                                            rtpar::parse_taskset(lock_hilo("5ms", 1), "l.toml"));
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].response_bound_ns == 7'000'000);   // hi: 2 + 5 ms
  CHECK(plan.tasks[1].response_bound_ns == 55'000'000);  // lo: 50 + 5 ms, alone on core 1
  CHECK(lock_note(plan, "channel 'state' (kind = \"lock\"): global (users on cores 0, 1), MSRP"));
  CHECK(lock_note(plan, "waits ≤ 5ms (1 other core × section 5ms) per access"));
  // Three accesses per job: 3 spins each.
  const rtpar::Plan three =
      rtpar::plan_with(rtpar::PlannerKind::partitioned,
                       rtpar::parse_taskset(lock_hilo("2ms", 1, "accesses = 3\n"), "l.toml"));
  REQUIRE(three.schedulable);
  CHECK(three.tasks[0].response_bound_ns == 8'000'000);   // 2 + 3 × 2 ms
  CHECK(three.tasks[1].response_bound_ns == 56'000'000);  // 50 + 3 × 2 ms
}

TEST_CASE("lock blocking: MSRP's non-preemptive section blocks a higher-priority task") {
  // Core 0: hi (2 ms / 10 ms, prio 20, no lock) and mid (1 ms / 20 ms, prio 15); core 1: lo
  // (10 ms / 50 ms). mid and lo share g (hold 1 ms). spin = 1 ms; C'(mid) = 2 ms, C'(lo) = 11 ms.
  // hi is blocked once by mid's spin + section: B = 2 ms, R(hi) = 2 + 2 = 4 ms.
  // mid: R = 2 + ⌈R/10⌉·2 = 4 ms. lo: 11 ms alone.
  const std::string text =
      "[system]\ncores = [0, 1]\nplanner = \"partitioned\"\n"
      "[[task]]\nname = \"hi\"\nperiod = \"10ms\"\nwork = \"2ms\"\npriority = 20\nplaces = [0]\n"
      "[[task]]\nname = \"mid\"\nperiod = \"20ms\"\nwork = \"1ms\"\npriority = 15\nplaces = [0]\n"
      "[[task]]\nname = \"lo\"\nperiod = \"50ms\"\nwork = \"10ms\"\npriority = 10\nplaces = [1]\n"
      "[[channel]]\nname = \"g\"\nkind = \"lock\"\nsize = 8\nwriter = \"mid\"\nreaders = [\"lo\"]\n"
      "hold = \"1ms\"\n";
  const rtpar::Plan plan =
      rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(text, "g.toml"));
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].response_bound_ns == 4'000'000);
  CHECK(plan.tasks[1].response_bound_ns == 4'000'000);
  CHECK(plan.tasks[2].response_bound_ns == 11'000'000);
  CHECK(lock_note(plan,
                  "task 'hi': blocking B = 2ms charged (channel 'g' (kind = \"lock\"), "
                  "task 'mid''s non-preemptive MSRP spin and critical section"));
  // An EDF-band task on core 0 instead of hi: the band's demand test charges mid's section as
  // B(t) at every t (mid is static, below the band, but its request runs above it): h(10 ms) +
  // 2 ms = 4 ms ≤ 10 ms, so hi meets D = 10 ms (Baruah, RTSS 2006; edf_blocking.hpp).
  std::string edf = text;
  edf.replace(edf.find("priority = 20\n"), 14, "");
  const rtpar::Plan band =
      rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(edf, "g.toml"));
  REQUIRE(band.schedulable);
  CHECK(band.tasks[0].response_bound_ns == 10'000'000);
  CHECK(lock_note(band,
                  "core 0: the EDF band's demand test charges non-preemptive lock sections "
                  "as blocking B(t), up to 2ms"));
  // hold 4.5 ms: mid spins ≤ 4.5 ms and holds 4.5 ms, B = 9 ms, h(10 ms) + B = 11 ms > 10 ms.
  std::string longer = edf;
  longer.replace(longer.find("hold = \"1ms\""), 12, "hold = \"4500us\"");
  const rtpar::Plan over =
      rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(longer, "g.toml"));
  CHECK_FALSE(over.schedulable);
  REQUIRE(over.tasks[0].reason.has_value());
  CHECK(over.tasks[0].reason->find("the EDF tasks on core 0 fail the processor-demand test") !=
        std::string::npos);
  // The same band task spanning both cores has no exact test, so it is refused with the reason.
  std::string spans = edf;
  spans.replace(spans.find("places = [0]\n"), 13, "places = [0, 1]\n");
  const rtpar::Plan refused =
      rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(spans, "g.toml"));
  CHECK_FALSE(refused.schedulable);
  REQUIRE(refused.tasks[0].reason.has_value());
  CHECK(refused.tasks[0].reason->find("runs non-preemptively for up to 2ms in channel 'g'") !=
        std::string::npos);
  CHECK(refused.tasks[0].reason->find("has no exact test") != std::string::npos);
}

TEST_CASE("lock blocking: EDF-band users of one lock on one core: non-preemptive sections, B(t)") {
  // hi (2 ms / 10 ms) and lo (50 ms / 100 ms) both in the EDF band of core 0, sharing `state`
  // (hold 5 ms): an EDF user makes the lock MSRP (spin 0 on one core: a non-preemptive section).
  // Busy period with the blocking: w = 5 + 2 + 50 → 67 → 69 ms; deadlines 10..60 ms (hi):
  // t = 10: h = 2, B(10) = 5 (lo's section, D = 100 > 10): 7 ≤ 10; every later t has more slack.
  std::string text = lock_hilo("5ms");
  text.replace(text.find("priority = 20\n"), 14, "");
  text.replace(text.find("priority = 10\n"), 14, "");
  rtpar::Plan plan =
      rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(text, "l.toml"));
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].scheduling == rtpar::CoreScheduling::edf);
  CHECK(plan.tasks[0].response_bound_ns == 10'000'000);
  CHECK(plan.tasks[1].response_bound_ns == 100'000'000);
  CHECK(lock_note(plan, "channel 'state' (kind = \"lock\"): global (users on cores 0), MSRP"));
  CHECK(lock_note(plan, "up to 5ms"));
  // hold 8.5 ms: t = 10 gives 2 + 8.5 > 10 — refused, as the static-priority case is.
  std::string tight = lock_hilo("8500us");
  tight.replace(tight.find("priority = 20\n"), 14, "");
  tight.replace(tight.find("priority = 10\n"), 14, "");
  plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(tight, "l.toml"));
  CHECK_FALSE(plan.schedulable);
  // Mixed: hi in the band, lo static (priority 10) below it on the same core. lo's request runs
  // above the band, so it blocks hi at every t: 2 + 5 ≤ 10. lo is not blocked (the band is
  // interference): R(lo) = 50 + ⌈R/10⌉·2 = 64 ms.
  std::string mixed = lock_hilo("5ms");
  mixed.replace(mixed.find("priority = 20\n"), 14, "");
  plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(mixed, "l.toml"));
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].response_bound_ns == 10'000'000);
  CHECK(plan.tasks[1].response_bound_ns == 64'000'000);
  CHECK_FALSE(lock_note(plan, "task 'lo': blocking"));
}

TEST_CASE("lock blocking: a federated heavy task sharing a lock: work and span grow by the spin") {
  // 4 cores. h: C = 30, L = 6, D = T = 20 ms (heavy); s: 2 ms every 10 ms; lock g (hold 1 ms),
  // one access each. Before placement at most min(2·1, 4) = 2 requests are pending: spin = 1 ms.
  // h: C' = 31, L' = 7, n = ⌈(31 − 7)/(20 − 7)⌉ = 2, R = 7 + ⌈24/2⌉ = 19 ms ≤ 20.
  // s: C' = 3 ms, alone on a core: R = 3 ms.
  const std::string text =
      "[system]\ncores = 4\nplanner = \"federated\"\n"
      "[[task]]\nname = \"h\"\nperiod = \"20ms\"\nwork = \"30ms\"\nspan = \"6ms\"\n"
      "[[task]]\nname = \"s\"\nperiod = \"10ms\"\nwork = \"2ms\"\n"
      "[[channel]]\nname = \"g\"\nkind = \"lock\"\nsize = 8\nwriter = \"h\"\nreaders = [\"s\"]\n"
      "hold = \"1ms\"\n";
  const rtpar::TaskSet set = rtpar::parse_taskset(text, "h.toml");
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].cores.size() == 2);
  CHECK(plan.tasks[0].response_bound_ns == 19'000'000);
  CHECK(plan.tasks[1].response_bound_ns == 3'000'000);
  CHECK(plan.tasks[0].utilization == doctest::Approx(1.5));  // the file's C/T, not C'/T
  // Without the lock h needs ⌈24/14⌉ = 2 cores too, but its bound is 6 + 12 = 18 ms.
  rtpar::TaskSet free = set;
  free.channels.clear();
  CHECK(rtpar::plan_with(rtpar::PlannerKind::federated, free).tasks[0].response_bound_ns ==
        18'000'000);
  // A hold of 7 ms leaves no n: L' = 13 ms, C' − L' = 24 ms, n = ⌈24/7⌉ = 4 cores for h and no
  // core for s.
  rtpar::TaskSet tight = set;
  tight.channels[0].hold = rtpar::Duration(std::chrono::milliseconds(7));
  CHECK_FALSE(rtpar::plan_with(rtpar::PlannerKind::federated, tight).schedulable);
}

TEST_CASE(
    "lock blocking: federated places hi/lo apart and charges the spin; a shared core is "
    "charged the ceiling term") {
  const rtpar::TaskSet set = rtpar::parse_taskset(lock_hilo("5ms"), "l.toml");
  rtpar::TaskSet fed = set;
  fed.system.planner = rtpar::PlannerKind::federated;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, fed);
  REQUIRE(plan.schedulable);
  // C'(hi) = 7 ms (U 0.7) goes first; lo (55 ms) does not fit beside it: cores 0 and 1.
  CHECK(plan.tasks[0].response_bound_ns == 7'000'000);
  CHECK(plan.tasks[1].response_bound_ns == 55'000'000);
  CHECK(lock_note(plan, "global, MSRP at run time"));
  // With lo at 5 ms and a 1 ms hold both land on core 0 (C'(hi) = 3 ms, C'(lo) = 6 ms with the
  // spin charged before placement): the lock is local, the ceiling protocol runs, and hi pays one
  // section of lo: R(hi) = C'(hi) + B = 3 + 1 = 4 ms (the unused spin is the price of charging
  // before placement).
  rtpar::TaskSet small = fed;
  small.tasks[1].work = rtpar::Duration(std::chrono::milliseconds(5));
  small.tasks[1].span = small.tasks[1].work;
  small.channels[0].hold = rtpar::Duration(std::chrono::milliseconds(1));
  const rtpar::Plan local = rtpar::plan_with(rtpar::PlannerKind::federated, small);
  REQUIRE(local.schedulable);
  CHECK(local.tasks[0].cores == local.tasks[1].cores);
  CHECK(local.tasks[0].response_bound_ns == 4'000'000);
  CHECK(lock_note(local, "local, priority ceiling protocol at run time"));
}

TEST_CASE("lock blocking: a parallel user of a global lock is refused") {
  std::string two = lock_hilo("5ms");
  two.replace(two.find("places = [0]\n[[task]]"), 12, "places = [0, 1]");
  rtpar::Plan plan =
      rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(two, "l.toml"));
  CHECK_FALSE(plan.schedulable);
  REQUIRE(plan.tasks[0].reason.has_value());
  CHECK(plan.tasks[0].reason->find("is used by 'hi', which has 2 threads") != std::string::npos);
}

TEST_CASE("lock blocking: decomposition and fork-join-rta refuse a set with a lock, naming it") {
  const rtpar::TaskSet set = rtpar::parse_taskset(lock_hilo("5ms"), "l.toml");
  for (const rtpar::PlannerKind kind :
       {rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta}) {
    CAPTURE(static_cast<int>(kind));
    const rtpar::Plan plan = rtpar::plan_with(kind, set);
    CHECK_FALSE(plan.schedulable);
    CHECK(lock_note(plan, "channel 'state' (kind = \"lock\") is shared by tasks [lo, hi]"));
    for (const rtpar::TaskPlan& tp : plan.tasks) {
      REQUIRE(tp.reason.has_value());
      CHECK(tp.reason->find("does not analyse blocking") != std::string::npos);
    }
  }
  CHECK_FALSE(rtpar::augmentation_bound_holds(set, 2, 3.0));
}

TEST_CASE("lock blocking: the file must declare hold, 0 < hold < every user's deadline") {
  lock_rejected(lock_hilo(""), "channel[0].hold", 16, "required for kind = \"lock\"");
  lock_rejected(lock_hilo("10ms"), "channel[0].hold", 22, "below the deadline of every user");
  lock_rejected(lock_hilo("0ms"), "channel[0].hold", 22, "must be > 0");
  lock_rejected(lock_hilo("9999us", 0, "accesses = 0\n"), "channel[0].accesses", 23,
                "between 1 and 1000000");
  CHECK(rtpar::parse_taskset(lock_hilo("9999us", 0, "accesses = 3\n"), "l").channels[0].accesses ==
        3);
  std::string latest = lock_hilo("1ms");
  latest.replace(latest.find("kind = \"lock\""), 13, "kind = \"latest\"");
  lock_rejected(latest, "channel[0].hold", 22, "only applies to kind = \"lock\"");
  // A set built in code gets the same rule.
  rtpar::TaskSet set = rtpar::parse_taskset(lock_hilo("5ms"), "l.toml");
  set.channels[0].hold = rtpar::Duration(0);
  try {
    rtpar::validate_taskset(set);
    FAIL_CHECK("accepted");
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == "channel[0].hold");
  }
}
