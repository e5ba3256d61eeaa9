// chain_latency.hpp — worst-case end-to-end latency of a cause-effect chain of periodic tasks
// communicating through `latest`/`double_buffer` channels (last value wins, no synchronisation).
//
// Sources: Davare, Zhu, Di Natale, Pinello, Kanajan & Sangiovanni-Vincentelli, "Period
// Optimization for Hard Real-time Distributed Automotive Systems" (DAC 2007), §3: the end-to-end
// latency of a chain of asynchronously sampling tasks is at most Σ_k (T_k + R_k); Dürr, von der
// Brüggen, Chen & Chen, "End-to-End Timing Analysis of Sporadic Cause-Effect Chains in Distributed
// Systems" (ACM TECS 18(5s), EMSOFT 2019), §4–5, which separates the two measures bounded here:
//
//   reaction time R(E) ≤ Σ_{k=1..n} (T_k + R_k)
//     an input that arrives just after task 1 sampled waits ≤ T_1 for the next job of task 1,
//     which finishes (and writes) ≤ R_1 after its release; each later stage's first job that
//     reads it is released ≤ T_k after the write and finishes ≤ R_k after its release.
//   data age A(E)      ≤ Σ_{k=1..n−1} (T_k + R_k) + R_n
//     a job of task k (released at r_k) reads, at some t ≥ r_k, the newest value written by task
//     k−1; every job of task k−1 released at or before t − R_{k−1} has written by t, so that value
//     comes from a job released after t − R_{k−1} − T_{k−1}; the last job finishes ≤ R_n after
//     its release. (The reaction bound minus T_n: the last stage does not wait for a sample.)
//
// Conditions: each task's jobs run one at a time in release order (D ≤ T, R ≤ D), reads happen
// at or after the job's release and writes at or before its finish (anywhere in the job), the
// channels keep the last complete value (latest; double_buffer unless a reader is lapped twice
// during one copy), and R_k is a worst-case response bound of task k (no bound, no chain bound).
// Exact checked int64 nanoseconds: an overflow gives no bound.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace rtpar::analysis {

// ChainStage is one task of a chain as the bound sees it: its period and response bound.
struct ChainStage {
  std::int64_t period = 0;               // T_k > 0
  std::optional<std::int64_t> response;  // R_k, when the plan gives one
};

// ChainLatency is the two bounds of a chain (both nullopt when a stage has no response bound or
// the sums overflow).
struct ChainLatency {
  std::optional<std::int64_t> reaction_ns;
  std::optional<std::int64_t> data_age_ns;
};

// chain_latency computes the bounds above for `stages` (at least one; source first).
ChainLatency chain_latency(const std::vector<ChainStage>& stages);

}  // namespace rtpar::analysis
