// rtws_sync.cpp — the RTWS synthetic synchronous tasks (RTWS §IV-A, Table I; the public
// benchmarks_rtss16 synch_tasks/taskgen.py agrees): one task of type 1, 2 or 3, U[10, 20]
// segments, each of a uniform number of strands of one uniform length (whole ns). Type 1's 5–10 ns
// strands cannot be timed by clock polling (WS11): run them with calibrated spin-loop iterations.
#include "core/rng.hpp"
#include "gen/build.hpp"
#include "gen/families.hpp"

namespace rtpar::gen {

FamilyInfo rtws_sync_family() {
  return {"rtws-sync",
          "RTWS synthetic synchronous task of type 1, 2 or 3 (RTWS §IV-A, Table I; WS11)",
          {
              {"type", "1",
               "1: 100k-200k strands of 5-10 ns; 2: 10k-20k of 2000-4500 ns; 3: 1k-2k of "
               "20000-50000 ns"},
              {"segments_min", "10", "fewest segments"},
              {"segments_max", "20", "most segments"},
              {"period", "1s", "period and deadline"},
              {"cores", "30", "cores (the paper: 32 minus 2 for the OS)"},
              {"planner", "federated-ws", "[system] planner written into the set"},
          }};
}

namespace {

// TypeRow is one type of the table: strands per segment and ns per strand, both uniform integers.
struct TypeRow {
  std::int64_t strands_lo, strands_hi, ns_lo, ns_hi;
};

// kTypes are types 1–3 (docs/internals/experiment-spec.md, item 15).
constexpr TypeRow kTypes[3] = {
    {100000, 200000, 5, 10}, {10000, 20000, 2000, 4500}, {1000, 2000, 20000, 50000}};

}  // namespace

Generated generate_rtws_sync(const ParamReader& r, std::uint64_t seed) {
  const TypeRow& row = kTypes[r.integer("type", 1, 3) - 1];
  const auto seg_min = r.integer("segments_min", 1, 100000);
  const auto seg_max = r.integer("segments_max", 1, 100000);
  if (seg_max < seg_min) r.fail("segments_max", "must be >= segments_min");
  const Duration period = r.duration("period");
  const auto cores = static_cast<int>(r.integer("cores", 1, 8192));
  Rng rng(seed);
  std::vector<SegmentSpec> segs(static_cast<std::size_t>(rng.uniform_int(seg_min, seg_max)));
  for (SegmentSpec& s : segs) {
    s.strands = rng.uniform_int(row.strands_lo, row.strands_hi);
    s.length = Duration(rng.uniform_int(row.ns_lo, row.ns_hi));
  }
  TaskSpec t = segment_task(task_name(0), std::move(segs));
  if (t.span > period) r.fail("period", "shorter than the task's critical path");
  t.period = period;
  t.deadline = period;
  Generated out;
  out.set.system = count_system(cores, 1, read_planner(r, "planner"));
  out.set.tasks.push_back(std::move(t));
  out.set = finish(std::move(out.set), "rtws-sync");
  return out;
}

}  // namespace rtpar::gen
