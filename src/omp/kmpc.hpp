// kmpc.hpp — the types of LLVM's OpenMP runtime ABI (the `__kmpc_*` entry points clang emits;
// LLVM's openmp/runtime/src/kmp.h defines them) that rtpar's ABI layer reads. The layer is one
// file per family, each a thin translation onto the runtime GCC programs use (runtime.hpp):
//   kmpc_parallel.cpp  fork_call, serialized parallel, push_num_threads/proc_bind, thread numbers,
//                      fork_teams, push_num_teams
//   kmpc_loop.cpp      for_static_init_* (distribute too), dist_for_static_init_*,
//                      dispatch_init/next/fini_* (every schedule, 4 widths)
//   kmpc_sync.cpp      barrier, critical, single, master/masked, ordered, flush, copyprivate
//   kmpc_reduce.cpp    reduce / reduce_nowait / end_reduce* (the critical method)
//   kmpc_task.cpp      task_alloc, task, task_with_deps, wait_deps, detach, taskwait,
//                      taskyield, taskgroup, if0, taskloop, taskloop_5
//   kmpc_task_reduction.cpp  taskred_init, task_reduction_get_th_data, the reduction modifier
//   kmpc_doacross.cpp  doacross_init / wait / post / fini
//   kmpc_cancel.cpp    cancel, cancellationpoint, cancel_barrier
//   kmpc_threadprivate.cpp  threadprivate_cached, threadprivate_register
//   kmpc_atomic.cpp    the __kmpc_atomic_* family (generated over one update mechanism)
//   kmpc_api.cpp       where the omp_* API differs (nest locks, ompc_*), __kmpc_alloc/free,
//                      init/destroy_allocator, error
// The symbols are exported by libgomp.so.1 under the private node RTPAR_KMPC_1.0 (libgomp.map);
// libomp.so.5 is a forwarding library over it (docs/openmp.md, "Programs built with clang"), so
// both ABIs of one process reach one runtime state.
#pragma once

#include <cstddef>
#include <cstdint>

#include "omp/runtime.hpp"

namespace rtpar::omp::kmpc {

// kmp_int32 .. kmp_uint64 are LLVM's fixed-width integer names.
using kmp_int32 = std::int32_t;
using kmp_uint32 = std::uint32_t;
using kmp_int64 = std::int64_t;
using kmp_uint64 = std::uint64_t;

// ident is LLVM's ident_t, the source location clang passes first to every entry point; the
// layer never reads it.
struct ident {
  kmp_int32 reserved_1;
  kmp_int32 flags;
  kmp_int32 reserved_2;
  kmp_int32 reserved_3;
  const char* psource;
};

// critical_name is LLVM's kmp_critical_name: eight zero-initialised 32-bit words per named
// critical region (a common symbol clang emits); the first word is rtpar's mutex word (mutex.hpp).
using critical_name = kmp_int32[8];

// microtask is an outlined parallel region: (global thread number, bound thread number, the
// captured variables' addresses...).
using microtask = void (*)(kmp_int32* gtid, kmp_int32* btid, ...);

// task is LLVM's kmp_task_t (defined below).
struct task;

// routine_entry is an outlined task body: (global thread number, the task).
using routine_entry = kmp_int32 (*)(kmp_int32 gtid, task* t);

// cmplrdata is LLVM's kmp_cmplrdata_t (task priority or destructors thunk).
union cmplrdata {
  kmp_int32 priority;
  routine_entry destructors;
};

// task is LLVM's kmp_task_t: what clang fills in after __kmpc_omp_task_alloc. Its private copies
// follow it; `shareds` points at the block of shared-variable addresses after those.
struct task {
  void* shareds;
  routine_entry routine;
  kmp_int32 part_id;
  cmplrdata data1;
  cmplrdata data2;
};

// kTaskTied .. kTaskDetachable are the task flags (LLVM's kmp_tasking_flags_t, the compiler's
// low bits).
constexpr kmp_int32 kTaskTied = 0x1;
constexpr kmp_int32 kTaskFinal = 0x2;
constexpr kmp_int32 kTaskMergedIf0 = 0x4;
constexpr kmp_int32 kTaskDestructors = 0x8;
constexpr kmp_int32 kTaskPriority = 0x20;
constexpr kmp_int32 kTaskDetachable = 0x40;

// depend_info is LLVM's kmp_depend_info_t: one dependence of __kmpc_omp_task_with_deps.
struct depend_info {
  std::intptr_t base_addr;
  std::size_t len;
  std::uint8_t flags;  // bit 0 in, 1 out, 2 mutexinoutset, 3 inoutset, 7 omp_all_memory
};

// kDependIn .. kDependAll are depend_info's flag bits (LLVM's kmp_depend_info_t).
constexpr std::uint8_t kDependIn = 0x1;
constexpr std::uint8_t kDependOut = 0x2;
constexpr std::uint8_t kDependMtx = 0x4;
constexpr std::uint8_t kDependSet = 0x8;
constexpr std::uint8_t kDependAll = 0x80;

// Sched is a schedule kind of LLVM's ABI (kmp.h's enum sched_type; the modifier bits are masked
// first).
enum Sched : kmp_int32 {
  kSchStaticChunked = 33,
  kSchStatic = 34,
  kSchDynamicChunked = 35,
  kSchGuidedChunked = 36,
  kSchRuntime = 37,
  kSchAuto = 38,
  kSchTrapezoidal = 39,
  kSchStaticGreedy = 40,
  kSchStaticBalanced = 41,
  kSchGuidedIterative = 42,
  kSchGuidedAnalytical = 43,
  kSchStaticSteal = 44,
  kSchStaticBalancedChunked = 45,
  kSchGuidedSimd = 46,
  kSchRuntimeSimd = 47,
  kOrdLower = 64,
  kOrdUpper = 72,
  kDistributeStaticChunked = 91,
  kDistributeStatic = 92,
  kNomergeLower = 160,
  kNomergeUpper = 200,
};

// kmp_reductions_end combines, finalises and frees the task reductions registered in a taskgroup
// that ended (its reductions `mine`, down to the enclosing group's `inherited`;
// kmpc_task_reduction.cpp).
void kmp_reductions_end(std::uintptr_t* mine, const std::uintptr_t* inherited);

// kSchModifierMask clears the monotonic (1 << 29) and nonmonotonic (1 << 30) modifier bits.
constexpr kmp_int32 kSchModifierMask = ~((1 << 29) | (1 << 30));

}  // namespace rtpar::omp::kmpc
