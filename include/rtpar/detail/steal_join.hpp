// rtpar/detail/steal_join.hpp — the inline machinery behind rtpar::steal::join: the join frame on
// the caller's stack, the depth guard and the profiled (timed) join. Not an API: include
// rtpar/steal.hpp. Protocols and memory orderings: docs/internals/steal.md.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <new>
#include <type_traits>
#include <utility>

#include "rtpar/detail/steal_worker.hpp"

namespace rtpar::steal {

namespace detail {

// throw_depth_error / throw_frames_error raise CapacityError naming the [task.steal] field.
[[noreturn]] void throw_depth_error(int max_depth);
[[noreturn]] void throw_frames_error(int frames_per_worker);
// wait_stolen waits until the stolen frame f is done, leapfrogging: it steals only from f's thief,
// whose deque holds only descendants of f (docs/internals/steal.md §3). Returns f's final state
// (kDone or kFailed) and merges f's deepest depth into w's.
std::uint32_t wait_stolen(Worker* w, Frame* f) noexcept;
// run_stolen runs frame f that worker w has just stolen and marks it done; returns the ticks it
// took.
std::int64_t run_stolen(Worker* w, Frame* f) noexcept;

// take_exception moves out (and destroys) an exception_ptr that a job constructed in raw storage.
inline std::exception_ptr take_exception(void* storage) noexcept {
  auto* p = std::launder(reinterpret_cast<std::exception_ptr*>(storage));
  std::exception_ptr e = std::move(*p);
  p->~exception_ptr();
  return e;
}

// JoinFrame is join's second job: a reference to the caller's callable, on the caller's stack,
// with room for the exception it throws on a thief (constructed only then).
template <class F>
struct JoinFrame : Frame {
  F* fn;
  alignas(std::exception_ptr) unsigned char error[sizeof(std::exception_ptr)];

  JoinFrame(F& f, int d) noexcept : fn(&f) {
    execute = &JoinFrame::run;
    // relaxed: not yet shared; push's release store of bottom publishes it to a thief.
    state.store(kPending, std::memory_order_relaxed);
    depth = d;
  }
  static bool run(Frame* self) noexcept {
    auto* j = static_cast<JoinFrame*>(self);
    try {
      (*j->fn)();
      return false;
    } catch (...) {
      ::new (static_cast<void*>(j->error)) std::exception_ptr(std::current_exception());
      return true;
    }
  }
  // rethrow rethrows (and releases) the exception run() captured.
  [[noreturn]] void rethrow() { std::rethrow_exception(take_exception(error)); }
};

// DepthGuard restores the worker's join depth when a join ends, normally or by an exception.
struct DepthGuard {
  Worker* w;
  int saved;
  ~DepthGuard() { w->depth = saved; }
};

// profiled_join is join at depth < profile_depth: it times a, b and the whole join (three
// timestamps) and folds them into the worker's strand (docs/internals/steal.md §5):
//   span  += max(span(a), span(b));   bspan += max(bspan(a), bspan(b) + C)
// Kept out of line so the unprofiled fast path stays small.
template <class A, class B>
[[gnu::noinline]] void profiled_join(Worker* w, A& a, B& b) {
  const int d = w->depth + 1;                 // the children's depth
  const bool leaves = d >= w->profile_depth;  // their subtrees are not timed inside
  const std::int64_t t0 = ticks();
  const Strand before{w->prof.span + (t0 - w->prof.start), w->prof.bspan + (t0 - w->prof.start),
                      t0};
  w->prof = before;
  JoinFrame<B> frame(b, d);
  w->push(&frame);
  ++w->spawns;
  DepthGuard guard{w, w->depth};
  w->depth = d;
  if (leaves) w->deepest = d;
  try {
    a();
  } catch (...) {
    if (w->pop() != &frame && wait_stolen(w, &frame) == kFailed) (void)take_exception(frame.error);
    w->prof = Strand{before.span, before.bspan, ticks()};
    throw;
  }
  const std::int64_t t1 = ticks();
  const std::int64_t span_a = w->prof.span + (t1 - w->prof.start);
  std::int64_t bspan_a = w->prof.bspan + (t1 - w->prof.start);
  if (leaves) bspan_a += w->burden * (w->deepest - d);
  std::int64_t span_b, bspan_b, t2;
  if (w->pop() == &frame) {
    w->prof = Strand{before.span, before.bspan, t1};
    if (leaves) w->deepest = d;
    try {
      b();
    } catch (...) {
      w->prof = Strand{before.span, before.bspan, ticks()};
      throw;
    }
    t2 = ticks();
    span_b = w->prof.span + (t2 - w->prof.start);
    bspan_b = w->prof.bspan + (t2 - w->prof.start);
    if (leaves) bspan_b += w->burden * (w->deepest - d);
  } else {
    const std::uint32_t s = wait_stolen(w, &frame);
    t2 = ticks();
    w->prof = Strand{before.span, before.bspan, t2};
    if (s == kFailed) frame.rethrow();
    span_b = before.span + frame.span;
    bspan_b = before.bspan + frame.bspan;
  }
  w->prof = Strand{std::max(span_a, span_b), std::max(bspan_a, bspan_b + w->burden), t2};
}

}  // namespace detail

}  // namespace rtpar::steal
