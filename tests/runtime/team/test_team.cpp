// test_team.cpp — the fork/join team: loop coverage for both schedules, barriers, many regions,
// every wait policy, tree wake-up, no allocation after construction, and clean shutdown.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <memory>
#include <thread>
#include <vector>

#include "rtpar/team.hpp"
#include "rtpar/time.hpp"
#include "support/counting_allocator.hpp"

using namespace std::chrono_literals;

namespace {

// make_test_team builds a team of `size` unpinned SCHED_OTHER members (tests must not need RT
// privileges, and sizes above the core count oversubscribe on purpose).
std::unique_ptr<rtpar::Team> make_test_team(int size, rtpar::WaitPolicy wait,
                                            int tree_wakeup_min = 4) {
  rtpar::TeamConfig config;
  config.wait = wait;
  config.tree_wakeup_min = tree_wakeup_min;
  for (int r = 0; r < size; ++r) {
    rtpar::ThreadConfig member;
    member.sched = rtpar::SchedClass::other;
    member.name = "test" + std::to_string(r);
    config.members.push_back(member);
  }
  return rtpar::make_team(config);
}

const rtpar::WaitPolicy kPolicies[] = {rtpar::WaitPolicy::spin(), rtpar::WaitPolicy::block(),
                                       rtpar::WaitPolicy::hybrid(20us)};

}  // namespace

TEST_CASE("team: every index is visited exactly once, static and dynamic, many sizes") {
  for (const rtpar::WaitPolicy& wait : kPolicies) {
    for (int threads = 1; threads <= 4; ++threads) {
      auto team = make_test_team(threads, wait);
      CHECK(team->size() == threads);
      for (std::int64_t n : {0, 1, 2, 3, 7, 64, 1000, 4097}) {
        for (const rtpar::Schedule schedule :
             {rtpar::Schedule::static_blocks(), rtpar::Schedule::dynamic(1),
              rtpar::Schedule::dynamic(3), rtpar::Schedule::dynamic(1000)}) {
          std::vector<std::atomic<int>> visits(static_cast<std::size_t>(n) + 2);
          // An offset range checks that begin is honoured.
          rtpar::parallel_for(
              *team, rtpar::Range{1, n + 1},
              [&](std::int64_t i) { visits[static_cast<std::size_t>(i)].fetch_add(1); }, schedule);
          int wrong = 0;
          for (std::int64_t i = 0; i < n + 2; ++i) {
            const int want = (i >= 1 && i <= n) ? 1 : 0;
            wrong += visits[static_cast<std::size_t>(i)].load() != want ? 1 : 0;
          }
          CHECK_MESSAGE(wrong == 0, "threads=", threads, " n=", n,
                        " wait=", rtpar::to_string(wait.kind));
        }
        team->park();
      }
    }
  }
}

TEST_CASE("team: static blocks are contiguous, one per member, sizes differ by at most one") {
  for (int threads : {2, 3, 4}) {
    auto team = make_test_team(threads, rtpar::WaitPolicy::block());
    for (std::int64_t n : {3, 10, 11, 100}) {
      std::vector<std::thread::id> owner(static_cast<std::size_t>(n));
      rtpar::parallel_for(*team, rtpar::Range{0, n}, [&](std::int64_t i) {
        owner[static_cast<std::size_t>(i)] = std::this_thread::get_id();
      });
      // Split into runs of equal owner: one run per member, no member owns two runs.
      std::vector<std::int64_t> runs;
      std::vector<std::thread::id> seen;
      for (std::int64_t i = 0; i < n; ++i) {
        if (i == 0 ||
            owner[static_cast<std::size_t>(i)] != owner[static_cast<std::size_t>(i - 1)]) {
          for (const auto& id : seen) CHECK(id != owner[static_cast<std::size_t>(i)]);
          seen.push_back(owner[static_cast<std::size_t>(i)]);
          runs.push_back(0);
        }
        ++runs.back();
      }
      CHECK(static_cast<int>(runs.size()) == std::min<std::int64_t>(n, threads));
      const auto [lo, hi] = std::minmax_element(runs.begin(), runs.end());
      CHECK(*hi - *lo <= 1);
      CHECK(runs.front() >= runs.back());  // the first n % p members take the extra iteration
    }
  }
}

TEST_CASE("team: barriers inside a region order every member's writes") {
  for (const rtpar::WaitPolicy& wait : kPolicies) {
    for (int threads : {1, 2, 3, 5}) {
      // Spinning members oversubscribed on a 2-core machine only burn time slices: skip that.
      if (wait.kind == rtpar::WaitKind::spin && threads > 2) continue;
      auto team = make_test_team(threads, wait);
      constexpr int kPhases = 200;
      std::vector<int> cell(static_cast<std::size_t>(threads), 0);  // plain ints: TSan checks
      std::atomic<int> errors{0};
      team->run([&](int rank) {
        for (int phase = 1; phase <= kPhases; ++phase) {
          cell[static_cast<std::size_t>(rank)] = phase;
          team->barrier();
          for (int other = 0; other < threads; ++other) {
            if (cell[static_cast<std::size_t>(other)] != phase) errors.fetch_add(1);
          }
          team->barrier();  // nobody overwrites a cell before everyone has read it
        }
      });
      CHECK_MESSAGE(errors.load() == 0, "threads=", threads, " wait=", rtpar::to_string(wait.kind));
    }
  }
}

TEST_CASE("team: a million back-to-back regions with spinning workers") {
  auto team = make_test_team(2, rtpar::WaitPolicy::spin());
  std::vector<long> count(2, 0);  // each member touches only its own counter; the join publishes
  constexpr long kRegions = 1'000'000;
  for (long i = 0; i < kRegions; ++i) {
    team->run([&](int rank) { ++count[static_cast<std::size_t>(rank)]; });
  }
  team->park();
  CHECK(count[0] == kRegions);
  CHECK(count[1] == kRegions);
}

TEST_CASE("team: sleeping policies survive many regions, with and without parking") {
  for (const rtpar::WaitPolicy& wait :
       {rtpar::WaitPolicy::block(), rtpar::WaitPolicy::hybrid(5us)}) {
    auto team = make_test_team(2, wait);
    long total = 0;
    for (long i = 0; i < 20'000; ++i) {
      std::atomic<int> ran{0};
      team->run([&](int) { ran.fetch_add(1, std::memory_order_relaxed); });
      total += ran.load();
      if (i % 7 == 0) team->park();  // like the end of a job: next fork must wake sleepers
    }
    CHECK(total == 40'000);
  }
}

TEST_CASE("team: self-timed release — periodic jobs, early forks, overruns, stale hints") {
  // Lead and window sizes: the defaults, and none (the timer fires at the release, no spin).
  for (const auto& [lead, window] : {std::pair{20us, 200us}, std::pair{0us, 0us}}) {
    for (const rtpar::WaitPolicy& wait : kPolicies) {
      const int members = wait.kind == rtpar::WaitKind::spin ? 2 : 3;
      rtpar::TeamConfig config;
      config.wait = wait;
      config.release_lead = lead;
      config.release_window = window;
      for (int r = 0; r < members; ++r) config.members.push_back(rtpar::ThreadConfig{});
      auto team = rtpar::make_team(config);
      std::atomic<long> ran{0};
      auto region = [&](int) { ran.fetch_add(1, std::memory_order_relaxed); };
      long expected = 0;
      // Periodic jobs as the executor runs them: expect the next release at the start of the job.
      const std::int64_t period = 300'000;
      std::int64_t release = rtpar::monotonic_now() + period;
      for (int k = 0; k < 100; ++k, release += period) {
        std::this_thread::sleep_until(
            std::chrono::steady_clock::time_point(std::chrono::nanoseconds(release)));
        team->expect_release(release + period);
        team->run(region);
        team->run(region);  // a second region of the same job: a worker may sleep between them
        expected += 2 * members;
        team->park();
      }
      // An early fork: the workers sleep on a timer a minute away; the fork must wake them now.
      team->expect_release(rtpar::monotonic_now() + 60'000'000'000);
      team->park();
      std::this_thread::sleep_for(2ms);
      const auto t0 = std::chrono::steady_clock::now();
      team->run(region);
      expected += members;
      CHECK(std::chrono::steady_clock::now() - t0 < 30s);  // a hang, not a timing claim
      // An overrun: the release (and its window) pass while the job still runs.
      team->expect_release(rtpar::monotonic_now() + 500'000);
      team->run([&](int rank) {
        region(rank);
        if (rank == 0) std::this_thread::sleep_for(3ms);
      });
      team->run(region);
      expected += 2 * members;
      // A hint in the past, then none: the workers sleep until woken.
      team->expect_release(rtpar::monotonic_now() - 1'000'000'000);
      team->park();
      std::this_thread::sleep_for(1ms);
      team->run(region);
      team->expect_release(0);
      team->park();
      std::this_thread::sleep_for(1ms);
      team->run(region);
      expected += 2 * members;
      CHECK(ran.load() == expected);
    }
  }
}

TEST_CASE("team: tree wake-up reaches every member of a large sleeping team") {
  for (const rtpar::WaitPolicy& wait :
       {rtpar::WaitPolicy::block(), rtpar::WaitPolicy::hybrid(2us)}) {
    auto team = make_test_team(7, wait, /*tree_wakeup_min=*/2);
    for (int i = 0; i < 500; ++i) {
      std::atomic<unsigned> mask{0};
      team->run([&](int rank) { mask.fetch_or(1U << rank); });
      REQUIRE(mask.load() == 0x7FU);
      team->park();
    }
  }
}

TEST_CASE("team: no allocation after construction (regions, loops, barriers)") {
  for (const rtpar::WaitPolicy& wait : kPolicies) {
    const int members = wait.kind == rtpar::WaitKind::spin ? 2 : 3;  // no spinning oversubscription
    auto team = make_test_team(members, wait);
    std::vector<long> before(3, -1), after(3, -1);  // allocated before measuring
    std::atomic<long> sink{0};
    auto body = [&] {
      team->run([&](int) { sink.fetch_add(1, std::memory_order_relaxed); });
      rtpar::parallel_for(*team, rtpar::Range{0, 100},
                          [&](std::int64_t i) { sink.fetch_add(i, std::memory_order_relaxed); });
      rtpar::parallel_for(
          *team, rtpar::Range{0, 100},
          [&](std::int64_t i) { sink.fetch_add(i, std::memory_order_relaxed); },
          rtpar::Schedule::dynamic(7));
      team->run([&](int) { team->barrier(); });
      team->park();
    };
    body();  // warm-up: thread start-up may allocate (thread-locals, TSan shadow)
    team->run([&](int rank) {
      before[static_cast<std::size_t>(rank)] = rtpar::test::thread_allocations();
    });
    for (int i = 0; i < 100; ++i) body();
    team->run([&](int rank) {
      after[static_cast<std::size_t>(rank)] = rtpar::test::thread_allocations();
    });
    for (int r = 0; r < members; ++r) {
      CHECK_MESSAGE(after[static_cast<std::size_t>(r)] == before[static_cast<std::size_t>(r)],
                    "rank ", r, " allocated with wait=", rtpar::to_string(wait.kind));
    }
  }
}

TEST_CASE("team: destruction is clean with workers spinning, asleep, or never used") {
  // Clean: the destructor returns (a hang is the ctest timeout) and every worker thread has
  // exited and been joined: none of the team's thread ids is left in /proc/self/task. (Thread
  // ids, not a thread count: a sanitizer runtime may start threads of its own.)
  const auto alive = [](int tid) {
    return std::filesystem::exists("/proc/self/task/" + std::to_string(tid));
  };
  for (const rtpar::WaitPolicy& wait : kPolicies) {
    for (int state = 0; state < 3; ++state) {
      std::vector<int> tids;
      {
        auto team = make_test_team(3, wait);
        // Each worker publishes its tid as it starts (0 until then).
        tids = team->worker_tids();
        while (std::count(tids.begin(), tids.end(), 0) > 0) {
          std::this_thread::sleep_for(100us);
          tids = team->worker_tids();
        }
        REQUIRE(tids.size() == 2);
        for (int tid : tids) REQUIRE(alive(tid));
        if (state >= 1) {
          std::atomic<int> ran{0};
          team->run([&](int) { ran.fetch_add(1); });
          CHECK(ran.load() == 3);  // state 1: not parked, spin/hybrid workers spinning now
        }
        if (state == 2) {
          team->park();
          std::this_thread::sleep_for(1ms);  // workers have gone to sleep
        }
        // state 0: never ran a region, workers asleep from the start
      }
      // pthread_join returns when the kernel clears the thread's tid word on exit, a little
      // before it reaps the task: its /proc entry may linger for that moment (seen 3 in 40 runs
      // on the 2-CPU VM). A thread that did not exit is still there after a second.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      for (int tid : tids) {
        while (alive(tid) && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(100us);
        }
        CHECK_MESSAGE(!alive(tid), "worker ", tid, " outlived its team (wait=",
                      std::string(rtpar::to_string(wait.kind)), ", state ", state, ")");
      }
    }
  }
}
