// rtpar/steal.hpp — rtpar's work-stealing runtime with statically allocated memory.
//
// A Pool owns P workers (the caller of run() is worker 0). Inside a job, join(a, b) runs a and b
// potentially in parallel in natural recursive style; Scope spawns any number of children; and
// parallel_for / parallel_reduce split a range recursively with join. Every deque, frame and stack
// is allocated when the Pool is built; exceeding the StealConfig budget throws CapacityError at the
// spawn site and leaves the pool usable. Protocols, memory orderings and the space bound:
// docs/internals/steal.md.
#pragma once

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "rtpar/detail/steal_join.hpp"
#include "rtpar/detail/steal_worker.hpp"
#include "rtpar/function_ref.hpp"
#include "rtpar/steal_config.hpp"
#include "rtpar/thread_config.hpp"
#include "rtpar/time.hpp"

namespace rtpar::steal {

// CapacityError is a job exceeding its static budget (max_depth or frames_per_worker); what()
// names the limit and the [task.steal] field to raise. Thrown at the join/spawn site.
class CapacityError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// PoolConfig describes the workers and the memory budget of a Pool.
struct PoolConfig {
  // workers[0] describes the thread that calls run() (it is not re-pinned: the caller owns its
  // placement); workers[1..P-1] are created pinned and scheduled from their first instruction.
  std::vector<ThreadConfig> workers;
  StealConfig budget;
  // release_lead and release_window: after Pool::expect_release, a worker that sleeps between
  // runs wakes on its own timer release_lead (plus its own recent timer lateness, at most
  // release_window) before the release and spins for the run until release_window after it (the
  // same self-timed release as TeamConfig's).
  Duration release_lead{std::chrono::microseconds(20)};
  Duration release_window{std::chrono::microseconds(200)};
  // before_run, when set, is called by workers 1..P-1 on their own thread when they join a run
  // (the construction's calibration run included), before they steal; after_run, when set, by
  // every worker (0 included) at the end of each run, before it blocks. For tests (allocation
  // counting) and tracing (the executor's steal-worker tracks). Neither may throw; what run()'s
  // caller wrote before run() is visible to both (the run's start publishes it).
  std::function<void(int worker)> before_run;
  std::function<void(int worker)> after_run;
};

// JobProfile is the online work/span measurement of the last run (docs/internals/steal.md §5).
struct JobProfile {
  std::int64_t work_ns = 0;           // Σ over workers of the time spent running job code
  std::int64_t span_ns = 0;           // critical-path length (upper bound below the cut-off)
  std::int64_t burdened_span_ns = 0;  // span + one measured steal cost per join on the path
  std::uint64_t spawns = 0;           // joins + scope spawns
  std::uint64_t steals = 0;           // successful steals (random and leapfrogging)
};

// join runs a and b, potentially in parallel, and returns when both are done. The caller runs a,
// then b unless a thief took it. Outside a pool's job it runs a then b serially. If a or b throws,
// join still waits for b and rethrows (a's exception wins). Throws CapacityError when the join
// nesting depth would exceed max_depth.
template <class A, class B>
void join(A&& a, B&& b) {
  detail::Worker* w = detail::tls_worker;
  if (w == nullptr) {
    a();
    b();
    return;
  }
  if (w->depth >= w->max_depth) detail::throw_depth_error(w->max_depth);
  if (w->depth < w->profile_depth) {
    detail::profiled_join(w, a, b);
    return;
  }
  // Fast path: no timestamps; only the deepest depth is tracked (for the burdened span).
  detail::JoinFrame<std::remove_reference_t<B>> frame(b, w->depth + 1);
  w->push(&frame);
  ++w->spawns;
  detail::DepthGuard guard{w, w->depth};
  w->enter(frame.depth);
  try {
    a();
  } catch (...) {
    if (w->pop() != &frame && detail::wait_stolen(w, &frame) == detail::kFailed) {
      (void)detail::take_exception(frame.error);
    }
    throw;
  }
  if (w->pop() == &frame) {
    b();
    return;
  }
  if (detail::wait_stolen(w, &frame) == detail::kFailed) frame.rethrow();
}

// Scope spawns any number of children into frames from the worker's fixed pool; sync() waits for
// all of them. A Scope belongs to the thread (job) that created it; scopes nest like blocks.
// Outside a pool's job, spawn runs the child at once. The destructor waits for unsynced children
// but drops their exceptions: call sync() to see them.
class Scope {
 public:
  // Scope opens a scope in the calling job.
  Scope() noexcept : w_(detail::tls_worker) {
    if (w_ != nullptr) base_ = top_ = w_->frames_used;
  }
  ~Scope() {
    if (top_ != base_) wait_all(false);
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

  // spawn starts f (copied into a frame, at most kScopeInlineBytes) as a child of this scope.
  // Throws CapacityError when the worker's frame pool or max_depth is exhausted.
  template <class F>
  void spawn(F&& f) {
    using D = std::decay_t<F>;
    static_assert(sizeof(D) <= detail::kScopeInlineBytes && alignof(D) <= 16,
                  "Scope::spawn: the callable is too large; capture by reference");
    if (w_ == nullptr) {
      f();
      return;
    }
    Child* c = allocate_child();
    ::new (static_cast<void*>(c->storage)) D(std::forward<F>(f));
    c->execute = &Child::template run<D>;
    ++w_->frames_used;
    ++top_;
    ++w_->spawns;
    w_->push(c);
  }

  // sync waits for every child spawned so far and rethrows the first exception (in spawn order).
  void sync() {
    if (top_ != base_) wait_all(true);
  }

 private:
  // Child is a scope child's frame with its callable stored inline; run() destroys the callable
  // after calling it and, if it threw, leaves the exception_ptr in its place.
  struct Child : detail::Frame {
    alignas(16) unsigned char storage[detail::kScopeInlineBytes];

    template <class D>
    static bool run(detail::Frame* self) noexcept {
      auto* c = static_cast<Child*>(self);
      D* fn = std::launder(reinterpret_cast<D*>(c->storage));
      std::exception_ptr error;
      try {
        (*fn)();
      } catch (...) {
        error = std::current_exception();
      }
      fn->~D();
      if (!error) return false;
      ::new (static_cast<void*>(c->storage)) std::exception_ptr(std::move(error));
      return true;
    }
    // take_error moves out (and releases) the exception a failed run left in storage.
    std::exception_ptr take_error() noexcept { return detail::take_exception(storage); }
  };
  friend class Pool;

  // allocate_child takes the next frame of the worker's pool (checks only; the caller commits).
  Child* allocate_child() {
    detail::Worker* w = w_;
    if (top_ != w->frames_used) {
      if (top_ != base_) interleaved();
      base_ = top_ = w->frames_used;
    }
    if (w->frames_used >= w->frames_capacity) detail::throw_frames_error(w->frames_capacity);
    if (w->depth >= w->max_depth) detail::throw_depth_error(w->max_depth);
    Child* c = child_at(w->frames_used);
    // relaxed: the frame is ours again (its last thief's kDone/kFailed was read with acquire in
    // wait_stolen, so this store follows it); push's release store of bottom publishes it.
    c->state.store(detail::kPending, std::memory_order_relaxed);
    c->depth = w->depth + 1;
    return c;
  }
  Child* child_at(int i) const noexcept {
    return reinterpret_cast<Child*>(w_->frame_pool +
                                    static_cast<std::size_t>(i) * w_->frame_stride);
  }
  [[noreturn]] static void interleaved();
  void wait_all(bool rethrow);
  void wait_all_profiled(bool rethrow);
  void finish(int first_failed, bool rethrow);

  detail::Worker* w_;
  int base_ = 0;  // first frame index of this scope's live children
  int top_ = 0;   // one past the last
};

// PoolMemory is what a Pool reserved at construction: every byte its scheduling uses afterwards.
struct PoolMemory {
  std::size_t heap_bytes = 0;   // worker records, deques and scope-frame pools (operator new)
  std::size_t stack_bytes = 0;  // call stacks of workers 1..P-1 (mmap; worker 0 is the caller's)
};

// Pool is a set of work-stealing workers with all their memory allocated at construction.
class Pool {
 public:
  // Pool creates workers 1..P-1 (blocked until run) and measures the steal cost. Throws
  // InputError for an empty worker list or a non-positive budget, EnvironmentError when the
  // kernel refuses a worker's scheduling (RtThread).
  explicit Pool(PoolConfig config);
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // run executes root on the calling thread as worker 0 while the other workers steal; returns
  // when root and everything it spawned is done, rethrowing root's exception. Not reentrant: one
  // run at a time, never from inside a job.
  void run(FunctionRef<void()> root);
  // expect_release tells the workers when the next run() is expected (absolute CLOCK_MONOTONIC
  // ns; 0: unknown): a worker that sleeps between runs then sleeps on its own absolute timer
  // until PoolConfig::release_lead before it and spins for the run until release_window after
  // it, so a run at the release costs no futex wake-up. A hint only; one store; never blocks.
  void expect_release(std::int64_t release_ns) noexcept;
  // last_profile is the work/span measurement of the last completed run.
  [[nodiscard]] JobProfile last_profile() const;
  // worker_tids lists the Linux thread ids of workers 1..P-1 (for reports, traces, EDF ranking).
  [[nodiscard]] std::vector<int> worker_tids() const;
  // size is the number of workers P.
  [[nodiscard]] int size() const noexcept;
  // steal_cost_ns is the steal round trip measured at construction (0 with one worker).
  [[nodiscard]] std::int64_t steal_cost_ns() const noexcept;
  // memory is the memory the pool reserved for its scheduling, by the formula of
  // docs/internals/steal.md §4 (the test suite checks it against the allocator's count).
  [[nodiscard]] PoolMemory memory() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

namespace detail {

// stealable says whether w's deque holds a job a thief could take (lazy splitting's test).
inline bool stealable(const Worker* w) noexcept {
  // relaxed, both: a heuristic that orders nothing. bottom is owner-written (exact); a stale top
  // only overstates the work left, which makes this worker run one more grain itself.
  return w->top.load(std::memory_order_relaxed) < w->bottom.load(std::memory_order_relaxed);
}

}  // namespace detail

// parallel_for calls body(i) for every i in [begin, end) by lazy binary splitting (Tzannes et
// al., PPoPP'10): while the calling worker's deque already holds stealable work, it runs the next
// `grain` indices itself; when the deque is empty (nothing for a thief to take), it splits the
// rest in halves with join. Blocks are at most `grain` indices (grain < 1 counts as 1); the join
// depth stays ≤ log2(range / grain). Outside a pool it runs serially.
template <class Body>
void parallel_for(std::int64_t begin, std::int64_t end, std::int64_t grain, Body&& body) {
  if (grain < 1) grain = 1;
  detail::Worker* w = detail::tls_worker;
  while (end - begin > grain) {
    if (w != nullptr && !detail::stealable(w)) {
      const std::int64_t mid = begin + (end - begin) / 2;
      join([&] { parallel_for(begin, mid, grain, body); },
           [&] { parallel_for(mid, end, grain, body); });
      return;
    }
    for (const std::int64_t stop = begin + grain; begin < stop; ++begin) body(begin);
  }
  for (; begin < end; ++begin) body(begin);
}

// parallel_reduce folds combine over map(i) for i in [begin, end) starting from identity; combine
// must be associative (identity its neutral element). Splits like parallel_for; the blocks a
// worker runs itself are folded in index order before the halves of a split.
template <class T, class Map, class Combine>
T parallel_reduce(std::int64_t begin, std::int64_t end, std::int64_t grain, const T& identity,
                  Map&& map, Combine&& combine) {
  if (grain < 1) grain = 1;
  detail::Worker* w = detail::tls_worker;
  T acc = identity;
  while (end - begin > grain) {
    if (w != nullptr && !detail::stealable(w)) {
      const std::int64_t mid = begin + (end - begin) / 2;
      T left = identity;
      T right = identity;
      join([&] { left = parallel_reduce(begin, mid, grain, identity, map, combine); },
           [&] { right = parallel_reduce(mid, end, grain, identity, map, combine); });
      return combine(acc, combine(left, right));
    }
    for (const std::int64_t stop = begin + grain; begin < stop; ++begin) {
      acc = combine(acc, map(begin));
    }
  }
  for (; begin < end; ++begin) acc = combine(acc, map(begin));
  return acc;
}

}  // namespace rtpar::steal
