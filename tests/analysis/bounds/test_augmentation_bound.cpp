// test_augmentation_bound.cpp — the resource-augmentation bound tests of FJOS Fig. 6 (PST,
// b = 5; PSCPS, b = 3.73; decision F10): U ≤ Q/b and L_i ≤ D_i/b, decided exactly
// (src/analysis/bounds/augmentation_bound.hpp, rtpar::augmentation_bound_holds).
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "analysis/bounds/augmentation_bound.hpp"
#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace {

// add adds a task with work C, span L, deadline D and period T (ns).
void add(rtpar::TaskSet& set, std::int64_t c, std::int64_t l, std::int64_t d, std::int64_t t) {
  rtpar::TaskSpec task;
  task.name = "t" + std::to_string(set.tasks.size());
  task.work = rtpar::Duration(c);
  task.span = rtpar::Duration(l);
  task.deadline = rtpar::Duration(d);
  task.period = rtpar::Duration(t);
  set.tasks.push_back(task);
}

}  // namespace

TEST_CASE("augmentation bound: PST (b = 5) at its two boundaries") {
  // U = 8/10 = 0.8 = 4/5 and L = 2 = D/5: both exactly equal, the set passes.
  rtpar::TaskSet at;
  add(at, 8'000'000, 2'000'000, 10'000'000, 10'000'000);
  CHECK(rtpar::augmentation_bound_holds(at, 4, 5.0));
  // One ns more work: U > 4/5.
  rtpar::TaskSet more_work;
  add(more_work, 8'000'001, 2'000'000, 10'000'000, 10'000'000);
  CHECK_FALSE(rtpar::augmentation_bound_holds(more_work, 4, 5.0));
  // One ns more span: L > D/5.
  rtpar::TaskSet more_span;
  add(more_span, 8'000'000, 2'000'001, 10'000'000, 10'000'000);
  CHECK_FALSE(rtpar::augmentation_bound_holds(more_span, 4, 5.0));
  // The span is compared with D, not T: D = 9 ms < T makes L = 2 ms > D/5.
  rtpar::TaskSet constrained;
  add(constrained, 8'000'000, 2'000'000, 9'000'000, 10'000'000);
  CHECK_FALSE(rtpar::augmentation_bound_holds(constrained, 4, 5.0));
  // One more core: U ≤ 1 holds with room.
  CHECK(rtpar::augmentation_bound_holds(more_work, 5, 5.0));
}

TEST_CASE("augmentation bound: PSCPS's 3.73 is 373/100 exactly") {
  // 373 cores / 3.73 = 100 exactly: U = 37300/373 = 100 passes, 37301/373 does not.
  rtpar::TaskSet at;
  add(at, 37'300, 100, 373, 373);
  CHECK(rtpar::augmentation_bound_holds(at, 373, 3.73));
  rtpar::TaskSet above;
  add(above, 37'301, 100, 373, 373);
  CHECK_FALSE(rtpar::augmentation_bound_holds(above, 373, 3.73));
  // L·3.73 ≤ D: 100·3.73 = 373 = D passes, 101 does not (3.73 in double is 3.7299999…).
  rtpar::TaskSet span_above;
  add(span_above, 37'300, 101, 373, 373);
  CHECK_FALSE(rtpar::augmentation_bound_holds(span_above, 373, 3.73));
  const rtpar::analysis::Ratio r = rtpar::analysis::bound_ratio(3.73);
  CHECK(r.num == 3'730'000);
  CHECK(r.den == 1'000'000);
}

TEST_CASE("augmentation bound: a sum within 1/10^18 of the limit is decided by the fraction") {
  // 1/3 + 2/3 = 1: the scaled floors sum to 10^18 − 1 and the ceilings to 10^18 + 1, so the
  // bracket does not decide and the exact fraction does: U = 1 ≤ 1 (b = 1, one core).
  rtpar::TaskSet one;
  add(one, 1, 1, 3, 3);
  add(one, 2, 1, 3, 3);
  CHECK(rtpar::augmentation_bound_holds(one, 1, 1.0));
  // Plus 1/(9·10^18): above 1 by less than the bracket's width.
  add(one, 1, 1, 9'000'000'000'000'000'000, 9'000'000'000'000'000'000);
  CHECK_FALSE(rtpar::augmentation_bound_holds(one, 1, 1.0));
}

TEST_CASE("augmentation bound: empty sets, no cores, huge utilizations, bad b") {
  const rtpar::TaskSet empty;
  CHECK(rtpar::augmentation_bound_holds(empty, 0, 5.0));
  rtpar::TaskSet one;
  add(one, 1, 1, 10, 10);
  CHECK_FALSE(rtpar::augmentation_bound_holds(one, 0, 5.0));
  // U ≈ 2^63 per task: the scaled sum passes 2^127 and is read as "above", never wrapped.
  rtpar::TaskSet huge;
  for (int k = 0; k < 40; ++k) add(huge, INT64_MAX, 1, 1, 1);
  CHECK_FALSE(rtpar::augmentation_bound_holds(huge, 8192, 1e-6));
  CHECK_THROWS_AS(rtpar::augmentation_bound_holds(one, 4, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(rtpar::augmentation_bound_holds(one, 4, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(rtpar::augmentation_bound_holds(one, 4, 1e-7), std::invalid_argument);
  CHECK_THROWS_AS(rtpar::augmentation_bound_holds(one, 4, 1e300), std::invalid_argument);
  CHECK_THROWS_AS(rtpar::augmentation_bound_holds(one, -1, 5.0), std::invalid_argument);
  // Task parameters are checked as the planners check them (L > C is refused).
  rtpar::TaskSet bad;
  add(bad, 1, 2, 10, 10);
  CHECK_THROWS_AS(rtpar::augmentation_bound_holds(bad, 4, 5.0), rtpar::InputError);
}
