// member_budgets.cpp — see member_budgets.hpp.
#include "runtime/executor/member_budgets.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace rtpar::detail {

MemberBudgets::MemberBudgets(bool enforce, std::vector<std::int64_t> charged_ns,
                             std::int64_t margin_ns)
    : enforce_(enforce),
      charged_ns_(std::move(charged_ns)),
      margin_ns_(margin_ns),
      members_(std::make_unique<Member[]>(charged_ns_.size())) {
  // The handler must exist before a worker's first expiry; installing it here keeps sigaction off
  // the workers' start.
  if (enforce_) CpuBudget::install_handler();
}

void MemberBudgets::share_demotion(int rank, std::atomic<bool>* flag) noexcept {
  members_[static_cast<std::size_t>(rank)].demotion = flag;
}

void MemberBudgets::started(int rank) noexcept {
  Member& m = members_[static_cast<std::size_t>(rank)];
  try {
    m.budget.emplace(enforce_, charged_ns_[static_cast<std::size_t>(rank)], margin_ns_);
  } catch (const std::exception&) {
    m.unmeasured = true;  // the worker runs unmeasured; add_to says so
  }
}

void MemberBudgets::job_begin(int rank) noexcept {
  Member& m = members_[static_cast<std::size_t>(rank)];
  if (!m.budget) return;
  // The flag was written before the first fork, whose release the worker acquired.
  if (m.demotion != nullptr) m.budget->share_demotion(m.demotion);
  m.budget->begin();
}

void MemberBudgets::job_end(int rank) noexcept {
  Member& m = members_[static_cast<std::size_t>(rank)];
  if (m.budget) m.budget->end();  // restores a demoted worker
}

bool MemberBudgets::demoted(int rank) const noexcept {
  const Member& m = members_[static_cast<std::size_t>(rank)];
  return m.budget && m.budget->demoted();
}

void MemberBudgets::exiting(int rank) noexcept {
  Member& m = members_[static_cast<std::size_t>(rank)];
  if (!m.budget) return;
  m.overruns = m.budget->overruns();
  m.max_overrun_ns = m.budget->max_excess_ns();
  m.demoted_ns = m.budget->demoted_ns();
  m.budget.reset();  // the timer is the worker's: deleted on it
}

void MemberBudgets::add_to(BudgetTally& tally) const {
  for (std::size_t r = 1; r < charged_ns_.size(); ++r) {
    const Member& m = members_[r];
    tally.overruns += m.overruns;
    tally.max_overrun_ns = std::max(tally.max_overrun_ns, m.max_overrun_ns);
    tally.demoted_ns += m.demoted_ns;
    if (m.unmeasured) {
      tally.note += (tally.note.empty() ? "" : "; ") + std::string("team member ") +
                    std::to_string(r) + " ran unmeasured (its timer was refused)";
    }
  }
}

}  // namespace rtpar::detail
