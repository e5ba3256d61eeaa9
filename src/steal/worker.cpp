// worker.cpp — the slow paths of a worker: running a stolen frame, leapfrogging while waiting for
// a stolen child, and the capacity errors (rtpar/steal.hpp, docs/internals/steal.md).
#include <sched.h>

#include <string>

#include "rtpar/cpu_relax.hpp"
#include "rtpar/steal.hpp"
#include "steal/backoff.hpp"

namespace rtpar::steal::detail {

void throw_depth_error(int max_depth) {
  throw CapacityError("work-stealing join/spawn nesting depth exceeds the budget max_depth = " +
                      std::to_string(max_depth) + " (raise [task.steal] max_depth)");
}

void throw_frames_error(int frames_per_worker) {
  throw CapacityError("work-stealing scope children exceed the per-worker frame pool "
                      "frames_per_worker = " +
                      std::to_string(frames_per_worker) +
                      " (raise [task.steal] frames_per_worker)");
}

// run_stolen: the thief publishes its identity before anything else, so a waiting owner can
// leapfrog onto it; it runs the job at the frame's depth (so max_depth bounds the whole spawn-tree
// path, wherever it executes) and publishes completion with a release store that is its last
// access to the frame (the owner may return and destroy it right after reading kDone).
void run_stolen(Worker* w, Frame* f) noexcept {
  f->thief = w->index;
  f->state.store(kStolen, std::memory_order_release);
  ++w->steals;
  const int saved_depth = w->depth;
  w->depth = f->depth;
  Prof saved_prof;
  if (f->profiled) {
    saved_prof = w->prof;
    w->prof = Prof{0, 0, 0, now_ns()};
  }
  try {
    f->execute(f);
  } catch (...) {
    f->error = std::current_exception();
  }
  if (f->profiled) {
    Prof p = w->prof;
    p.finish(now_ns());
    f->work = p.work;
    f->span = p.span;
    f->bspan = p.bspan;
    w->prof = saved_prof;
  }
  w->depth = saved_depth;
  f->state.store(kDone, std::memory_order_release);
}

// wait_stolen: the owner's pop failed, so f was taken by a thief T. T's deque was empty when it
// stole f (thieves only steal with an empty deque; a waiting owner's deque is empty too, because
// thieves take the oldest entries first and f was the newest), so everything T's deque holds
// until f is done descends from f: stealing only from T keeps this worker's stack one root-to-leaf
// path of the spawn tree (the space bound of docs/internals/steal.md §4).
void wait_stolen(Worker* w, Frame* f) noexcept {
  Backoff backoff;
  std::uint32_t s;
  while ((s = f->state.load(std::memory_order_acquire)) == kPending) backoff.pause();
  if (s == kDone) return;
  Worker* thief = w->peers[f->thief];
  backoff.reset();
  while (f->state.load(std::memory_order_acquire) != kDone) {
    if (Frame* g = thief->steal()) {
      run_stolen(w, g);
      backoff.reset();
    } else {
      backoff.pause();
    }
  }
}

}  // namespace rtpar::steal::detail
