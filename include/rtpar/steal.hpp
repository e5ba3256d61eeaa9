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

#include "rtpar/function_ref.hpp"
#include "rtpar/steal_config.hpp"
#include "rtpar/thread_config.hpp"

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
  // after_run, when set, is called by every worker (0 included) on its own thread at the end of
  // each run (the construction's calibration run included), before it blocks; for tests
  // (allocation counting) and tracing. Must not throw.
  std::function<void(int worker)> after_run;
};

// JobProfile is the online work/span measurement of the last run (docs/internals/steal.md §5).
struct JobProfile {
  std::int64_t work_ns = 0;           // total execution time (upper bound, see the doc)
  std::int64_t span_ns = 0;           // critical-path length (upper bound below the cut-off)
  std::int64_t burdened_span_ns = 0;  // span + one measured steal cost per stolen critical edge
  std::uint64_t spawns = 0;           // joins + scope spawns
  std::uint64_t steals = 0;           // successful steals (random and leapfrogging)
};

namespace detail {

// kProfileDepth is the join depth below which no timestamps are taken (a subtree started at this
// depth counts its elapsed time as both its work and its span).
inline constexpr int kProfileDepth = 12;
// kScopeInlineBytes is the size of the callable a Scope child frame can hold.
inline constexpr std::size_t kScopeInlineBytes = 64;

// now_ns reads CLOCK_MONOTONIC (vDSO, no system call).
inline std::int64_t now_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Frame states: pending (in a deque or being run by its owner), stolen (thief recorded), done.
inline constexpr std::uint32_t kPending = 0;
inline constexpr std::uint32_t kStolen = 1;
inline constexpr std::uint32_t kDone = 2;

// Prof accumulates work/span of the strand a worker is executing: completed parts plus the
// time since strand_start.
struct Prof {
  std::int64_t work = 0, span = 0, bspan = 0, strand_start = 0;
  // finish closes the open strand at time t.
  void finish(std::int64_t t) noexcept {
    work += t - strand_start;
    span += t - strand_start;
    bspan += t - strand_start;
    strand_start = t;
  }
};

// Frame is a stealable job: the unit a deque holds. It lives on the spawner's stack (join) or in
// the spawner's frame pool (Scope); a thief runs it and signals completion through state.
struct Frame {
  void (*execute)(Frame*) = nullptr;  // runs the job (called by a thief)
  std::atomic<std::uint32_t> state{kPending};
  int thief = -1;         // worker that stole it; written before state = kStolen (release)
  int depth = 0;          // join depth the job runs at
  bool profiled = false;  // the job brackets its own work/span (depth ≤ kProfileDepth)
  bool stolen = false;    // set by the owner after the wait (for the burdened span)
  std::exception_ptr error;  // what the job threw when run by a thief
  // The job's profile (written by whoever runs it, only when profiled: left uninitialized so the
  // join fast path does not pay for zeroing them).
  std::int64_t work, span, bspan;
  std::int64_t offset_span, offset_bspan;  // Scope: the scope strand's span at the spawn
};

// Worker is one worker's deque, budget and counters. The deque is a fixed-capacity Chase–Lev
// deque (Lê et al., PPoPP'13) with its fences expressed as seq_cst accesses:
//
//   push (owner):  buf[b] = x (relaxed); bottom = b+1 (release)
//   pop  (owner):  b = bottom-1; bottom.exchange(b) (seq_cst); t = top (seq_cst);
//                  t < b: take buf[b];  t == b: last element, CAS top t→t+1 (seq_cst) decides
//                  against a thief, then bottom = b+1;  t > b: empty, bottom = b+1.
//   steal (thief): t = top (seq_cst); b = bottom (seq_cst); t < b: x = buf[t]; CAS top t→t+1.
//
// Why it is correct: (1) the owner's store to bottom and load of top, and the thief's load of top
// and load of bottom, are all seq_cst, so in the single total order either the thief sees the
// decremented bottom (and backs off) or the owner sees the thief's incremented top (and takes the
// CAS path, where exactly one CAS on top succeeds): an element is never taken twice. This is the
// role of the two seq_cst fences in Lê et al. Fig. 1. (2) The release store of bottom in push pairs
// with the thief's load of bottom, so the frame's contents written before the push are visible to
// the thief that reads it. (3) The capacity is never exceeded (join depth ≤ max_depth, scope frames
// ≤ frames_per_worker, and a worker only steals with an empty deque), so a slot is never
// overwritten while a thief may still read it with a winning CAS; the slots are atomics, so a
// losing thief's stale read is not a data race. On x86 the fast path costs one xchg (pop) and plain
// moves: no lock, no system call, no allocation.
struct alignas(64) Worker {
  alignas(64) std::atomic<std::int64_t> top{0};
  alignas(64) std::atomic<std::int64_t> bottom{0};
  std::atomic<Frame*>* buffer = nullptr;
  std::int64_t mask = 0;
  // Owner-only state.
  int index = 0;
  int depth = 0;             // current join nesting depth
  int max_depth = 0;         // budget.max_depth
  int frames_used = 0;       // scope frames in use (a stack: scopes nest on a worker)
  int frames_capacity = 0;   // budget.frames_per_worker
  std::byte* frame_pool = nullptr;
  std::size_t frame_stride = 0;
  Prof prof;
  std::uint64_t spawns = 0;
  std::uint64_t steals = 0;
  std::uint64_t rng = 0;
  std::int64_t steal_cost_ns = 0;
  Worker* const* peers = nullptr;  // all workers of the pool (leapfrogging looks up the thief)

  // push appends x at the bottom (owner only).
  void push(Frame* x) noexcept {
    const std::int64_t b = bottom.load(std::memory_order_relaxed);
    buffer[b & mask].store(x, std::memory_order_relaxed);
    bottom.store(b + 1, std::memory_order_release);
  }
  // pop removes the bottom element (owner only); nullptr when empty or lost to a thief.
  Frame* pop() noexcept {
    const std::int64_t b = bottom.load(std::memory_order_relaxed) - 1;
    bottom.exchange(b, std::memory_order_seq_cst);
    std::int64_t t = top.load(std::memory_order_seq_cst);
    if (t < b) return buffer[b & mask].load(std::memory_order_relaxed);
    Frame* x = nullptr;
    if (t == b) {
      x = buffer[b & mask].load(std::memory_order_relaxed);
      if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                       std::memory_order_relaxed)) {
        x = nullptr;
      }
    }
    bottom.store(b + 1, std::memory_order_relaxed);
    return x;
  }
  // steal removes the top element (any thread); nullptr when empty or when another took it.
  Frame* steal() noexcept {
    std::int64_t t = top.load(std::memory_order_seq_cst);
    const std::int64_t b = bottom.load(std::memory_order_seq_cst);
    if (t >= b) return nullptr;
    Frame* x = buffer[t & mask].load(std::memory_order_relaxed);
    if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                     std::memory_order_relaxed)) {
      return nullptr;
    }
    return x;
  }
};

// tls_worker is the worker the calling thread is, or nullptr outside a pool's job.
inline thread_local Worker* tls_worker = nullptr;

// throw_depth_error / throw_frames_error raise CapacityError naming the [task.steal] field.
[[noreturn]] void throw_depth_error(int max_depth);
[[noreturn]] void throw_frames_error(int frames_per_worker);
// wait_stolen waits until the stolen frame f is done, leapfrogging: it steals only from f's thief,
// whose deque holds only descendants of f (docs/internals/steal.md §3).
void wait_stolen(Worker* w, Frame* f) noexcept;
// run_stolen runs frame f that worker w has just stolen and marks it done.
void run_stolen(Worker* w, Frame* f) noexcept;

// JoinFrame is join's second job: a reference to the caller's callable, on the caller's stack.
template <class F>
struct JoinFrame : Frame {
  F* fn;
  explicit JoinFrame(F& f) noexcept : fn(&f) { execute = &JoinFrame::run; }
  static void run(Frame* self) { (*static_cast<JoinFrame*>(self)->fn)(); }
};

// DepthGuard restores the worker's join depth when a join ends, normally or by an exception.
struct DepthGuard {
  Worker* w;
  ~DepthGuard() { --w->depth; }
};

}  // namespace detail

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
  const bool profiled = w->depth < detail::kProfileDepth;
  detail::Prof saved;
  if (profiled) {
    saved = w->prof;
    const std::int64_t t0 = detail::now_ns();
    saved.finish(t0);
    w->prof = detail::Prof{0, 0, 0, t0};
  }
  detail::JoinFrame<std::remove_reference_t<B>> frame(b);
  frame.depth = w->depth + 1;
  frame.profiled = profiled;
  w->push(&frame);
  ++w->spawns;
  ++w->depth;
  detail::DepthGuard guard{w};
  try {
    a();
  } catch (...) {
    if (w->pop() != &frame) detail::wait_stolen(w, &frame);
    if (profiled) w->prof = saved;
    throw;
  }
  detail::Prof pa;
  if (profiled) {
    pa = w->prof;
    pa.finish(detail::now_ns());
    w->prof = detail::Prof{0, 0, 0, pa.strand_start};
  }
  if (w->pop() == &frame) {
    try {
      b();
    } catch (...) {
      if (profiled) w->prof = saved;
      throw;
    }
    if (!profiled) return;
    detail::Prof pb = w->prof;
    pb.finish(detail::now_ns());
    frame.work = pb.work;
    frame.span = pb.span;
    frame.bspan = pb.bspan;
  } else {
    detail::wait_stolen(w, &frame);
    frame.stolen = true;
    if (profiled) w->prof = saved;
    if (frame.error) std::rethrow_exception(frame.error);
    if (!profiled) return;
  }
  // Work adds up; span and burdened span take the longer branch, a stolen b paying one steal.
  saved.work += pa.work + frame.work;
  saved.span += std::max(pa.span, frame.span);
  saved.bspan += std::max(pa.bspan, frame.bspan + (frame.stolen ? w->steal_cost_ns : 0));
  saved.strand_start = detail::now_ns();
  w->prof = saved;
}

// Scope spawns any number of children into frames from the worker's fixed pool; sync() waits for
// all of them. A Scope belongs to the thread (job) that created it; scopes nest like blocks. Outside
// a pool's job, spawn runs the child at once. The destructor waits for unsynced children but
// drops their exceptions: call sync() to see them.
class Scope {
 public:
  // Scope opens a scope in the calling job.
  Scope();
  ~Scope();
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
    c->execute = [](detail::Frame* self) {
      (*std::launder(reinterpret_cast<D*>(static_cast<Child*>(self)->storage)))();
    };
    c->destroy = [](void* p) { std::launder(reinterpret_cast<D*>(p))->~D(); };
    push_child(c);
  }

  // sync waits for every child spawned so far and rethrows the first exception (in spawn order).
  void sync();

 private:
  // Child is a scope child's frame with its callable stored inline.
  struct Child : detail::Frame {
    void (*destroy)(void*) = nullptr;
    alignas(16) unsigned char storage[detail::kScopeInlineBytes];
  };
  friend class Pool;
  Child* allocate_child();
  void push_child(Child* c) noexcept;
  Child* child_at(int i) const noexcept;
  void wait_all(bool rethrow);

  detail::Worker* w_;
  int base_ = 0;      // first frame index of this scope's live children
  int top_ = 0;       // one past the last
  bool profiled_ = false;
  detail::Prof outer_;  // the enclosing strand, while this scope is open (profiled only)
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
  // last_profile is the work/span measurement of the last completed run.
  [[nodiscard]] JobProfile last_profile() const;
  // worker_tids lists the Linux thread ids of workers 1..P-1 (for reports, traces, EDF ranking).
  [[nodiscard]] std::vector<int> worker_tids() const;
  // size is the number of workers P.
  [[nodiscard]] int size() const noexcept;
  // steal_cost_ns is the steal round trip measured at construction (0 with one worker).
  [[nodiscard]] std::int64_t steal_cost_ns() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// parallel_for calls body(i) for every i in [begin, end), splitting the range in halves with join
// down to at most `grain` indices (grain < 1 counts as 1).
template <class Body>
void parallel_for(std::int64_t begin, std::int64_t end, std::int64_t grain, Body&& body) {
  if (grain < 1) grain = 1;
  if (end - begin <= grain) {
    for (std::int64_t i = begin; i < end; ++i) body(i);
    return;
  }
  const std::int64_t mid = begin + (end - begin) / 2;
  join([&] { parallel_for(begin, mid, grain, body); },
       [&] { parallel_for(mid, end, grain, body); });
}

// parallel_reduce folds combine over map(i) for i in [begin, end) starting from identity; combine
// must be associative (identity its neutral element). Splits like parallel_for.
template <class T, class Map, class Combine>
T parallel_reduce(std::int64_t begin, std::int64_t end, std::int64_t grain, const T& identity,
                  Map&& map, Combine&& combine) {
  if (grain < 1) grain = 1;
  if (end - begin <= grain) {
    T acc = identity;
    for (std::int64_t i = begin; i < end; ++i) acc = combine(acc, map(i));
    return acc;
  }
  const std::int64_t mid = begin + (end - begin) / 2;
  T left = identity;
  T right = identity;
  join([&] { left = parallel_reduce(begin, mid, grain, identity, map, combine); },
       [&] { right = parallel_reduce(mid, end, grain, identity, map, combine); });
  return combine(left, right);
}

}  // namespace rtpar::steal
