// worker.cpp — the slow paths of a worker: running a stolen frame, leapfrogging while waiting for
// a stolen child, and the capacity errors (rtpar/steal.hpp, docs/internals/steal.md).
#include <algorithm>
#include <string>

#include "rtpar/steal.hpp"
#include "runtime/steal/backoff.hpp"

namespace rtpar::steal::detail {

void throw_depth_error(int max_depth) {
  throw CapacityError("work-stealing join/spawn nesting depth exceeds the budget max_depth = " +
                      std::to_string(max_depth) + " (raise [task.steal] max_depth)");
}

void throw_frames_error(int frames_per_worker) {
  throw CapacityError(
      "work-stealing scope children exceed the per-worker frame pool "
      "frames_per_worker = " +
      std::to_string(frames_per_worker) + " (raise [task.steal] frames_per_worker)");
}

// run_stolen: the thief publishes its identity before anything else, so a waiting owner can
// leapfrog onto it; it runs the job at the frame's depth (so max_depth bounds the whole spawn-tree
// path, wherever it executes), in a fresh strand when the frame is profiled (depth ≤
// profile_depth), and publishes completion with a release store that is its last access to the
// frame (the owner may return and destroy it right after reading kDone/kFailed). The thief's own
// strand, depth and deepest depth are restored; its deepest keeps the job's (a leapfrogged job
// descends from the frame its thief waits for, so it belongs to the same subtree).
std::int64_t run_stolen(Worker* w, Frame* f) noexcept {
  f->thief = w->index;
  // release: pairs with the owner's acquire load in wait_stolen; it reads f->thief after seeing
  // kStolen and leapfrogs onto our deque.
  f->state.store(kStolen, std::memory_order_release);
  ++w->steals;
  const int saved_depth = w->depth;
  const int saved_deepest = w->deepest;
  const Strand saved_prof = w->prof;
  const int d = f->depth;
  const std::int64_t t0 = ticks();
  w->prof = Strand{0, 0, t0};
  w->depth = d;
  w->deepest = d;
  const bool failed = f->execute(f);
  const std::int64_t t1 = ticks();
  if (d <= w->profile_depth) {
    f->span = w->prof.span + (t1 - w->prof.start);
    f->bspan = w->prof.bspan + (t1 - w->prof.start);
    if (d >= w->profile_depth) f->bspan += w->burden * (w->deepest - d);
  }
  f->deepest = w->deepest;
  w->prof = saved_prof;
  w->depth = saved_depth;
  w->deepest = std::max(saved_deepest, f->deepest);
  // release, our last access to f: pairs with the owner's acquire load of kDone/kFailed
  // (wait_stolen, calibrate); it must see the job's effects, its exception and span/bspan/deepest
  // written above.
  f->state.store(failed ? kFailed : kDone, std::memory_order_release);
  return t1 - t0;
}

// wait_stolen: the owner's pop failed, so f was taken by a thief T. T's deque was empty when it
// stole f (thieves only steal with an empty deque; a waiting owner's deque is empty too, because
// thieves take the oldest entries first and f was the newest), so everything T's deque holds
// until f is done descends from f: stealing only from T keeps this worker's stack one root-to-leaf
// path of the spawn tree (the space bound of docs/internals/steal.md §4). The time spent here not
// running leapfrogged jobs is idle: it is subtracted from the worker's work.
std::uint32_t wait_stolen(Worker* w, Frame* f) noexcept {
  const std::int64_t t0 = ticks();
  std::int64_t ran = 0;
  Backoff backoff;
  std::uint32_t s;
  // acquire: pairs with the thief's release store of kStolen; we read f->thief next. (kPending:
  // the thief is between its winning CAS and that store.)
  while ((s = f->state.load(std::memory_order_acquire)) == kPending) backoff.pause();
  backoff.reset();
  if (s == kStolen) {
    Worker* thief = w->peers[f->thief];
    // acquire: only ends the backoff early; the loop condition below re-reads with acquire.
    auto finished = [f] { return f->state.load(std::memory_order_acquire) != kStolen; };
    // acquire: pairs with the thief's release store of kDone/kFailed; after it we read
    // f->deepest, the exception and the span, and the caller may destroy f.
    while ((s = f->state.load(std::memory_order_acquire)) == kStolen) {
      if (Frame* g = thief->steal()) {
        ran += run_stolen(w, g);
        backoff.reset();
      } else {
        backoff.pause(finished);
      }
    }
  }
  w->idle += ticks() - t0 - ran;
  if (f->deepest > w->deepest) w->deepest = f->deepest;
  return s;
}

}  // namespace rtpar::steal::detail
