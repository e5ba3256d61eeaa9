// test_steal_budgets.cpp — StealBudgets: a steal pool's workers measured job by job against C.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "rtpar/steal.hpp"
#include "rtpar/time.hpp"
#include "runtime/executor/runner.hpp"
#include "runtime/executor/steal_budgets.hpp"

namespace {

// pool_config is 2 unpinned SCHED_OTHER workers (no RT privilege needed).
rtpar::steal::PoolConfig pool_config() {
  rtpar::steal::PoolConfig config;
  for (int i = 0; i < 2; ++i) {
    rtpar::ThreadConfig t;
    t.sched = rtpar::SchedClass::other;
    t.name = "budget" + std::to_string(i);
    config.workers.push_back(t);
  }
  return config;
}

// root_job forks two 200 µs spins: worker 1 joins every run (it may or may not steal one).
void root_job() {
  auto spin = [] {
    const std::int64_t until = rtpar::monotonic_now() + 200'000;
    while (rtpar::monotonic_now() < until) {
    }
  };
  rtpar::steal::join(spin, spin);
}

}  // namespace

TEST_CASE("steal budgets: a worker-job over C counts once, however many runs the job has") {
  // C = 0, margin 0: any CPU time a worker spends in a job's runs is over it. Job 0 runs the pool
  // twice, job 1 once: two worker-jobs, two overruns (not three: the runs of a job add up). The
  // calibration run at construction is not measured.
  rtpar::detail::StealBudgets budgets(2, 0, 0);
  rtpar::steal::PoolConfig config = pool_config();
  budgets.install(config);
  rtpar::steal::Pool pool(std::move(config));
  budgets.set_job(0);
  pool.run([] { root_job(); });
  pool.run([] { root_job(); });
  budgets.set_job(1);
  pool.run([] { root_job(); });
  rtpar::detail::BudgetTally tally;
  budgets.add_to(tally);
  CHECK(tally.overruns == 2);
  CHECK(tally.max_overrun_ns > 0);
  CHECK(tally.max_overrun_ns < 10'000'000'000);  // the excess is the CPU time itself
}

TEST_CASE("steal budgets: a worker within C + margin is no overrun; the trace's hooks still run") {
  // C = 10 s per job: no worker-job comes close. The hooks installed before the monitor (a trace)
  // keep running, once per worker and run.
  rtpar::detail::StealBudgets budgets(2, 10'000'000'000, 1'000'000);
  rtpar::steal::PoolConfig config = pool_config();
  int joined = 0;  // worker 1's before_run calls (written by worker 1 only; read after the runs)
  int left = 0;
  config.before_run = [&](int rank) { joined += rank == 1 ? 1 : 0; };
  config.after_run = [&](int rank) { left += rank == 1 ? 1 : 0; };
  budgets.install(config);
  rtpar::steal::Pool pool(std::move(config));
  const int calibration = joined;  // the construction's runs
  budgets.set_job(0);
  pool.run([] { root_job(); });
  budgets.set_job(1);
  pool.run([] { root_job(); });
  rtpar::detail::BudgetTally tally;
  budgets.add_to(tally);
  CHECK(tally.overruns == 0);
  CHECK(tally.max_overrun_ns == 0);
  CHECK(joined - calibration == 2);
  CHECK(left == joined);
}
