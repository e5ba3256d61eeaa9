// test_planner_digest.cpp — the planners' speed-ups change no plan: decomposition and
// fork-join-rta plans of generated FJOS systems (rtpar::gen::generate("fjos"), 30 per
// utilization, seeds derive_seed(1, i) as `rtpar generate fjos --seed 1` draws them) hash to the
// digests the planners gave before fbb_place's shortcuts (commit 49466c8, `rtpar bench planners`
// on the same sets). The digest is `rtpar bench planners`'s: FNV-1a over each plan's verdict and,
// per task, its response bound (−1: none), its cores and its stage bounds.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "rtpar/plan.hpp"
#include "rtpar/tools/generate.hpp"
#include "rtpar/tools/planners.hpp"

namespace {

// Digest is FNV-1a (64 bit) over the integers fed to it, little-endian bytes.
struct Digest {
  std::uint64_t h = 1469598103934665603ULL;
  void add(std::int64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= static_cast<std::uint64_t>(v >> (8 * b)) & 0xff;
      h *= 1099511628211ULL;
    }
  }
};

// digest_of plans 30 FJOS systems at `util_pct` with `planner` and hashes the plans.
std::uint64_t digest_of(rtpar::PlannerKind planner, const char* util_pct, int& admitted) {
  rtpar::gen::Params params;
  params["total_util_pct"] = rtpar::gen::Param{util_pct, {}};
  Digest d;
  admitted = 0;
  for (std::uint64_t i = 0; i < 30; ++i) {
    const rtpar::TaskSet set =
        rtpar::gen::generate("fjos", params, rtpar::gen::derive_seed(1, i)).set;
    const rtpar::Plan plan = rtpar::plan_with(planner, set);
    admitted += plan.schedulable ? 1 : 0;
    d.add(plan.schedulable ? 1 : 0);
    for (const rtpar::TaskPlan& t : plan.tasks) {
      d.add(t.response_bound_ns.value_or(-1));
      d.add(static_cast<std::int64_t>(t.cores.size()));
      for (const int c : t.cores) d.add(c);
      for (const rtpar::SegmentPlan& s : t.segments) d.add(s.deadline_ns);
    }
  }
  return d.h;
}

}  // namespace

TEST_CASE("planner digest: decomposition plans of FJOS systems are those of the old placement") {
  int admitted = 0;
  CHECK(digest_of(rtpar::PlannerKind::decomposition, "40", admitted) == 0xbc6575f7ad7c38e8ULL);
  CHECK(admitted == 4);
  CHECK(digest_of(rtpar::PlannerKind::decomposition, "60", admitted) == 0x8d6a594cb71da90aULL);
  CHECK(admitted == 0);
  CHECK(digest_of(rtpar::PlannerKind::decomposition, "80", admitted) == 0x99b078123205c3faULL);
  CHECK(admitted == 0);
}

TEST_CASE("planner digest: fork-join-rta plans of FJOS systems are unchanged") {
  int admitted = 0;
  CHECK(digest_of(rtpar::PlannerKind::fork_join_rta, "40", admitted) == 0x2729ee07a7a70db1ULL);
  CHECK(admitted == 30);
  CHECK(digest_of(rtpar::PlannerKind::fork_join_rta, "60", admitted) == 0x664314d94d5665acULL);
  CHECK(admitted == 30);
  CHECK(digest_of(rtpar::PlannerKind::fork_join_rta, "80", admitted) == 0xae1735fdbb78496fULL);
  CHECK(admitted == 3);
}
