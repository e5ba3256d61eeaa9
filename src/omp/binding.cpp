// binding.cpp — bound masters: the thread of a real-time task that runs OpenMP code
// (`kernel = "omp:PATH:SYMBOL"`) opens its regions on that task's planned CPUs only, at its
// priority and with its wait policy, on workers created once before its first job
// (docs/internals/openmp.md, "Bound masters"). Also where the workers of every other (unbound)
// master go: the CPUs rtpar_omp_set_unbound_cpus gave (the system's nonrt_cores), or the places.
//
// Entry points (RTPAR_OMP_1.0, ABI in include/rtpar/detail/omp_binding.h) are called by rtpar's
// executor through dlsym, never by OpenMP programs.
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <vector>

#include "omp/runtime.hpp"
#include "rtpar/detail/omp_binding.h"

namespace rtpar::omp {

namespace {

// UnboundCpus is the CPU list of unbound masters' workers when the executor set one. Written
// once, before any thread other than the caller can open a region (rtpar_omp_set_unbound_cpus's
// contract); `set` is the flag readers test. set: release store after the list is written,
// acquire load before it is read, so a reader that sees true sees the whole list.
struct UnboundCpus {
  std::vector<int> cpus;
  std::atomic<bool> set{false};
};

UnboundCpus& unbound() {
  static UnboundCpus u;
  return u;
}

// empty_region is the body of the warm-up region that creates a bound master's team.
void empty_region(void* /*unused*/) {}

// write_error copies `text` into err[0 .. errlen) (NUL-terminated).
void write_error(char* err, std::size_t errlen, const char* text) {
  if (err != nullptr && errlen > 0) std::snprintf(err, errlen, "%s", text);
}

}  // namespace

bool unbound_confined() noexcept {
  // acquire: see UnboundCpus.
  return unbound().set.load(std::memory_order_acquire);
}

int unbound_procs() noexcept {
  UnboundCpus& u = unbound();
  // acquire: see UnboundCpus.
  if (u.set.load(std::memory_order_acquire)) return static_cast<int>(u.cpus.size());
  return globals().num_procs;
}

int member_cpu_of(const ThreadState& ts, int master_cpu, int rank) {
  if (!ts.bound_cpus.empty()) {
    return ts.bound_cpus[static_cast<std::size_t>(rank) % ts.bound_cpus.size()];
  }
  UnboundCpus& u = unbound();
  // acquire: see UnboundCpus.
  const std::vector<int>& cpus = u.set.load(std::memory_order_acquire) ? u.cpus : globals().cpus;
  if (cpus.empty()) return -1;
  const auto n = static_cast<long>(cpus.size());
  const auto it = std::find(cpus.begin(), cpus.end(), master_cpu);
  // A master off the list (a non-real-time thread elsewhere) puts member r on the r-th CPU, so
  // its workers stay on the list.
  const long base = it == cpus.end() ? n - 1 : static_cast<long>(it - cpus.begin());
  return cpus[static_cast<std::size_t>((base + rank) % n)];
}

}  // namespace rtpar::omp

namespace rtpar::omp {
namespace {

// CMemberHooks is rtpar_omp_binding's C hooks as the engine's MemberJobHooks.
class CMemberHooks final : public MemberJobHooks {
 public:
  explicit CMemberHooks(const rtpar_omp_member_hooks& hooks) : hooks_(hooks) {}
  void started(int rank) noexcept override { hooks_.started(hooks_.ctx, rank); }
  void job_begin(int rank) noexcept override { hooks_.job_begin(hooks_.ctx, rank); }
  void job_end(int rank) noexcept override { hooks_.job_end(hooks_.ctx, rank); }
  [[nodiscard]] bool demoted(int rank) const noexcept override {
    return hooks_.demoted(hooks_.ctx, rank) != 0;
  }
  void exiting(int rank) noexcept override { hooks_.exiting(hooks_.ctx, rank); }

 private:
  rtpar_omp_member_hooks hooks_;  // a copy: the caller's struct may go away
};

}  // namespace
}  // namespace rtpar::omp

using rtpar::omp::ThreadState;

RTPAR_OMP_EXPORT void* rtpar_omp_bind(const rtpar_omp_binding* binding, char* err,
                                      std::size_t errlen) {
  if (binding == nullptr || binding->version != RTPAR_OMP_BINDING_VERSION || binding->ncpus < 1 ||
      binding->cpus == nullptr || binding->wait < 0 || binding->wait > 2 || binding->spin_ns < 0) {
    rtpar::omp::write_error(err, errlen,
                            "rtpar_omp_bind: invalid binding (version, ncpus, cpus or wait)");
    return nullptr;
  }
  ThreadState& ts = rtpar::omp::self();
  if (!ts.bound_cpus.empty() || ts.teams != nullptr || ts.team != &ts.root) {
    rtpar::omp::write_error(
        err, errlen, "rtpar_omp_bind: the thread already opened a region or is bound to a task");
    return nullptr;
  }
  const rtpar_omp_member_hooks* hooks = binding->hooks;
  if (hooks != nullptr &&
      (hooks->started == nullptr || hooks->job_begin == nullptr || hooks->job_end == nullptr ||
       hooks->demoted == nullptr || hooks->exiting == nullptr)) {
    rtpar::omp::write_error(err, errlen, "rtpar_omp_bind: member hooks with a null function");
    return nullptr;
  }
  if (hooks != nullptr) ts.bound_hooks = std::make_unique<rtpar::omp::CMemberHooks>(*hooks);
  ts.bound_cpus.assign(binding->cpus, binding->cpus + binding->ncpus);
  ts.bound_wait.kind = static_cast<rtpar::WaitKind>(binding->wait);
  ts.bound_wait.spin_ns = binding->spin_ns;
  // The task's team size is its default (nthreads-var of the initial task): `#pragma omp
  // parallel` without num_threads uses every planned CPU and no more.
  ts.root_task.icv.nthreads = binding->ncpus;
  if (binding->ncpus > 1) {
    // The warm-up region creates the workers now, at the caller's class and priority, so that no
    // job ever creates a thread; the region's end parks them (parallel.cpp).
    rtpar::omp::parallel_run(rtpar::omp::empty_region, nullptr, binding->ncpus, 0);
    // A bound team is parked only between jobs (rtpar_omp_job_end): until the first, too.
    rtpar::omp::for_each_engine(ts, [](rtpar::Team& team) { team.park(); });
    if (rtpar::omp::worker_count(ts) != binding->ncpus - 1) {
      rtpar::omp::write_error(
          err, errlen,
          "rtpar_omp_bind: the kernel refused the task's OpenMP worker threads (see the "
          "message above)");
      return nullptr;
    }
  }
  return &ts;
}

RTPAR_OMP_EXPORT std::int32_t rtpar_omp_worker_tids(void* handle, std::int32_t* tids,
                                                    std::int32_t cap) {
  if (handle == nullptr) return 0;
  std::vector<int> all;
  rtpar::omp::for_each_engine(*static_cast<ThreadState*>(handle), [&](rtpar::Team& team) {
    for (const int tid : team.worker_tids()) all.push_back(tid);
  });
  for (std::size_t i = 0; i < all.size() && static_cast<std::int32_t>(i) < cap; ++i) {
    tids[i] = all[i];
  }
  return static_cast<std::int32_t>(all.size());
}

RTPAR_OMP_EXPORT void rtpar_omp_unbind(void* handle) {
  if (handle == nullptr) return;
  rtpar::omp::shutdown_teams(*static_cast<ThreadState*>(handle));
}

RTPAR_OMP_EXPORT void rtpar_omp_job_start(void* handle, std::int64_t next_release_ns) {
  rtpar::omp::for_each_engine(*static_cast<ThreadState*>(handle),
                              [&](rtpar::Team& team) { team.expect_release(next_release_ns); });
}

RTPAR_OMP_EXPORT void rtpar_omp_job_end(void* handle) {
  auto& ts = *static_cast<ThreadState*>(handle);
  rtpar::omp::for_each_engine(ts, [](rtpar::Team& team) { team.park(); });
  ts.last_bound_team = nullptr;
}

static_assert(rtpar::omp::BoundTrace::kSlicesPerJob == RTPAR_OMP_TRACE_SLICES_PER_JOB);

RTPAR_OMP_EXPORT std::int32_t rtpar_omp_trace(void* handle, std::int64_t jobs) {
  if (handle == nullptr) return -1;
  auto& ts = *static_cast<ThreadState*>(handle);
  if (ts.bound_cpus.size() < 2) return -1;  // no workers to trace
  auto trace = std::make_unique<rtpar::omp::BoundTrace>();
  // At most 2^16 slices per worker (1.5 MiB), like the executor's own thread traces.
  constexpr std::int64_t kMaxSlices = std::int64_t{1} << 16;
  const std::int64_t per_worker =
      jobs > kMaxSlices / RTPAR_OMP_TRACE_SLICES_PER_JOB
          ? kMaxSlices
          : std::max<std::int64_t>(jobs, 0) * RTPAR_OMP_TRACE_SLICES_PER_JOB;
  trace->workers.resize(ts.bound_cpus.size() - 1);
  for (auto& w : trace->workers) w.slices.resize(static_cast<std::size_t>(per_worker));
  // The workers read the pointer through their team (TeamState::trace), which the next fork sets
  // and publishes; no region runs now (called before the first job).
  ts.bound_trace = std::move(trace);
  return 0;
}

RTPAR_OMP_EXPORT void rtpar_omp_trace_job(void* handle, std::int64_t job) {
  auto& ts = *static_cast<ThreadState*>(handle);
  if (ts.bound_trace) ts.bound_trace->job = job;  // published by the next fork (BoundTrace::job)
}

RTPAR_OMP_EXPORT std::int64_t rtpar_omp_trace_take(void* handle, std::int32_t rank,
                                                   rtpar_omp_slice* out, std::int64_t cap,
                                                   std::int64_t* dropped, std::int32_t* tid) {
  auto& ts = *static_cast<ThreadState*>(handle);
  if (dropped != nullptr) *dropped = 0;
  if (tid != nullptr) {
    // The traced team is the one of all the task's CPUs (a bound master's only teams with
    // workers are its top-level ones, one per size: parallel.cpp).
    *tid = 0;
    const int n = static_cast<int>(ts.bound_cpus.size());
    rtpar::omp::for_each_engine(ts, [&](rtpar::Team& team) {
      if (team.size() != n) return;
      const std::vector<int> tids = team.worker_tids();
      if (rank >= 1 && static_cast<std::size_t>(rank) <= tids.size()) *tid = tids[rank - 1];
    });
  }
  if (!ts.bound_trace || rank < 1 ||
      static_cast<std::size_t>(rank) > ts.bound_trace->workers.size()) {
    return 0;
  }
  const rtpar::omp::BoundTrace::Worker& w =
      ts.bound_trace->workers[static_cast<std::size_t>(rank - 1)];
  for (std::size_t i = 0; i < w.used && static_cast<std::int64_t>(i) < cap; ++i) {
    out[i] = rtpar_omp_slice{w.slices[i].job, w.slices[i].start_ns, w.slices[i].end_ns};
  }
  if (dropped != nullptr) *dropped = w.dropped;
  return static_cast<std::int64_t>(w.used);
}

RTPAR_OMP_EXPORT std::int32_t rtpar_omp_set_unbound_cpus(const std::int32_t* cpus, std::int32_t n) {
  rtpar::omp::UnboundCpus& u = rtpar::omp::unbound();
  // relaxed: only the first call may write the list (its readers test `set` with acquire).
  if (cpus == nullptr || n < 1 || u.set.load(std::memory_order_relaxed)) return -1;
  u.cpus.assign(cpus, cpus + n);
  // release: see UnboundCpus.
  u.set.store(true, std::memory_order_release);
  return 0;
}
