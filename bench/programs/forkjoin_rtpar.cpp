// forkjoin_rtpar.cpp — rtpar-bench-rtpar: fork/join cost of rtpar teams (spin, block, hybrid)
// and the three floors (spin and futex ping-pong between two pinned threads; the timer floor: a
// pinned thread's absolute-timer wake-up latency, like cyclictest).
//
// Prints {"results": [...]} on stdout (bench/common/result.hpp); run by `rtpar bench forkjoin`.
// Rows: floor × {spin-pingpong, futex-pingpong, timer-wakeup}, then rtpar-<policy> × {region,
// parallel_for, periodic-region, periodic-region-response}. Member r runs on the r-th allowed CPU
// (master = rank 0 = this thread).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "common/harness.hpp"
#include "common/options.hpp"
#include "common/pingpong.hpp"
#include "common/pinning.hpp"
#include "common/recorder.hpp"
#include "rtpar/error.hpp"
#include "rtpar/team.hpp"

namespace {

using namespace rtpar_bench;

// kHybridSpin is the hybrid policy's spin budget: the executor's default (team.hpp).
constexpr auto kHybridSpin = std::chrono::microseconds(50);

// team_config places member r on cpus[r] in the requested scheduling class.
rtpar::TeamConfig team_config(const Options& o, const std::vector<int>& cpus,
                              rtpar::WaitPolicy wait, const std::string& tag) {
  rtpar::TeamConfig config;
  config.wait = wait;
  for (int r = 0; r < o.threads; ++r) {
    rtpar::ThreadConfig member;
    member.cpu = cpus[static_cast<std::size_t>(r)];
    member.sched = o.fifo ? rtpar::SchedClass::fifo : rtpar::SchedClass::other;
    member.priority = o.priority;
    member.name = "bench-" + tag + "-" + std::to_string(r);
    config.members.push_back(member);
  }
  return config;
}

// bench_policy measures one wait policy: empty region, empty parallel_for over `threads`
// iterations, and the periodic region with expect_release() at each release and park() after
// each job (as the executor does: the workers time their own releases).
void bench_policy(const Options& o, const std::vector<int>& cpus, rtpar::WaitPolicy wait,
                  Recorder& rec) {
  const std::string runtime = o.name.empty() ? std::string("rtpar-") + rtpar::to_string(wait.kind)
                                             : o.name + "-" + rtpar::to_string(wait.kind);
  auto team = rtpar::make_team(team_config(o, cpus, wait, rtpar::to_string(wait.kind)));
  rtpar::Team& t = *team;
  const std::int64_t n = o.threads;
  auto empty_region = [&t] { t.run([](int) { empty_body(); }); };
  auto empty_for = [&t, n] {
    rtpar::parallel_for(t, rtpar::Range{0, n}, [](std::int64_t) { empty_body(); });
  };
  const char* wait_name = rtpar::to_string(wait.kind);

  // The spinning of spin/hybrid members is bounded by each timed loop: park() between phases puts
  // them to sleep before anything else (sample dumps, the next team) runs.
  if (o.iters > 0) {
    rec.add(runtime, "region", time_back_to_back(o.iters, o.warmup_regions(), empty_region))
        .add("wait", std::string(wait_name));
    t.park();
    rec.add(runtime, "parallel_for", time_back_to_back(o.iters, o.warmup_regions(), empty_for))
        .add("wait", std::string(wait_name));
    t.park();
  }
  if (o.periodic_releases > 0) {
    rec.add_periodic(runtime, "periodic-region",
                     time_periodic(
                         o.periodic_releases, o.period_ns, empty_region, [&t] { t.park(); },
                         [&t](std::int64_t next) { t.expect_release(next); }))
        .add("wait", std::string(wait_name));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const std::vector<int> cpus = measuring_cpus(o, allowed_cpus());
  if (static_cast<int>(cpus.size()) < o.threads) {
    std::fprintf(stderr, "rtpar-bench-rtpar: %d threads need %d CPUs, %zu found\n", o.threads,
                 o.threads, cpus.size());
    return kExitBadArgs;
  }
  const bool locked = o.fifo && lock_memory();
  const Placement master{cpus[0], o.fifo, o.priority};
  if (std::string why = place_current_thread(master); !why.empty()) {
    std::fprintf(stderr, "rtpar-bench-rtpar: master: %s\n", why.c_str());
    return kExitEnvironment;
  }
  Recorder rec(o, locked);
  rec.probe(cpus);
  try {
    const Placement partner{cpus[1], o.fifo, o.priority};
    if (o.iters > 0) {
      rec.add("floor", "spin-pingpong",
              time_pingpong(PingPongKind::spin, partner, o.iters, o.warmup_regions()))
          .add("wait", std::string("spin"));
      rec.add("floor", "futex-pingpong",
              time_pingpong(PingPongKind::futex, partner, o.iters, o.warmup_regions()))
          .add("wait", std::string("block"));
    }
    if (o.periodic_releases > 0) {
      rec.add("floor", "timer-wakeup", time_timer_floor(o.periodic_releases, o.period_ns))
          .add("period_ns", o.period_ns);
    }
    bench_policy(o, cpus, rtpar::WaitPolicy::spin(), rec);
    bench_policy(o, cpus, rtpar::WaitPolicy::block(), rec);
    bench_policy(o, cpus, rtpar::WaitPolicy::hybrid(kHybridSpin), rec);
  } catch (const rtpar::EnvironmentError& e) {
    std::fprintf(stderr, "rtpar-bench-rtpar: %s (%s)\n", e.what(), e.hint().c_str());
    return kExitEnvironment;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rtpar-bench-rtpar: %s\n", e.what());
    return kExitEnvironment;
  }
  // Drop to SCHED_OTHER before printing: nothing after the measurement needs priority.
  place_current_thread(Placement{-1, false, 0});
  rec.print();
  return rec.ok() ? 0 : 1;
}
