// forkjoin_omp.cpp — rtpar-bench-gomp and rtpar-bench-libomp: fork/join cost of OpenMP.
//
// One source, built twice: g++ -fopenmp (libgomp) and clang++ -fopenmp=libomp (LLVM libomp);
// RTPAR_BENCH_OMP_LIB names the runtime. The wait policy comes from OMP_WAIT_POLICY, which the
// orchestrator sets (active: workers spin between regions; passive: they sleep at once; unset:
// the runtime's default, libgomp spins ~300k iterations, libomp spins for KMP_BLOCKTIME=200ms).
// Rows: <lib>-<policy> × {region, parallel_for, periodic-region}:
//   region       — #pragma omp parallel num_threads(N) {}          (fork + join, empty body)
//   parallel_for — #pragma omp parallel for num_threads(N) over N iterations, schedule(static)
#include <dlfcn.h>
#include <omp.h>

#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/harness.hpp"
#include "common/options.hpp"
#include "common/pinning.hpp"
#include "common/recorder.hpp"

#ifndef RTPAR_BENCH_OMP_LIB
#error "build with -DRTPAR_BENCH_OMP_LIB=libgomp or -DRTPAR_BENCH_OMP_LIB=libomp"
#endif
// RTPAR_BENCH_STR spells the runtime macro as a string (a bare word on the command line avoids
// shell quoting games).
#define RTPAR_BENCH_STR2(x) #x
#define RTPAR_BENCH_STR(x) RTPAR_BENCH_STR2(x)

namespace {

using namespace rtpar_bench;

// wait_policy_name is OMP_WAIT_POLICY lower-cased, or "default" when unset.
std::string wait_policy_name() {
  const char* env = std::getenv("OMP_WAIT_POLICY");
  if (env == nullptr || *env == '\0') return "default";
  std::string s = env;
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// runtime_library is the file the OpenMP entry points were loaded from: proof of which runtime
// this binary really runs (a clang build silently linked to libgomp would be a wrong row).
std::string runtime_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&omp_get_num_threads), &info) != 0 && info.dli_fname) {
    return info.dli_fname;
  }
  return "unknown";
}

// omp_place_cpus is one CPU per OpenMP place (the first of each) when OMP_PLACES defines them,
// else the allowed CPUs. With OMP_PROC_BIND set, libgomp has already bound this thread to place
// 0 before main(), so its affinity no longer shows the CPUs the workers may use.
std::vector<int> omp_place_cpus() {
  std::vector<int> cpus;
  for (int p = 0; p < omp_get_num_places(); ++p) {
    std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(p)));
    if (ids.empty()) continue;
    omp_get_place_proc_ids(p, ids.data());
    cpus.push_back(ids.front());
  }
  return cpus.empty() ? allowed_cpus() : cpus;
}

// place_team places every thread of an N-thread team: thread t on cpus[t] in the given class.
// It runs inside a region so each thread sets itself; the workers were created by this first
// region while the master was still unpinned SCHED_OTHER, so none inherits CPU 0 at SCHED_FIFO.
// Returns "" or the first refusal; a team smaller than N is an error too.
std::string place_team(int n, const std::vector<int>& cpus, bool fifo, int priority) {
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

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const char* prog = argv[0];
  const std::vector<int> cpus = measuring_cpus(o, omp_place_cpus());
  if (static_cast<int>(cpus.size()) < o.threads) {
    std::fprintf(stderr, "%s: %d threads need %d CPUs, %zu found (pass --cpus)\n", prog, o.threads,
                 o.threads, cpus.size());
    return kExitBadArgs;
  }
  omp_set_dynamic(0);  // the runtime must not shrink a team behind our back
  const int n = o.threads;
  const bool locked = o.fifo && lock_memory();
  Recorder rec(o, locked);
  rec.probe(cpus);  // before the first region: active workers would spin on cpus[1] from then on
  if (std::string why = place_team(n, cpus, o.fifo, o.priority); !why.empty()) {
    std::fprintf(stderr, "%s: %s\n", prog, why.c_str());
    return kExitEnvironment;
  }
  const std::string policy = wait_policy_name();
  const std::string runtime =
      o.name.empty() ? std::string(RTPAR_BENCH_STR(RTPAR_BENCH_OMP_LIB)) + "-" + policy : o.name;
  const std::string library = runtime_library();

  // The bodies are empty on purpose: what is timed is the runtime's fork and join.
  auto empty_region = [n] {
#pragma omp parallel num_threads(n)
    empty_body();
  };
  auto empty_for = [n] {
#pragma omp parallel for num_threads(n) schedule(static)
    for (int i = 0; i < n; ++i) empty_body();
  };
  auto tag = [&](Result& row) { row.add("wait", policy).add("library", library); };
  if (o.iters > 0) {
    tag(rec.add(runtime, "region", time_back_to_back(o.iters, o.warmup_regions(), empty_region)));
    tag(rec.add(runtime, "parallel_for",
                time_back_to_back(o.iters, o.warmup_regions(), empty_for)));
  }
  if (o.periodic_releases > 0) {
    tag(rec.add_periodic(runtime, "periodic-region",
                         time_periodic(o.periodic_releases, o.period_ns, empty_region, [] {})));
  }
  // Back to SCHED_OTHER on every thread before anything else: active workers keep spinning until
  // the process exits, and must not do so at SCHED_FIFO.
  place_team(n, cpus, false, 0);
  rec.print();
  return rec.ok() ? 0 : 1;
}
