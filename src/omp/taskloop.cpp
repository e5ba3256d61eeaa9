// taskloop.cpp — `taskloop` (OpenMP 5.0 §2.10.2): GOMP_taskloop (long) and GOMP_taskloop_ull.
//
// The iteration space [start, end) by step is split into tasks; each task's argument copy gets
// its own [first, last) in its first two words (long or unsigned long long). Task count:
// grainsize(g) → n/g tasks of g..2g-1 iterations (strict: tasks of exactly g, the last one the
// remainder); num_tasks(k) → min(k, n) tasks; neither → one per team member. The tasks are
// siblings created by GOMP_task's path (deque, arena, undeferred rules); the whole loop runs in
// an implicit taskgroup unless NOGROUP, and registers its reductions there (REDUCTION).
#include <climits>
#include <type_traits>

#include "omp/runtime.hpp"

namespace rtpar::omp {

// GOMP_taskgroup_reduction_register is defined in task_reduction.cpp.
extern "C" void GOMP_taskgroup_reduction_register(std::uintptr_t* data);

namespace {

// kFlag*: GOMP_taskloop's flag bits (gomp-constants.h).
constexpr unsigned kFlagTaskMask = 1 | 2 | 4 | 16;  // UNTIED | FINAL | MERGEABLE | PRIORITY
constexpr unsigned kFlagUp = 256;
constexpr unsigned kFlagGrainsize = 512;
constexpr unsigned kFlagIf = 1024;
constexpr unsigned kFlagNogroup = 2048;
constexpr unsigned kFlagReduction = 4096;
constexpr unsigned kFlagStrict = 16384;
constexpr unsigned kFlagPriority = 16;

// Bounds is one task's [first, last) handed to set_bounds.
template <class T>
struct Bounds {
  T first;
  T last;
};

// set_bounds stores a task's bounds in the first two words of its argument copy.
template <class T>
void set_bounds(void* arg, const void* b) {
  const auto* bounds = static_cast<const Bounds<T>*>(b);
  static_cast<T*>(arg)[0] = bounds->first;
  static_cast<T*>(arg)[1] = bounds->last;
}

// DataHead is the start of a taskloop's data block with REDUCTION: bounds, then the descriptor.
template <class T>
struct DataHead {
  T first;
  T last;
  std::uintptr_t* reductions;
};

// taskloop is GOMP_taskloop for induction type T (long or unsigned long long).
template <class T>
void taskloop(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
              long arg_align, unsigned flags, unsigned long num_tasks, int priority, T start, T end,
              T step) {
  using U = unsigned long long;
  ThreadState& ts = self();
  const bool grouped = (flags & kFlagNogroup) == 0;
  const bool reduction = grouped && (flags & kFlagReduction) != 0;
  // Iteration count (unsigned arithmetic: the distance may exceed the signed range).
  U n = 0;
  bool up;
  if constexpr (std::is_signed_v<T>) {
    up = step > 0;
  } else {
    up = (flags & kFlagUp) != 0;
  }
  if (up ? start < end : start > end) {
    const U dist = up ? static_cast<U>(end) - static_cast<U>(start)
                      : static_cast<U>(start) - static_cast<U>(end);
    const U s = up ? static_cast<U>(step) : U{0} - static_cast<U>(step);
    n = (dist + s - 1) / s;
  }
  // acquire: pairs with GOMP_cancel's release store.
  const bool cancelled = ts.team->cancelled.load(std::memory_order_acquire);
  if (n == 0 || cancelled) {
    if (reduction) static_cast<DataHead<T>*>(data)->reductions[2] = 0;  // not registered
    return;
  }
  // Task count and sizes: `big` tasks of size+1 first, then tasks of `size` (strict: the last
  // task takes the remainder).
  U ntasks;
  U size;
  U big = 0;
  U last_size = 0;  // strict only
  if ((flags & kFlagGrainsize) != 0) {
    const U g = num_tasks == 0 ? 1 : num_tasks;
    if ((flags & kFlagStrict) != 0) {
      ntasks = (n + g - 1) / g;
      size = g;
      last_size = n - g * (ntasks - 1);
    } else {
      ntasks = n / g;
      if (ntasks == 0) ntasks = 1;
      size = n / ntasks;
      big = n % ntasks;
    }
  } else {
    ntasks = num_tasks == 0 ? static_cast<U>(ts.team->nthreads) : num_tasks;
    if (ntasks > n) ntasks = n;
    size = n / ntasks;
    big = n % ntasks;
  }
  if (grouped) {
    task_detail::taskgroup_begin(ts);
    if (reduction) {
      GOMP_taskgroup_reduction_register(static_cast<DataHead<T>*>(data)->reductions);
    }
  } else if (task_detail::cancellation_on() && task_detail::group_cancelled(ts.task->tg_current)) {
    return;
  }
  const bool if_clause = (flags & kFlagIf) != 0;
  const unsigned task_flags = (flags & kFlagTaskMask) | kFlagPriority;
  T cur = start;
  for (U i = 0; i < ntasks; ++i) {
    U count = size + (i < big ? 1 : 0);
    if (last_size != 0 && i + 1 == ntasks) count = last_size;
    const T next = static_cast<T>(static_cast<U>(cur) + count * static_cast<U>(step));
    const Bounds<T> b{cur, next};
    task_detail::task_spawn(fn, data, cpyfn, arg_size, arg_align, if_clause, task_flags, nullptr,
                            priority, nullptr, &set_bounds<T>, &b);
    cur = next;
  }
  if (grouped) task_detail::taskgroup_finish(ts);
}

}  // namespace

RTPAR_OMP_EXPORT void GOMP_taskloop(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                                    long arg_size, long arg_align, unsigned flags,
                                    unsigned long num_tasks, int priority, long start, long end,
                                    long step) {
  taskloop<long>(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end,
                 step);
}

RTPAR_OMP_EXPORT void GOMP_taskloop_ull(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                                        long arg_size, long arg_align, unsigned flags,
                                        unsigned long num_tasks, int priority,
                                        unsigned long long start, unsigned long long end,
                                        unsigned long long step) {
  taskloop<unsigned long long>(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority,
                               start, end, step);
}

}  // namespace rtpar::omp
