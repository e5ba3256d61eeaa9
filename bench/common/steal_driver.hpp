// steal_driver.hpp — the measurement loop every `rtpar bench steal` program runs: serial and
// parallel repetitions of one kernel, each parallel result verified against the serial one, and
// the one result row printed as JSON.
//
// Repetitions alternate serial, parallel, serial, parallel, ... so both see the same host state
// (the VM's vCPUs change speed and distance during a run, docs/bench.md), and the speedup (serial
// p50 / parallel p50) compares like with like. Inputs are reset untimed before every repetition.
// A parallel result that differs from the serial one ends the program with kExitWrongResult and
// no row: a wrong result is never reported as a time.
#pragma once

#include <sys/resource.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.hpp"
#include "common/result.hpp"
#include "common/samples_csv.hpp"
#include "common/stats.hpp"
#include "common/steal_kernels.hpp"
#include "common/steal_options.hpp"
#include "common/steal_sync.hpp"
#include "common/steal_tiled.hpp"

namespace rtpar_bench {

// StealKernels are one runtime's parallel kernels; each call is one timed repetition, including
// whatever the runtime needs to enter and leave its parallel section (pool.run, an OpenMP
// parallel region, task_arena::execute).
struct StealKernels {
  std::function<std::uint64_t(int n)> fib;
  std::function<std::uint64_t(const UtsParams&)> uts;
  std::function<void(Matmul&)> matmul;
  std::function<void(Heat&)> heat;
  std::function<void(SyncTask&)> sync;       // sync1..3 (RTWS §IV-A); empty: not on this runtime
  std::function<void(TiledMatrix&)> tiled;   // cholesky, lu (RTWS §IV-A); empty: likewise
  std::function<void(Fft&)> fft;
};

// Row is the program's result row: keys in print order.
using Row = std::vector<std::pair<std::string, ExtraValue>>;

// StealOutcome is what the driver measured, or why there is nothing to report.
struct StealOutcome {
  Row row;            // empty on error
  std::string error;  // why the run is unusable ("" = fine)
  int exit_status = 0;
};

namespace steal_detail {

// kWarmupCapNs bounds the warm-up: no further warm-up repetition starts after this much.
inline constexpr std::int64_t kWarmupCapNs = 1'000'000'000;

// Kernel adapts one benchmark to the loop: run serially, run in parallel, check the parallel
// result against the serial reference, and name the size and the reference.
struct Kernel {
  std::function<void()> reset;     // untimed, before every repetition
  std::function<void()> serial;    // timed
  std::function<void()> parallel;  // timed
  std::function<bool()> check;     // after `parallel`: same result as serial?
  std::function<void()> corrupt;   // test hook: falsify the parallel result
  std::string size;                // the kernel's parameters, e.g. "n=35"
  std::string reference;           // the serial result (a value or a checksum)
};

// hex renders a checksum.
inline std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

// KernelData holds what a Kernel's functions work on: the benchmark's input and output (one of
// the pointers, or value) and the serial reference (expect or ref). The caller keeps it alive
// as long as the Kernel.
struct KernelData {
  std::uint64_t value = 0, expect = 0;
  std::unique_ptr<Matmul> mm;
  std::unique_ptr<Heat> heat;
  std::unique_ptr<SyncTask> sync;
  std::unique_ptr<TiledMatrix> tm;
  std::unique_ptr<Fft> fft;
  std::vector<double> ref;
};

// make_kernel builds the Kernel of o.bench over `data`.
inline Kernel make_kernel(const StealOptions& o, const StealKernels& k, KernelData& data) {
  std::uint64_t& value = data.value;
  std::uint64_t& expect = data.expect;
  std::unique_ptr<Matmul>& mm = data.mm;
  std::unique_ptr<Heat>& heat = data.heat;
  std::vector<double>& ref = data.ref;
  std::unique_ptr<SyncTask>& sync = data.sync;
  std::unique_ptr<TiledMatrix>& tm = data.tm;
  std::unique_ptr<Fft>& fft = data.fft;
  Kernel r;
  if (is_sync_bench(o.bench)) {
    sync = std::make_unique<SyncTask>(o.bench.back() - '0', o.sync_seed, o.sync_div);
    sync->serial();
    expect = sync->checksum();
    SyncTask* t = sync.get();
    r.reset = [t] { t->reset(); };
    r.serial = [t] { t->serial(); };
    r.parallel = [t, &k] { k.sync(*t); };
    r.check = [t, &expect] { return t->checksum() == expect; };
    r.corrupt = [t] { t->out[0] += 1; };
    r.size = sync->size() + (o.sync_div > 1 ? ",div=" + std::to_string(o.sync_div) : "");
    r.reference = hex(expect);
  } else if (o.bench == "cholesky" || o.bench == "lu") {
    const bool lu = o.bench == "lu";
    tm = std::make_unique<TiledMatrix>(lu, lu ? o.lu_n : o.chol_n, lu ? o.lu_block : o.chol_block);
    tiled_serial(*tm);
    ref = tm->a;
    TiledMatrix* m = tm.get();
    r.reset = [m] { m->reset(); };
    r.serial = [m] { tiled_serial(*m); };
    r.parallel = [m, &k] { k.tiled(*m); };
    r.check = [m, &ref] { return same_doubles(m->a, ref); };
    r.corrupt = [m] { m->a[0] += 1.0; };
    r.size = tm->size();
    r.reference = hex(checksum64(ref));
  } else if (o.bench == "fib") {
    const int n = o.fib_n;
    expect = fib_serial(n);
    r.reset = [&value] { value = ~std::uint64_t{0}; };
    r.serial = [&value, n] { value = fib_serial(n); };
    r.parallel = [&value, &k, n] { value = k.fib(n); };
    r.check = [&value, &expect] { return value == expect; };
    r.corrupt = [&value] { value += 1; };
    r.size = "n=" + std::to_string(n);
    r.reference = std::to_string(expect);
  } else if (o.bench == "uts") {
    const UtsParams p = o.uts;
    expect = uts_count_serial(p, uts_root(p));
    r.reset = [&value] { value = 0; };
    r.serial = [&value, p] { value = uts_count_serial(p, uts_root(p)); };
    r.parallel = [&value, &k, p] { value = k.uts(p); };
    r.check = [&value, &expect] { return value == expect; };
    r.corrupt = [&value] { value += 1; };
    char q[32];
    std::snprintf(q, sizeof q, "%g", p.q);
    r.size = "b0=" + std::to_string(p.b0) + ",m=" + std::to_string(p.m) + ",q=" + q +
             ",seed=" + std::to_string(p.seed);
    r.reference = std::to_string(expect);
  } else if (o.bench == "matmul") {
    mm = std::make_unique<Matmul>(o.matmul_n);
    mm->serial();
    ref = mm->c;
    Matmul* m = mm.get();
    r.reset = [m] { m->reset(); };
    r.serial = [m] { m->serial(); };
    r.parallel = [m, &k] { k.matmul(*m); };
    r.check = [m, &ref] { return same_doubles(m->c, ref); };
    r.corrupt = [m] { m->c[0] += 1.0; };
    r.size = "n=" + std::to_string(o.matmul_n);
    r.reference = hex(checksum64(ref));
  } else if (o.bench == "fft") {
    fft = std::make_unique<Fft>(static_cast<std::size_t>(o.fft_n));
    fft->serial();
    ref = fft->result();
    Fft* f = fft.get();
    r.reset = [f] { f->reset(); };
    r.serial = [f] { f->serial(); };
    r.parallel = [f, &k] { k.fft(*f); };
    r.check = [f, &ref] { return same_doubles(f->result(), ref); };
    r.corrupt = [f] { f->out[1].re += 1.0; };
    r.size = "n=" + std::to_string(o.fft_n);
    r.reference = hex(checksum64(ref));
  } else {
    heat = std::make_unique<Heat>(o.heat_n, o.heat_steps);
    heat->serial();
    ref = heat->result();
    Heat* h = heat.get();
    r.reset = [h] { h->reset(); };
    r.serial = [h] { h->serial(); };
    r.parallel = [h, &k] { k.heat(*h); };
    r.check = [h, &ref] { return same_doubles(h->result(), ref); };
    r.corrupt = [h] { h->result()[static_cast<std::size_t>(h->n) + 1] += 1.0; };
    r.size = "n=" + std::to_string(o.heat_n) + ",steps=" + std::to_string(o.heat_steps);
    r.reference = hex(checksum64(ref));
  }
  return r;
}

// timed runs f and returns its duration in ns.
template <class F>
std::int64_t timed(F&& f) {
  const std::int64_t t0 = now_ns();
  f();
  return now_ns() - t0;
}

// rest sleeps rest_ratio × the last repetition (the multiprogrammed variant's duty cycle: the
// benchmark's SCHED_FIFO threads stay well below the kernel's RT throttling budget).
inline void rest(const StealOptions& o, std::int64_t last_ns) {
  if (o.rest_ratio <= 0.0) return;
  sleep_until_ns(now_ns() + static_cast<std::int64_t>(o.rest_ratio * static_cast<double>(last_ns)));
}

}  // namespace steal_detail

// ru_maxrss_kb is getrusage(RUSAGE_SELF).ru_maxrss (kB on Linux). It is NOT this program's own
// peak: Linux folds the high-water RSS of the address space that exec replaced into it (exec_mmap
// → setmax_mm_hiwater_rss), and a program started with posix_spawn (vfork + exec) or fork + exec
// replaced its parent's address space — the orchestrator's, tens of MB. Reported for reference.
inline std::int64_t ru_maxrss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::int64_t>(u.ru_maxrss);
}

// peak_rss_kb is this program's own peak resident set size: VmHWM of /proc/self/status, the
// high-water mark of the address space exec created (so it starts from zero at exec), in kB.
// Falls back to ru_maxrss_kb if /proc is unavailable.
inline std::int64_t peak_rss_kb() {
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    long long kb = -1;
    while (std::fgets(line, sizeof line, f) != nullptr) {
      if (std::sscanf(line, "VmHWM: %lld kB", &kb) == 1) break;
    }
    std::fclose(f);
    if (kb > 0) return kb;
  }
  return ru_maxrss_kb();
}

// run_steal_benchmark measures o.bench with the runtime's kernels. The caller has placed the
// threads; it prints the row (print_steal_row) after returning every thread to SCHED_OTHER.
inline StealOutcome run_steal_benchmark(const StealOptions& o, const std::string& runtime,
                                        const StealKernels& k) {
  using namespace steal_detail;
  StealOutcome out;
  KernelData data;
  if ((is_sync_bench(o.bench) && !k.sync) ||
      ((o.bench == "cholesky" || o.bench == "lu") && !k.tiled) || (o.bench == "fft" && !k.fft)) {
    out.error = o.bench + " is not implemented on " + runtime;
    out.exit_status = kExitBadArgs;
    return out;
  }
  const Kernel kernel = make_kernel(o, k, data);

  auto verify = [&](int rep) {
    if (kernel.check()) return true;
    out.error = o.bench + " (" + kernel.size + ") on " + runtime + " with " +
                std::to_string(o.threads) + " threads: parallel result of repetition " +
                std::to_string(rep) + " differs from the serial one (" + kernel.reference + ")";
    out.exit_status = kExitWrongResult;
    return false;
  };
  // Warm-up stops early once it has taken kWarmupCapNs: a repetition that long warms itself up,
  // and the slow peers (seconds per fib(35)) would otherwise spend the time limit warming up.
  const std::int64_t start = now_ns();
  for (int w = 0; w < o.warmup && (w == 0 || now_ns() - start < kWarmupCapNs); ++w) {
    kernel.reset();
    kernel.serial();
    kernel.reset();
    kernel.parallel();
    if (!verify(-w - 1)) return out;
  }
  std::vector<std::int64_t> serial, parallel;
  serial.reserve(static_cast<std::size_t>(o.reps));
  parallel.reserve(static_cast<std::size_t>(o.reps));
  bool truncated = false;
  for (int rep = 0; rep < o.reps; ++rep) {
    // The limit is on wall time since the start (warm-up and rests included); at least one
    // repetition is always measured.
    if (o.time_limit_ms > 0 && rep > 0 && now_ns() - start > o.time_limit_ms * 1'000'000) {
      truncated = true;
      break;
    }
    kernel.reset();
    const std::int64_t ts = timed(kernel.serial);
    serial.push_back(ts);
    rest(o, ts);
    kernel.reset();
    const std::int64_t tp = timed(kernel.parallel);
    parallel.push_back(tp);
    if (o.corrupt && rep == 0) kernel.corrupt();
    if (!verify(rep)) return out;
    rest(o, tp);
  }

  const Summary p = summarize(parallel), s = summarize(serial);
  const std::string construct = o.bench + "-" + o.variant + "-t" + std::to_string(o.threads);
  if (!write_samples_csv(o.samples_dir, runtime, construct, parallel) ||
      !write_samples_csv(o.samples_dir, runtime + "-serial", construct, serial)) {
    out.error = "cannot write the samples to " + o.samples_dir;
    out.exit_status = 1;
    return out;
  }
  const double speedup =
      p.p50_ns > 0 ? static_cast<double>(s.p50_ns) / static_cast<double>(p.p50_ns) : 0.0;
  out.row = {{"benchmark", o.bench},
             {"runtime", runtime},
             {"threads", std::int64_t{o.threads}},
             {"variant", o.variant},
             {"p50_ns", p.p50_ns},
             {"p99_ns", p.p99_ns},
             {"p5_ns", p.p5_ns},
             {"p25_ns", p.p25_ns},
             {"p75_ns", p.p75_ns},
             {"p95_ns", p.p95_ns},
             {"max_ns", p.max_ns},
             {"speedup", speedup},
             {"peak_rss_kb", peak_rss_kb()},
             {"ru_maxrss_kb", ru_maxrss_kb()},
             {"mean_ns", p.mean_ns},
             {"min_ns", p.min_ns},
             {"reps", p.count},
             {"truncated", truncated},
             {"serial_p50_ns", s.p50_ns},
             {"serial_p99_ns", s.p99_ns},
             {"serial_max_ns", s.max_ns},
             {"size", kernel.size},
             {"result", kernel.reference},
             {"sched", std::string(o.fifo ? "fifo" : "other")},
             {"priority", std::int64_t{o.fifo ? o.priority : 0}}};
  return out;
}

// print_steal_row writes {"results": [row]} on stdout (the orchestrator's input).
inline void print_steal_row(const Row& row) {
  std::printf("{\"results\": [{");
  for (std::size_t i = 0; i < row.size(); ++i) {
    std::printf("%s%s: %s", i == 0 ? "" : ", ", json_string(row[i].first).c_str(),
                json_value(row[i].second).c_str());
  }
  std::printf("}]}\n");
  std::fflush(stdout);
}

}  // namespace rtpar_bench
