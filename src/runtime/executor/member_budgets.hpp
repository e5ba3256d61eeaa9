// member_budgets.hpp — the CPU-time budgets of a partitioned team's workers: each worker measures
// (and, enforced, is demoted on) its own part of every job (docs/reliability.md, "Budgets").
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/cpu_budget.hpp"
#include "rtpar/member_job_hooks.hpp"
#include "runtime/executor/runner.hpp"

namespace rtpar::detail {

// MemberBudgets is the team's MemberJobHooks: each worker (rank ≥ 1) makes its own CpuBudget on its
// thread when it starts, begins it before its first region of a job and ends it when the team
// says its part of the job is over (team.cpp, "Member jobs"), and copies its tallies out when it
// exits. Rank 0 (the master) keeps its budget in the runner's loop. begin/end allocate nothing and
// take no lock (CpuBudget); started and exiting run once per worker, off the release path.
class MemberBudgets final : public MemberJobHooks {
 public:
  // MemberBudgets for a team of charged_ns.size() members: worker r may use charged_ns[r] +
  // margin_ns of CPU time per job (enforce: then it is demoted until its part of the job ends).
  MemberBudgets(bool enforce, std::vector<std::int64_t> charged_ns, std::int64_t margin_ns);
  MemberBudgets(const MemberBudgets&) = delete;
  MemberBudgets& operator=(const MemberBudgets&) = delete;
  ~MemberBudgets() override = default;

  // share_demotion names worker `rank`'s EDF demotion flag (CpuBudget::share_demotion). Call before
  // the team's first fork, which publishes it to the worker.
  void share_demotion(int rank, std::atomic<bool>* flag) noexcept;

  void started(int rank) noexcept override;
  void job_begin(int rank) noexcept override;
  void job_end(int rank) noexcept override;
  [[nodiscard]] bool demoted(int rank) const noexcept override;
  void exiting(int rank) noexcept override;

  // add_to adds the workers' overruns and demoted time into `tally` (max_overrun_ns: the larger)
  // and says in its note which worker ran unmeasured. Call after the team is destroyed: each
  // worker's exiting() happened-before the join of its thread.
  void add_to(BudgetTally& tally) const;

 private:
  // Member is one worker's budget and what it recorded, on a cache line of its own (touched only
  // by that worker until it exits).
  struct alignas(64) Member {
    std::optional<CpuBudget> budget;  // made and destroyed on the worker (started, exiting)
    std::atomic<bool>* demotion = nullptr;
    std::int64_t overruns = 0;
    std::int64_t max_overrun_ns = 0;
    std::int64_t demoted_ns = 0;
    bool unmeasured = false;  // the kernel refused the worker's timer
  };

  const bool enforce_;
  const std::vector<std::int64_t> charged_ns_;
  const std::int64_t margin_ns_;
  std::unique_ptr<Member[]> members_;  // one per rank (rank 0 unused)
};

}  // namespace rtpar::detail
