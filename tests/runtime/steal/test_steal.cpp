// test_steal.cpp — the work-stealing runtime: results equal serial ones for join, parallel_for,
// parallel_reduce and Scope over many sizes and pool sizes; the budget (max_depth,
// frames_per_worker) is enforced at the spawn site and the pool stays usable; exceptions of stolen
// children propagate; scope callables are destroyed once; no allocation after start-up on any
// worker; workers sleep between runs; the online work/span profile is consistent at every
// profile_depth.
#include <doctest/doctest.h>
#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rtpar/steal.hpp"
#include "rtpar/time.hpp"
#include "support/counting_allocator.hpp"

namespace steal = rtpar::steal;

namespace {

// make_pool builds a pool of `size` unpinned SCHED_OTHER workers (tests need no RT privileges;
// sizes above the core count oversubscribe on purpose).
std::unique_ptr<steal::Pool> make_pool(int size, rtpar::StealConfig budget = {},
                                       std::function<void(int)> after_run = {}) {
  steal::PoolConfig config;
  for (int i = 0; i < size; ++i) {
    rtpar::ThreadConfig t;
    t.sched = rtpar::SchedClass::other;
    t.name = "steal" + std::to_string(i);
    config.workers.push_back(t);
  }
  config.budget = budget;
  config.after_run = std::move(after_run);
  return std::make_unique<steal::Pool>(std::move(config));
}

// fib is the naive doubly recursive Fibonacci with both calls forked by join.
long fib(int n) {
  if (n < 2) return n;
  long a = 0;
  long b = 0;
  steal::join([&] { a = fib(n - 1); }, [&] { b = fib(n - 2); });
  return a + b;
}

long serial_fib(int n) { return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2); }

// fib_joins is the number of joins fib(n) performs: one per call with n ≥ 2.
std::uint64_t fib_joins(int n) { return n < 2 ? 0 : 1 + fib_joins(n - 1) + fib_joins(n - 2); }

// chain nests `levels` joins (each a's side recurses, b's side is a leaf) and counts the leaves.
void chain(int levels, std::atomic<int>& leaves) {
  if (levels == 0) {
    leaves.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  steal::join([&] { chain(levels - 1, leaves); },
              [&] { leaves.fetch_add(1, std::memory_order_relaxed); });
}

// cpu_ns is the CPU time consumed so far by thread `t`.
std::int64_t cpu_ns(pthread_t t) {
  clockid_t clock;
  REQUIRE(pthread_getcpuclockid(t, &clock) == 0);
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

TEST_CASE("steal: fib equals the serial result for every pool size, and outside a pool") {
  for (int n = 0; n <= 18; ++n) CHECK(fib(n) == serial_fib(n));  // no pool: serial join
  for (int workers = 1; workers <= 4; ++workers) {
    auto pool = make_pool(workers);
    CHECK(pool->size() == workers);
    for (int n : {0, 1, 2, 5, 10, 17, 21}) {
      long got = -1;
      pool->run([&] { got = fib(n); });
      CHECK_MESSAGE(got == serial_fib(n), "workers=", workers, " n=", n);
      const steal::JobProfile prof = pool->last_profile();
      CHECK(prof.spawns == fib_joins(n));
      CHECK(prof.steals <= prof.spawns);
      if (workers == 1) CHECK(prof.steals == 0);
    }
  }
}

TEST_CASE("steal: self-timed release — periodic runs, early runs, stale and missing hints") {
  auto pool = make_pool(3);
  long got = -1;
  const std::int64_t period = 300'000;
  std::int64_t release = rtpar::monotonic_now() + period;
  for (int k = 0; k < 60; ++k, release += period) {
    std::this_thread::sleep_until(
        std::chrono::steady_clock::time_point(std::chrono::nanoseconds(release)));
    pool->expect_release(release + period);
    pool->run([&] { got = fib(12); });
    REQUIRE(got == serial_fib(12));
  }
  // An early run: the workers sleep on a timer a minute away; run() must wake them now (a hang
  // fails the test; no timing is claimed).
  pool->expect_release(rtpar::monotonic_now() + 60'000'000'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  pool->run([&] { got = fib(15); });
  CHECK(got == serial_fib(15));
  CHECK(pool->last_profile().spawns == fib_joins(15));
  for (const std::int64_t hint : {rtpar::monotonic_now() - 1'000'000'000, std::int64_t{0}}) {
    pool->expect_release(hint);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    pool->run([&] { got = fib(10); });
    CHECK(got == serial_fib(10));
  }
}

TEST_CASE("steal: parallel_for visits each index once; parallel_reduce equals the serial sum") {
  auto pool = make_pool(3);
  for (std::int64_t n : {0, 1, 2, 3, 7, 64, 1000, 4097}) {
    for (std::int64_t grain : {0, 1, 3, 100, 5000}) {
      std::vector<std::atomic<int>> visits(static_cast<std::size_t>(n) + 2);
      pool->run([&] {
        steal::parallel_for(1, n + 1, grain, [&](std::int64_t i) {
          visits[static_cast<std::size_t>(i)].fetch_add(1, std::memory_order_relaxed);
        });
      });
      int wrong = 0;
      for (std::int64_t i = 0; i < n + 2; ++i) {
        wrong += visits[static_cast<std::size_t>(i)].load() != ((i >= 1 && i <= n) ? 1 : 0);
      }
      CHECK_MESSAGE(wrong == 0, "n=", n, " grain=", grain);
      // Σ i² over [0, n) = (n-1)n(2n-1)/6.
      std::int64_t sum = -1;
      pool->run([&] {
        sum = steal::parallel_reduce(
            0, n, grain, std::int64_t{0}, [](std::int64_t i) { return i * i; },
            [](std::int64_t a, std::int64_t b) { return a + b; });
      });
      CHECK(sum == (n == 0 ? 0 : (n - 1) * n * (2 * n - 1) / 6));
    }
  }
}

TEST_CASE("steal: a scope with thousands of children, nested scopes, repeated syncs") {
  rtpar::StealConfig budget;
  budget.frames_per_worker = 4096;
  auto pool = make_pool(2, budget);
  for (int children : {0, 1, 2, 17, 1000, 4000}) {
    std::vector<int> out(static_cast<std::size_t>(children), 0);
    pool->run([&] {
      steal::Scope scope;
      for (int i = 0; i < children; ++i) {
        scope.spawn([&out, i] { out[static_cast<std::size_t>(i)] = i * 3 + 1; });
      }
      scope.sync();
    });
    int wrong = 0;
    for (int i = 0; i < children; ++i) wrong += out[static_cast<std::size_t>(i)] != i * 3 + 1;
    CHECK_MESSAGE(wrong == 0, "children=", children);
    CHECK(pool->last_profile().spawns == static_cast<std::uint64_t>(children));
  }
  // Nested: 20 children each spawning 50 grandchildren that call fib(8) = 21; two sync phases.
  std::atomic<long> total{0};
  pool->run([&] {
    steal::Scope outer;
    for (int phase = 0; phase < 2; ++phase) {
      for (int i = 0; i < 20; ++i) {
        outer.spawn([&total] {
          steal::Scope inner;
          for (int j = 0; j < 50; ++j) inner.spawn([&total] { total.fetch_add(fib(8)); });
          inner.sync();
        });
      }
      outer.sync();
    }
  });
  CHECK(total.load() == 2 * 20 * 50 * 21);
}

TEST_CASE(
    "steal: joins nested up to max_depth work; one more throws CapacityError; pool reusable") {
  rtpar::StealConfig budget;
  budget.max_depth = 64;
  for (int workers : {1, 2}) {
    auto pool = make_pool(workers, budget);
    for (int i = 0; i < 20; ++i) {
      // chain(64) nests exactly 64 joins: 64 b-leaves + 1 a-leaf.
      std::atomic<int> leaves{0};
      pool->run([&] { chain(64, leaves); });
      CHECK(leaves.load() == 65);
    }
    std::atomic<int> leaves{0};
    try {
      pool->run([&] { chain(65, leaves); });
      FAIL("expected CapacityError");
    } catch (const steal::CapacityError& e) {
      CHECK(std::string(e.what()).find("max_depth = 64") != std::string::npos);
      CHECK(std::string(e.what()).find("[task.steal] max_depth") != std::string::npos);
    }
    long got = 0;
    pool->run([&] { got = fib(15); });
    CHECK(got == 610);
  }
}

TEST_CASE("steal: exhausting the frame pool throws CapacityError at spawn; pool reusable") {
  rtpar::StealConfig budget;
  budget.frames_per_worker = 8;
  auto pool = make_pool(2, budget);
  std::atomic<int> ran{0};
  int spawned = 0;
  bool threw = false;
  try {
    pool->run([&] {
      steal::Scope scope;
      for (int i = 0; i < 9; ++i) {
        scope.spawn([&ran] { ran.fetch_add(1); });
        ++spawned;
      }
      scope.sync();
    });
  } catch (const steal::CapacityError& e) {
    threw = true;
    CHECK(std::string(e.what()).find("frames_per_worker = 8") != std::string::npos);
  }
  CHECK(threw);
  CHECK(spawned == 8);
  CHECK(ran.load() == 8);  // the scope's destructor waited for the 8 spawned children
  // Frames were returned: 8 per scope works again, many times.
  for (int round = 0; round < 50; ++round) {
    std::atomic<int> n{0};
    pool->run([&] {
      steal::Scope scope;
      for (int i = 0; i < 8; ++i) scope.spawn([&n] { n.fetch_add(1); });
      scope.sync();
    });
    CHECK(n.load() == 8);
  }
}

TEST_CASE("steal: exceptions thrown by (possibly stolen) children reach the join and the sync") {
  auto pool = make_pool(2);
  int caught = 0;
  for (int i = 0; i < 200; ++i) {
    try {
      pool->run([&] {
        long a = 0;
        steal::join([&] { a = fib(12); }, [&] { throw std::runtime_error("child b"); });
      });
    } catch (const std::runtime_error& e) {
      caught += std::string(e.what()) == "child b";
    }
  }
  CHECK(caught == 200);
  int scope_caught = 0;
  for (int i = 0; i < 50; ++i) {
    pool->run([&] {
      steal::Scope scope;
      for (int j = 0; j < 30; ++j) {
        scope.spawn([j] {
          if (j == 7) throw std::logic_error("seven");
          (void)fib(6);
        });
      }
      try {
        scope.sync();
      } catch (const std::logic_error& e) {
        scope_caught += std::string(e.what()) == "seven";
      }
    });
  }
  CHECK(scope_caught == 50);
  long got = 0;
  pool->run([&] { got = fib(16); });
  CHECK(got == 987);
}

TEST_CASE("steal: no allocation after start-up on any worker") {
  constexpr int kWorkers = 3;
  std::vector<long> allocations(kWorkers, -1);
  std::vector<long> before(kWorkers, -1);  // allocated now: copying later must not allocate
  // after_run records, on each worker's own thread, its allocation count at the end of a run.
  auto pool = make_pool(kWorkers, {}, [&allocations](int w) {
    allocations[static_cast<std::size_t>(w)] = rtpar::test::thread_allocations();
  });
  auto job = [&] {
    volatile long sink = fib(18);
    (void)sink;
    steal::Scope scope;
    for (int i = 0; i < 500; ++i) scope.spawn([] { (void)fib(5); });
    scope.sync();
    steal::parallel_for(0, 5000, 7, [](std::int64_t) {});
    sink = steal::parallel_reduce(
        0, 5000, 3, 0L, [](std::int64_t i) { return static_cast<long>(i); },
        [](long a, long b) { return a + b; });
  };
  pool->run(job);  // warm-up
  std::copy(allocations.begin(), allocations.end(), before.begin());
  const long main_before = rtpar::test::thread_allocations();
  for (int i = 0; i < 20; ++i) {
    pool->run(job);
    (void)pool->last_profile();
  }
  CHECK(rtpar::test::thread_allocations() == main_before);
  for (int w = 0; w < kWorkers; ++w) {
    CHECK(before[static_cast<std::size_t>(w)] >= 0);
    CHECK_MESSAGE(allocations[static_cast<std::size_t>(w)] == before[static_cast<std::size_t>(w)],
                  "worker ", w);
  }
}

TEST_CASE("steal: workers block between runs (CPU time barely grows while idle)") {
  std::vector<pthread_t> threads(3);
  auto pool = make_pool(
      3, {}, [&threads](int w) { threads[static_cast<std::size_t>(w)] = pthread_self(); });
  long got = 0;
  pool->run([&] { got = fib(16); });
  CHECK(got == 987);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let them reach futex_wait
  std::vector<std::int64_t> before;
  for (int w = 1; w < 3; ++w) before.push_back(cpu_ns(threads[static_cast<std::size_t>(w)]));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (int w = 1; w < 3; ++w) {
    const std::int64_t used =
        cpu_ns(threads[static_cast<std::size_t>(w)]) - before[static_cast<std::size_t>(w - 1)];
    CHECK_MESSAGE(used < 20'000'000, "worker ", w, " used ", used, " ns while idle");
  }
}

TEST_CASE("steal: the online work/span profile is consistent") {
  for (int workers : {1, 2}) {
    auto pool = make_pool(workers);
    CHECK(pool->steal_cost_ns() >= 0);
    if (workers == 1) CHECK(pool->steal_cost_ns() == 0);
    const auto t0 = std::chrono::steady_clock::now();
    long got = 0;
    pool->run([&] { got = fib(20); });
    const std::int64_t wall =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    CHECK(got == 6765);
    const steal::JobProfile p = pool->last_profile();
    CHECK(p.span_ns > 0);
    CHECK(p.span_ns <= p.work_ns);
    CHECK(p.span_ns <= p.burdened_span_ns);
    CHECK(p.span_ns <= wall);  // every span path is a chain of intervals of one run
    if (workers == 1) {
      // Serially nothing waits: work is the elapsed time of the root, at most the wall time,
      // and the span is a strict part of it (fib's two halves are not equal).
      CHECK(p.work_ns <= wall);
      CHECK(p.span_ns < p.work_ns);
      CHECK(p.burdened_span_ns == p.span_ns);
    }
  }
}

TEST_CASE("steal: a forced steal runs b on the other worker; its exception reaches the join") {
  auto pool = make_pool(2);
  int stolen = 0;
  int caught = 0;
  for (int i = 0; i < 10; ++i) {
    // a waits (bounded) until b has started: b can only start meanwhile if worker 1 stole it.
    std::atomic<bool> b_started{false};
    std::thread::id b_thread;
    try {
      pool->run([&] {
        steal::join(
            [&] {
              const auto limit = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
              while (!b_started.load() && std::chrono::steady_clock::now() < limit) {
                std::this_thread::yield();
              }
            },
            [&] {
              b_thread = std::this_thread::get_id();
              b_started.store(true);
              throw std::runtime_error("from b");
            });
      });
    } catch (const std::runtime_error& e) {
      caught += std::string(e.what()) == "from b";
    }
    if (b_thread != std::this_thread::get_id()) {
      ++stolen;
      CHECK(pool->last_profile().steals == 1);
    }
  }
  CHECK(caught == 10);
  CHECK(stolen > 0);  // worker 1 is idle-stealing during 100 ms windows: it takes b at least once
}

namespace {

// mix is splitmix64's finalizer: a deterministic pseudo-random function of a node id.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// random_tree walks a pseudo-random spawn tree rooted at `id`: each node joins two children,
// opens a scope with 0..5 children, or is a leaf (more leaves deeper), and returns the sum of
// mix(id) over its subtree. Run without a pool it is the serial reference.
std::uint64_t random_tree(std::uint64_t id, int depth) {
  const std::uint64_t h = mix(id);
  const int kind = depth >= 14 ? 2 : static_cast<int>(h % 3);
  if (kind == 0) {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    steal::join([&] { a = random_tree(id * 3 + 1, depth + 1); },
                [&] { b = random_tree(id * 3 + 2, depth + 1); });
    return h + a + b;
  }
  if (kind == 1) {
    const int children = static_cast<int>((h >> 8) % 6);
    std::uint64_t part[6] = {};
    steal::Scope scope;
    for (int c = 0; c < children; ++c) {
      scope.spawn([&part, c, id, depth] {
        part[c] = random_tree(id * 7 + 3 + static_cast<std::uint64_t>(c), depth + 1);
      });
    }
    scope.sync();
    std::uint64_t sum = h;
    for (int c = 0; c < children; ++c) sum += part[c];
    return sum;
  }
  return h;
}

}  // namespace

TEST_CASE("steal: random join/scope trees equal their serial evaluation (randomized cross-check)") {
  for (int workers : {2, 3}) {
    auto pool = make_pool(workers);
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const std::uint64_t want = random_tree(seed, 0);  // serial: no pool on this thread
      std::uint64_t got = 0;
      pool->run([&] { got = random_tree(seed, 0); });
      CHECK_MESSAGE(got == want, "workers=", workers, " seed=", seed);
    }
  }
}

TEST_CASE("steal: scope children's callables are destroyed exactly once, thrown or not") {
  auto pool = make_pool(2);
  std::atomic<int> live{0};
  // Counted is a callable with a non-trivial destructor: copies and destructions balance.
  struct Counted {
    std::atomic<int>* live;
    int i;
    Counted(std::atomic<int>* l, int k) : live(l), i(k) { live->fetch_add(1); }
    Counted(const Counted& o) : live(o.live), i(o.i) { live->fetch_add(1); }
    ~Counted() { live->fetch_sub(1); }
    void operator()() const {
      if (i % 7 == 3) throw std::runtime_error("counted");
      (void)fib(5);
    }
  };
  for (int round = 0; round < 20; ++round) {
    bool threw = false;
    pool->run([&] {
      steal::Scope scope;
      for (int i = 0; i < 40; ++i) scope.spawn(Counted(&live, i));
      try {
        scope.sync();
      } catch (const std::runtime_error&) {
        threw = true;
      }
    });
    CHECK(threw);
    CHECK(live.load() == 0);
  }
}

TEST_CASE("steal: profile_depth 0 times only the whole job; deep profiles stay consistent") {
  for (int depth : {0, 3, 40}) {
    rtpar::StealConfig budget;
    budget.profile_depth = depth;
    for (int workers : {1, 2}) {
      auto pool = make_pool(workers, budget);
      long got = 0;
      pool->run([&] { got = fib(18); });
      CHECK(got == 2584);
      const steal::JobProfile p = pool->last_profile();
      CHECK(p.span_ns > 0);
      CHECK(p.span_ns <= p.work_ns);
      CHECK(p.span_ns <= p.burdened_span_ns);
      if (workers == 1) CHECK(p.burdened_span_ns == p.span_ns);  // C = 0 with one worker
      if (depth == 0 && workers == 1) CHECK(p.span_ns == p.work_ns);
    }
  }
  rtpar::StealConfig bad;
  bad.profile_depth = -1;
  CHECK_THROWS(make_pool(1, bad));
}
