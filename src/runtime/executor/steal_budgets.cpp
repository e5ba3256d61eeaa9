// steal_budgets.cpp — see steal_budgets.hpp.
#include "runtime/executor/steal_budgets.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "rtpar/time.hpp"

namespace rtpar::detail {

StealBudgets::StealBudgets(int workers, std::int64_t charged_ns, std::int64_t margin_ns)
    : charged_ns_(charged_ns),
      limit_ns_(margin_ns > std::numeric_limits<std::int64_t>::max() - charged_ns
                    ? std::numeric_limits<std::int64_t>::max()
                    : charged_ns + margin_ns),
      workers_(std::max(0, workers - 1)),
      tally_(std::make_unique<Worker[]>(static_cast<std::size_t>(workers_))) {}

void StealBudgets::install(steal::PoolConfig& config) {
  auto before = std::move(config.before_run);
  auto after = std::move(config.after_run);
  config.before_run = [this, before = std::move(before)](int rank) {
    begin(rank);
    if (before) before(rank);
  };
  config.after_run = [this, after = std::move(after)](int rank) {
    if (after) after(rank);
    end(rank);
  };
}

void StealBudgets::begin(int rank) noexcept {
  if (rank < 1 || job_ < 0) return;  // worker 0 is the master: its own CpuBudget measures it
  Worker& w = tally_[static_cast<std::size_t>(rank - 1)];
  // job_ was written before this run began, which our epoch acquire ordered (set_job).
  if (w.job != job_) {
    if (w.job >= 0) close(w);  // the previous job ended before this one's first run
    w.job = job_;
    w.used_ns = 0;
  }
  w.run_cpu = thread_cpu_now();
}

void StealBudgets::end(int rank) noexcept {
  if (rank < 1 || job_ < 0) return;
  Worker& w = tally_[static_cast<std::size_t>(rank - 1)];
  if (w.job < 0) return;
  w.used_ns += thread_cpu_now() - w.run_cpu;
}

void StealBudgets::close(Worker& w) const noexcept {
  if (w.used_ns > limit_ns_) {
    ++w.overruns;
    w.max_excess_ns = std::max(w.max_excess_ns, w.used_ns - charged_ns_);
  }
  w.job = -1;
  w.used_ns = 0;
}

void StealBudgets::add_to(BudgetTally& tally) {
  for (int i = 0; i < workers_; ++i) {
    Worker& w = tally_[static_cast<std::size_t>(i)];
    if (w.job >= 0) close(w);
    tally.overruns += w.overruns;
    tally.max_overrun_ns = std::max(tally.max_overrun_ns, w.max_excess_ns);
    w.overruns = 0;  // added once
  }
}

}  // namespace rtpar::detail
