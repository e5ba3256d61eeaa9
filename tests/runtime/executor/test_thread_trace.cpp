// test_thread_trace.cpp — the per-thread slice storage behind trace.json's thread tracks
// (runtime/executor/thread_trace.hpp) and the steal-pool worker trace (steal_trace.hpp).
#include <doctest/doctest.h>

#include <string>

#include "rtpar/steal.hpp"
#include "runtime/executor/steal_trace.hpp"
#include "runtime/executor/thread_trace.hpp"

using rtpar::ThreadSliceKind;

TEST_CASE("thread trace: add keeps slices in order and counts what does not fit as dropped") {
  rtpar::detail::ThreadTrace trace(2, 1);  // room for 2 slices
  trace.add(ThreadSliceKind::job, 0, -1, 10, 20);
  trace.add(ThreadSliceKind::job, 1, -1, 30, 40);
  trace.add(ThreadSliceKind::job, 2, -1, 50, 60);
  const rtpar::ThreadTrack track = trace.take(7, 1, "master");
  REQUIRE(track.slices.size() == 2);
  CHECK(track.slices[1].job == 1);
  CHECK(track.slices[1].start_ns == 30);
  CHECK(track.dropped == 1);
  CHECK(track.tid == 7);
  CHECK(track.cpu == 1);
}

TEST_CASE("thread trace: add_capped keeps cap − 1 slices of a job, then one slice to its end") {
  // Job 0 has 5 regions [0,1) [2,3) [4,5) [6,7) [8,9) and cap 3: the first two stay, the third
  // slice spans the 3rd region's start to the 5th's end. Job 1 starts a new count.
  rtpar::detail::ThreadTrace trace(2, 3);
  for (int r = 0; r < 5; ++r) trace.add_capped(ThreadSliceKind::share, 0, -1, 2 * r, 2 * r + 1, 3);
  trace.add_capped(ThreadSliceKind::share, 1, -1, 20, 21, 3);
  trace.add_capped(ThreadSliceKind::share, 1, -1, 22, 23, 3);
  const rtpar::ThreadTrack track = trace.take(1, 0, "team member 1");
  REQUIRE(track.slices.size() == 5);
  CHECK(track.slices[0].end_ns == 1);
  CHECK(track.slices[1].start_ns == 2);
  CHECK(track.slices[2].start_ns == 4);
  CHECK(track.slices[2].end_ns == 9);  // regions 3..5 merged
  CHECK(track.slices[3].job == 1);
  CHECK(track.slices[4].start_ns == 22);
  CHECK(track.dropped == 0);
}

TEST_CASE("steal trace: one slice per worker and job, inside the job, spanning all its runs") {
  // A pool of 2 unpinned SCHED_OTHER workers (no RT privilege needed). The calibration run at
  // construction is not recorded; job 0 runs the pool twice, job 1 once.
  rtpar::detail::StealTrace trace(2, 4);
  rtpar::steal::PoolConfig config;
  for (int i = 0; i < 2; ++i) {
    rtpar::ThreadConfig t;
    t.sched = rtpar::SchedClass::other;
    t.name = "steal" + std::to_string(i);
    config.workers.push_back(t);
  }
  trace.install(config);
  rtpar::steal::Pool pool(std::move(config));
  auto spin = [] {
    const std::int64_t until = rtpar::monotonic_now() + 200'000;
    while (rtpar::monotonic_now() < until) {
    }
  };
  const auto root = [&] { rtpar::steal::join(spin, spin); };
  trace.set_job(0);
  const std::int64_t start0 = rtpar::monotonic_now();
  pool.run(root);
  pool.run(root);
  const std::int64_t end0 = rtpar::monotonic_now();
  trace.set_job(1);
  pool.run(root);
  const std::int64_t end1 = rtpar::monotonic_now();
  const rtpar::ThreadTrack track = trace.take(1, 0, -1);
  CHECK(track.role == "steal worker 1");
  REQUIRE(track.slices.size() == 2);
  CHECK(track.slices[0].kind == ThreadSliceKind::steal);
  CHECK(track.slices[0].job == 0);
  CHECK(track.slices[0].start_ns >= start0);
  CHECK(track.slices[0].end_ns <= end0);
  CHECK(track.slices[0].start_ns <= track.slices[0].end_ns);
  CHECK(track.slices[1].job == 1);
  CHECK(track.slices[1].start_ns >= end0);
  CHECK(track.slices[1].end_ns <= end1);
}
