// task_reduction.cpp — task reductions (OpenMP 5.0 §2.19.5.5–2.19.5.6): `taskgroup
// task_reduction`, `in_reduction`, taskloop `reduction`, `parallel reduction(task, ...)` and work
// shares with task reductions.
//
// GCC's descriptor (uintptr_t array, one per registration, chained through d[4]):
//   d[0] number of variables, d[1] bytes per thread, d[2] alignment in / copies out,
//   d[3] allocator, d[4] next descriptor (then the enclosing registration), d[5] internal,
//   d[6] end of the copies, then 3 words per variable: original address, offset, internal.
// The runtime allocates nthreads zeroed copies; the compiler initialises and combines them.
// d[5] marks the head of a registration (1) so that unregister frees exactly its own chain.
// Lookups are linear (few variables in practice).
#include <cstdlib>
#include <cstring>

#include "omp/runtime.hpp"

namespace rtpar::omp {

using task_detail::reduction_register;

namespace task_detail {

Taskgroup*& pending_region_group() noexcept {
  thread_local Taskgroup* pending = nullptr;
  return pending;
}

void reduction_register(std::uintptr_t* data, std::uintptr_t* old, std::uintptr_t* orig,
                        unsigned nthreads) {
  std::uintptr_t* d = data;
  for (;;) {
    if (orig != nullptr) {  // a later thread of a work share: the first one allocated
      d[2] = orig[2];
      d[6] = orig[6];
      orig = reinterpret_cast<std::uintptr_t*>(orig[4]);
    } else {
      std::size_t align = d[2] < sizeof(void*) ? sizeof(void*) : d[2];
      const std::size_t size = d[1] * (nthreads == 0 ? 1 : nthreads);
      const std::size_t rounded = (size + align - 1) / align * align;
      void* p = std::aligned_alloc(align, rounded == 0 ? align : rounded);
      if (p == nullptr) std::abort();
      std::memset(p, 0, rounded == 0 ? align : rounded);
      d[2] = reinterpret_cast<std::uintptr_t>(p);
      d[6] = d[2] + size;
    }
    d[5] = 0;
    if (d[4] == 0) {
      d[4] = reinterpret_cast<std::uintptr_t>(old);
      break;
    }
    d = reinterpret_cast<std::uintptr_t*>(d[4]);
  }
  data[5] = 1;
}

}  // namespace task_detail

void workshare_reduction_attach(ThreadState& ts, std::uintptr_t* data, std::uintptr_t* orig) {
  Taskgroup* g = ts.task->tg_current;
  reduction_register(data, g->reductions, orig, static_cast<unsigned>(ts.team->nthreads));
  g->reductions = data;
}

// workshare_task_reduction_register is the hook loop_start.cpp calls for every member entering a
// work share with task reductions: it opens the work share's implicit taskgroup and registers
// the member's descriptor; the first member (its array is ts.ws->loop.task_reductions, called
// before the work share is published) allocates the copies, the others share them.
void workshare_task_reduction_register(ThreadState& ts, std::uintptr_t* reductions);
void workshare_task_reduction_register(ThreadState& ts, std::uintptr_t* reductions) {
  workshare_taskgroup_start(ts);
  std::uintptr_t* first = ts.ws->loop.task_reductions;
  workshare_reduction_attach(ts, reductions, first == reductions ? nullptr : first);
}

RTPAR_OMP_EXPORT void GOMP_taskgroup_reduction_register(std::uintptr_t* data) {
  ThreadState& ts = self();
  if (ts.task->tg_current == nullptr) task_detail::taskgroup_begin(ts);
  Taskgroup* g = ts.task->tg_current;
  reduction_register(data, g->reductions, nullptr, static_cast<unsigned>(ts.team->nthreads));
  g->reductions = data;
}

RTPAR_OMP_EXPORT void GOMP_taskgroup_reduction_unregister(std::uintptr_t* data) {
  std::uintptr_t* d = data;
  do {
    std::free(reinterpret_cast<void*>(d[2]));
    d = reinterpret_cast<std::uintptr_t*>(d[4]);
  } while (d != nullptr && d[5] == 0);
}

RTPAR_OMP_EXPORT void GOMP_task_reduction_remap(std::size_t cnt, std::size_t cntorig, void** ptrs) {
  ThreadState& ts = self();
  Taskgroup* g = ts.task->tg_current;
  std::uintptr_t* data = g != nullptr ? g->reductions : nullptr;
  const auto id = static_cast<std::uintptr_t>(ts.tid);
  for (std::size_t i = 0; i < cnt; ++i) {
    const auto want = reinterpret_cast<std::uintptr_t>(ptrs[i]);
    bool found = false;
    for (std::uintptr_t* d = data; d != nullptr && !found;
         d = reinterpret_cast<std::uintptr_t*>(d[4])) {
      for (std::uintptr_t j = 0; j < d[0]; ++j) {
        if (d[7 + 3 * j] == want) {
          ptrs[i] = reinterpret_cast<void*>(d[2] + id * d[1] + d[7 + 3 * j + 1]);
          if (i < cntorig) ptrs[cnt + i] = reinterpret_cast<void*>(want);
          found = true;
          break;
        }
      }
    }
    if (found) continue;
    // An address inside some thread's copies (a remapped item): same offset, our copy.
    for (std::uintptr_t* d = data; d != nullptr; d = reinterpret_cast<std::uintptr_t*>(d[4])) {
      if (want < d[2] || want >= d[6] || d[1] == 0) continue;
      const std::uintptr_t off = (want - d[2]) % d[1];
      ptrs[i] = reinterpret_cast<void*>(d[2] + id * d[1] + off);
      if (i < cntorig) {
        for (std::uintptr_t j = 0; j < d[0]; ++j) {
          if (d[7 + 3 * j + 1] == off) {
            ptrs[cnt + i] = reinterpret_cast<void*>(d[7 + 3 * j]);
            break;
          }
        }
      }
      break;
    }
  }
}

RTPAR_OMP_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void*), void* data,
                                                   unsigned num_threads, unsigned flags) {
  ThreadState& ts = self();
  const int n = resolve_nthreads(ts, num_threads);
  auto* rdata = *static_cast<std::uintptr_t**>(data);
  Taskgroup g;
  g.from_arena = false;
  reduction_register(rdata, nullptr, nullptr, static_cast<unsigned>(n));
  g.reductions = rdata;
  task_detail::pending_region_group() = &g;  // the region's implicit tasks start in g
  parallel_run(fn, data, n, flags);
  return static_cast<unsigned>(n);
}

RTPAR_OMP_EXPORT void GOMP_workshare_task_reduction_unregister(bool cancelled) {
  ThreadState& ts = self();
  std::uintptr_t* data = ts.task->tg_current != nullptr ? ts.task->tg_current->reductions : nullptr;
  task_detail::taskgroup_finish(ts);
  if (ts.tid == 0 && data != nullptr) GOMP_taskgroup_reduction_unregister(data);
  if (!cancelled) team_barrier(ts);
}

}  // namespace rtpar::omp
