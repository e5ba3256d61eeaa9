// test_budget_rules.cpp — effective_budget: the task's mode, else the system's, else enforce on a
// shared core and monitor on cores of the task's own.
#include <doctest/doctest.h>

#include "model/budget_rules.hpp"

using rtpar::BudgetMode;

TEST_CASE("budget rules: the default follows core sharing; files override it") {
  rtpar::TaskSet set;
  set.tasks.resize(3);
  rtpar::Plan plan;
  plan.tasks.resize(3);
  plan.tasks[0].cores = {0, 1};  // heavy, dedicated
  plan.tasks[1].cores = {2};     // shares core 2 with task 2's strand
  plan.tasks[2].segments = {rtpar::SegmentPlan{1, 0, 0, {rtpar::StrandPlan{2, 5}}}};
  CHECK_FALSE(rtpar::model::shares_core(plan, 0));
  CHECK(rtpar::model::shares_core(plan, 1));
  CHECK(rtpar::model::shares_core(plan, 2));
  CHECK(rtpar::model::effective_budget(set, plan, 0) == BudgetMode::monitor);
  CHECK(rtpar::model::effective_budget(set, plan, 1) == BudgetMode::enforce);
  set.system.budget = BudgetMode::none;
  CHECK(rtpar::model::effective_budget(set, plan, 1) == BudgetMode::none);
  set.tasks[1].budget = BudgetMode::monitor;
  CHECK(rtpar::model::effective_budget(set, plan, 1) == BudgetMode::monitor);
}
