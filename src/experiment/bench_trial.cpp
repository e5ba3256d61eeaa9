// bench_trial.cpp — one unit of a bench study: one rtpar-bench driver run, its JSON records
// matched to the series (bench_spec.hpp).
#include <sys/wait.h>

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "experiment/trial.hpp"
#include "platform/child_process.hpp"
#include "platform/program_dirs.hpp"

namespace rtpar::experiment {

namespace {

// kDriverProgram is the benchmark driver `rtpar bench` forwards to (src/cli/bench.cpp).
constexpr const char* kDriverProgram = "rtpar-bench";

// driver_args are the arguments of unit u's driver run, in the order the manifest states them:
// the subcommand, [bench] args, the panel's, the scale's, then the point's x and --json.
std::vector<std::string> driver_args(const Resolved& r, const Unit& u) {
  const Manifest& m = r.manifest;
  std::vector<std::string> args{m.bench->driver};
  const auto append = [&args](const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
  };
  append(m.bench->args);
  append(r.panel_of(u.point).args);
  append(m.scales.at(r.scale).args);
  if (!m.bench->x_option.empty()) {
    args.push_back(m.bench->x_option);
    args.push_back(r.points[u.point].x);
  }
  args.emplace_back("--json");
  return args;
}

// DriverRuns keeps the output of every driver run of this process, by the run's identity, so that
// panels differing only in `match` (e.g. the three channel placements of one `--fig 3` run) share
// one run per (x, trial) instead of measuring everything again per panel. A process only: a shard
// that holds one such panel runs the driver itself, which is as valid (rows are measurements).
class DriverRuns {
 public:
  // find is the output of the run with this key, if this process made it.
  std::optional<std::string> find(const std::string& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = runs_.find(key);
    return it == runs_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  // keep records a successful run's output.
  void keep(const std::string& key, const std::string& out) {
    const std::lock_guard<std::mutex> lock(mutex_);
    runs_.emplace(key, out);
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> runs_;
};

// driver_runs is this process's DriverRuns.
DriverRuns& driver_runs() {
  static DriverRuns runs;
  return runs;
}

}  // namespace

UnitResult bench_unit(const Resolved& r, const Unit& u) {
  const Manifest& m = r.manifest;
  const BenchSpec& b = *m.bench;
  const std::optional<std::filesystem::path> program = platform::find_program(kDriverProgram);
  if (!program) {
    throw EnvironmentError(
        "a bench study needs rtpar-bench, which is not built or installed",
        "configure with -DRTPAR_BUILD_BENCH=ON and build it (cmake --build build --target "
        "rtpar-bench), or set RTPAR_BENCH_DIR to its directory");
  }
  const std::vector<std::string> args = driver_args(r, u);
  std::string command = "rtpar bench";
  for (std::size_t i = 0; i < args.size(); ++i) command += " " + args[i];
  // The run's identity: the study, the trial and the exact command (which holds x and the panel's
  // arguments): the same study twice in one process (tests) never reuses a run across trials.
  const std::string key = fmt::format("{}|{}|{}|{}|{}", m.name, r.scale, r.seed, u.trial, command);
  const auto start = std::chrono::steady_clock::now();
  const std::optional<std::string> shared = driver_runs().find(key);
  platform::ChildOutcome child;
  if (shared) {
    child.out = *shared;
  } else {
    child = platform::run_child(program->string(), args, {}, b.timeout_s);
  }
  const std::int64_t elapsed_us = std::chrono::duration_cast<std::chrono::microseconds>(
                                      std::chrono::steady_clock::now() - start)
                                      .count();
  if (const std::string failure = child.failure(b.timeout_s); !failure.empty()) {
    const bool exited = child.spawn_error.empty() && !child.timed_out && WIFEXITED(child.status);
    if (exited && WEXITSTATUS(child.status) == 3) {
      throw EnvironmentError("`" + command + "` was refused real-time scheduling",
                             "run as root (or with CAP_SYS_NICE and an RLIMIT_RTPRIO), or give "
                             "the driver's --best-effort option in [bench] args where it has one");
    }
    if (exited && WEXITSTATUS(child.status) == 2) {
      throw InputError(b.where, "bench.args",
                       "`" + command + "` refused its arguments (its message is above)");
    }
    throw std::runtime_error("`" + command + "`: " + failure);
  }
  if (!shared) driver_runs().keep(key, child.out);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(child.out);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("`" + command + "` printed no JSON: " + e.what());
  }
  const auto results = doc.is_object() ? doc.find(b.records) : doc.end();
  if (results == doc.end() || !results->is_array()) {
    throw std::runtime_error(
        fmt::format("`{}` printed JSON without a \"{}\" array", command, b.records));
  }
  UnitResult out;
  out.unit = u;
  out.tasks = 0;
  for (std::size_t index = 0; index < m.series.size(); ++index) {
    const Series& s = m.series[index];
    BenchMatch match = s.match;
    match.insert(r.panel_of(u.point).match.begin(), r.panel_of(u.point).match.end());
    SeriesResult sr;
    sr.elapsed_us = elapsed_us;
    sr.verdict = Verdict::not_applicable;  // no record: the peer is not available here
    int matched = 0;
    for (const nlohmann::json& record : *results) {
      if (!record_matches(record, match)) continue;
      if (++matched > 1) {
        throw InputError(s.where, fmt::format("series[{}].match", index),
                         fmt::format("series \"{}\" matches more than one record of `{}`: name "
                                     "another field (e.g. construct or variant) in match",
                                     s.name, command));
      }
      for (const std::string& metric : b.metrics) {
        const auto it = record.find(metric);
        sr.metrics.push_back(it != record.end() && it->is_number()
                                 ? std::optional<double>(it->get<double>())
                                 : std::nullopt);
      }
      // A record without any of the metrics measured nothing (e.g. a lock channel the driver
      // refuses between RT and non-RT threads, its cells null): n/a, not "measured".
      if (std::any_of(sr.metrics.begin(), sr.metrics.end(),
                      [](const std::optional<double>& v) { return v.has_value(); })) {
        sr.verdict = Verdict::admitted;
      }
    }
    if (matched == 0) sr.metrics.assign(b.metrics.size(), std::nullopt);
    out.series.push_back(std::move(sr));
  }
  return out;
}

}  // namespace rtpar::experiment
