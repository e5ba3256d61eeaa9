// plot.cpp — `rtpar plot DIR [--out PNGDIR]`: draws a run's report directory (`rtpar run --out
// DIR`) as histogram.png, response.png and timeline.png with tools/plot_run.py (matplotlib).
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/commands.hpp"
#include "cli/tool_path.hpp"
#include "core/exit_status.hpp"
#include "rtpar/error.hpp"

extern char** environ;

namespace rtpar::cli {

namespace {

// PlotOptions are `rtpar plot`'s arguments.
struct PlotOptions {
  std::string dir;
  std::string out;
};

// run_plot checks DIR, then runs tools/plot_run.py DIR PNGDIR and returns its exit status (0;
// 2 bad input; 3 no matplotlib: the script says which).
int run_plot(const PlotOptions& o) {
  namespace fs = std::filesystem;
  for (const char* file : {"jobs.csv", "report.json"}) {
    if (!fs::is_regular_file(fs::path(o.dir) / file)) {
      throw InputError({o.dir, 0, 0}, "DIR",
                       fmt::format("no {} here: give a directory written by `rtpar run --out "
                                   "DIR`",
                                   file));
    }
  }
  const std::optional<fs::path> script = tool_path("plot_run.py");
  if (!script) {
    throw EnvironmentError("tools/plot_run.py was not found beside rtpar",
                           "reinstall rtpar (it installs share/rtpar/tools/plot_run.py)");
  }
  std::vector<std::string> args = {python_program(), script->string(), o.dir,
                                   o.out.empty() ? o.dir : o.out};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ); rc != 0) {
    throw EnvironmentError(fmt::format("cannot run {}: {}", args[0], std::strerror(rc)),
                           "install python3 (Debian: scripts/setup.sh)");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status)) return kExitInternal;
  return WEXITSTATUS(status);
}

}  // namespace

Command add_plot(CLI::App& app) {
  auto opts = std::make_shared<PlotOptions>();
  app.add_option("dir", opts->dir, "A run's report directory (rtpar run --out DIR)")->required();
  app.add_option("--out", opts->out, "Where to write the PNGs (default: DIR)");
  return [opts] { return run_plot(*opts); };
}

}  // namespace rtpar::cli
