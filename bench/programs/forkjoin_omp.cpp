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
#include "common/omp_team.hpp"
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

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const char* prog = argv[0];
  const std::vector<int> cpus = measuring_cpus(o, rtpar_bench::omp_place_cpus());
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
  if (std::string why = rtpar_bench::omp_place_team(n, cpus, o.fifo, o.priority); !why.empty()) {
    std::fprintf(stderr, "%s: %s\n", prog, why.c_str());
    return kExitEnvironment;
  }
  const std::string policy = wait_policy_name();
  const std::string runtime =
      o.name.empty() ? std::string(RTPAR_BENCH_STR(RTPAR_BENCH_OMP_LIB)) + "-" + policy : o.name;
  const std::string library = omp_runtime_library();

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
  rtpar_bench::omp_place_team(n, cpus, false, 0);
  rec.print();
  return rec.ok() ? 0 : 1;
}
