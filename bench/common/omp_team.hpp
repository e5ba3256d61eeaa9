// omp_team.hpp — placing an OpenMP team (thread t on the t-th measuring CPU, in one scheduling
// class) and naming the runtime library, for the OpenMP bench programs. Only programs built with
// -fopenmp include this.
#pragma once

#include <dlfcn.h>
#include <omp.h>

#include <atomic>
#include <string>
#include <vector>

#include "common/pinning.hpp"

namespace rtpar_bench {

// omp_runtime_library is the file the OpenMP entry points were loaded from: proof of which
// runtime this binary really runs (a clang build silently linked to libgomp would be a wrong row).
inline std::string omp_runtime_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&omp_get_num_threads), &info) != 0 && info.dli_fname) {
    return info.dli_fname;
  }
  return "unknown";
}

// omp_place_cpus is one CPU per OpenMP place (the first of each) when OMP_PLACES defines them,
// else the allowed CPUs. With OMP_PROC_BIND set, libgomp has already bound this thread to place
// 0 before main(), so its affinity no longer shows the CPUs the workers may use.
inline std::vector<int> omp_place_cpus() {
  std::vector<int> cpus;
  for (int p = 0; p < omp_get_num_places(); ++p) {
    std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(p)));
    if (ids.empty()) continue;
    omp_get_place_proc_ids(p, ids.data());
    cpus.push_back(ids.front());
  }
  return cpus.empty() ? allowed_cpus() : cpus;
}

// omp_place_team places every thread of an n-thread team: thread t on cpus[t] in the given
// class. It runs inside a region so each thread sets itself; call it first while the master is
// still unpinned SCHED_OTHER, so no worker is created inheriting CPU 0 at SCHED_FIFO. Returns ""
// or the first refusal; a team smaller than n is an error too.
inline std::string omp_place_team(int n, const std::vector<int>& cpus, bool fifo, int priority) {
  std::vector<std::string> errors(static_cast<std::size_t>(n));
  std::atomic<int> team_size{0};
#pragma omp parallel num_threads(n)
  {
    const int t = omp_get_thread_num();
    if (t == 0) team_size.store(omp_get_num_threads());
    if (t < n) {
      errors[static_cast<std::size_t>(t)] =
          place_current_thread(Placement{cpus[static_cast<std::size_t>(t)], fifo, priority});
    }
  }
  if (team_size.load() != n) {
    return "the OpenMP runtime granted " + std::to_string(team_size.load()) + " threads, not " +
           std::to_string(n);
  }
  for (const std::string& e : errors) {
    if (!e.empty()) return e;
  }
  return {};
}

}  // namespace rtpar_bench
