// bench_omp.cpp — `rtpar bench omp`: the same `gcc -fopenmp -O2` programs (bench/omp/*.c) run
// unchanged against stock libgomp, LLVM libomp and rtpar's libgomp.so.1, in the same run
// (docs/bench-omp.md); and the same sources built with `clang -fopenmp` (LLVM's ABI) run on
// rtpar's libomp.so.5 and LLVM's (the clang rows, runtimes clang+rtpar and clang+libomp).
//
// Only the environment differs between the runtimes: libgomp is what the loader finds by itself
// (LD_LIBRARY_PATH emptied), LLVM libomp is reached through a private directory holding a symlink
// libgomp.so.1 -> libomp.so.5 (Debian's libomp exports the GOMP ABI and its version nodes), and
// rtpar's library through its own directory. Every program prints the file that really holds
// omp_get_num_threads in its /proc/self/maps; a run that loaded another library than intended is
// a failure, never a row. The clang builds need libomp.so.5: LLVM's is reached through a private
// directory holding a libomp.so.5 symlink, rtpar's through its own directory (LD_LIBRARY_PATH
// overrides the programs' RUNPATH). sync, sched and task run in interleaved rounds (every runtime
// once per round) so a change of the host's state spreads over all runtimes; the periodic variant
// runs whole, once per runtime and wait policy (default, and active: workers spin between regions).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "common/program_files.hpp"
#include "core/exit_status.hpp"
#include "driver/bench_omp.hpp"
#include "driver/rtpar_libgomp.hpp"
#include "platform/child_process.hpp"  // shared with `rtpar experiment` bench studies
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

#ifndef RTPAR_BENCH_INSTALL_LIBDIR
#define RTPAR_BENCH_INSTALL_LIBDIR "lib"
#endif
#ifndef RTPAR_BENCH_LIBOMP
#define RTPAR_BENCH_LIBOMP ""
#endif

namespace rtpar::bench {

namespace {

namespace fs = std::filesystem;

// kPrograms maps each benchmark to its program (bench/omp/CMakeLists.txt).
const std::map<std::string, std::string> kPrograms{{"sync", "rtpar-bench-omp-sync"},
                                                   {"sched", "rtpar-bench-omp-sched"},
                                                   {"task", "rtpar-bench-omp-task"},
                                                   {"apps", "rtpar-bench-omp-apps"},
                                                   {"periodic", "rtpar-bench-omp-periodic"}};

// kClangPrefix is the prefix of the clang builds of kPrograms (bench/omp/CMakeLists.txt).
constexpr const char* kClangPrefix = "rtpar-bench-omp-clang-";

// Runtime is one OpenMP library as the programs will load it.
struct Runtime {
  std::string name;             // libgomp, libomp, rtpar, clang+rtpar, clang+libomp
  std::string ld_library_path;  // "" = the loader's own search (system libgomp)
  std::string expect;           // canonical path the program must report; "" = any libgomp
  bool clang = false;           // runs the clang builds (LLVM ABI) rather than the GCC ones
};

// canonical_path is p with symlinks resolved, or p itself if it does not exist.
std::string canonical_path(const fs::path& p) {
  std::error_code ec;
  const fs::path c = fs::canonical(p, ec);
  return ec ? p.string() : c.string();
}

// add_clang_runtimes appends the clang rows' runtimes asked for: rtpar's libomp.so.5 (beside its
// libgomp.so.1) and LLVM's (a libomp.so.5 symlink in scratch); an unavailable one is said on
// stderr and recorded in skipped.
void add_clang_runtimes(const OmpBenchOptions& o, const std::set<std::string>& want,
                        const std::optional<fs::path>& rtpar, const fs::path& scratch,
                        std::vector<Runtime>& out, OmpJson& skipped) {
  if (want.count("clang+rtpar")) {
    const fs::path lib = rtpar ? rtpar->parent_path() / "libomp.so.5" : fs::path();
    if (rtpar && access(lib.c_str(), R_OK) == 0) {
      out.push_back({"clang+rtpar", lib.parent_path().string(), canonical_path(lib), true});
    } else {
      fmt::print(stderr,
                 "rtpar bench omp: rtpar's libomp.so.5 (target rtpar_libomp) not found: "
                 "skipping clang+rtpar\n");
      skipped.push_back({{"runtime", "clang+rtpar"}, {"reason", "library not found"}});
    }
  }
  if (want.count("clang+libomp")) {
    const std::string lib = o.libomp.empty() ? RTPAR_BENCH_LIBOMP : o.libomp;
    if (!lib.empty() && access(lib.c_str(), R_OK) == 0) {
      const fs::path dir = scratch / "clang-libomp";
      fs::create_directories(dir);
      fs::create_symlink(lib, dir / "libomp.so.5");
      out.push_back({"clang+libomp", dir.string(), canonical_path(lib), true});
    } else {
      fmt::print(stderr,
                 "rtpar bench omp: LLVM libomp not found ('{}'; Debian: libomp5, or pass "
                 "--libomp PATH): skipping clang+libomp\n",
                 lib);
      skipped.push_back({{"runtime", "clang+libomp"}, {"reason", "library not found"}});
    }
  }
}

// runtimes sets up the libraries asked for (the libomp symlink directory inside scratch);
// an unavailable one is said on stderr and recorded in skipped.
std::vector<Runtime> runtimes(const OmpBenchOptions& o, const fs::path& scratch, OmpJson& skipped,
                              std::map<std::string, std::string>& libraries) {
  const std::set<std::string> want(o.runtimes.begin(), o.runtimes.end());
  std::vector<Runtime> out;
  std::vector<fs::path> looked;
  const auto rtpar = find_rtpar_libgomp(o.rtpar_lib, looked);
  if (want.count("rtpar") && rtpar) {
    out.push_back({"rtpar", rtpar->parent_path().string(), canonical_path(*rtpar)});
  } else if (want.count("rtpar")) {
    std::string where;
    for (const auto& p : looked) where += " " + p.string();
    fmt::print(stderr,
               "rtpar bench omp: rtpar's OpenMP library (libgomp.so.1, target rtpar_omp) not "
               "found (looked at{}): benchmarking the peers only\n",
               where);
    skipped.push_back({{"runtime", "rtpar"}, {"reason", "library not found"}});
  }
  if (want.count("libgomp")) out.push_back({"libgomp", "", ""});
  if (want.count("libomp")) {
    const std::string lib = o.libomp.empty() ? RTPAR_BENCH_LIBOMP : o.libomp;
    if (!lib.empty() && access(lib.c_str(), R_OK) == 0) {
      const fs::path dir = scratch / "libomp";
      fs::create_directories(dir);
      fs::create_symlink(lib, dir / "libgomp.so.1");
      out.push_back({"libomp", dir.string(), canonical_path(lib)});
    } else {
      fmt::print(stderr,
                 "rtpar bench omp: LLVM libomp not found ('{}'; Debian: libomp5, or pass "
                 "--libomp PATH): skipping it\n",
                 lib);
      skipped.push_back({{"runtime", "libomp"}, {"reason", "library not found"}});
    }
  }
  add_clang_runtimes(o, want, rtpar, scratch, out, skipped);
  for (const Runtime& r : out) libraries[r.name] = r.expect.empty() ? "system libgomp" : r.expect;
  return out;
}

// environment is what a program runs with on runtime r (policy "" = the runtime's default).
std::vector<std::string> environment(const OmpBenchOptions& o, const Runtime& r,
                                     const std::string& policy) {
  // OMP_DYNAMIC=false: the runtime must not shrink a team behind the program's back (the
  // programs do not call omp_set_dynamic, one entry point less that every runtime must have).
  std::vector<std::string> env{"LD_LIBRARY_PATH=" + r.ld_library_path,
                               "OMP_NUM_THREADS=" + std::to_string(o.threads), "OMP_DYNAMIC=false"};
  if (o.bind) {
    env.emplace_back("OMP_PROC_BIND=true");
    env.emplace_back("OMP_PLACES=cores");
  }
  if (!policy.empty()) env.push_back("OMP_WAIT_POLICY=" + policy);
  return env;
}

// library_problem says why the library a program reported is not the one intended, or "".
std::string library_problem(const Runtime& r, const std::string& got,
                            const std::map<std::string, std::string>& libraries) {
  if (!r.expect.empty()) return got == r.expect ? "" : "loaded " + got + ", not " + r.expect;
  for (const auto& [name, path] : libraries) {
    if (name != r.name && path == got) return "loaded " + got + " (" + name + "'s library)";
  }
  return got.find("libgomp") != std::string::npos ? "" : "loaded " + got + ", not a libgomp";
}

// split gives round k of `rounds` its share of total (the first total % rounds get one more).
long split(long total, int rounds, int k) { return total / rounds + (k < total % rounds ? 1 : 0); }

// Driver runs the programs and pools their rows.
class Driver {
 public:
  Driver(const OmpBenchOptions& o, std::map<std::string, std::string> libraries)
      : o_(o), libraries_(std::move(libraries)) {}

  // run runs one program on runtime r, named `name` in the rows; pools its rows. Returns "" or
  // why the run is unusable.
  std::string run(const fs::path& program, const Runtime& r, const std::string& name,
                  const std::vector<std::string>& args, const std::string& policy) {
    const auto c =
        rtpar::platform::run_child(program, args, environment(o_, r, policy), o_.timeout_s);
    std::string why = c.failure(o_.timeout_s);
    if (!c.timed_out && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 127) {
      // The loader's own status: the message above (stderr is shared) names the symbol.
      why += " (symbol lookup error: the library lacks an entry point the program imports)";
    }
    std::istringstream lines(c.out);
    std::vector<OmpJson> rows;
    std::string library;
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line.front() != '{') continue;  // a runtime's own chatter
      const OmpJson j = OmpJson::parse(line, nullptr, false);
      if (!j.is_object()) continue;
      if (j.value("type", "") == "info") library = j.value("library", "?");
      if (j.value("type", "") == "row") rows.push_back(j);
      if (j.value("ok", true) == false) {
        // taskbench checked its result and it was wrong: a wrong run, not a slow one.
        why = "wrong result: " + j.value("construct", "?") + " gave " +
              j.value("result", OmpJson()).dump() + ", expected " +
              j.value("expected", OmpJson()).dump();
        wrong_ = true;
      }
    }
    if (why.empty() && library.empty()) why = "printed no info line";
    if (why.empty()) why = library_problem(r, library, libraries_);
    if (why.empty() && rows.empty()) why = "printed no rows";
    if (!why.empty()) return why;
    loaded_[name] = library;
    for (const OmpJson& j : rows) {
      const std::string bench = j.value("bench", ""), construct = j.value("construct", "");
      auto it = std::find_if(pools_.begin(), pools_.end(), [&](const OmpPool& p) {
        return p.runtime == name && p.bench == bench && p.construct == construct;
      });
      if (it == pools_.end()) {
        it = pools_.insert(pools_.end(), OmpPool{});
        it->runtime = name;
        it->bench = bench;
        it->construct = construct;
        it->first = j;
      }
      for (const OmpJson& v : j["samples"]) it->samples.push_back(v.get<double>());
      if (j.contains("serial_samples")) {
        for (const OmpJson& v : j["serial_samples"]) it->serial.push_back(v.get<double>());
      }
      it->overruns += j.value("overruns", std::int64_t{0});
      it->stalls += j.value("stalls", std::int64_t{0});
      it->max_region_ns = std::max(it->max_region_ns, j.value("max_region_ns", std::int64_t{0}));
      it->ok = it->ok && j.value("ok", true);
      ++it->runs;
    }
    return {};
  }

  // pools are the rows so far, in order of first appearance.
  [[nodiscard]] const std::vector<OmpPool>& pools() const { return pools_; }
  // wrong is true once a program reported a wrong result (exit status 4).
  [[nodiscard]] bool wrong() const { return wrong_; }
  // loaded maps each row runtime to the library its programs reported.
  [[nodiscard]] const std::map<std::string, std::string>& loaded() const { return loaded_; }

 private:
  const OmpBenchOptions& o_;
  std::map<std::string, std::string> libraries_;
  std::map<std::string, std::string> loaded_;
  std::vector<OmpPool> pools_;
  bool wrong_ = false;
};

// calibrate runs the sync program with --calibrate (on the system libgomp: the delay loop calls
// no runtime) and returns the delay length every program then uses, so the delay is identical
// across runtimes.
long calibrate(const fs::path& program, const OmpBenchOptions& o) {
  const auto c = rtpar::platform::run_child(
      program, {"--calibrate", "--delay-ns", fmt::format("{}", o.delay_ns)},
      {"LD_LIBRARY_PATH=", "OMP_NUM_THREADS=1"}, o.timeout_s);
  if (c.failure(o.timeout_s).empty()) {
    const OmpJson j = OmpJson::parse(c.out, nullptr, false);
    if (j.is_object() && j.contains("delay_iters")) return j["delay_iters"].get<long>();
  }
  throw EnvironmentError("cannot calibrate the delay loop (" + program.string() + ")",
                         "build rtpar-bench (it builds the bench/omp programs)");
}

// apply_quick shrinks every size for the smoke test (explicit options given after still win
// because CLI11 has already stored them; --quick overrides only the defaults).
void apply_quick(OmpBenchOptions& o) {
  const OmpBenchOptions d;
  auto shrink = [](auto& v, auto def, auto small) {
    if (v == def) v = small;
  };
  shrink(o.sync_reps, d.sync_reps, 20);
  shrink(o.sync_inner, d.sync_inner, 32);
  shrink(o.sched_reps, d.sched_reps, 10);
  shrink(o.sched_inner, d.sched_inner, 4);
  shrink(o.task_reps, d.task_reps, 2);
  shrink(o.fib_n, d.fib_n, 20);
  shrink(o.queens_n, d.queens_n, 7);
  shrink(o.apps_reps, d.apps_reps, 2);
  shrink(o.apps_div, d.apps_div, 16);
  shrink(o.releases, d.releases, std::int64_t{200});
  shrink(o.rounds, d.rounds, 1);
}

// validate checks the options and returns the period in ns.
std::int64_t validate(const OmpBenchOptions& o) {
  const auto bad = [](const char* field, const std::string& why) {
    return InputError(SourceLocation{"<command line>", 0, 0}, field, why);
  };
  if (o.threads < 1 || o.threads > 256) throw bad("--threads", "must be in 1..256");
  if (o.rounds < 1 || o.rounds > 100) throw bad("--rounds", "must be in 1..100");
  if (o.sync_reps < o.rounds || o.sched_reps < o.rounds || o.task_reps < o.rounds ||
      o.apps_reps < o.rounds) {
    throw bad("--reps", "every repetition count must be >= --rounds");
  }
  if (o.sync_inner < 1 || o.sched_inner < 1 || o.sched_iters < 1) {
    throw bad("--inner", "must be >= 1");
  }
  if (o.fib_n < 2 || o.fib_n > 40) throw bad("--fib", "must be in 2..40");
  if (o.queens_n < 4 || o.queens_n > 14) throw bad("--queens", "must be in 4..14");
  if (o.apps_reps > 512) throw bad("--apps-reps", "must be at most 512");
  if (o.apps_div < 1 || o.apps_div > 4096) throw bad("--apps-div", "must be in 1..4096");
  if (o.releases < 1) throw bad("--releases", "must be >= 1");
  if (o.priority < 0 || o.priority > 98) throw bad("--priority", "must be in 0..98");
  if (!(o.delay_ns > 0)) throw bad("--delay-ns", "must be > 0");
  Duration period{};
  try {
    period = parse_duration(o.period);
  } catch (const std::invalid_argument& e) {
    throw bad("--period", "'" + o.period + "': " + e.what());
  }
  if (period < std::chrono::microseconds(100)) throw bad("--period", "must be >= 100us");
  return std::chrono::duration_cast<std::chrono::nanoseconds>(period).count();
}

// program_args is the command line of one run of bench `b` with `share` repetitions.
std::vector<std::string> program_args(const OmpBenchOptions& o, const std::string& b, long share,
                                      long delay_iters, std::int64_t period_ns) {
  std::vector<std::string> a{"--delay-iters", std::to_string(delay_iters)};
  auto add = [&](const char* flag, auto v) {
    a.emplace_back(flag);
    a.push_back(fmt::format("{}", v));
  };
  if (b == "sync") {
    add("--reps", share);
    add("--inner", o.sync_inner);
  } else if (b == "sched") {
    add("--reps", share);
    add("--inner", o.sched_inner);
    add("--iters", o.sched_iters);
  } else if (b == "task") {
    add("--reps", share);
    add("--fib", o.fib_n);
    add("--queens", o.queens_n);
  } else if (b == "apps") {
    add("--reps", share);
    add("--size-div", o.apps_div);
  } else {
    add("--releases", o.releases);
    add("--period-ns", period_ns);
    add("--priority", o.priority);
  }
  return a;
}

}  // namespace

Command add_bench_omp(CLI::App& app) {
  auto o = std::make_shared<OmpBenchOptions>();
  app.add_option("--threads", o->threads, "OMP_NUM_THREADS for every runtime")
      ->capture_default_str();
  app.add_option("--bench", o->benches, "Subset of sync,sched,task,apps,periodic")
      ->delimiter(',')
      ->check(CLI::IsMember({"sync", "sched", "task", "apps", "periodic"}));
  app.add_option("--runtimes", o->runtimes,
                 "Subset of rtpar,libgomp,libomp,clang+rtpar,clang+libomp")
      ->delimiter(',')
      ->check(CLI::IsMember({"rtpar", "libgomp", "libomp", "clang+rtpar", "clang+libomp"}));
  app.add_option("--rounds", o->rounds, "Runs of each program (sync/sched/task), interleaved")
      ->capture_default_str();
  app.add_option("--reps", o->sync_reps, "syncbench outer repetitions (samples) per construct")
      ->capture_default_str();
  app.add_option("--inner", o->sync_inner, "syncbench constructs per repetition")
      ->capture_default_str();
  app.add_option("--sched-reps", o->sched_reps, "schedbench repetitions per schedule")
      ->capture_default_str();
  app.add_option("--sched-inner", o->sched_inner, "schedbench loops per repetition")
      ->capture_default_str();
  app.add_option("--sched-iters", o->sched_iters, "schedbench iterations per thread per loop")
      ->capture_default_str();
  app.add_option("--task-reps", o->task_reps, "Repetitions of fib and nqueens")
      ->capture_default_str();
  app.add_option("--fib", o->fib_n, "fib(N) with tasks")->capture_default_str();
  app.add_option("--queens", o->queens_n, "nqueens(N) with tasks")->capture_default_str();
  app.add_option("--apps-reps", o->apps_reps,
                 "Repetitions of each FFT/Jacobi/LU size, serial and parallel each")
      ->capture_default_str();
  app.add_option("--apps-div", o->apps_div, "Divide every FFT/Jacobi/LU work by this")
      ->capture_default_str();
  app.add_option("--delay-ns", o->delay_ns, "EPCC delay inside each construct (ns)")
      ->capture_default_str();
  app.add_option("--releases", o->releases, "Periodic variant: releases")->capture_default_str();
  app.add_option("--period", o->period, "Periodic variant: release period")->capture_default_str();
  app.add_option("--priority", o->priority,
                 "Periodic variant: SCHED_FIFO priority (0: SCHED_OTHER); refused -> SCHED_OTHER")
      ->capture_default_str();
  app.add_flag("!--no-bind", o->bind, "Leave OMP_PROC_BIND/OMP_PLACES unset (default: cores)");
  app.add_option("--rtpar-lib", o->rtpar_lib, "rtpar's libgomp.so.1 (default: search)");
  app.add_option("--libomp", o->libomp, "LLVM libomp.so.5 (default: found at configure time)");
  app.add_option("--timeout", o->timeout_s, "Seconds before a program is killed")
      ->capture_default_str();
  app.add_flag("--quick", o->quick, "Tiny sizes, one round (smoke test, < 20 s)");
  app.add_flag("--raw", o->raw, "With --json: every raw sample in the rows (samples_ns)");
  app.add_flag("--json", o->json, "Print the results as JSON on stdout");
  return [o]() {
    if (o->quick) apply_quick(*o);
    const std::int64_t period_ns = validate(*o);
    const rtpar_bench::ScratchDir scratch;
    OmpJson skipped = OmpJson::array();
    std::map<std::string, std::string> libraries;
    const std::vector<Runtime> rts = runtimes(*o, scratch.path(), skipped, libraries);

    std::vector<std::pair<std::string, fs::path>> programs;  // (bench, program) asked and found
    std::map<std::string, fs::path> clang_programs;          // bench -> its clang build
    const bool any_clang =
        std::any_of(rts.begin(), rts.end(), [](const Runtime& r) { return r.clang; });
    std::vector<std::string> clang_missing;
    for (const std::string b : {"sync", "sched", "task", "apps", "periodic"}) {
      if (std::find(o->benches.begin(), o->benches.end(), b) == o->benches.end()) continue;
      const std::string clang_name = kClangPrefix + b;
      if (auto p = any_clang ? rtpar_bench::find_program(clang_name) : std::nullopt) {
        clang_programs[b] = *p;
      } else if (any_clang) {
        clang_missing.push_back(clang_name);
        skipped.push_back({{"bench", b}, {"compiler", "clang"}, {"reason", "program not found"}});
      }
      if (auto p = rtpar_bench::find_program(kPrograms.at(b))) {
        programs.emplace_back(b, *p);
        continue;
      }
      fmt::print(stderr, "rtpar bench omp: skipping {}: {} not built (no OpenMP for C?)\n", b,
                 kPrograms.at(b));
      skipped.push_back({{"bench", b}, {"reason", "program not found"}});
    }
    if (!clang_missing.empty()) {
      std::string names;
      for (const std::string& n : clang_missing) names += " " + n;
      fmt::print(stderr,
                 "rtpar bench omp: skipping the clang rows of these programs, not built (no "
                 "clang-14/clang with -fopenmp at configure time?):{}\n",
                 names);
    }
    if (programs.empty() || rts.empty()) {
      throw EnvironmentError("rtpar bench omp: nothing to run (no program or no runtime)",
                             "build rtpar-bench with a C compiler that has OpenMP");
    }
    const auto sync_prog = rtpar_bench::find_program(kPrograms.at("sync"));
    const long delay_iters = calibrate(sync_prog ? *sync_prog : programs.front().second, *o);

    Driver d(*o, libraries);
    std::set<std::string> dead;  // "bench/runtime" that failed once: not run again
    int failed = 0;
    const bool progress = !o->json && isatty(STDERR_FILENO);
    auto attempt = [&](const std::string& b, const fs::path& prog, const Runtime& r,
                       const std::string& name, long share, const std::string& policy) {
      const std::string key = b + "/" + name;
      if (dead.count(key)) return;
      fs::path run_prog = prog;
      if (r.clang) {
        const auto it = clang_programs.find(b);
        if (it == clang_programs.end()) return;  // no clang build: said once above
        run_prog = it->second;
      }
      if (progress) fmt::print(stderr, "  {} on {}\n", b, name);
      const std::string why =
          d.run(run_prog, r, name, program_args(*o, b, share, delay_iters, period_ns), policy);
      if (why.empty()) return;
      fmt::print(stderr, "rtpar bench omp: {} on {} failed: {}\n", b, name, why);
      skipped.push_back({{"bench", b}, {"runtime", name}, {"reason", why}});
      dead.insert(key);
      ++failed;
    };
    for (int k = 0; k < o->rounds; ++k) {
      for (const auto& [b, prog] : programs) {
        if (b == "periodic") continue;
        const long total = b == "sync"    ? o->sync_reps
                           : b == "sched" ? o->sched_reps
                           : b == "task"  ? o->task_reps
                                          : o->apps_reps;
        // apps also under the active wait policy: FJOS Fig. 5's series are Fig. 4's spinning
        // and blocking implementations.
        for (const char* policy : {"", "active"}) {
          if (*policy && b != "apps") continue;
          for (const Runtime& r : rts) {
            attempt(b, prog, r, *policy ? r.name + "-" + policy : r.name,
                    split(total, o->rounds, k), policy);
          }
        }
      }
    }
    for (const auto& [b, prog] : programs) {
      if (b != "periodic") continue;
      for (const char* policy : {"", "active"}) {
        for (const Runtime& r : rts) {
          attempt(b, prog, r, *policy ? r.name + "-" + policy : r.name, 0, policy);
        }
      }
    }

    OmpJson rows = OmpJson::array();
    for (const OmpPool& p : d.pools()) rows.push_back(omp_row(p, o->raw));
    if (rows.empty()) {
      throw EnvironmentError("rtpar bench omp: no program produced results",
                             "see the messages above");
    }
    const OmpJson ratios = omp_ratios(rows), goals = omp_targets(rows);
    std::map<std::string, std::string> loaded = d.loaded();
    if (o->json) {
      const OmpJson out = {{"results", rows},
                           {"ratios", ratios},
                           {"targets", goals},
                           {"libraries", loaded},
                           {"config",
                            {{"threads", o->threads},
                             {"bind", o->bind},
                             {"rounds", o->rounds},
                             {"sync_reps", o->sync_reps},
                             {"sync_inner", o->sync_inner},
                             {"sched_reps", o->sched_reps},
                             {"sched_inner", o->sched_inner},
                             {"sched_iters", o->sched_iters},
                             {"task_reps", o->task_reps},
                             {"fib_n", o->fib_n},
                             {"queens_n", o->queens_n},
                             {"apps_reps", o->apps_reps},
                             {"apps_div", o->apps_div},
                             {"delay_ns", o->delay_ns},
                             {"delay_iters", delay_iters},
                             {"releases", o->releases},
                             {"period_ns", period_ns},
                             {"priority", o->priority},
                             {"quick", o->quick}}},
                           {"skipped", skipped}};
      fmt::print("{}\n", out.dump(2));
    } else {
      render_omp_table(*o, rows, ratios, goals, loaded);
    }
    if (d.wrong()) return kExitWrongResult;
    return failed > 0 ? kExitFail : kExitOk;
  };
}

}  // namespace rtpar::bench
