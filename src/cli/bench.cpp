// bench.cpp — `rtpar bench ARGS...`: runs rtpar-bench with ARGS.
//
// The benchmarks against peer runtimes are a program of their own (bench/driver/), so building
// `rtpar` needs no peer runtime. This forwarder keeps the command line as it was: it finds
// rtpar-bench where the bench programs live (bench/common/program_files.hpp) and execs it, so
// options, output, help and exit statuses are rtpar-bench's own.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/commands.hpp"
#include "platform/program_dirs.hpp"  // bench/common: the same search as the bench programs'

namespace rtpar::cli {

namespace {

// kBenchProgram is the file name of the benchmark driver.
constexpr const char* kBenchProgram = "rtpar-bench";

// exec_bench replaces this process with rtpar-bench ARGS, under the name `rtpar bench` (`self`
// is how rtpar was invoked); it returns only on failure.
int exec_bench(const std::string& self, const std::vector<std::string>& args) {
  const auto path = platform::find_program(kBenchProgram);
  if (!path) {
    std::string where;
    for (const auto& d : platform::program_dirs()) where += " " + d.string();
    fmt::print(stderr,
               "rtpar: error: `rtpar bench` needs {}, which is not built or installed (looked "
               "in{})\nhint: configure with -DRTPAR_BUILD_BENCH=ON and build it (cmake --build "
               "build --target rtpar-bench), or set RTPAR_BENCH_DIR to its directory\n",
               kBenchProgram, where);
    return kExitBadInput;
  }
  // argv[0] is what rtpar-bench's usage lines and errors call it: "rtpar bench" as invoked (for
  // example "build/rtpar bench"), as when the subcommands were rtpar's own; the rest are the
  // arguments as given, in order.
  const std::string program = path->string();
  std::vector<std::string> owned{self + " bench"};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execv(program.c_str(), argv.data());
  fmt::print(stderr, "rtpar: internal error: cannot run {}: {}\n", program, std::strerror(errno));
  return kExitInternal;
}

}  // namespace

Command add_bench(CLI::App& app) {
  // Everything after `bench` belongs to rtpar-bench, --help included (it lists the subcommands):
  // no parsing here, so the two programs cannot disagree about an option.
  app.prefix_command();
  app.set_help_flag();
  return [&app]() {
    const CLI::App* top = app.get_parent();
    return exec_bench(top != nullptr ? top->get_name() : "rtpar", app.remaining());
  };
}

}  // namespace rtpar::cli
