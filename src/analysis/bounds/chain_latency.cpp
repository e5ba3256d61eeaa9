// chain_latency.cpp — chain_latency (chain_latency.hpp).
#include "analysis/bounds/chain_latency.hpp"

#include "core/checked_math.hpp"

namespace rtpar::analysis {

ChainLatency chain_latency(const std::vector<ChainStage>& stages) {
  ChainLatency out;
  std::int64_t reaction = 0;
  for (const ChainStage& s : stages) {
    if (!s.response) return out;
    const std::optional<std::int64_t> stage = checked_add(s.period, *s.response);
    const std::optional<std::int64_t> sum = stage ? checked_add(reaction, *stage) : std::nullopt;
    if (!sum) return out;
    reaction = *sum;
  }
  if (stages.empty()) return out;
  out.reaction_ns = reaction;
  out.data_age_ns = reaction - stages.back().period;  // ≥ R_n ≥ 0: no overflow
  return out;
}

}  // namespace rtpar::analysis
