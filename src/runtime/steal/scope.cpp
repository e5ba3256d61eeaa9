// scope.cpp — Scope: children in frames from the worker's fixed pool (rtpar/steal.hpp).
//
// Frames are taken from the worker's pool as a stack: scopes on one worker nest (a scope's
// children, the jobs it runs inline and the jobs it leapfrogs all finish before it syncs), so a
// scope's children occupy the contiguous indices [base_, top_) and sync() returns them by resetting
// frames_used. Two scopes interleaving spawns in the same job would break contiguity; spawn
// rejects that with std::logic_error.
#include <algorithm>
#include <stdexcept>

#include "rtpar/steal.hpp"

namespace rtpar::steal {

void Scope::interleaved() {
  throw std::logic_error("rtpar::steal::Scope::spawn: scopes interleaved in one job");
}

// wait_all pops the children back newest first (they are the bottom of the deque) and runs them
// inline at their depth (a child's run captures its exception, so nothing unwinds through here);
// once a pop fails, every older child has been stolen (thieves take the oldest first), and the
// rest are waited for by leapfrogging. A failed inline child is marked kFailed like a thief would.
void Scope::wait_all(bool rethrow) {
  detail::Worker* w = w_;
  if (w->depth < w->profile_depth) {
    wait_all_profiled(rethrow);
    return;
  }
  const int depth = w->depth;
  int first_failed = -1;
  int i = top_ - 1;
  for (; i >= base_; --i) {
    Child* c = child_at(i);
    if (w->pop() != c) break;
    w->enter(c->depth);
    if (c->execute(c)) {
      // relaxed: c was popped back, so no other thread can reach it; only finish() reads it.
      c->state.store(detail::kFailed, std::memory_order_relaxed);
      first_failed = i;
    }
    w->depth = depth;
  }
  for (; i >= base_; --i) {
    if (detail::wait_stolen(w, child_at(i)) == detail::kFailed) first_failed = i;
  }
  finish(first_failed, rethrow);
}

// wait_all_profiled is wait_all for a scope at a profiled depth: every inline child runs in a
// fresh strand (consecutive children share their boundary timestamp), stolen ones come with the
// span their thief measured. All children are placed after the whole continuation up to sync():
//   span  = cont + max_i span_i;   bspan = cont_b + max_i bspan_i + C
// an upper bound of the DAG span (a child's true spawn offset is at most the continuation), with
// no timestamp per spawn.
void Scope::wait_all_profiled(bool rethrow) {
  detail::Worker* w = w_;
  const int depth = w->depth;
  const int d = depth + 1;
  const bool leaves = d >= w->profile_depth;
  std::int64_t t = detail::ticks();
  const std::int64_t cont_span = w->prof.span + (t - w->prof.start);
  const std::int64_t cont_bspan = w->prof.bspan + (t - w->prof.start);
  std::int64_t span = 0;
  std::int64_t bspan = 0;
  int first_failed = -1;
  int i = top_ - 1;
  for (; i >= base_; --i) {
    Child* c = child_at(i);
    if (w->pop() != c) break;
    w->prof = detail::Strand{0, 0, t};
    w->depth = d;
    w->deepest = d;
    if (c->execute(c)) {
      // relaxed: c was popped back, so no other thread can reach it; only finish() reads it.
      c->state.store(detail::kFailed, std::memory_order_relaxed);
      first_failed = i;
    }
    const std::int64_t t1 = detail::ticks();
    span = std::max(span, w->prof.span + (t1 - w->prof.start));
    std::int64_t b = w->prof.bspan + (t1 - w->prof.start);
    if (leaves) b += w->burden * (w->deepest - d);
    bspan = std::max(bspan, b);
    t = t1;
  }
  w->depth = depth;
  for (; i >= base_; --i) {
    Child* c = child_at(i);
    if (detail::wait_stolen(w, c) == detail::kFailed) first_failed = i;
    span = std::max(span, c->span);
    bspan = std::max(bspan, c->bspan);
  }
  w->prof = detail::Strand{cont_span + span, cont_bspan + bspan + w->burden, detail::ticks()};
  finish(first_failed, rethrow);
}

// finish releases the children's exceptions (keeping the first in spawn order), returns the frames
// to the pool and rethrows.
void Scope::finish(int first_failed, bool rethrow) {
  std::exception_ptr first;
  if (first_failed >= 0) {
    first = child_at(first_failed)->take_error();
    for (int i = first_failed + 1; i < top_; ++i) {
      Child* c = child_at(i);
      // relaxed: our own store (inline child) or a thief's, already acquired by wait_stolen.
      if (c->state.load(std::memory_order_relaxed) == detail::kFailed) (void)c->take_error();
    }
  }
  if (w_->frames_used == top_) w_->frames_used = base_;
  top_ = base_;
  if (rethrow && first) std::rethrow_exception(first);
}

}  // namespace rtpar::steal
