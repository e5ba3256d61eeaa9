// scope.cpp — Scope: children in frames from the worker's fixed pool (rtpar/steal.hpp).
//
// Frames are taken from the worker's pool as a stack: scopes on one worker nest (a scope's
// children, the jobs it runs inline and the jobs it leapfrogs all finish before it syncs), so a
// scope's children occupy the contiguous indices [base_, top_) and sync() returns them by resetting
// frames_used. Two scopes interleaving spawns in the same job would break contiguity; spawn
// rejects that with std::logic_error.
#include <stdexcept>

#include "rtpar/steal.hpp"

namespace rtpar::steal {

Scope::Scope() : w_(detail::tls_worker) {
  if (w_ == nullptr) return;
  base_ = top_ = w_->frames_used;
  profiled_ = w_->depth < detail::kProfileDepth;
  if (profiled_) {
    // The scope measures its own strand from zero; the enclosing one resumes at destruction.
    outer_ = w_->prof;
    const std::int64_t t0 = detail::now_ns();
    outer_.finish(t0);
    w_->prof = detail::Prof{0, 0, 0, t0};
  }
}

Scope::~Scope() {
  if (w_ == nullptr) return;
  wait_all(false);
  if (profiled_) {
    detail::Prof inner = w_->prof;
    inner.finish(detail::now_ns());
    outer_.work += inner.work;
    outer_.span += inner.span;
    outer_.bspan += inner.bspan;
    outer_.strand_start = inner.strand_start;
    w_->prof = outer_;
  }
}

Scope::Child* Scope::child_at(int i) const noexcept {
  return reinterpret_cast<Child*>(w_->frame_pool + static_cast<std::size_t>(i) * w_->frame_stride);
}

Scope::Child* Scope::allocate_child() {
  if (w_->depth >= w_->max_depth) detail::throw_depth_error(w_->max_depth);
  if (top_ > base_ && w_->frames_used != top_) {
    throw std::logic_error("rtpar::steal::Scope::spawn: scopes interleaved in one job");
  }
  if (top_ == base_) base_ = top_ = w_->frames_used;
  if (w_->frames_used >= w_->frames_capacity) detail::throw_frames_error(w_->frames_capacity);
  Child* c = ::new (static_cast<void*>(child_at(w_->frames_used))) Child();
  c->depth = w_->depth + 1;
  c->profiled = profiled_;
  if (profiled_) {
    // The child starts after the scope strand's current span (its edge in the DAG).
    const std::int64_t elapsed = detail::now_ns() - w_->prof.strand_start;
    c->offset_span = w_->prof.span + elapsed;
    c->offset_bspan = w_->prof.bspan + elapsed;
  }
  return c;
}

void Scope::push_child(Child* c) noexcept {
  ++w_->frames_used;
  top_ = w_->frames_used;
  ++w_->spawns;
  w_->push(c);
}

void Scope::sync() {
  if (w_ == nullptr) return;
  wait_all(true);
}

// wait_all pops the children back newest first (they are the bottom of the deque) and runs them
// inline; once a pop fails, every older child has been stolen (thieves take the oldest first), and
// the rest are waited for by leapfrogging. Then frames are destroyed and returned to the pool.
void Scope::wait_all(bool rethrow) {
  if (top_ == base_) return;
  detail::Prof cont;
  if (profiled_) {
    cont = w_->prof;
    cont.finish(detail::now_ns());
  }
  bool deque_empty = false;
  for (int i = top_ - 1; i >= base_; --i) {
    Child* c = child_at(i);
    if (!deque_empty) {
      if (w_->pop() == c) {
        // Run inline exactly like a thief would (depth, profile bracket, exception capture).
        c->thief = w_->index;
        const int saved_depth = w_->depth;
        w_->depth = c->depth;
        if (profiled_) w_->prof = detail::Prof{0, 0, 0, detail::now_ns()};
        try {
          c->execute(c);
        } catch (...) {
          c->error = std::current_exception();
        }
        if (profiled_) {
          detail::Prof p = w_->prof;
          p.finish(detail::now_ns());
          c->work = p.work;
          c->span = p.span;
          c->bspan = p.bspan;
        }
        w_->depth = saved_depth;
        continue;
      }
      deque_empty = true;
    }
    detail::wait_stolen(w_, c);
    c->stolen = true;
  }
  // Combine: work adds up; the span is the longest of the continuation and every child's
  // spawn offset + its span (+ one steal cost on the burdened span when it was stolen).
  std::exception_ptr first;
  for (int i = base_; i < top_; ++i) {
    Child* c = child_at(i);
    if (profiled_) {
      cont.work += c->work;
      cont.span = std::max(cont.span, c->offset_span + c->span);
      cont.bspan = std::max(cont.bspan, c->offset_bspan + c->bspan +
                                            (c->stolen ? w_->steal_cost_ns : 0));
    }
    if (!first && c->error) first = c->error;
    c->destroy(c->storage);
    c->~Child();
  }
  if (profiled_) {
    cont.strand_start = detail::now_ns();
    w_->prof = cont;
  }
  if (w_->frames_used == top_) w_->frames_used = base_;
  top_ = base_;
  if (rethrow && first) std::rethrow_exception(first);
}

}  // namespace rtpar::steal
