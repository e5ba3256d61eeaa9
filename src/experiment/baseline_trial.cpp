// baseline_trial.cpp — one runtime series with `baseline = "openmp-tasks"` on one trial's set:
// OpenMP-RT's baseline (OpenMP-RT §5.2, Table 2: "OpenMP's task framework (using loops &
// delays for periodicity)"), run by rtpar-omp-looptasks (bench/omp/looptasks.c) on stock libgomp
// at SCHED_OTHER, unpinned, without admission control. The set's tasks become the program's lines;
// its channels are not modelled (the baseline has no such construct). docs/experiments.md,
// "OpenMP-RT Table 2".
#include <unistd.h>

#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "experiment/trial.hpp"
#include "platform/child_process.hpp"
#include "platform/program_dirs.hpp"

namespace rtpar::experiment {

namespace {

// kBaselineProgram is the program that runs the baseline (built with the bench/omp programs).
constexpr const char* kBaselineProgram = "rtpar-omp-looptasks";

// TempFile is a file created with mkstemp under $TMPDIR (or /tmp), removed when it goes.
class TempFile {
 public:
  TempFile() {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/rtpar-baseline-XXXXXX";
    fd_ = ::mkstemp(path_.data());
    if (fd_ < 0) throw std::runtime_error("cannot create " + path_ + " for the baseline's tasks");
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  // write writes all of text, or throws.
  void write(const std::string& text) const {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
      if (n <= 0) throw std::runtime_error("cannot write " + path_);
      done += static_cast<std::size_t>(n);
    }
  }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

// task_lines is set in the program's format: `name period deadline work span threads phase`, ns.
std::string task_lines(const TaskSet& set) {
  std::string out = "# name period_ns deadline_ns work_ns span_ns threads phase_ns\n";
  for (const TaskSpec& t : set.tasks) {
    std::string name = t.name;
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == ' ' || c == '\t'; }, '_');
    const std::int64_t span = t.span.count() > 0 ? t.span.count() : t.work.count();
    // threads = 0 is one thread per place (partitioned), or the whole machine for a task planned
    // as a team: its parallelism is still offered to the runtime.
    const std::size_t threads = t.threads > 0       ? static_cast<std::size_t>(t.threads)
                                : !t.places.empty() ? t.places.size()
                                                    : set.system.cores.size();
    out += fmt::format("{} {} {} {} {} {} {}\n", name, t.period.count(), t.deadline.count(),
                       t.work.count(), span, std::max<std::size_t>(1, threads), t.phase.count());
  }
  return out;
}

}  // namespace

void run_baseline(const Series& s, const TaskSet& set, SeriesResult& out) {
  const std::optional<std::filesystem::path> program = platform::find_program(kBaselineProgram);
  if (!program) {
    // Like a bench study's missing peer: n/a here (sanitizer builds leave the OpenMP programs
    // out), never a row that pretends the baseline ran.
    out.verdict = Verdict::not_applicable;
    return;
  }
  const TempFile file;
  file.write(task_lines(set));
  const std::int64_t duration_ms = std::max<std::int64_t>(1, s.run->duration_ns / 1'000'000);
  const int timeout_s = static_cast<int>(duration_ms / 1000) + 60;
  const std::vector<std::string> args{"--tasks",       file.path(),
                                      "--duration-ms", std::to_string(duration_ms),
                                      "--cores",       std::to_string(set.system.cores.size())};
  const platform::ChildOutcome child = platform::run_child(program->string(), args, {}, timeout_s);
  if (const std::string failure = child.failure(timeout_s); !failure.empty()) {
    throw std::runtime_error(fmt::format("series '{}': {}: {}", s.name, kBaselineProgram, failure));
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(child.out);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{} printed no JSON: {}", kBaselineProgram, e.what()));
  }
  double relative_sum = 0;
  for (const nlohmann::json& t : doc.at("tasks")) {
    const auto jobs = t.at("jobs").get<std::int64_t>();
    const auto deadline = static_cast<double>(t.at("deadline_ns").get<std::int64_t>());
    out.jobs += jobs;
    out.misses += t.at("misses").get<std::int64_t>();
    if (jobs > 0) {
      out.max_relative_response =
          std::max(out.max_relative_response.value_or(0.0),
                   static_cast<double>(t.at("max_response_ns").get<std::int64_t>()) / deadline);
      relative_sum += t.at("mean_response_ns").get<double>() * static_cast<double>(jobs) / deadline;
    }
  }
  if (out.jobs > 0) out.mean_relative_response = relative_sum / static_cast<double>(out.jobs);
  out.simulated = true;
  out.verdict = out.misses > 0 ? Verdict::missed : Verdict::admitted;
}

}  // namespace rtpar::experiment
