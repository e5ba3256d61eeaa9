// channels_work.cpp — see channels_work.hpp.
#include "driver/channels_work.hpp"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "rtpar/error.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/time.hpp"

namespace rtpar::bench {

const char* to_string(PairConfig config) noexcept {
  switch (config) {
    case PairConfig::rt_rt:
      return "RT->RT";
    case PairConfig::rt_nrt:
      return "RT->nRT";
    case PairConfig::nrt_rt:
      return "nRT->RT";
  }
  return "?";
}

void spin_cpu_until(std::int64_t thread_cpu_start_ns, std::int64_t budget_ns) {
  // Reading the thread CPU clock is a system call (~0.3 µs); checking every 64 rounds of a
  // dependent multiply keeps the overshoot well below a microsecond.
  volatile std::uint64_t sink = 1;
  while (thread_cpu_now() - thread_cpu_start_ns < budget_ns) {
    std::uint64_t x = sink;
    for (int i = 0; i < 64; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    sink = x;
  }
}

NrtLoop::NrtLoop(int core, std::int64_t period_ns, const std::atomic<std::int64_t>* first_release,
                 std::function<void(std::int64_t)> body, std::size_t max_iterations)
    : core_(core), period_ns_(period_ns), first_release_(first_release), body_(std::move(body)) {
  responses_.reserve(max_iterations);
  thread_ = std::thread([this] { run(); });
}

NrtLoop::~NrtLoop() { stop(); }

void NrtLoop::stop() {
  stop_.store(true, std::memory_order_relaxed);
  if (thread_.joinable()) thread_.join();
}

namespace {

timespec to_timespec(std::int64_t ns) {
  return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

void sleep_until(std::int64_t ns) {
  const timespec ts = to_timespec(ns);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
}

}  // namespace

void NrtLoop::run() {
  // Pinned like the RT task it stands for, but left SCHED_OTHER: it only gets what the
  // real-time tasks on its core leave, which is exactly the paper's nRT band.
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(core_, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  std::int64_t first = 0;
  while ((first = first_release_->load(std::memory_order_acquire)) == 0) {
    if (stop_.load(std::memory_order_relaxed)) return;
    sleep_until(monotonic_now() + 1'000'000);
  }
  for (std::int64_t k = 0; !stop_.load(std::memory_order_relaxed); ++k) {
    const std::int64_t release = first + k * period_ns_;
    sleep_until(release);
    if (stop_.load(std::memory_order_relaxed)) return;
    body_(k);
    if (responses_.size() < responses_.capacity()) {
      responses_.push_back(monotonic_now() - release);
    }
  }
}

RunReport run_pinned(System& sys, const std::vector<int>& cores, RunConfig config) {
  Plan plan = sys.plan();
  std::map<int, double> load;
  for (std::size_t k = 0; k < plan.tasks.size(); ++k) {
    plan.tasks[k].cores = {cores.at(k)};
    load[cores[k]] += sys.taskset().tasks[k].utilization();
  }
  plan.schedulable = true;
  for (const auto& [core, u] : load) {
    if (u > 1.0) {
      throw InputError(SourceLocation{"<bench channels>", 0, 0}, "utilization",
                       fmt::format("core {} would carry utilization {:.2f} > 1", core, u));
    }
  }
  config.channels = &sys.open_channels(config);
  return execute(sys.taskset(), plan, config);
}

}  // namespace rtpar::bench
