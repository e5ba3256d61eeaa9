// kmpc_task.cpp — explicit tasks in LLVM's OpenMP ABI: __kmpc_omp_task_alloc and
// __kmpc_omp_task(_with_deps), the if(0) pair, taskwait, taskyield, taskgroup, taskloop and
// __kmpc_omp_wait_deps, on the task scheduler of the GOMP entry points (task.cpp: one record, one
// arena, one deque per member, one dependence table).
//
// The ABI differs from GOMP_task in who fills the task (LLVM's openmp runtime, kmp_tasking.cpp):
// __kmpc_omp_task_alloc returns a kmp_task_t with room for the private copies after it and the
// shared variables' addresses after those, which the compiled code fills in before it calls
// __kmpc_omp_task. So the layer allocates the whole block at once from the task arena (no heap
// after warm-up; the heap only when the arena is exhausted) with rtpar's Task record at its start
// (Header), and the kmp_task_t at kHeader: the record's body (`fn`, `arg`) is run_kmp_task on the
// kmp_task_t, and freeing the record (task.cpp's free_task, when the task and its children are
// done) frees the block. An `if(0)` task (clang calls the body itself between
// __kmpc_omp_task_begin_if0 and __kmpc_omp_task_complete_if0) becomes the caller's current task
// for that time and completes like a deferred one, so its deferred children may outlive it.
//
// Untied tasks run tied (as in libgomp): when clang's untied code re-enqueues the running task
// at a scheduling point, the rest of its body runs at once. Task reductions are in
// kmpc_task_reduction.cpp.
//
// Memory ordering: none here; task.cpp's counters, deque and dependence table order everything.
#include <algorithm>
#include <cstring>
#include <new>

#include "omp/kmpc.hpp"

namespace rtpar::omp::kmpc {

using namespace task_detail;

namespace {

// Header is the start of a task block: the scheduler's record and what the layer keeps of
// __kmpc_omp_task_alloc's arguments.
struct Header {
  Task rec;                    // first: freeing the record frees the block (task.cpp)
  kmp_int32 flags;             // the kmp_tasking_flags_t bits
  std::size_t task_bytes;      // sizeof_kmp_task_t (the kmp_task_t and its private copies)
  std::size_t shareds_offset;  // from the kmp_task_t to its shared-variable block
  std::size_t shareds_bytes;   // sizeof_shareds
};

// kHeader is the offset of the kmp_task_t in a block (a cache line boundary).
constexpr std::size_t kHeader = (sizeof(Header) + 63) & ~std::size_t{63};

// header_of is the Header of a kmp_task_t from __kmpc_omp_task_alloc.
Header* header_of(task* k) noexcept {
  return reinterpret_cast<Header*>(reinterpret_cast<char*>(k) - kHeader);
}

// run_kmp_task is every layer task's body: the compiler's routine, then its destructors thunk.
void run_kmp_task(void* p) {
  auto* k = static_cast<task*>(p);
  const kmp_int32 gtid = self().kmp_gtid;
  if (k->routine != nullptr) k->routine(gtid, k);  // null: an empty task (taskwait nowait)
  if ((header_of(k)->flags & kTaskDestructors) != 0) k->data1.destructors(gtid, k);
}

// allocate makes a task block (arena, else heap) for a child of ts's current task.
task* allocate(ThreadState& ts, kmp_int32 flags, std::size_t task_bytes, std::size_t shareds_bytes,
               routine_entry entry) {
  const std::size_t shareds_offset = (task_bytes + 7) & ~std::size_t{7};
  const std::size_t bytes = kHeader + shareds_offset + shareds_bytes;
  void* mem = arena_alloc(ts, bytes);
  const bool heap = mem == nullptr;
  if (heap) mem = ::operator new(bytes);  // arena exhausted: this task only
  const bool final_task = (flags & kTaskFinal) != 0 || ts.task->final_task;
  task_new(ts, mem, heap, final_task, 0, run_kmp_task);
  auto* h = static_cast<Header*>(mem);
  h->flags = flags;
  h->task_bytes = task_bytes;
  h->shareds_offset = shareds_offset;
  h->shareds_bytes = shareds_bytes;
  auto* k = reinterpret_cast<task*>(static_cast<char*>(mem) + kHeader);
  std::memset(static_cast<void*>(k), 0, sizeof(task));
  k->shareds = shareds_bytes != 0 ? reinterpret_cast<char*>(k) + shareds_offset : nullptr;
  k->routine = entry;
  h->rec.arg = k;
  return k;
}

// launch queues (or runs) an allocated task: at once inside a final task (its children are
// included tasks) or when an untied task re-enqueues itself (file comment).
void launch(ThreadState& ts, task* k) {
  Header* h = header_of(k);
  Task* t = &h->rec;
  if (ts.task == t) {  // an untied task's next part: run it now, as part of this execution
    k->routine(ts.kmp_gtid, k);
    return;
  }
  if ((h->flags & kTaskPriority) != 0) {
    t->priority = std::clamp(k->data2.priority, 0, globals().max_task_priority);
  }
  task_launch(ts, t, ts.task->final_task);
}

// dep_all tells whether dependence d is omp_all_memory (the flag, or LLVM's older address -1).
bool dep_all(const depend_info& d) noexcept {
  return (d.flags & kDependAll) != 0 || d.base_addr == -1;
}

// dep_out tells whether dependence d orders after earlier readers too: out, inout,
// mutexinoutset and inoutset (both taken as inout, as task_deps.cpp does) and omp_all_memory.
bool dep_out(const depend_info& d) noexcept {
  return (d.flags & (kDependOut | kDependMtx | kDependSet)) != 0 || dep_all(d);
}

// dep_addr is dependence d's address for task_deps.cpp (null: omp_all_memory).
void* dep_addr(const depend_info& d) noexcept {
  return dep_all(d) ? nullptr : reinterpret_cast<void*>(d.base_addr);
}

// set_deps gives task t the dependences of two lists (clang's and the noalias one).
void set_deps(ThreadState& ts, Task* t, kmp_int32 n1, const depend_info* l1, kmp_int32 n2,
              const depend_info* l2) {
  const std::size_t n = static_cast<std::size_t>(std::max(n1, 0) + std::max(n2, 0));
  if (n == 0) return;
  void* mem = arena_alloc(ts, n * sizeof(DepRec));
  t->deps_mem = Task::kDepsArena;
  if (mem == nullptr) {
    mem = ::operator new(n * sizeof(DepRec));
    t->deps_mem = Task::kDepsHeap;
  }
  auto* recs = static_cast<DepRec*>(mem);
  std::size_t i = 0;
  for (kmp_int32 j = 0; j < n1; ++j, ++i) {
    recs[i] = DepRec{dep_addr(l1[j]), dep_out(l1[j])};
  }
  for (kmp_int32 j = 0; j < n2; ++j, ++i) {
    recs[i] = DepRec{dep_addr(l2[j]), dep_out(l2[j])};
  }
  t->deps = recs;
  t->ndeps = static_cast<int>(n);
}

}  // namespace

// __kmpc_omp_task_alloc allocates a task of `sizeof_kmp_task_t` bytes (kmp_task_t and private
// copies) and `sizeof_shareds` bytes of shared-variable addresses; the caller fills them in.
RTPAR_OMP_EXPORT task* __kmpc_omp_task_alloc(ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 flags,
                                             std::size_t sizeof_kmp_task_t,
                                             std::size_t sizeof_shareds, routine_entry entry) {
  return allocate(self(), flags, sizeof_kmp_task_t, sizeof_shareds, entry);
}

// __kmpc_omp_target_task_alloc is the task of a `target nowait` run on the host (LLVM gives it
// to its hidden helper threads): an ordinary task here; the device is the host.
RTPAR_OMP_EXPORT task* __kmpc_omp_target_task_alloc(ident* /*loc*/, kmp_int32 /*gtid*/,
                                                    kmp_int32 flags, std::size_t sizeof_kmp_task_t,
                                                    std::size_t sizeof_shareds, routine_entry entry,
                                                    kmp_int64 /*device_id*/) {
  return allocate(self(), flags, sizeof_kmp_task_t, sizeof_shareds, entry);
}

// __kmpc_omp_task queues a task from __kmpc_omp_task_alloc (returns 0, LLVM's "not queued
// elsewhere" value, which clang ignores).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_omp_task(ident* /*loc*/, kmp_int32 /*gtid*/, task* new_task) {
  launch(self(), new_task);
  return 0;
}

// __kmpc_omp_task_with_deps queues a task after the tasks its dependences name.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_omp_task_with_deps(ident* /*loc*/, kmp_int32 /*gtid*/,
                                                     task* new_task, kmp_int32 ndeps,
                                                     depend_info* dep_list, kmp_int32 ndeps_noalias,
                                                     depend_info* noalias_dep_list) {
  ThreadState& ts = self();
  set_deps(ts, &header_of(new_task)->rec, ndeps, dep_list, ndeps_noalias, noalias_dep_list);
  launch(ts, new_task);
  return 0;
}

// __kmpc_omp_wait_deps waits for the predecessors of an undeferred task's dependences (clang
// calls it before __kmpc_omp_task_begin_if0, and for `taskwait depend`).
RTPAR_OMP_EXPORT void __kmpc_omp_wait_deps(ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 ndeps,
                                           depend_info* dep_list, kmp_int32 ndeps_noalias,
                                           depend_info* noalias_dep_list) {
  const kmp_int32 n = std::max(ndeps, 0) + std::max(ndeps_noalias, 0);
  if (n == 0) return;
  // GOMP's depend array, [n, nout, out addresses..., in addresses...], on this frame.
  auto** depend = static_cast<void**>(__builtin_alloca((2 + n) * sizeof(void*)));
  depend[0] = reinterpret_cast<void*>(static_cast<std::uintptr_t>(n));
  std::uintptr_t nout = 0;
  for (int pass = 0; pass < 2; ++pass) {  // outs first, then ins
    for (int l = 0; l < 2; ++l) {
      const depend_info* list = l == 0 ? dep_list : noalias_dep_list;
      const kmp_int32 count = l == 0 ? ndeps : ndeps_noalias;
      for (kmp_int32 j = 0; j < count; ++j) {
        if (dep_out(list[j]) != (pass == 0)) continue;
        depend[2 + nout++] = dep_addr(list[j]);
      }
    }
    if (pass == 0) depend[1] = reinterpret_cast<void*>(nout);
  }
  deps_wait(self(), depend);
}

// __kmpc_omp_task_begin_if0 makes an undeferred (`if(0)`) task the caller's current task; clang
// then runs its body and calls __kmpc_omp_task_complete_if0.
RTPAR_OMP_EXPORT void __kmpc_omp_task_begin_if0(ident* /*loc*/, kmp_int32 /*gtid*/, task* k) {
  ThreadState& ts = self();
  Task* t = &header_of(k)->rec;
  task_count(ts, t);
  ts.task = t;
}

// __kmpc_omp_task_complete_if0 completes it (its record stays until its children are done).
RTPAR_OMP_EXPORT void __kmpc_omp_task_complete_if0(ident* /*loc*/, kmp_int32 gtid, task* k) {
  ThreadState& ts = self();
  Header* h = header_of(k);
  if ((h->flags & kTaskDestructors) != 0) k->data1.destructors(gtid, k);
  Task* t = &h->rec;
  ts.task = t->parent;
  // A detachable if(0) task whose event is still pending is completed by omp_fulfill_event,
  // as LLVM's runtime does (its encountering task goes on; a taskwait or barrier waits for it).
  // acq_rel: as task.cpp's execute (either side may be the one that completes the task).
  if (t->detachable && t->detach_pending.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  complete(ts, t);
}

// __kmpc_task_allow_completion_event makes a task from __kmpc_omp_task_alloc detachable
// (`detach(event)`) and returns its event handle: the task completes when its body has run and
// omp_fulfill_event(handle) was called (task.cpp's execute and omp_fulfill_event).
RTPAR_OMP_EXPORT void* __kmpc_task_allow_completion_event(ident* /*loc*/, kmp_int32 /*gtid*/,
                                                          task* k) {
  Task* t = &header_of(k)->rec;
  t->detachable = true;
  // relaxed: published with the task (the deque's release push) or read by this thread.
  t->detach_pending.store(2, std::memory_order_relaxed);
  return t;
}

// __kmpc_omp_taskwait waits for the children of the caller's task.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_omp_taskwait(ident* /*loc*/, kmp_int32 /*gtid*/) {
  taskwait(self());
  return 0;
}

// __kmpc_omp_taskyield is a task scheduling point where nothing is suspended (tied tasks), as
// in libgomp and GOMP_taskyield.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_omp_taskyield(ident* /*loc*/, kmp_int32 /*gtid*/,
                                                int /*end_part*/) {
  return 0;
}

// __kmpc_taskgroup begins a taskgroup region.
RTPAR_OMP_EXPORT void __kmpc_taskgroup(ident* /*loc*/, kmp_int32 /*gtid*/) {
  taskgroup_begin(self());
}

// __kmpc_end_taskgroup ends it: waits for the group's tasks and their descendants, then
// combines the task reductions registered in it.
RTPAR_OMP_EXPORT void __kmpc_end_taskgroup(ident* /*loc*/, kmp_int32 /*gtid*/) {
  ThreadState& ts = self();
  const Taskgroup* g = ts.task->tg_current;
  std::uintptr_t* mine = g != nullptr ? g->reductions : nullptr;
  const std::uintptr_t* inherited =
      g != nullptr && g->prev != nullptr ? g->prev->reductions : nullptr;
  taskgroup_finish(ts);
  // The group's own task reductions (kmpc_task_reduction.cpp): combined now.
  if (mine != inherited) kmp_reductions_end(mine, inherited);
}

namespace {

// taskloop runs a taskloop: `k` is a pattern task whose private copies hold the loop's inclusive
// bounds at *lb and *ub (step st); each chunk is a copy of it (task_dup, when given,
// copy-constructs the private copies and sets the last chunk's lastprivate flag). sched 0: the
// default number of tasks; 1: `grainsize` iterations per task; 2: `grainsize` tasks
// (num_tasks). Inside a taskgroup unless `nogroup`. `strict` (OpenMP 5.1's modifier) makes a
// grainsize exact: every chunk has `grainsize` iterations but the last, which has the rest
// (num_tasks is always exact here, once capped at the trip count).
void taskloop(task* k, int if_val, kmp_uint64* lb, kmp_uint64* ub, kmp_int64 st, int nogroup,
              int sched, kmp_uint64 grainsize, bool strict, void* task_dup) {
  ThreadState& ts = self();
  Header* h = header_of(k);
  const auto lb0 = *lb, ub0 = *ub;
  const auto ust = static_cast<kmp_uint64>(st);
  kmp_uint64 trip = 0;
  if (st > 0 && static_cast<kmp_int64>(ub0 - lb0) >= 0) trip = (ub0 - lb0) / ust + 1;
  if (st < 0 && static_cast<kmp_int64>(lb0 - ub0) >= 0) trip = (lb0 - ub0) / (0 - ust) + 1;
  kmp_uint64 ntasks = 1;
  strict = strict && sched == 1 && grainsize != 0;
  if (strict) {
    ntasks = trip / grainsize + (trip % grainsize != 0 ? 1 : 0);
  } else if (sched == 1) {
    ntasks = grainsize == 0 ? trip : std::max<kmp_uint64>(trip / grainsize, 1);
  } else if (sched == 2) {
    ntasks = grainsize;
  } else {
    ntasks = static_cast<kmp_uint64>(ts.team->nthreads) * 10;
  }
  ntasks = std::clamp<kmp_uint64>(ntasks, 1, std::max<kmp_uint64>(trip, 1));
  const auto lb_off = reinterpret_cast<char*>(lb) - reinterpret_cast<char*>(k);
  const auto ub_off = reinterpret_cast<char*>(ub) - reinterpret_cast<char*>(k);
  using Dup = void (*)(task*, task*, kmp_int32);
  if (nogroup == 0) taskgroup_begin(ts);
  kmp_uint64 first = 0;
  for (kmp_uint64 i = 0; i < ntasks && trip != 0; ++i) {
    const kmp_uint64 count =
        strict ? std::min(grainsize, trip - first) : trip / ntasks + (i < trip % ntasks ? 1 : 0);
    task* c = allocate(ts, h->flags, h->task_bytes, h->shareds_bytes, k->routine);
    Header* ch = header_of(c);
    void* shareds = c->shareds;
    std::memcpy(static_cast<void*>(c), k, h->task_bytes);
    c->shareds = shareds;
    if (h->shareds_bytes != 0) std::memcpy(shareds, k->shareds, h->shareds_bytes);
    const bool last = i + 1 == ntasks;
    if (task_dup != nullptr) reinterpret_cast<Dup>(task_dup)(c, k, last ? 1 : 0);
    auto* clb = reinterpret_cast<kmp_uint64*>(reinterpret_cast<char*>(c) + lb_off);
    auto* cub = reinterpret_cast<kmp_uint64*>(reinterpret_cast<char*>(c) + ub_off);
    *clb = lb0 + first * ust;
    *cub = lb0 + (first + count - 1) * ust;
    first += count;
    ch->rec.arg = c;
    if (if_val == 0) {
      task_launch(ts, &ch->rec, /*run_now=*/true);
    } else {
      launch(ts, c);
    }
  }
  if (nogroup == 0) taskgroup_finish(ts);
  // The pattern was never counted nor queued: destroy its private copies and its record.
  if ((h->flags & kTaskDestructors) != 0) k->data1.destructors(ts.kmp_gtid, k);
  const bool heap = h->rec.heap;
  h->rec.~Task();
  if (heap) {
    ::operator delete(static_cast<void*>(h));
  } else {
    arena_free(ts, h);
  }
}

}  // namespace

// __kmpc_taskloop runs a taskloop (taskloop above; sched 0 default, 1 grainsize, 2 num_tasks).
RTPAR_OMP_EXPORT void __kmpc_taskloop(ident* /*loc*/, int /*gtid*/, task* k, int if_val,
                                      kmp_uint64* lb, kmp_uint64* ub, kmp_int64 st, int nogroup,
                                      int sched, kmp_uint64 grainsize, void* task_dup) {
  taskloop(k, if_val, lb, ub, st, nogroup, sched, grainsize, /*strict=*/false, task_dup);
}

// __kmpc_taskloop_5 is OpenMP 5.1's __kmpc_taskloop with the grainsize / num_tasks `strict`
// modifier (modifier 1).
RTPAR_OMP_EXPORT void __kmpc_taskloop_5(ident* /*loc*/, int /*gtid*/, task* k, int if_val,
                                        kmp_uint64* lb, kmp_uint64* ub, kmp_int64 st, int nogroup,
                                        int sched, kmp_uint64 grainsize, int modifier,
                                        void* task_dup) {
  taskloop(k, if_val, lb, ub, st, nogroup, sched, grainsize, modifier != 0, task_dup);
}

}  // namespace rtpar::omp::kmpc
