// node_queue.cpp — NodeQueue, steal_victim and add_or_throw (node_queue.hpp).
#include "sim/node_queue.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "core/checked_math.hpp"
#include "core/rng.hpp"
#include "rtpar/error.hpp"

namespace rtpar::sim {

namespace {

// kStealDomain separates the victim streams from the overhead and execution draws, which key
// derive_seed(seed, task) directly: the steal streams start from derive_seed(seed, kStealDomain).
constexpr std::uint64_t kStealDomain = 0x5354'4541'4c56'4943ULL;  // "STEALVIC"

}  // namespace

std::int64_t add_or_throw(std::int64_t a, std::int64_t b, const char* what) {
  const std::optional<std::int64_t> sum = checked_add(a, b);
  if (!sum) {
    throw InputError(SourceLocation{"<simulation>", 0, 0}, "",
                     std::string(what) + " exceeds 2^63 - 1 ns");
  }
  return *sum;
}

std::int64_t mul_or_throw(std::int64_t a, std::int64_t b, const char* what) {
  const std::optional<std::int64_t> product = checked_mul(a, b);
  if (!product) {
    throw InputError(SourceLocation{"<simulation>", 0, 0}, "",
                     std::string(what) + " exceeds 2^63 - 1 ns");
  }
  return *product;
}

std::int64_t queue_hold(std::int64_t lock_ns, std::int64_t contention_ns, int others,
                        std::int64_t units) {
  const std::int64_t waiters = mul_or_throw(contention_ns, others, "the queue lock's hold");
  const std::int64_t one = add_or_throw(lock_ns, waiters, "the queue lock's hold");
  return mul_or_throw(one, units, "the queue lock's hold");
}

std::int64_t grain_units(std::int64_t length, std::int64_t grain) {
  if (grain <= 0 || length <= grain) return 1;
  return length / grain + (length % grain != 0 ? 1 : 0);
}

int steal_victim(std::uint64_t seed, std::uint64_t task, std::uint64_t job, int worker,
                 std::uint64_t attempt, int workers) {
  std::uint64_t key = derive_seed(seed, kStealDomain);
  key = derive_seed(key, task);
  key = derive_seed(key, job);
  key = derive_seed(key, static_cast<std::uint64_t>(worker));
  key = derive_seed(key, attempt);
  Rng rng(key);
  const auto r = static_cast<int>(rng.below(static_cast<std::uint64_t>(workers - 1)));
  return r < worker ? r : r + 1;
}

NodeQueue::NodeQueue(NodeQueueParams params) : params_(params) {
  if (params_.model == QueueModel::steal) {
    deques_.resize(static_cast<std::size_t>(std::max(params_.workers, 1)));
    attempts_.assign(deques_.size(), 0);
  }
  // Slot 0 is the release (worker −1), slot w + 1 worker w.
  per_worker_.assign(static_cast<std::size_t>(std::max(params_.workers, 1)) + 1, 0);
}

void NodeQueue::start_job(std::uint64_t job) {
  job_ = job;
  std::fill(attempts_.begin(), attempts_.end(), 0);
}

bool NodeQueue::push(int n, std::int64_t t, int worker) {
  switch (params_.model) {
    case QueueModel::steal:
      deques_[static_cast<std::size_t>(std::max(worker, 0))].push_back(n);
      return true;
    case QueueModel::centralized:
      if (locked()) {
        enqueuing_.emplace(hold_lock(t, worker, n), n);
        return false;
      }
      pool_.emplace(enqueued_++, n);
      return true;
    case QueueModel::greedy:
      break;
  }
  pool_.emplace(n, n);
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

int NodeQueue::front(int worker) const {
  if (params_.model == QueueModel::steal) {
    const std::deque<int>& mine = deques_[static_cast<std::size_t>(worker)];
    return mine.empty() ? -1 : mine.back();
  }
  return pool_.empty() ? -1 : pool_.begin()->second;
}

Take NodeQueue::take(int worker, std::int64_t t) {
  if (params_.model != QueueModel::steal) {
    const int n = front(worker);
    const std::int64_t cost =
        params_.model == QueueModel::centralized && locked() && n >= 0 ? hold_lock(t, worker, n) - t
                                                                       : 0;
    return Take{n, cost, -1, false};
  }
  const int own = front(worker);
  if (own >= 0) return Take{own, 0, worker, false};
  // An attempt on a uniformly random other worker: its deque's top (oldest node), or nothing.
  const int victim = steal_victim(params_.seed, params_.set_index, job_, worker,
                                  attempts_[static_cast<std::size_t>(worker)]++, params_.workers);
  const std::deque<int>& theirs = deques_[static_cast<std::size_t>(victim)];
  if (theirs.empty()) return Take{-1, params_.attempt_ns, victim, true};
  return Take{theirs.front(), params_.steal_ns, victim, true};
}

void NodeQueue::used_up(const Take& taken) {
  if (taken.from < 0) {
    pool_.erase(pool_.begin());
    return;
  }
  std::deque<int>& d = deques_[static_cast<std::size_t>(taken.from)];
  if (taken.top) {
    d.pop_front();
  } else {
    d.pop_back();
  }
}

std::int64_t NodeQueue::hold_lock(std::int64_t t, int worker, int n) {
  // The holds over by t leave; the other slots still holding or waiting are the contenders.
  while (!pending_.empty() && pending_.front().first <= t) {
    if (--per_worker_[static_cast<std::size_t>(pending_.front().second)] == 0) --contenders_;
    pending_.pop_front();
  }
  const int slot = std::clamp(worker + 1, 0, static_cast<int>(per_worker_.size()) - 1);
  const int others = contenders_ - (per_worker_[static_cast<std::size_t>(slot)] > 0 ? 1 : 0);
  const std::int64_t units =
      n >= 0 && static_cast<std::size_t>(n) < params_.lengths.size()
          ? grain_units(params_.lengths[static_cast<std::size_t>(n)], params_.grain_ns)
          : 1;
  const std::int64_t grant = std::max(t, lock_free_at_);
  lock_free_at_ = add_or_throw(grant, queue_hold(params_.lock_ns, params_.contention_ns, others, units),
                               "the queue lock's schedule");
  pending_.emplace_back(lock_free_at_, slot);
  if (per_worker_[static_cast<std::size_t>(slot)]++ == 0) ++contenders_;
  return lock_free_at_;
}

}  // namespace rtpar::sim
