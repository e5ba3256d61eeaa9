// blocking.cpp — pcp_blocking and blocked_response_time (blocking.hpp).
#include "analysis/bounds/blocking.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/checked_math.hpp"

namespace rtpar::analysis {

BlockingTerm pcp_blocking(int priority, const std::vector<LocalLock>& locks) {
  BlockingTerm out;
  for (std::size_t l = 0; l < locks.size(); ++l) {
    const LocalLock& lock = locks[l];
    if (lock.hold <= 0) throw std::invalid_argument("pcp_blocking: a lock's hold must be > 0");
    if (lock.ceiling < priority) continue;  // its holder never runs above i
    const bool lower_user = std::any_of(lock.user_priorities.begin(), lock.user_priorities.end(),
                                        [&](int p) { return p < priority; });
    if (!lower_user) continue;  // only higher or equal users: interference, not blocking
    if (lock.hold > out.ns) {
      out.ns = lock.hold;
      out.lock = l;
    }
  }
  return out;
}

RtaResult blocked_response_time(const std::vector<RtaTask>& core, std::size_t i,
                                std::int64_t blocking) {
  if (blocking < 0) throw std::invalid_argument("blocked_response_time: blocking must be >= 0");
  if (i >= core.size()) throw std::invalid_argument("blocked_response_time: index out of range");
  // response_time_result validates every task; with B = 0 it is the answer.
  const RtaResult plain = response_time_result(core, i);
  if (blocking == 0 || plain.status != RtaStatus::met) return plain;  // blocking only adds
  const RtaTask& self = core[i];
  const std::optional<std::int64_t> own = checked_add(self.wcet.count(), blocking);
  if (!own || *own > self.deadline.count()) return RtaResult{};  // missed
  std::vector<RtaInterferer> hp;
  for (std::size_t j = 0; j < core.size(); ++j) {
    if (j == i || core[j].priority < self.priority) continue;
    hp.push_back({core[j].wcet.count(), core[j].period.count()});
  }
  // The blocking-free response is a valid start: the right-hand side only grows with B.
  const std::int64_t start = std::max(plain.response.count(), *own);
  return fixed_point_response(*own, self.deadline.count(), start, hp);
}

}  // namespace rtpar::analysis
