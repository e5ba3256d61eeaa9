// node_queue.cpp — NodeQueue and add_or_throw (node_queue.hpp).
#include "sim/node_queue.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "core/checked_math.hpp"
#include "rtpar/error.hpp"

namespace rtpar::sim {

std::int64_t add_or_throw(std::int64_t a, std::int64_t b, const char* what) {
  const std::optional<std::int64_t> sum = checked_add(a, b);
  if (!sum) {
    throw InputError(SourceLocation{"<simulation>", 0, 0}, "",
                     std::string(what) + " exceeds 2^63 - 1 ns");
  }
  return *sum;
}

bool NodeQueue::push(int n, std::int64_t t) {
  if (params_.centralized && params_.lock_ns > 0) {
    enqueuing_.emplace(hold_lock(t), n);
    return false;
  }
  pool_.emplace(params_.centralized ? enqueued_++ : n, n);
  return true;
}

bool NodeQueue::advance(std::int64_t t) {
  bool moved = false;
  while (!enqueuing_.empty() && enqueuing_.begin()->first <= t) {
    const int n = enqueuing_.begin()->second;
    enqueuing_.erase(enqueuing_.begin());
    pool_.emplace(enqueued_++, n);
    moved = true;
  }
  return moved;
}

std::int64_t NodeQueue::take_cost(std::int64_t t) {
  if (!params_.centralized || params_.lock_ns <= 0) return 0;
  return hold_lock(t) - t;
}

std::int64_t NodeQueue::hold_lock(std::int64_t t) {
  const std::int64_t grant = std::max(t, lock_free_at_);
  lock_free_at_ = add_or_throw(grant, params_.lock_ns, "the queue lock's schedule");
  return lock_free_at_;
}

}  // namespace rtpar::sim
