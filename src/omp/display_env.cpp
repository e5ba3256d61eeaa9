// display_env.cpp — OMP_DISPLAY_ENV and omp_display_env (OpenMP 5.1 §3.15, §6.12): the initial
// ICVs printed to stderr in libgomp's format, so tools that read libgomp's report read ours.
// The runtime starts (environment parsed, report printed) at load time, or at the first OpenMP
// call in a program built for LLVM's runtime (start_at_load).
#include <link.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <string>

#include "omp/env.hpp"
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// bool_text is a boolean as libgomp prints it.
const char* bool_text(bool b) { return b ? "TRUE" : "FALSE"; }

// bind_text is one bind-var value as libgomp prints it.
const char* bind_text(int bind) {
  switch (bind) {
    case 0:
      return "FALSE";
    case 1:
      return "TRUE";
    case 2:
      return "MASTER";
    case 3:
      return "CLOSE";
    case 4:
      return "SPREAD";
    default:
      return "?";
  }
}

// schedule_text is run-sched-var as libgomp prints it: "[MONOTONIC:|NONMONOTONIC:]KIND[,CHUNK]",
// the modifier and the chunk left out when they are the kind's default.
std::string schedule_text(unsigned sched, long chunk) {
  const unsigned kind = sched & ~kMonotonic;
  const bool monotonic = (sched & kMonotonic) != 0;
  std::string s;
  if (kind == kSchedStatic) {
    s = monotonic ? "" : "NONMONOTONIC:";  // static is monotonic unless asked otherwise
  } else if (monotonic) {
    s = "MONOTONIC:";
  }
  static const char* const names[] = {"?", "STATIC", "DYNAMIC", "GUIDED", "AUTO"};
  s += names[kind <= 4 ? kind : 0];
  const bool shown = kind == kSchedStatic ? chunk > 0 : (kind != kSchedAuto && chunk != 1);
  if (shown) s += "," + std::to_string(chunk);
  return s;
}

// list_text joins a list of ints, or returns `fallback` when the list is empty.
std::string list_text(const std::vector<int>& list, int fallback) {
  if (list.empty()) return std::to_string(fallback);
  std::string s;
  for (std::size_t i = 0; i < list.size(); ++i) s += (i ? "," : "") + std::to_string(list[i]);
  return s;
}

// allocator_text is a predefined allocator's name.
const char* allocator_text(int a) {
  static const char* const names[] = {"omp_default_mem_alloc", "omp_large_cap_mem_alloc",
                                      "omp_const_mem_alloc",   "omp_high_bw_mem_alloc",
                                      "omp_low_lat_mem_alloc", "omp_cgroup_mem_alloc",
                                      "omp_pteam_mem_alloc",   "omp_thread_mem_alloc"};
  return a >= 1 && a <= 8 ? names[a - 1] : "omp_default_mem_alloc";
}

// llvm_program is whether the process loaded a libomp.so.5 (rtpar's, normally: the program was
// built with clang -fopenmp and links LLVM's ABI). dl_iterate_phdr sees every object mapped at
// start-up, constructors or not (ld.so maps and relocates them all before it runs any).
bool llvm_program() {
  const auto visit = [](dl_phdr_info* info, std::size_t /*size*/, void* /*data*/) -> int {
    const char* name = info->dlpi_name != nullptr ? info->dlpi_name : "";
    const char* slash = std::strrchr(name, '/');
    const char* base = slash != nullptr ? slash + 1 : name;
    return std::strcmp(base, "libomp.so.5") == 0 || std::strcmp(base, "libomp.so") == 0 ? 1 : 0;
  };
  return dl_iterate_phdr(visit, nullptr) != 0;
}

// start_at_load is the library constructor. libgomp starts when it is loaded: it reads the
// environment, binds the initial thread and prints OMP_DISPLAY_ENV's report before main. LLVM's
// runtime starts at the first OpenMP call (kmp_runtime.cpp, __kmp_serial_initialize), so that a
// clang-built program may still setenv("OMP_SCHEDULE", ...) in main before its first region, and
// does (LLVM's own tests do): rtpar follows the personality the program was built for.
__attribute__((constructor)) void start_at_load() {
  if (llvm_program()) return;
  static_cast<void>(globals());
}

}  // namespace

Globals start_runtime() {
  Globals g = env::read_environment();
  // At load time this is the initial thread. At a first call (LLVM's personality) it is the
  // thread that made it: only the process's main thread is the initial thread to bind.
  static const bool at_load = !llvm_program();
  if (at_load || static_cast<pid_t>(syscall(SYS_gettid)) == getpid()) env::bind_initial_thread(g);
  if (g.display_env != 0) display_environment(g, g.display_env == 2);
  return g;
}

void display_environment(bool verbose) noexcept { display_environment(globals(), verbose); }

void display_environment(const Globals& g, bool verbose) noexcept {
  const Icvs& icv = g.initial;
  std::string bind;
  if (g.bind_list.size() > 1) {
    for (std::size_t i = 0; i < g.bind_list.size(); ++i) {
      bind += (i ? "," : "") + std::string(bind_text(g.bind_list[i]));
    }
  } else {
    bind = bind_text(icv.bind);
  }
  std::string places;
  if (env::binding_requested(g)) {
    for (std::size_t i = 0; i < g.places.size(); ++i) {
      places += (i ? "," : "") + env::format_place(g.places[i]);
    }
  }
  const unsigned long thread_limit =
      icv.thread_limit == INT_MAX ? 4294967295UL : static_cast<unsigned long>(icv.thread_limit);
  std::FILE* f = stderr;
  std::fprintf(f, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
  std::fprintf(f, "  _OPENMP = '201511'\n");
  std::fprintf(f, "  OMP_DYNAMIC = '%s'\n", bool_text(icv.dyn));
  std::fprintf(f, "  OMP_NESTED = '%s'\n", bool_text(icv.max_active_levels > 1));
  std::fprintf(f, "  OMP_NUM_THREADS = '%s'\n", list_text(g.nthreads_list, icv.nthreads).c_str());
  std::fprintf(f, "  OMP_SCHEDULE = '%s'\n", schedule_text(icv.run_sched, icv.run_chunk).c_str());
  std::fprintf(f, "  OMP_PROC_BIND = '%s'\n", bind.c_str());
  std::fprintf(f, "  OMP_PLACES = '%s'\n", places.c_str());
  std::fprintf(f, "  OMP_STACKSIZE = '%zu'\n", g.stack_bytes);
  std::fprintf(f, "  OMP_WAIT_POLICY = '%s'\n", g.wait == WaitKind::spin ? "ACTIVE" : "PASSIVE");
  std::fprintf(f, "  OMP_THREAD_LIMIT = '%lu'\n", thread_limit);
  std::fprintf(f, "  OMP_MAX_ACTIVE_LEVELS = '%d'\n", icv.max_active_levels);
  std::fprintf(f, "  OMP_NUM_TEAMS = '%d'\n", g.nteams);
  std::fprintf(f, "  OMP_TEAMS_THREAD_LIMIT = '%d'\n", g.teams_thread_limit);
  std::fprintf(f, "  OMP_CANCELLATION = '%s'\n", bool_text(g.cancellation));
  std::fprintf(f, "  OMP_DEFAULT_DEVICE = '%d'\n", icv.default_device);
  std::fprintf(f, "  OMP_MAX_TASK_PRIORITY = '%d'\n", g.max_task_priority);
  std::fprintf(f, "  OMP_DISPLAY_AFFINITY = '%s'\n", bool_text(g.display_affinity));
  std::fprintf(f, "  OMP_AFFINITY_FORMAT = '%s'\n", g.affinity_format.c_str());
  std::fprintf(f, "  OMP_ALLOCATOR = '%s'\n", allocator_text(g.default_allocator));
  static const char* const offload[] = {"DEFAULT", "MANDATORY", "DISABLED"};
  std::fprintf(f, "  OMP_TARGET_OFFLOAD = '%s'\n", offload[g.target_offload]);
  if (verbose) {
    std::fprintf(f, "  RTPAR_OMP_WAIT = '%s'\n", to_string(g.wait));
    std::fprintf(f, "  RTPAR_OMP_SPIN_NS = '%lld'\n", static_cast<long long>(g.spin_ns));
    std::fprintf(f, "  RTPAR_OMP_TASK_ARENA = '%zu'\n", g.task_arena_bytes);
  }
  std::fprintf(f, "OPENMP DISPLAY ENVIRONMENT END\n");
}

// omp_display_env prints the report on request (OpenMP 5.1 §3.15).
RTPAR_OMP_EXPORT void omp_display_env(int verbose) { display_environment(verbose != 0); }

}  // namespace rtpar::omp
