// channels_work.hpp — what the `bench channels` jobs do besides communicating: burn a CPU-time
// budget, and run a non-real-time periodic loop pinned to a core (the paper's nRT endpoints).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "rtpar/report.hpp"
#include "rtpar/system.hpp"

namespace rtpar::bench {

// PairConfig says which side of a producer/consumer pair is real-time (the paper's three cases).
enum class PairConfig { rt_rt, rt_nrt, nrt_rt };

// to_string spells a PairConfig as the output does ("RT->RT", "RT->nRT", "nRT->RT").
const char* to_string(PairConfig config) noexcept;

// run_pinned runs sys with task k placed on CPU cores[k] instead of where the planner's
// first-fit would put it (first-fit packs all four Fig. 3 tasks onto core 0 at low utilization,
// and the figures need a fixed placement). It keeps the planner's priorities (so lock ceilings
// computed by open_channels stay right) and replaces its verdict by a per-core utilization test,
// exact for what the benchmark builds: equal-period tasks, or one task per core. Uses
// sys.open_channels(config) so nRT threads attached before see the same channels.
RunReport run_pinned(System& sys, const std::vector<int>& cores, RunConfig config);

// spin_cpu_until burns CPU until the calling thread has consumed `budget_ns` of CPU time since
// `thread_cpu_start_ns` (a rtpar::thread_cpu_now() reading). CPU time, not wall time, so a job that
// is preempted keeps its demand and its response time grows — what a utilization sweep must show.
void spin_cpu_until(std::int64_t thread_cpu_start_ns, std::int64_t budget_ns);

// NrtLoop is a plain SCHED_OTHER std::thread pinned to one core that calls `body(k, release_ns)`
// for k = 0, 1, ... at release_ns = first + k·period, sleeping with clock_nanosleep(TIMER_ABSTIME)
// in between. `first` comes from a real-time task of the same run (its first release), so the
// nRT loop is phase-aligned with the RT side like a task of the same set would be. A late
// iteration runs at once (no skipping), and its response is measured from its own release.
class NrtLoop {
 public:
  // NrtLoop starts the thread; it waits (sleeping 1 ms at a time) until *first_release != 0 or
  // stop() is called. Responses (finish - release, ns) are recorded into a buffer reserved here.
  NrtLoop(int core, std::int64_t period_ns, const std::atomic<std::int64_t>* first_release,
          std::function<void(std::int64_t k)> body, std::size_t max_iterations);
  ~NrtLoop();
  NrtLoop(const NrtLoop&) = delete;
  NrtLoop& operator=(const NrtLoop&) = delete;

  // stop ends the loop after the current iteration and joins the thread.
  void stop();
  // responses are the per-iteration response times (valid after stop()).
  [[nodiscard]] const std::vector<std::int64_t>& responses() const { return responses_; }

 private:
  void run();

  int core_;
  std::int64_t period_ns_;
  const std::atomic<std::int64_t>* first_release_;
  std::function<void(std::int64_t)> body_;
  std::vector<std::int64_t> responses_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace rtpar::bench
