// bench_wcet.cpp — `rtpar bench wcet`: OpenMP-RT Table 1, the WCETs of the BOTS and EPCC task
// kernels "for sequential and 2-threaded versions", each "the maximum observed execution time for
// a given task over a 1,000 run test" (OpenMP-RT §5), measured on rtpar's libgomp.so.1 and on
// stock libgomp in the same run (docs/bench-omp.md "WCET").
//
// The kernels are rtpar's own (bench/omp/wcet/, one .c each, each checked against a serial
// reference on every run), compiled once by `gcc -fopenmp` into rtpar-bench-omp-wcet and run
// unchanged on both libraries: only LD_LIBRARY_PATH and OMP_NUM_THREADS differ. The threads are
// pinned (OMP_PROC_BIND=true, OMP_PLACES=cores) and run under SCHED_FIFO --priority (the program
// sets it before its team exists, so the workers inherit it); refused, the program and this
// driver exit 3 with a hint (--best-effort: SCHED_OTHER, a functional check only).
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "common/program_files.hpp"
#include "core/exit_status.hpp"
#include "driver/commands.hpp"
#include "driver/rtpar_libgomp.hpp"
#include "platform/child_process.hpp"
#include "rtpar/error.hpp"

#ifndef RTPAR_BENCH_INSTALL_LIBDIR
#define RTPAR_BENCH_INSTALL_LIBDIR "lib"
#endif

namespace rtpar::bench {

namespace {

namespace fs = std::filesystem;

// kWcetProgram is the harness program (bench/omp/CMakeLists.txt).
constexpr const char* kWcetProgram = "rtpar-bench-omp-wcet";

// WcetOptions are the command-line options.
struct WcetOptions {
  std::string kernels;             // "" = all fifteen
  std::vector<int> threads{1, 2};  // team sizes: Table 1's two columns
  std::vector<std::string> runtimes{"rtpar", "libgomp"};
  long runs = 1000;  // the paper's "1,000 run test"
  long warmup = 20;
  int priority = 50;
  std::string wait_policy = "active";  // OMP_WAIT_POLICY of both runtimes
  bool best_effort = false;
  std::string rtpar_lib;
  int timeout_s = 600;
  bool json = false;
};

// WcetRuntime is one OpenMP library: its name, LD_LIBRARY_PATH and the file it must load ("" =
// the system's libgomp, what the loader finds by itself).
struct WcetRuntime {
  std::string name, ld_library_path, expect;
};

// wcet_runtimes are the libraries asked for that exist; a missing one is said on stderr.
std::vector<WcetRuntime> wcet_runtimes(const WcetOptions& o) {
  std::vector<WcetRuntime> out;
  for (const std::string& name : o.runtimes) {
    if (name == "libgomp") {
      out.push_back({"libgomp", "", ""});
    } else if (name == "rtpar") {
      std::vector<fs::path> looked;
      if (auto lib = find_rtpar_libgomp(o.rtpar_lib, looked)) {
        std::error_code ec;
        const fs::path real = fs::canonical(*lib, ec);  // the file each run must have loaded
        if (!ec) lib = real;
        out.push_back({"rtpar", lib->parent_path().string(), lib->string()});
      } else {
        fmt::print(stderr,
                   "rtpar bench wcet: rtpar's libgomp.so.1 not found (build target "
                   "rtpar_omp, or --rtpar-lib): skipping rtpar\n");
      }
    } else {
      throw InputError(SourceLocation{}, "--runtimes",
                       "unknown runtime '" + name + "' (expected rtpar or libgomp)");
    }
  }
  return out;
}

// RunFailure is a harness run that produced no rows: the exit status to return and why.
struct RunFailure {
  int status;
  std::string why;
};

// run_harness runs the harness on runtime r with team size t and returns its rows, each with
// "runtime" added, or the failure. The library the program reports must be r's.
std::variant<std::vector<nlohmann::ordered_json>, RunFailure> run_harness(const WcetOptions& o,
                                                                          const fs::path& program,
                                                                          const WcetRuntime& r,
                                                                          int t) {
  std::vector<std::string> args{"--runs",     std::to_string(o.runs),
                                "--warmup",   std::to_string(o.warmup),
                                "--priority", std::to_string(o.best_effort ? 0 : o.priority)};
  if (!o.kernels.empty()) args.insert(args.end(), {"--kernels", o.kernels});
  const std::vector<std::string> env{"LD_LIBRARY_PATH=" + r.ld_library_path,
                                     "OMP_NUM_THREADS=" + std::to_string(t),
                                     "OMP_DYNAMIC=false",
                                     "OMP_PROC_BIND=true",
                                     "OMP_PLACES=cores",
                                     "OMP_WAIT_POLICY=" + o.wait_policy};
  const auto c = platform::run_child(program.string(), args, env, o.timeout_s);
  const bool exited = c.spawn_error.empty() && !c.timed_out && WIFEXITED(c.status);
  if (exited && WEXITSTATUS(c.status) == kExitEnvironment) {
    return RunFailure{kExitEnvironment,
                      "SCHED_FIFO refused (run as root or with CAP_SYS_NICE, "
                      "or pass --best-effort)"};
  }
  if (exited && WEXITSTATUS(c.status) == kExitBadInput) {
    return RunFailure{kExitBadInput, "the harness refused its arguments (message above)"};
  }
  if (exited && WEXITSTATUS(c.status) == kExitWrongResult) {
    return RunFailure{kExitWrongResult, "a kernel computed a wrong result (message above)"};
  }
  if (const std::string f = c.failure(o.timeout_s); !f.empty()) return RunFailure{kExitFail, f};
  std::vector<nlohmann::ordered_json> rows;
  std::string library;
  std::istringstream lines(c.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() != '{') continue;  // a runtime's own chatter
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    if (j.value("type", "") == "info") library = j.value("library", "?");
    if (j.value("type", "") != "row") continue;
    j.erase("type");
    j.erase("bench");
    nlohmann::ordered_json row{{"runtime", r.name}};
    row.update(j);
    rows.push_back(std::move(row));
  }
  // The library really loaded: rtpar's file exactly, or for stock libgomp any libgomp that is
  // not rtpar's (LD_LIBRARY_PATH emptied lets the loader find the system's).
  const bool right = r.expect.empty() ? library.find("libgomp") != std::string::npos &&
                                            library.find("/rtpar/omp/") == std::string::npos
                                      : library == r.expect;
  if (!right)
    return RunFailure{kExitFail, "loaded '" + library + "', not " + r.name + "'s library"};
  if (rows.empty()) return RunFailure{kExitFail, "printed no rows"};
  return rows;
}

// render prints Table 1's layout: per kernel and runtime, max (and p50) of each team size and
// the 2-thread/sequential ratio of the maxima.
void render(const std::vector<nlohmann::ordered_json>& rows) {
  std::map<std::string, std::map<int, const nlohmann::ordered_json*>> by;  // "kernel runtime"
  std::vector<std::string> order;
  for (const auto& r : rows) {
    const std::string key = fmt::format("{:<11} {:<8}", r["kernel"].get<std::string>(),
                                        r["runtime"].get<std::string>());
    if (!by.count(key)) order.push_back(key);
    by[key][r["threads"].get<int>()] = &r;
  }
  fmt::print("{:<11} {:<8} {:>12} {:>12} {:>12} {:>12} {:>9}\n", "kernel", "runtime", "max 1t (us)",
             "max 2t (us)", "p50 1t (us)", "p50 2t (us)", "max 2t/1t");
  for (const std::string& key : order) {
    const auto& m = by[key];
    const auto cell = [&](int t, const char* f) {
      return m.count(t) ? fmt::format("{:.1f}", m.at(t)->at(f).get<double>() / 1e3) : "-";
    };
    const std::string ratio = m.count(1) && m.count(2)
                                  ? fmt::format("{:.2f}", m.at(2)->at("max_ns").get<double>() /
                                                              m.at(1)->at("max_ns").get<double>())
                                  : "-";
    fmt::print("{} {:>12} {:>12} {:>12} {:>12} {:>9}\n", key, cell(1, "max_ns"), cell(2, "max_ns"),
               cell(1, "p50_ns"), cell(2, "p50_ns"), ratio);
  }
}

}  // namespace

Command add_bench_wcet(CLI::App& app) {
  auto o = std::make_shared<WcetOptions>();
  app.add_option("--kernels", o->kernels,
                 "Comma-separated kernels (default: all of Table 1: alignment, fft, fib, "
                 "floorplan, health, NQueens, knapsack, sort, sparselu, strassen, uts, "
                 "TaskBench, ArrayBench, SyncBench, SchedBench)");
  app.add_option("--threads", o->threads, "Team sizes (Table 1: 1 and 2)")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--runtimes", o->runtimes, "rtpar and/or libgomp")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--runs", o->runs, "Timed runs per kernel (the paper: 1000)")
      ->check(CLI::Range(1L, 10'000'000L))
      ->capture_default_str();
  app.add_option("--warmup", o->warmup, "Untimed runs first")
      ->check(CLI::Range(0L, 1'000'000L))
      ->capture_default_str();
  app.add_option("--priority", o->priority, "SCHED_FIFO priority of the program and its team")
      ->check(CLI::Range(1, 99))
      ->capture_default_str();
  // Active by default: a worker that sleeps between two runs of a kernel is woken by a futex,
  // which costs 50-185 us under KVM (docs/experiments.md, FJOS Fig. 7) — the VM's cost, not the
  // kernel's. OpenMP-RT's rttasks keep their threads between jobs (OpenMP-RT §3).
  app.add_option("--wait-policy", o->wait_policy, "OMP_WAIT_POLICY of both runtimes")
      ->check(CLI::IsMember({"active", "passive"}))
      ->capture_default_str();
  app.add_flag("--best-effort", o->best_effort, "SCHED_OTHER (a functional check, not a WCET)");
  app.add_option("--rtpar-lib", o->rtpar_lib, "rtpar's libgomp.so.1 (default: search)");
  app.add_option("--timeout", o->timeout_s, "Seconds before a harness run is killed")
      ->capture_default_str();
  app.add_flag("--json", o->json, "Print the rows as JSON ({\"wcet\": [...]}) on stdout");
  return [o]() {
    const auto program = rtpar_bench::find_program(kWcetProgram);
    if (!program) {
      throw EnvironmentError("rtpar bench wcet: " + std::string(kWcetProgram) + " not built",
                             "build rtpar-bench with a C compiler that has OpenMP");
    }
    const std::vector<WcetRuntime> rts = wcet_runtimes(*o);
    if (rts.empty()) throw EnvironmentError("rtpar bench wcet: no runtime to run", "");
    std::vector<nlohmann::ordered_json> rows;
    nlohmann::ordered_json libraries = nlohmann::ordered_json::object();
    for (const WcetRuntime& r : rts) {
      libraries[r.name] = r.expect.empty() ? "system libgomp" : r.expect;
      for (const int t : o->threads) {
        auto got = run_harness(*o, *program, r, t);
        if (auto* f = std::get_if<RunFailure>(&got)) {
          fmt::print(stderr, "rtpar bench wcet: {} with {} thread(s): {}\n", r.name, t, f->why);
          return f->status;
        }
        for (auto& row : std::get<std::vector<nlohmann::ordered_json>>(got)) rows.push_back(row);
      }
    }
    if (o->json) {
      nlohmann::ordered_json doc{{"bench", "wcet"},
                                 {"runs", o->runs},
                                 {"policy", o->best_effort ? "SCHED_OTHER" : "SCHED_FIFO"},
                                 {"wait_policy", o->wait_policy},
                                 {"libraries", libraries},
                                 {"wcet", rows}};
      fmt::print("{}\n", doc.dump(2));
    } else {
      render(rows);
    }
    return kExitOk;
  };
}

}  // namespace rtpar::bench
