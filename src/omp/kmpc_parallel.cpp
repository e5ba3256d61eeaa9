// kmpc_parallel.cpp — parallel regions in LLVM's OpenMP ABI (clang -fopenmp): __kmpc_fork_call
// and its companions, translated onto parallel.cpp's regions (one team cache, one fork/join).
//
// LLVM's openmp runtime (kmp_csupport.cpp, __kmpc_fork_call) passes the outlined region its
// captured variables as `argc` variadic pointers after two thread-number pointers; it invokes the
// microtask with an assembly trampoline for any argc. Here a table of invokers built at compile
// time covers up to kMaxArgs captured variables (a region with more is refused with a message).
// The num_threads and proc_bind clauses arrive by separate calls before the fork
// (__kmpc_push_num_threads/__kmpc_push_proc_bind) and are kept in the encountering thread's state
// until its next region, which consumes them. A region's arguments live on the master's stack:
// the fork allocates nothing and takes no lock (parallel.cpp after the first region of a size).
//
// Memory ordering: none here; the fork and join of parallel.cpp publish the argument block.
#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <utility>

#include "omp/check_update.hpp"
#include "omp/kmpc.hpp"

namespace rtpar::omp::kmpc {

namespace {

// kMaxArgs is the largest number of captured variables a region may pass.
constexpr int kMaxArgs = 64;

// Invoker calls a microtask with `argc` arguments from an array.
using Invoker = void (*)(microtask fn, kmp_int32* gtid, kmp_int32* btid, void* const* args);

// invoke_n calls fn with the N arguments of args.
template <std::size_t... I>
void invoke_n(microtask fn, kmp_int32* gtid, kmp_int32* btid, void* const* args,
              std::index_sequence<I...> /*unused*/) {
  fn(gtid, btid, args[I]...);
}

// invoker_of is the Invoker of N arguments.
template <std::size_t N>
void invoker_of(microtask fn, kmp_int32* gtid, kmp_int32* btid, void* const* args) {
  invoke_n(fn, gtid, btid, args, std::make_index_sequence<N>{});
}

// make_invokers builds the table of invokers for 0..kMaxArgs arguments.
template <std::size_t... N>
constexpr std::array<Invoker, sizeof...(N)> make_invokers(std::index_sequence<N...> /*unused*/) {
  return {&invoker_of<N>...};
}

// kInvokers[argc] calls a microtask with argc arguments.
constexpr auto kInvokers = make_invokers(std::make_index_sequence<kMaxArgs + 1>{});

// Fork is one region's microtask and arguments, in the master's record for its nesting level
// (ThreadState::kmp_forks): the arguments inline after the microtask, so a worker entering a
// region of up to six captured variables reads one cache line; and stored with check_update, so
// a loop of the same region (the usual case) writes nothing and that line stays in the workers'
// caches — a cross-core transfer saved per region, on the path the master waits for at the
// region's end. One record per level: a member of an outer region forking a nested one uses the
// next level's record while the outer region's workers may still read the outer one.
struct Fork {
  microtask fn = nullptr;
  int argc = 0;
  void* args[kMaxArgs] = {};
};

// fork_record is ts's Fork for a region forked at its current nesting level.
Fork& fork_record(ThreadState& ts) {
  const auto level = static_cast<std::size_t>(ts.team->level);
  if (ts.kmp_forks.size() <= level) ts.kmp_forks.resize(level + 1);
  std::shared_ptr<void>& slot = ts.kmp_forks[level];
  if (!slot) slot = std::make_shared<Fork>();
  return *static_cast<Fork*>(slot.get());
}

// run_member is what every member of the team runs: the microtask with its thread numbers.
void run_member(void* p) {
  const Fork& f = *static_cast<const Fork*>(p);
  ThreadState& ts = self();
  kmp_int32 gtid = ts.kmp_gtid;
  kmp_int32 btid = ts.tid;
  kInvokers[static_cast<std::size_t>(f.argc)](f.fn, &gtid, &btid, f.args);
}

// no_body is the worker body of a serialized region (it has no workers).
void no_body(void* /*unused*/) {}

// bind_flags turns LLVM's kmp_proc_bind_t (false 0, true 1, primary 2, close 3, spread 4, intel 5,
// default 6) into GOMP_parallel's flags: the same values 0-4 in the low 3 bits, else none.
unsigned bind_flags(unsigned bind) noexcept { return bind <= 4 ? bind : 0; }

}  // namespace

// __kmpc_fork_call runs `fn` on a team (the num_threads/proc_bind pushed before, if any), the
// caller as member 0; returns after the region's implicit barrier.
RTPAR_OMP_EXPORT void __kmpc_fork_call(ident* /*loc*/, kmp_int32 argc, microtask fn, ...) {
  if (argc < 0 || argc > kMaxArgs) {
    std::fprintf(stderr, "rtpar-omp: a parallel region captures %d variables (at most %d)\n",
                 static_cast<int>(argc), kMaxArgs);
    std::abort();
  }
  ThreadState& ts = self();
  Fork& f = fork_record(ts);
  check_update(f.fn, fn);
  check_update(f.argc, static_cast<int>(argc));
  va_list ap;
  va_start(ap, fn);
  for (int i = 0; i < argc; ++i) check_update(f.args[i], va_arg(ap, void*));
  va_end(ap);
  const unsigned requested = std::exchange(ts.kmp_num_threads, 0);
  const unsigned bind = std::exchange(ts.kmp_proc_bind, 0);
  parallel_run(run_member, &f, resolve_nthreads(ts, requested), bind_flags(bind));
}

// GOMP_teams_reg is teams.cpp's host `teams` (the teams one after another on the caller).
extern "C" void GOMP_teams_reg(void (*fn)(void*), void* data, unsigned num_teams,
                               unsigned thread_limit, unsigned flags);

// __kmpc_fork_teams runs `fn` as the initial task of each team of a host `teams` construct (the
// num_teams / thread_limit pushed before, if any), on teams.cpp's GOMP_teams_reg.
RTPAR_OMP_EXPORT void __kmpc_fork_teams(ident* /*loc*/, kmp_int32 argc, microtask fn, ...) {
  if (argc < 0 || argc > kMaxArgs) {
    std::fprintf(stderr, "rtpar-omp: a teams region captures %d variables (at most %d)\n",
                 static_cast<int>(argc), kMaxArgs);
    std::abort();
  }
  Fork f;
  f.fn = fn;
  f.argc = argc;
  va_list ap;
  va_start(ap, fn);
  for (int i = 0; i < argc; ++i) f.args[i] = va_arg(ap, void*);
  va_end(ap);
  ThreadState& ts = self();
  const unsigned teams = std::exchange(ts.kmp_num_teams, 0);
  const unsigned limit = std::exchange(ts.kmp_teams_thread_limit, 0);
  GOMP_teams_reg(run_member, &f, teams, limit, 0);
}

// __kmpc_push_num_teams sets the num_teams and thread_limit clauses of the caller's next `teams`
// (0: none).
RTPAR_OMP_EXPORT void __kmpc_push_num_teams(ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 num_teams,
                                            kmp_int32 num_threads) {
  ThreadState& ts = self();
  ts.kmp_num_teams = num_teams > 0 ? static_cast<unsigned>(num_teams) : 0;
  ts.kmp_teams_thread_limit = num_threads > 0 ? static_cast<unsigned>(num_threads) : 0;
}

// __kmpc_push_num_teams_51 is OpenMP 5.1's num_teams(lower : upper): rtpar runs the upper bound
// (the lower one when no upper is given).
RTPAR_OMP_EXPORT void __kmpc_push_num_teams_51(ident* loc, kmp_int32 gtid, kmp_int32 num_teams_lb,
                                               kmp_int32 num_teams_ub, kmp_int32 num_threads) {
  __kmpc_push_num_teams(loc, gtid, num_teams_ub > 0 ? num_teams_ub : num_teams_lb, num_threads);
}

// __kmpc_push_num_threads sets the num_threads clause of the caller's next region.
RTPAR_OMP_EXPORT void __kmpc_push_num_threads(ident* /*loc*/, kmp_int32 /*gtid*/,
                                              kmp_int32 num_threads) {
  self().kmp_num_threads = num_threads > 0 ? static_cast<unsigned>(num_threads) : 0;
}

// __kmpc_push_proc_bind sets the proc_bind clause of the caller's next region.
RTPAR_OMP_EXPORT void __kmpc_push_proc_bind(ident* /*loc*/, kmp_int32 /*gtid*/, int proc_bind) {
  self().kmp_proc_bind = proc_bind > 0 ? static_cast<unsigned>(proc_bind) : 0;
}

// __kmpc_serialized_parallel begins a region of one (`if(false)`): clang then calls the outlined
// region itself and __kmpc_end_serialized_parallel.
RTPAR_OMP_EXPORT void __kmpc_serialized_parallel(ident* /*loc*/, kmp_int32 /*gtid*/) {
  ThreadState& ts = self();
  ts.kmp_num_threads = 0;
  const unsigned bind = std::exchange(ts.kmp_proc_bind, 0);
  parallel_begin(no_body, nullptr, 1, bind_flags(bind));
}

// __kmpc_end_serialized_parallel ends the region __kmpc_serialized_parallel began.
RTPAR_OMP_EXPORT void __kmpc_end_serialized_parallel(ident* /*loc*/, kmp_int32 /*gtid*/) {
  parallel_end();
}

// __kmpc_global_thread_num is the caller's process-wide thread number (ThreadState::kmp_gtid).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_global_thread_num(ident* /*loc*/) { return self().kmp_gtid; }

// __kmpc_global_num_threads is the size of the caller's team (LLVM: of the contention group).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_global_num_threads(ident* /*loc*/) {
  return self().team->nthreads;
}

// __kmpc_bound_thread_num is the caller's number in its team.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_bound_thread_num(ident* /*loc*/) { return self().tid; }

// __kmpc_bound_num_threads is the size of the caller's team.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_bound_num_threads(ident* /*loc*/) {
  return self().team->nthreads;
}

// __kmpc_in_parallel says whether the caller is in an active parallel region.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_in_parallel(ident* /*loc*/) {
  return self().team->active_level > 0 ? 1 : 0;
}

// __kmpc_ok_to_fork says whether a region may fork (always: the team size decides).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_ok_to_fork(ident* /*loc*/) { return 1; }

// __kmpc_begin is called at program start when clang is asked to (-fopenmp with
// `omp_begin`-style instrumentation); the runtime starts on the first call instead.
RTPAR_OMP_EXPORT void __kmpc_begin(ident* /*loc*/, kmp_int32 /*flags*/) {}

// __kmpc_end is its counterpart at program end; the teams live until the process exits.
RTPAR_OMP_EXPORT void __kmpc_end(ident* /*loc*/) {}

}  // namespace rtpar::omp::kmpc
