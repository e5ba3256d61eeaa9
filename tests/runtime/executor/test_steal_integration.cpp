// test_steal_integration.cpp — runtime = "steal" end to end: the fib / uts / heat kernels, the
// task-set checks that tie kernels to runtimes and budgets, per-job work/span in run reports,
// --measured for federated-ws, worker stack sizes, and no allocation in steal jobs.
#include <doctest/doctest.h>

#include <malloc.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "support/counting_allocator.hpp"
#include "support/scratch_file.hpp"
#include "kernels/instantiate.hpp"
#include "platform/rt_thread.hpp"
#include "rtpar/steal.hpp"
#include "rtpar/system.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"
#include "support/run_system.hpp"

using namespace std::chrono_literals;
using rtpar::InputError;

namespace {

// kHead is a two-core system and the start of task "a" (lines 1–5); tests append from line 6.
const std::string kHead = "[system]\ncores = 2\n[[task]]\nname = \"a\"\nperiod = \"50ms\"\n";

rtpar::TaskSet parse(const std::string& text) { return rtpar::parse_taskset(text, "s.toml"); }

// pool_of builds a best-effort pool of `workers` unpinned workers with the given budget.
std::unique_ptr<rtpar::steal::Pool> pool_of(int workers, rtpar::StealConfig budget = {}) {
  rtpar::steal::PoolConfig c;
  for (int i = 0; i < workers; ++i) {
    rtpar::ThreadConfig t;
    t.sched = rtpar::SchedClass::other;
    c.workers.push_back(t);
  }
  c.budget = budget;
  return std::make_unique<rtpar::steal::Pool>(std::move(c));
}

// run_jobs prepares the task's kernel and runs `jobs` jobs of it on pool (the kernels throw when a
// result differs from the serial one); returns the last job's context.
rtpar::JobContext run_jobs(const rtpar::TaskSpec& t, rtpar::steal::Pool* pool, int jobs) {
  rtpar::KernelSetup setup;
  setup.threads = pool != nullptr ? pool->size() : 1;
  setup.steal = true;
  const std::shared_ptr<rtpar::Kernel> code = rtpar::kernels::make_kernel(t);
  code->prepare(setup);
  rtpar::JobContext job;
  job.steal = pool;
  for (int k = 0; k < jobs; ++k) {
    job.index = k;
    job.work_ns = job.span_ns = job.burdened_span_ns = 0;
    job.steal_runs = 0;
    code->run(job);
  }
  return job;
}

void check_rejected(const std::string& text, const std::string& field, const std::string& part) {
  CAPTURE(text);
  try {
    (void)parse(text);
    FAIL_CHECK("accepted");
  } catch (const InputError& e) {
    CAPTURE(std::string(e.what()));
    CHECK(e.field() == field);
    CHECK(e.where().line > 0);
    CHECK(e.message().find(part) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("steal kernels: fib, uts and heat equal their serial results over many sizes") {
  auto pool = pool_of(2);
  for (int n : {0, 1, 2, 10, 20, 25}) {
    CAPTURE(n);
    const auto set = parse(kHead + "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"fib\"\n" +
                           "args = { n = " + std::to_string(n) + " }\n");
    const rtpar::JobContext job = run_jobs(set.tasks[0], pool.get(), 3);
    CHECK(job.steal_runs == 1);
  }
  for (const char* args : {"b0 = 1, m = 2, q = 0.1", "b0 = 50, m = 4, q = 0.24",
                           "b0 = 200, m = 8, q = 0.124, seed = 7", "b0 = 3, m = 64, q = 0.0",
                           "b0 = 5000, m = 200, q = 0.004"}) {
    CAPTURE(args);
    const auto set =
        parse(kHead + "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"uts\"\n" + "args = { " +
              args + " }\nsteal = { max_depth = 4096, frames_per_worker = 20000 }\n");
    // The task's own budget, as the executor would build its pool.
    auto task_pool = pool_of(2, set.tasks[0].steal);
    (void)run_jobs(set.tasks[0], task_pool.get(), 3);
  }
  for (const char* args : {"n = 3, steps = 1", "n = 17, steps = 5, grain = 1", "n = 64, steps = 20",
                           "n = 130, steps = 3, grain = 7"}) {
    CAPTURE(args);
    const auto set = parse(kHead + "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"heat\"\n" +
                           "args = { " + args + " }\n");
    (void)run_jobs(set.tasks[0], pool.get(), 3);
  }
  // matmul and segments run on the pool too when runtime = "steal", and are measured.
  const auto mm = parse(kHead + "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"matmul\"\n" +
                        "args = { n = 48 }\n");
  CHECK(run_jobs(mm.tasks[0], pool.get(), 2).steal_runs == 1);
}

TEST_CASE("steal kernels: a one-worker pool and no pool give the same results") {
  auto one = pool_of(1);
  const auto set = parse(kHead + "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"fib\"\n" +
                         "args = { n = 18, cutoff = 5 }\n");
  CHECK(run_jobs(set.tasks[0], one.get(), 2).steal_runs == 1);
  // Without a pool the kernel runs serially and measures nothing.
  CHECK(run_jobs(set.tasks[0], nullptr, 2).steal_runs == 0);
}

TEST_CASE("steal kernels: a job's work, span and burdened span are measured") {
  auto pool = pool_of(2);
  const auto set = parse(kHead + "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"fib\"\n" +
                         "args = { n = 22 }\n");
  const rtpar::JobContext job = run_jobs(set.tasks[0], pool.get(), 1);
  CHECK(job.work_ns > 0);
  CHECK(job.span_ns > 0);
  CHECK(job.burdened_span_ns >= job.span_ns);
}

TEST_CASE("steal kernels: the file ties kernels to runtimes and budgets, with locations") {
  // fib / uts / heat need runtime = "steal" (serially they would silently lose parallelism).
  check_rejected(kHead + "work = \"1ms\"\nkernel = \"fib\"\nargs = { n = 10 }\n", "task[0].runtime",
                 "set runtime = \"steal\"");
  check_rejected(
      kHead + "work = \"1ms\"\nruntime = \"team\"\nkernel = \"heat\"\nargs = { n = 8 }\n",
      "task[0].runtime", "work-stealing");
  // A budget too small for the kernel's args is refused before anything runs.
  check_rejected(kHead +
                     "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"fib\"\nargs = { n = 30 }\n"
                     "steal = { max_depth = 16 }\n",
                 "task[0].steal.max_depth", "nests 29");
  check_rejected(kHead +
                     "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"uts\"\n"
                     "args = { b0 = 500, m = 4, q = 0.2 }\nsteal = { frames_per_worker = 100 }\n",
                 "task[0].steal.frames_per_worker", "frames_per_worker = 100 is too small");
  // A worker stack too small for the kernel's depth would overflow: refused, naming the field.
  check_rejected(kHead +
                     "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"fib\"\nargs = { n = 40 }\n"
                     "steal = { stack_bytes = 65536 }\n",
                 "task[0].steal.stack_bytes", "bytes of stack per worker");
  // Bad kernel args name the arg.
  check_rejected(kHead +
                     "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"uts\"\n"
                     "args = { m = 8, q = 0.2 }\n",
                 "task[0].args.q", "m·q must be below 1");
  check_rejected(kHead +
                     "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"uts\"\n"
                     "args = { q = \"x\" }\n",
                 "task[0].args.q", "expected a number");
  check_rejected(kHead +
                     "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"uts\"\n"
                     "args = { b0 = 2000, max_nodes = 1000 }\n",
                 "task[0].args.max_nodes", "more than max_nodes");
  check_rejected(kHead +
                     "work = \"1ms\"\nruntime = \"steal\"\nkernel = \"fib\"\n"
                     "args = { n = 93 }\n",
                 "task[0].args.n", "between 0 and 92");
}

TEST_CASE("steal runtime: worker stacks get [task.steal].stack_bytes") {
  rtpar::ThreadConfig c;
  c.sched = rtpar::SchedClass::other;
  // Larger than the default 8 MiB, so glibc cannot hand back a cached default-size stack.
  c.stack_bytes = 24u << 20;
  std::size_t got = 0;
  rtpar::detail::RtThread t(c, [&] {
    pthread_attr_t attr;
    pthread_getattr_np(pthread_self(), &attr);
    pthread_attr_getstacksize(&attr, &got);
    pthread_attr_destroy(&attr);
  });
  t.join();
  CHECK(got >= c.stack_bytes);
  // A size below PTHREAD_STACK_MIN is an InputError naming the field, not a crash.
  c.stack_bytes = 1;
  CHECK_THROWS_AS(rtpar::detail::RtThread(c, [] {}), InputError);
}

namespace {

using rtpar::test::run_system;

// t_first_count is a thread's allocation count at the first leaf it ran (-1: none yet).
thread_local long t_first_count = -1;

}  // namespace

TEST_CASE("steal runtime: a task runs on the pool, records work/span, allocates nothing") {
  // A heavy task on both cores (C = 30ms > D = 20ms, L = 2ms → ceil(28/18) = 2 cores under
  // federated; federated-ws's eq. 3 always asks a heavy task for ≥ 3), with code bound in C++:
  // every job runs one work-stealing computation.
  const std::vector<int> cores = rtpar::online_cpus();
  rtpar::TaskSet set = parse(
      "[system]\ncores = 2\nplanner = \"federated\"\n[[task]]\nname = \"a\"\n"
      "period = \"25ms\"\ndeadline = \"20ms\"\nwork = \"30ms\"\nspan = \"2ms\"\nruntime = "
      "\"steal\"\n");
  if (cores.size() < 2) set.system.cores = {cores.front()};
  rtpar::System sys(set);
  std::atomic<int> moved{0};  // leaves whose thread had allocated since its first leaf
  std::atomic<int> leaves{0};
  std::vector<long> master(64, -1);
  sys.bind("a", [&](rtpar::JobContext& job) {
    REQUIRE(job.steal != nullptr);
    job.run_parallel([&] {
      rtpar::steal::parallel_for(0, 256, 1, [&](std::int64_t) {
        const long now = rtpar::test::thread_allocations();
        if (t_first_count < 0) t_first_count = now;
        if (now != t_first_count) moved.fetch_add(1, std::memory_order_relaxed);
        leaves.fetch_add(1, std::memory_order_relaxed);
      });
    });
    if (job.index < 64)
      master[static_cast<std::size_t>(job.index)] = rtpar::test::thread_allocations();
  });
  rtpar::RunConfig config;
  config.duration = 300ms;
  const rtpar::RunReport report = run_system(sys, config);
  const rtpar::TaskRun& run = report.tasks.at(0);
  REQUIRE(run.records.size() >= 5);
  CHECK(run.profiled);
  CHECK(leaves.load() == 256 * static_cast<int>(run.records.size()));
  CHECK(moved.load() == 0);
  for (std::size_t j = 2; j < std::min<std::size_t>(run.records.size(), 64); ++j) {
    CHECK_MESSAGE(master[j] == master[1], "master allocated before job ", j);
  }
  for (const rtpar::JobRecord& r : run.records) {
    CHECK(r.work_ns > 0);
    CHECK(r.span_ns > 0);
    CHECK(r.burdened_span_ns >= r.span_ns);
  }
  const rtpar::TaskStats stats = rtpar::summarize(run);
  CHECK(stats.profiled_jobs == static_cast<std::int64_t>(run.records.size()));
  CHECK(stats.burdened_span.max_ns >= stats.burdened_span.p50_ns);
  CHECK(rtpar::stats_table(report).find("work and span") != std::string::npos);
  CHECK(rtpar::jobs_csv(report).find(",,,\n") == std::string::npos);
}

TEST_CASE("steal runtime: --measured raises federated-ws's span to the measured burdened span") {
  // A report in which task "a" measured a 9 ms burdened span (declared L = 2 ms) and 30 ms work.
  rtpar::TaskSet set = parse(
      "[system]\ncores = 8\nplanner = \"federated-ws\"\n[[task]]\nname = \"a\"\n"
      "period = \"25ms\"\ndeadline = \"20ms\"\nwork = \"30ms\"\nspan = \"2ms\"\nruntime = "
      "\"steal\"\n");
  rtpar::RunReport report;
  report.plan = rtpar::plan_taskset(set);
  rtpar::TaskRun run;
  run.name = "a";
  run.deadline_ns = 20'000'000;
  run.period_ns = 25'000'000;
  run.profiled = true;
  run.records = {{0, 0, 0, 10'000'000, 30'000'000, 8'000'000, 9'000'000},
                 {1, 25'000'000, 25'000'000, 34'000'000, 28'000'000, 7'000'000, 8'000'000}};
  report.tasks = {run};
  const rtpar::test::ScratchFile file(rtpar::report_json(report), "measured_report");
  const std::string& path = file.path();
  const rtpar::MeasuredProfile m = rtpar::load_measured_profile(path);
  REQUIRE(m.tasks.size() == 1);
  CHECK(m.tasks[0].burdened_span_max_ns == 9'000'000);
  CHECK(m.tasks[0].work_max_ns == 30'000'000);
  CHECK(m.tasks[0].jobs == 2);

  // Eq. 3 with δ = 1.5 (the default): declared L = 2 ms gives ceil((30+20-3)/(20-3)) = 3 cores;
  // the measured L̂ = 9 ms gives ceil((30+20-13.5)/(20-13.5)) = ceil(36.5/6.5) = 6 cores.
  const rtpar::Plan declared = rtpar::plan_taskset(set);
  rtpar::PlanOptions options;
  options.measured = &m;
  const rtpar::Plan measured = rtpar::plan_taskset(set, options);
  CHECK(declared.tasks[0].cores_needed == 3);
  CHECK(measured.tasks[0].cores_needed == 6);
  REQUIRE_FALSE(measured.notes.empty());
  CHECK(measured.notes[0].find("measured burdened span 9ms") != std::string::npos);
  // A measurement below the declaration never lowers it.
  rtpar::MeasuredProfile low = m;
  low.tasks[0].burdened_span_max_ns = 1'000'000;
  low.tasks[0].work_max_ns = 1'000'000;
  options.measured = &low;
  CHECK(rtpar::plan_taskset(set, options).tasks[0].cores_needed == 3);

  // A malformed report is an InputError naming the file.
  file.write("{\"tasks\": [ {\"name\": \"a\",\n \"burdened_span_ns\": {\"max\": -5}, "
             "\"work_ns\": {\"max\": 1}, \"profiled_jobs\": 1} ]}");
  CHECK_THROWS_AS(rtpar::load_measured_profile(path), InputError);
  file.write("{\"tasks\": [\n oops");
  try {
    (void)rtpar::load_measured_profile(path);
    FAIL_CHECK("accepted");
  } catch (const InputError& e) {
    CHECK(e.where().file == path);
    CHECK(e.where().line == 2);
  }
}

namespace {

// nest joins `levels` deep (each level a join of itself and an empty job).
void nest(int levels) {
  if (levels == 0) return;
  rtpar::steal::join([levels] { nest(levels - 1); }, [] {});
}

}  // namespace

TEST_CASE("steal runtime: a job over its budget stops its task with CapacityError and a report") {
  rtpar::TaskSet set = parse(
      "[system]\ncores = 1\n[[task]]\nname = \"deep\"\nperiod = \"5ms\"\nwork = \"1ms\"\n"
      "runtime = \"steal\"\nsteal = { max_depth = 16 }\n");
  set.system.cores = {rtpar::online_cpus().front()};
  rtpar::System sys(set);
  sys.bind("deep", [](rtpar::JobContext& job) {
    // Jobs 0..2 fit the budget; job 3 nests one level too deep.
    job.run_parallel([&] { nest(job.index < 3 ? 16 : 17); });
  });
  rtpar::RunConfig config;
  config.duration = 100ms;
  try {
    (void)run_system(sys, config);
    FAIL("the over-budget job did not fail the run");
  } catch (const rtpar::TaskFailure& f) {
    const std::string what = f.what();
    CHECK(what.find("task 'deep' failed") != std::string::npos);
    CHECK(what.find("max_depth") != std::string::npos);
    CHECK_THROWS_AS(std::rethrow_exception(f.cause()), rtpar::steal::CapacityError);
    REQUIRE(f.report().tasks.size() == 1);
    CHECK(f.report().tasks[0].records.size() == 3);  // the jobs before the failure are recorded
    CHECK(f.report().tasks[0].failure.find("max_depth") != std::string::npos);
    CHECK(rtpar::run_json(f.report()).find("\"failure\"") != std::string::npos);
  }
}

namespace {

// kGlibcHeap: the sanitizers replace malloc, so glibc's mallinfo2 sees nothing under them.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kGlibcHeap = false;
#else
constexpr bool kGlibcHeap = true;
#endif

// heap_in_use is the bytes glibc's malloc has handed out and not taken back (all threads).
std::size_t heap_in_use() { return mallinfo2().uordblks; }

// fib_join is naive fib with a join per call (deep, narrow).
std::uint64_t fib_join(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0, b = 0;
  rtpar::steal::join([&] { a = fib_join(n - 1); }, [&] { b = fib_join(n - 2); });
  return a + b;
}

}  // namespace

TEST_CASE("steal runtime: the pool's memory is what memory() states, and runs never grow it") {
  rtpar::StealConfig budget;
  budget.max_depth = 100;
  budget.frames_per_worker = 300;
  budget.stack_bytes = 1u << 20;
  const std::size_t before = heap_in_use();
  auto pool = pool_of(2, budget);
  const std::size_t after = heap_in_use();
  const rtpar::steal::PoolMemory m = pool->memory();
  // Two workers: deques of 512 entries (2^⌈log2(401)⌉), 300 frames of 128 bytes.
  CHECK(m.heap_bytes >= 2 * (512 * 8 + 300 * 128));
  CHECK(m.heap_bytes < 2 * (512 * 8 + 300 * 128 + 64 + 4096));
  CHECK(m.stack_bytes == budget.stack_bytes);
  if (kGlibcHeap) {
    CHECK(after - before >= m.heap_bytes);
    CHECK(after - before <= m.heap_bytes + 64 * 1024);
  }

  // Deep joins, wide scopes and parallel loops, many times: the heap stays exactly as it was.
  const auto run_all = [&] {
    std::uint64_t f = 0;
    pool->run([&] { f = fib_join(18); });
    CHECK(f == 2584);
    std::atomic<int> seen{0};
    pool->run([&] {
      rtpar::steal::Scope scope;
      for (int i = 0; i < 250; ++i) scope.spawn([&seen] { seen.fetch_add(1); });
      scope.sync();
    });
    CHECK(seen.load() == 250);
    std::int64_t sum = 0;
    pool->run([&] {
      sum = rtpar::steal::parallel_reduce(
          0, 10000, 7, std::int64_t{0}, [](std::int64_t i) { return i; },
          [](std::int64_t a, std::int64_t b) { return a + b; });
    });
    CHECK(sum == 49995000);
  };
  run_all();  // warm-up: first-run effects (e.g. lazily bound symbols) happen here
  const std::size_t steady = heap_in_use();
  for (int k = 0; k < 200; ++k) run_all();
  if (kGlibcHeap) CHECK(heap_in_use() == steady);
}
