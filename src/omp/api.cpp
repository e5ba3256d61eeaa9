// api.cpp — the omp_* runtime library routines about threads, teams, levels, schedules and
// devices (OpenMP 5.1 §3.2–§3.7, §3.10). Setters change the calling task's ICVs (ts.task->icv),
// which the regions and tasks it creates inherit; queries read the calling thread's state.
// Places and affinity: affinity.cpp; locks: lock.cpp; memory: omp_alloc.cpp; teams: teams.cpp;
// devices' memory: target.cpp; omp_in_final / omp_get_max_task_priority / omp_fulfill_event: the
// tasking module.
#include <time.h>

#include <algorithm>
#include <climits>

#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// icv is the calling task's ICVs, to read.
const Icvs& icv() noexcept { return self().task->icv; }

// icv_w is the calling task's ICVs, to change (writable_icvs says why not icv()).
Icvs& icv_w() noexcept { return writable_icvs(self()); }

// ancestor finds the team of the calling thread's ancestor at nesting `level` and that
// ancestor's number in it; false when level is outside [0, omp_get_level()].
bool ancestor(int level, const TeamState** team, int* tid) noexcept {
  const ThreadState& ts = self();
  const TeamState* t = ts.team;
  int n = ts.tid;
  if (level < 0 || level > t->level) return false;
  while (t->level > level && t->parent != nullptr) {
    n = t->parent_tid;
    t = t->parent;
  }
  *team = t;
  *tid = n;
  return true;
}

}  // namespace

// ---- threads and teams (§3.2) ----

// omp_set_num_threads sets nthreads-var of the calling task (values below 1 count as 1).
RTPAR_OMP_EXPORT void omp_set_num_threads(int n) { icv_w().nthreads = n > 0 ? n : 1; }

// omp_get_num_threads is the size of the innermost team.
RTPAR_OMP_EXPORT int omp_get_num_threads() { return self().team->nthreads; }

// omp_get_max_threads is the team size a region without num_threads would request.
RTPAR_OMP_EXPORT int omp_get_max_threads() { return icv().nthreads; }

// omp_get_thread_num is the caller's number in the innermost team.
RTPAR_OMP_EXPORT int omp_get_thread_num() { return self().tid; }

// omp_get_num_procs is the number of CPUs of the process's affinity mask at start.
RTPAR_OMP_EXPORT int omp_get_num_procs() { return globals().num_procs; }

// omp_in_parallel says whether an active region (team of more than one) encloses the caller.
RTPAR_OMP_EXPORT int omp_in_parallel() { return self().team->active_level > 0 ? 1 : 0; }

// omp_set_dynamic sets dyn-var.
RTPAR_OMP_EXPORT void omp_set_dynamic(int on) { icv_w().dyn = on != 0; }

// omp_get_dynamic reads dyn-var.
RTPAR_OMP_EXPORT int omp_get_dynamic() { return icv().dyn ? 1 : 0; }

// omp_set_nested (deprecated in 5.0) maps onto max-active-levels-var as libgomp does: true allows
// every supported level, false limits an allowance above one to one.
RTPAR_OMP_EXPORT void omp_set_nested(int on) {
  Icvs& v = icv_w();
  if (on != 0) {
    v.max_active_levels = kSupportedActiveLevels;
  } else if (v.max_active_levels > 1) {
    v.max_active_levels = 1;
  }
}

// omp_get_nested says whether a nested region here could still be active.
RTPAR_OMP_EXPORT int omp_get_nested() {
  const ThreadState& ts = self();
  const int max = ts.task->icv.max_active_levels;
  return max > 1 && max > ts.team->active_level ? 1 : 0;
}

// omp_set_schedule sets run-sched-var; the chunk defaults (≤ 0) to 0 for static, 1 for dynamic
// and guided; auto keeps no chunk. An unknown kind is ignored.
RTPAR_OMP_EXPORT void omp_set_schedule(int kind, int chunk) {
  Icvs& v = icv_w();
  switch (static_cast<unsigned>(kind) & ~kMonotonic) {
    case kSchedStatic:
      v.run_chunk = chunk > 0 ? chunk : 0;
      break;
    case kSchedDynamic:
    case kSchedGuided:
      v.run_chunk = chunk > 0 ? chunk : 1;
      break;
    case kSchedAuto:
      break;
    default:
      return;
  }
  v.run_sched = static_cast<unsigned>(kind);
}

// omp_get_schedule reads run-sched-var (kind with the monotonic bit, as libgomp reports it).
RTPAR_OMP_EXPORT void omp_get_schedule(int* kind, int* chunk) {
  const Icvs& v = icv();
  *kind = static_cast<int>(v.run_sched);
  *chunk = static_cast<int>(v.run_chunk);
}

// omp_get_thread_limit reads thread-limit-var.
RTPAR_OMP_EXPORT int omp_get_thread_limit() { return icv().thread_limit; }

// omp_set_max_active_levels sets max-active-levels-var (negative: ignored; capped at the
// supported number).
RTPAR_OMP_EXPORT void omp_set_max_active_levels(int n) {
  if (n >= 0) icv_w().max_active_levels = std::min(n, kSupportedActiveLevels);
}

// omp_get_max_active_levels reads max-active-levels-var.
RTPAR_OMP_EXPORT int omp_get_max_active_levels() { return icv().max_active_levels; }

// omp_get_supported_active_levels is the deepest nesting of active regions supported.
RTPAR_OMP_EXPORT int omp_get_supported_active_levels() { return kSupportedActiveLevels; }

// omp_get_level counts the regions (active or not) enclosing the caller.
RTPAR_OMP_EXPORT int omp_get_level() { return self().team->level; }

// omp_get_active_level counts the active regions enclosing the caller.
RTPAR_OMP_EXPORT int omp_get_active_level() { return self().team->active_level; }

// omp_get_ancestor_thread_num is the number of the caller's ancestor at `level` (-1 outside).
RTPAR_OMP_EXPORT int omp_get_ancestor_thread_num(int level) {
  const TeamState* t = nullptr;
  int tid = 0;
  return ancestor(level, &t, &tid) ? tid : -1;
}

// omp_get_team_size is the size of the team of the caller's ancestor at `level` (-1 outside).
RTPAR_OMP_EXPORT int omp_get_team_size(int level) {
  const TeamState* t = nullptr;
  int tid = 0;
  return ancestor(level, &t, &tid) ? t->nthreads : -1;
}

// ---- timing (§3.10) ----

// omp_get_wtime is seconds on the monotonic clock (a fixed but arbitrary origin).
RTPAR_OMP_EXPORT double omp_get_wtime() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// omp_get_wtick is the resolution of omp_get_wtime in seconds.
RTPAR_OMP_EXPORT double omp_get_wtick() {
  timespec r{};
  clock_getres(CLOCK_MONOTONIC, &r);
  return static_cast<double>(r.tv_sec) + static_cast<double>(r.tv_nsec) * 1e-9;
}

// ---- cancellation, binding (§3.2) ----

// omp_get_cancellation reads cancel-var (OMP_CANCELLATION).
RTPAR_OMP_EXPORT int omp_get_cancellation() { return globals().cancellation ? 1 : 0; }

// omp_get_proc_bind reads bind-var of the calling task (omp_proc_bind_t).
RTPAR_OMP_EXPORT int omp_get_proc_bind() { return icv().bind; }

// ---- devices (§3.7): only the host, which is device 0 = omp_get_initial_device() ----

// omp_set_default_device sets default-device-var.
RTPAR_OMP_EXPORT void omp_set_default_device(int device) { icv_w().default_device = device; }

// omp_get_default_device reads default-device-var.
RTPAR_OMP_EXPORT int omp_get_default_device() { return icv().default_device; }

// omp_get_num_devices is the number of non-host devices: none.
RTPAR_OMP_EXPORT int omp_get_num_devices() { return 0; }

// omp_get_device_num is the device the caller runs on: the host.
RTPAR_OMP_EXPORT int omp_get_device_num() { return 0; }

// omp_is_initial_device says the caller runs on the host: always.
RTPAR_OMP_EXPORT int omp_is_initial_device() { return 1; }

// omp_get_initial_device is the host's device number (= omp_get_num_devices(), as in libgomp).
RTPAR_OMP_EXPORT int omp_get_initial_device() { return 0; }

// ---- resources (§3.2.43) ----

// omp_pause_resource asks the runtime to release resources. rtpar keeps its pinned workers (a
// real-time runtime never re-creates threads mid-run; sleeping workers cost nothing), so pausing
// the host succeeds at once as in libgomp (0); another device does not exist (-1).
RTPAR_OMP_EXPORT int omp_pause_resource(int /*kind*/, int device) {
  return device == 0 || device == -1 ? 0 : -1;
}

// omp_pause_resource_all is omp_pause_resource for every device.
RTPAR_OMP_EXPORT int omp_pause_resource_all(int /*kind*/) { return 0; }

}  // namespace rtpar::omp
