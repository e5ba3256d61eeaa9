// test_decomposition_placement.cpp — plan_decomposition's speed-ups change no plan, down to the
// strand: generated FJOS systems (rtpar::gen::generate("fjos"), several seeds, utilizations and
// core counts; the three fits; with and without the measured overhead profile
// experiments/data/rtpar-calibrate-2c-ovh.json and a charged kernel server) hash to the digests
// plan_decomposition gave before the incremental load terms (commit 1044de6). Unlike
// test_planner_digest.cpp's digest, this one covers every strand's core and priority, every
// segment's length, offset and deadline, the reasons and the notes: a placement that differs in
// one strand changes it. The eight cases with the profile charged or a 2.5·L ≥ D reason were
// re-pinned when two texts changed their citation from "rt-openmp.md §VI-B" / "rt-openmp.md's"
// to "RT-OpenMP" (issue 31): with the old two texts the old digests still came out.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "rtpar/plan.hpp"
#include "rtpar/tools/generate.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"

namespace {

// PlacementDigest is FNV-1a (64 bit) over the integers and strings fed to it, little-endian bytes.
struct PlacementDigest {
  std::uint64_t h = 1469598103934665603ULL;
  void byte(unsigned char b) {
    h ^= b;
    h *= 1099511628211ULL;
  }
  void add(std::int64_t v) {
    for (int b = 0; b < 8; ++b) byte(static_cast<unsigned char>(v >> (8 * b)));
  }
  void add(std::string_view s) {
    add(static_cast<std::int64_t>(s.size()));
    for (const char c : s) byte(static_cast<unsigned char>(c));
  }
};

// digest_plan feeds everything plan_decomposition decides.
void digest_plan(PlacementDigest& d, const rtpar::Plan& plan) {
  d.add(plan.schedulable ? 1 : 0);
  for (const std::string& note : plan.notes) d.add(note);
  for (const rtpar::TaskPlan& t : plan.tasks) {
    d.add(t.response_bound_ns.value_or(-1));
    d.add(t.reason.value_or("-"));
    d.add(t.priority);
    d.add(t.cores_needed);
    for (const int c : t.cores) d.add(c);
    for (const rtpar::SegmentPlan& s : t.segments) {
      d.add(s.length_ns);
      d.add(s.offset_ns);
      d.add(s.deadline_ns);
      for (const rtpar::StrandPlan& p : s.strands) {
        d.add(p.core);
        d.add(p.priority);
      }
    }
  }
}

// Case is one batch of generated sets and how they are planned.
struct Case {
  const char* util_pct;
  const char* cores;
  const char* sockets;
  std::uint64_t seed;
  int sets;
  rtpar::FitKind fit;
  bool overhead;
  bool server;
};

// digest_of plans case c's sets with plan_decomposition and hashes the plans; `admitted` and
// `strands` count admitted sets and placed strands (so a case is known to exercise both verdicts).
std::uint64_t digest_of(const Case& c, int& admitted, std::int64_t& placed) {
  // The plan notes quote the profile's file: named as from the repository root, so that the
  // digests do not depend on where the checkout is (the digests below are the 1044de6 library's,
  // before the incremental FBB-FFD placement, with this same source name).
  static const rtpar::OverheadProfile profile = [] {
    rtpar::OverheadProfile p = rtpar::load_overhead_profile(
        std::string(RTPAR_SOURCE_DIR) + "/experiments/data/rtpar-calibrate-2c-ovh.json");
    p.source = "experiments/data/rtpar-calibrate-2c-ovh.json";
    return p;
  }();
  rtpar::gen::Params params;
  params["total_util_pct"] = rtpar::gen::Param{c.util_pct, {}};
  params["cores"] = rtpar::gen::Param{c.cores, {}};
  params["sockets"] = rtpar::gen::Param{c.sockets, {}};
  rtpar::PlanOptions options;
  if (c.overhead) options.overhead = &profile;
  if (c.server) {
    options.interference.state = "charged";
    options.interference.known = true;
    options.interference.budget_ns = 50'000;
    options.interference.period_ns = 1'000'000;
  }
  PlacementDigest d;
  admitted = 0;
  placed = 0;
  for (int i = 0; i < c.sets; ++i) {
    rtpar::TaskSet set =
        rtpar::gen::generate("fjos", params,
                             rtpar::gen::derive_seed(c.seed, static_cast<std::uint64_t>(i)))
            .set;
    set.system.fit = c.fit;
    const rtpar::Plan plan = rtpar::plan_decomposition(set, options);
    admitted += plan.schedulable ? 1 : 0;
    for (const rtpar::TaskPlan& t : plan.tasks) {
      for (const rtpar::SegmentPlan& s : t.segments) {
        for (const rtpar::StrandPlan& p : s.strands) placed += p.core >= 0 ? 1 : 0;
      }
    }
    digest_plan(d, plan);
  }
  return d.h;
}

}  // namespace

TEST_CASE("decomposition placement: generated FJOS plans are strand for strand the old ones") {
  using rtpar::FitKind;
  struct Golden {
    Case c;
    std::uint64_t digest;
  };
  const Golden cases[] = {
      {{"40", "40", "4", 1, 40, FitKind::fbb_ffd, false, false}, 2978480611650725641ULL},
      {{"60", "40", "4", 2, 40, FitKind::fbb_ffd, false, false}, 4843568950482728226ULL},
      {{"80", "40", "4", 3, 40, FitKind::fbb_ffd, false, false}, 6478594013917583239ULL},
      {{"20", "16", "2", 4, 40, FitKind::fbb_ffd, false, false}, 14427884112439557449ULL},
      {{"30", "8", "1", 5, 40, FitKind::fbb_ffd, false, false}, 10020047031296874158ULL},
      {{"50", "64", "4", 6, 20, FitKind::fbb_ffd, false, false}, 2611575066741682106ULL},
      {{"40", "40", "4", 7, 30, FitKind::fbb_ffd, true, false}, 11993851443032510525ULL},
      {{"25", "16", "2", 8, 30, FitKind::fbb_ffd, true, false}, 7394336131162576656ULL},
      {{"40", "40", "4", 9, 30, FitKind::fbb_ffd, false, true}, 10158025709688371630ULL},
      {{"30", "16", "2", 10, 20, FitKind::fbb_ffd, true, true}, 1552236748309856145ULL},
      {{"40", "40", "4", 11, 20, FitKind::worst_fit, false, false}, 7205115143567430710ULL},
      {{"25", "16", "2", 12, 20, FitKind::worst_fit, true, true}, 18287204237294994490ULL},
      {{"40", "40", "4", 13, 20, FitKind::first_fit, false, false}, 10362055920503378249ULL},
      {{"25", "16", "2", 14, 20, FitKind::first_fit, true, true}, 17960486993555281921ULL},
      {{"8", "40", "4", 15, 30, FitKind::fbb_ffd, true, false}, 13917567269900222029ULL},
      {{"8", "16", "2", 16, 30, FitKind::fbb_ffd, true, true}, 1999014670623202567ULL},
      {{"6", "16", "2", 17, 20, FitKind::worst_fit, true, false}, 5042914740824300145ULL},
  };
  int admitted_total = 0;
  int refused_total = 0;
  for (const Golden& g : cases) {
    int admitted = 0;
    std::int64_t placed = 0;
    const std::uint64_t got = digest_of(g.c, admitted, placed);
    CAPTURE(g.c.util_pct);
    CAPTURE(g.c.cores);
    CAPTURE(g.c.seed);
    MESSAGE("case seed " << g.c.seed << ": " << got << " admitted " << admitted << " placed "
                         << placed);
    CHECK(got == g.digest);
    admitted_total += admitted;
    refused_total += g.c.sets - admitted;
  }
  CHECK(admitted_total > 50);
  CHECK(refused_total > 50);
}
