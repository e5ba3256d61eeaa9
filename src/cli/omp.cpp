// omp.cpp — `rtpar omp [--cores LIST] [--fifo PRIO] [--wait KIND] [--threads N] -- PROGRAM ARGS`:
// runs an unchanged OpenMP program (built with gcc -fopenmp) on rtpar's OpenMP runtime
// (lib/rtpar/omp/libgomp.so.1, docs/openmp.md). It sets the CPU affinity and the scheduling class
// of this process, which the program inherits, puts the runtime's directory first on
// LD_LIBRARY_PATH, and replaces itself with the program (exec), so the exit status is the
// program's own.
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/commands.hpp"
#include "core/exit_status.hpp"
#include "platform/elf_symbols.hpp"
#include "platform/omp_library_dir.hpp"
#include "rtpar/error.hpp"

namespace rtpar::cli {

namespace {

struct OmpOptions {
  std::string cores;
  int fifo = 0;
  std::string wait;
  int threads = 0;
  std::vector<std::string> command;
};

// omp_library_dir is the directory of rtpar's libgomp.so.1 (platform/omp_library_dir.hpp).
std::filesystem::path omp_library_dir() {
  if (const auto dir = platform::find_omp_library_dir()) return *dir;
  throw InputError(SourceLocation{"<command line>", 0, 0}, "omp",
                   "rtpar's OpenMP runtime (lib/rtpar/omp/libgomp.so.1) was not found next to "
                   "rtpar; build it (make build) or set RTPAR_OMP_DIR");
}

// parse_cores reads a CPU list such as "0,2-3" into a CPU set, refusing CPUs outside the
// process's current affinity mask.
cpu_set_t parse_cores(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return InputError(SourceLocation{"<command line>", 0, 0}, "--cores",
                      fmt::format("'{}': {}", text, why));
  };
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) CPU_ZERO(&allowed);
  cpu_set_t set;
  CPU_ZERO(&set);
  std::size_t i = 0;
  const auto number = [&]() {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') throw bad("expected a CPU number");
    long v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      v = v * 10 + (text[i++] - '0');
      if (v >= CPU_SETSIZE) throw bad("CPU number too large");
    }
    return static_cast<int>(v);
  };
  for (;;) {
    const int lo = number();
    int hi = lo;
    if (i < text.size() && text[i] == '-') {
      ++i;
      hi = number();
      if (hi < lo) throw bad("a range must go upwards");
    }
    for (int c = lo; c <= hi; ++c) {
      if (!CPU_ISSET(c, &allowed)) throw bad(fmt::format("CPU {} is not available to rtpar", c));
      CPU_SET(c, &set);
    }
    if (i == text.size()) break;
    if (text[i] != ',') throw bad("expected ',' between CPUs");
    ++i;
  }
  return set;
}

// prepend_env puts `dir` first on the search-path variable `name`.
void prepend_env(const char* name, const std::string& dir) {
  const char* old = std::getenv(name);
  const std::string value = old != nullptr && *old != '\0' ? dir + ":" + old : dir;
  setenv(name, value.c_str(), 1);
}

// program_path is the file execvp would run for `name`: itself when it has a '/', else the first
// executable match on PATH ("" when none).
std::string program_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t at = 0;
  while (at <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string dir = end > at ? dirs.substr(at, end - at) : ".";
    const std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    at = end + 1;
  }
  return {};
}

// warn_foreign_runtime says when the program links an OpenMP runtime that the library path
// does not redirect to rtpar's. A clang-built program (libomp.so.5 or libomp.so, LLVM's ABI) runs
// on rtpar's libomp.so.5 when it is in `dir` (the library path set below puts it first; a
// DT_RUNPATH, which clang writes, comes after it): no warning then. Intel's libiomp5.so speaks
// the same ABI under another name, which rtpar does not provide: such a program would run on its
// own runtime, outside --cores/--fifo's team rules, with nothing said. A program whose OpenMP
// comes through another library (or a non-PIE executable) is not judged.
void warn_foreign_runtime(const std::string& program, const std::filesystem::path& dir) {
  const std::string file = program_path(program);
  if (file.empty()) return;  // execvp reports it
  std::vector<std::string> needed;
  try {
    needed = platform::needed_libraries_in_file(file);
  } catch (const platform::ElfError&) {
    return;
  }
  const bool have_llvm_abi = access((dir / "libomp.so.5").c_str(), R_OK) == 0;
  for (const std::string& lib : needed) {
    const bool llvm = lib == "libomp.so" || lib == "libomp.so.5";
    if (!llvm && lib != "libiomp5.so") continue;
    if (llvm && have_llvm_abi) return;  // runs on rtpar's libomp.so.5
    fmt::print(stderr,
               "rtpar omp: warning: {} is linked against {} ({} OpenMP runtime), which rtpar's "
               "runtime directory {} does not provide: it runs on that runtime, not on rtpar's, "
               "so rtpar's team rules do not apply; build it with gcc -fopenmp or clang "
               "-fopenmp (libomp.so.5)\n",
               program, lib, llvm ? "LLVM's" : "Intel's", dir.string());
    return;
  }
}

int run_omp(const OmpOptions& o) {
  if (o.command.empty()) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "PROGRAM",
                     "no program given: rtpar omp [options] -- PROGRAM [ARGS...]");
  }
  const std::filesystem::path dir = omp_library_dir();
  if (!o.cores.empty()) {
    const cpu_set_t set = parse_cores(o.cores);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
      throw EnvironmentError(
          fmt::format("cannot pin to CPUs {}: {}", o.cores, std::strerror(errno)),
          "check the CPU list against `nproc` and the cgroup's cpuset");
    }
  }
  if (o.fifo > 0) {
    sched_param p{};
    p.sched_priority = o.fifo;
    if (sched_setscheduler(0, SCHED_FIFO, &p) != 0) {
      throw EnvironmentError(
          fmt::format("SCHED_FIFO priority {} refused: {}", o.fifo, std::strerror(errno)),
          "run as root, grant CAP_SYS_NICE (setcap cap_sys_nice+ep), or raise RLIMIT_RTPRIO; "
          "or leave out --fifo");
    }
  }
  if (!o.wait.empty()) setenv("RTPAR_OMP_WAIT", o.wait.c_str(), 1);
  if (o.threads > 0) setenv("OMP_NUM_THREADS", std::to_string(o.threads).c_str(), 1);
  prepend_env("LD_LIBRARY_PATH", dir.string());
  warn_foreign_runtime(o.command.front(), dir);
  std::vector<char*> argv;
  argv.reserve(o.command.size() + 1);
  for (const std::string& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  execvp(argv[0], argv.data());
  const int err = errno;
  fmt::print(stderr, "rtpar omp: cannot run {}: {}\n", o.command.front(), std::strerror(err));
  // As a shell does: 127 when the program is not found, 126 when it cannot be executed.
  return err == ENOENT ? 127 : 126;
}

}  // namespace

Command add_omp(CLI::App& app) {
  auto opts = std::make_shared<OmpOptions>();
  app.add_option("--cores", opts->cores, "CPUs to run on, e.g. 0-1 or 0,2 (default: all allowed)");
  app.add_option("--fifo", opts->fifo, "Run at SCHED_FIFO with this priority (1..99)")
      ->check(CLI::Range(1, 99));
  app.add_option("--wait", opts->wait, "How team members wait: spin, block or hybrid")
      ->check(CLI::IsMember({"spin", "block", "hybrid"}));
  app.add_option("--threads", opts->threads, "Team size (sets OMP_NUM_THREADS)")
      ->check(CLI::Range(1, 4096));
  app.add_option("command", opts->command, "The OpenMP program and its arguments (after --)")
      ->expected(-1);
  app.footer("Example: rtpar omp --cores 0-1 --fifo 50 -- ./vision --frames 100");
  return [opts] { return run_omp(*opts); };
}

}  // namespace rtpar::cli
