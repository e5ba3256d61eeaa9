// chain_charge.cpp — bound_chains (chain_charge.hpp).
#include "analysis/planners/chain_charge.hpp"

#include <fmt/format.h>

#include "analysis/bounds/chain_latency.hpp"

namespace rtpar::analysis {

void bound_chains(Plan& plan, const TaskSet& set) {
  plan.chains.clear();
  for (const ChainSpec& chain : set.chains) {
    ChainPlan out;
    out.name = chain.name;
    if (chain.max_age) out.max_age_ns = chain.max_age->count();
    std::vector<ChainStage> stages;
    for (const std::string& name : chain.tasks) {
      for (std::size_t i = 0; i < set.tasks.size() && i < plan.tasks.size(); ++i) {
        if (set.tasks[i].name != name) continue;
        stages.push_back(ChainStage{set.tasks[i].period.count(), plan.tasks[i].response_bound_ns});
        if (!plan.tasks[i].response_bound_ns && !out.reason) {
          out.reason = fmt::format("task '{}' has no worst-case response bound{}", name,
                                   plan.tasks[i].reason ? " (it is not admitted)" : "");
        }
      }
    }
    const ChainLatency bound = chain_latency(stages);
    out.data_age_ns = bound.data_age_ns;
    out.reaction_ns = bound.reaction_ns;
    if (!out.reason && !bound.reaction_ns) out.reason = "the bound overflows 64-bit nanoseconds";
    if (chain.max_age) {
      if (!out.data_age_ns) {
        plan.schedulable = false;
        plan.notes.push_back(fmt::format("chain '{}': max_age {} cannot be checked: {}", chain.name,
                                         format_duration(*chain.max_age), *out.reason));
      } else if (*out.data_age_ns > chain.max_age->count()) {
        out.reason = fmt::format("data-age bound {} exceeds max_age {}",
                                 format_duration(Duration(*out.data_age_ns)),
                                 format_duration(*chain.max_age));
        plan.schedulable = false;
        plan.notes.push_back(fmt::format("chain '{}': {}", chain.name, *out.reason));
      }
    }
    plan.chains.push_back(std::move(out));
  }
}

}  // namespace rtpar::analysis
