// icv.cpp — the ICVs' initial values from the environment (OpenMP 5.0 §6) and their inheritance.
// (Minimal first version: OMP_NUM_THREADS, OMP_WAIT_POLICY, the affinity mask; H-api completes.)
#include <sched.h>

#include <cstdlib>
#include <cstring>

#include "omp/icv.hpp"

namespace rtpar::omp {

namespace {

Globals read_environment() {
  Globals g;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) {
        g.cpus.push_back(c);
        g.places.push_back({c});
      }
    }
  }
  g.num_procs = g.cpus.empty() ? 1 : static_cast<int>(g.cpus.size());
  g.initial.nthreads = g.num_procs;
  if (const char* s = std::getenv("OMP_NUM_THREADS")) {
    const long n = std::strtol(s, nullptr, 10);
    if (n > 0) g.initial.nthreads = static_cast<int>(n);
  }
  if (const char* s = std::getenv("OMP_WAIT_POLICY")) {
    if (strcasecmp(s, "active") == 0) g.wait = WaitKind::spin;
    if (strcasecmp(s, "passive") == 0) g.wait = WaitKind::block;
  }
  return g;
}

}  // namespace

const Globals& globals() noexcept {
  static const Globals g = read_environment();
  return g;
}

Icvs child_icvs(const Icvs& parent) noexcept { return parent; }

}  // namespace rtpar::omp
