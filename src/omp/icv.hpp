// icv.hpp — the OpenMP internal control variables (ICVs) and the process-wide settings read from
// the environment (OpenMP 5.0 §2.5, §6). Implemented by icv.cpp and env.cpp; parallel.cpp and
// task.cpp embed Icvs in every Task.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rtpar/wait_policy.hpp"

namespace rtpar::omp {

// kMonotonic is the monotonic modifier bit of a schedule kind (omp_sched_monotonic, GCC's
// 0x80000000).
inline constexpr unsigned kMonotonic = 0x80000000u;

// SchedKind is an omp_sched_t kind (values as in omp.h).
enum SchedKind : int { kSchedStatic = 1, kSchedDynamic = 2, kSchedGuided = 3, kSchedAuto = 4 };

// kSupportedActiveLevels is omp_get_supported_active_levels() (libgomp's value: UCHAR_MAX).
inline constexpr int kSupportedActiveLevels = 255;

// Icvs is the data-environment ICVs of one task (OpenMP 5.0 §2.5.1): copied into each implicit
// task of a new region (child_icvs) and into each explicit task.
struct Icvs {
  int nthreads = 1;        // nthreads-var: team size for the next region (0 never stored)
  int nthreads_level = 0;  // index of `nthreads` in Globals::nthreads_list (nested lists)
  int bind = 0;        // bind-var (omp_proc_bind_t): 0 false, 1 true, 2 master, 3 close, 4 spread
  int bind_level = 0;  // index of `bind` in Globals::bind_list
  bool dyn = false;    // dyn-var
  int max_active_levels = 1;           // max-active-levels-var
  int thread_limit = INT_MAX;          // thread-limit-var
  unsigned run_sched = kSchedDynamic;  // run-sched-var kind, with kMonotonic possibly set
  long run_chunk = 1;                  // run-sched-var chunk (≤ 0: the kind's default)
  int default_device = 0;              // default-device-var
  int place_first = 0;                 // place-partition-var: first place (placement.cpp)
  int place_count = 0;                 // place-partition-var: number of places (0: all of them)
  // def_allocator is def-allocator-var (omp_set_default_allocator; a data-environment ICV that
  // a region's implicit tasks and explicit tasks inherit); 0: OMP_ALLOCATOR's (Globals).
  std::uintptr_t def_allocator = 0;
  // Not ICVs of the specification, carried here because they must follow a task into the
  // regions it creates exactly as ICVs do (teams.cpp: host teams run one team at a time).
  int team_num = 0;   // omp_get_team_num() of the enclosing host `teams` team
  int num_teams = 1;  // omp_get_num_teams() of that construct

  // operator== compares every field (check_update.hpp: the implicit tasks keep unchanged ICVs).
  bool operator==(const Icvs&) const = default;
};

// Globals is what the environment sets for the whole process, read once (first use).
struct Globals {
  Icvs initial;                          // ICVs of the initial task
  std::vector<int> nthreads_list;        // OMP_NUM_THREADS as a list (level i uses element i)
  std::vector<int> bind_list;            // OMP_PROC_BIND as a list
  bool bind_set = false;                 // OMP_PROC_BIND was given
  bool cancellation = false;             // OMP_CANCELLATION
  int max_task_priority = 0;             // OMP_MAX_TASK_PRIORITY
  std::size_t stack_bytes = 0;           // OMP_STACKSIZE (0: system default)
  WaitKind wait = WaitKind::hybrid;      // OMP_WAIT_POLICY / RTPAR_OMP_WAIT
  std::int64_t spin_ns = 50'000;         // hybrid spin budget (RTPAR_OMP_SPIN_NS)
  std::vector<std::vector<int>> places;  // OMP_PLACES, or one place per CPU of the affinity mask
  std::vector<int> cpus;  // CPUs for team members, in order (first CPU of each place)
  int num_procs = 1;      // CPUs in the process's affinity mask at start
  std::size_t task_arena_bytes = 64u << 20;  // RTPAR_OMP_TASK_ARENA: explicit-task memory
  int display_env = 0;                       // OMP_DISPLAY_ENV: 0 false, 1 true, 2 verbose
  // The rest is reported by OMP_DISPLAY_ENV / omp_display_env and used by the 5.x routines.
  bool nested = false;            // OMP_NESTED (or implied by the lists)
  int wait_policy = -1;           // OMP_WAIT_POLICY: -1 unset, 0 passive, 1 active
  bool places_given = false;      // OMP_PLACES was given (and valid)
  int nteams = 0;                 // OMP_NUM_TEAMS (nteams-var; 0: implementation's choice)
  int teams_thread_limit = 0;     // OMP_TEAMS_THREAD_LIMIT (teams-thread-limit-var)
  bool display_affinity = false;  // OMP_DISPLAY_AFFINITY
  std::string affinity_format = "level %L thread %i affinity %A";  // OMP_AFFINITY_FORMAT
  int default_allocator = 1;  // OMP_ALLOCATOR (predefined allocator, omp_alloc.cpp)
  int target_offload = 0;     // OMP_TARGET_OFFLOAD: 0 default, 1 mandatory, 2 disabled
};

// globals returns the process settings, parsing the environment on the first call (thread-safe).
const Globals& globals() noexcept;

// display_environment prints the OMP_DISPLAY_ENV report (libgomp's format) to stderr; `verbose`
// adds the implementation's own variables (display_env.cpp).
void display_environment(bool verbose) noexcept;

// display_environment (of g) is the same report of settings g, for start_runtime, which runs
// before globals() can return them.
void display_environment(const Globals& g, bool verbose) noexcept;

// start_runtime reads the environment and applies what takes effect at start-up: the initial
// thread's binding (OMP_PLACES / OMP_PROC_BIND) and the OMP_DISPLAY_ENV report. globals()'s
// initialiser: runs once, at load time or, in a program built for LLVM's runtime, at the first
// OpenMP call (display_env.cpp).
Globals start_runtime();

// child_icvs returns the ICVs of the implicit tasks of a region encountered by a task with
// `parent` ICVs: the nthreads and bind lists advance one level (OpenMP 5.0 §2.6.1, §2.5.2).
Icvs child_icvs(const Icvs& parent) noexcept;

}  // namespace rtpar::omp
