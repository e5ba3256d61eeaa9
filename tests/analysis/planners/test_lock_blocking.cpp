// test_lock_blocking.cpp — what every planner does with a `lock` channel
// (src/analysis/planners/lock_blocking.hpp): partitioned charges a local lock's blocking, every
// other lock and every other planner refuses the set naming the lock; and the `hold` rules of the
// file format (channel[i].hold).
#include <doctest/doctest.h>

#include <string>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

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

void lock_rejected(const std::string& text, const std::string& field, int line,
                   const std::string& fragment) {
  CAPTURE(text);
  try {
    (void)rtpar::parse_taskset(text, "l.toml");
    FAIL_CHECK("accepted");
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == field);
    CHECK(e.where().line == line);
    CHECK_MESSAGE(e.message().find(fragment) != std::string::npos, e.message());
  }
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

TEST_CASE("lock blocking: the two-core variant is refused, naming the lock and the cores") {
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned,
                                            rtpar::parse_taskset(lock_hilo("5ms", 1), "l.toml"));
  CHECK_FALSE(plan.schedulable);
  for (const rtpar::TaskPlan& tp : plan.tasks) {
    REQUIRE(tp.reason.has_value());
    CHECK(tp.reason->find("channel 'state' (kind = \"lock\") is shared by tasks on cores 0 and 1: "
                          "global lock blocking is not analysed") == 0);
  }
}

TEST_CASE("lock blocking: a parallel user or an EDF user is refused") {
  std::string two = lock_hilo("5ms");
  two.replace(two.find("places = [0]\n[[task]]"), 12, "places = [0, 1]");
  rtpar::Plan plan =
      rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(two, "l.toml"));
  CHECK_FALSE(plan.schedulable);
  REQUIRE(plan.tasks[0].reason.has_value());
  CHECK(plan.tasks[0].reason->find("is used by 'hi', which has 2 threads") != std::string::npos);
  std::string edf = lock_hilo("5ms");
  edf.replace(edf.find("priority = 20\n"), 14, "");
  plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(edf, "l.toml"));
  CHECK_FALSE(plan.schedulable);
  REQUIRE(plan.tasks[1].reason.has_value());
  CHECK(plan.tasks[1].reason->find("an EDF-band task") != std::string::npos);
}

TEST_CASE("lock blocking: every other planner refuses a set with a lock, naming it") {
  const rtpar::TaskSet set = rtpar::parse_taskset(lock_hilo("5ms"), "l.toml");
  for (const rtpar::PlannerKind kind :
       {rtpar::PlannerKind::federated, rtpar::PlannerKind::federated_ws,
        rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta}) {
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
