// blocking_team.cpp — the default Team: workers sleep on a futex between regions.
//
// Protocol (one master, P-1 workers; regions never overlap):
//
//   master run(fn):                          worker r:
//     region_ = &fn            (plain)         wait until generation_ != seen   (acquire load)
//     pending_ = P-1           (relaxed)       fn = *region_                    (plain read)
//     generation_ += 1         (release) ───►  fn(r)
//     futex_wake(generation_)                  if pending_.fetch_sub(1) == 1    (acq_rel)
//     fn(0)                                        futex_wake(pending_)
//     wait until pending_ == 0 (acquire) ◄───
//
// Memory ordering. The release increment of generation_ publishes region_ and pending_ to every
// worker whose acquire load observes the new generation, so a worker never reads a stale region.
// Each worker's writes made inside fn happen-before its acq_rel fetch_sub; successive fetch_subs
// form a release sequence on pending_, so the master's acquire load that reads 0 synchronises
// with all of them and sees every worker's results. A worker cannot miss a generation: the master
// starts region g+1 only after pending_ reached 0, i.e. after every worker finished region g and
// went back to waiting on generation_ (it re-reads generation_ before sleeping).
//
// Lost wake-ups are impossible because futex_wait sleeps only while the word still holds the value
// the waiter last saw: a worker that loads generation_ == seen and then sleeps is woken by the
// increment's futex_wake or returns at once if the increment came first; likewise for the master
// on pending_. Workers never spin between regions (they may run at SCHED_FIFO and a periodic task
// is idle between jobs — spinning there would hit RT throttling); the master spins briefly before
// sleeping because it only waits while a job is in flight.
#include <atomic>
#include <climits>
#include <cstdint>
#include <memory>
#include <vector>

#include "rtpar/team.hpp"
#include "rtpar/time.hpp"
#include "runtime/futex.hpp"
#include "runtime/rt_thread.hpp"

namespace rtpar {

namespace {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// kMasterSpinNs bounds how long the master spins for stragglers before sleeping on the futex.
constexpr std::int64_t kMasterSpinNs = 20'000;

class BlockingTeam final : public Team {
 public:
  explicit BlockingTeam(const TeamConfig& config)
      : size_(static_cast<int>(config.members.empty() ? 1 : config.members.size())) {
    workers_.reserve(static_cast<std::size_t>(size_ - 1));
    try {
      for (int rank = 1; rank < size_; ++rank) {
        workers_.push_back(std::make_unique<detail::RtThread>(
            config.members[static_cast<std::size_t>(rank)], [this, rank] { worker_loop(rank); }));
      }
    } catch (...) {
      shutdown();
      throw;
    }
  }

  ~BlockingTeam() override { shutdown(); }

  [[nodiscard]] int size() const noexcept override { return size_; }

  void run(FunctionRef<void(int)> fn) override {
    if (size_ == 1) {
      fn(0);
      return;
    }
    region_ = &fn;
    pending_.store(static_cast<std::uint32_t>(size_ - 1), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    detail::futex_wake(generation_, INT_MAX);
    fn(0);
    wait_for_workers();
  }

  // worker_tids lists the Linux thread ids of the workers (for reports).
  [[nodiscard]] std::vector<int> worker_tids() const override {
    std::vector<int> out;
    for (const auto& w : workers_) out.push_back(w->tid());
    return out;
  }

 private:
  void wait_for_workers() noexcept {
    const std::int64_t spin_until = monotonic_now() + kMasterSpinNs;
    for (unsigned i = 0;; ++i) {
      if (pending_.load(std::memory_order_acquire) == 0) return;
      cpu_relax();
      if ((i & 63U) == 63U && monotonic_now() > spin_until) break;
    }
    for (;;) {
      const std::uint32_t p = pending_.load(std::memory_order_acquire);
      if (p == 0) return;
      detail::futex_wait(pending_, p);
    }
  }

  void worker_loop(int rank) noexcept {
    std::uint32_t seen = 0;
    for (;;) {
      std::uint32_t g = generation_.load(std::memory_order_acquire);
      while (g == seen) {
        detail::futex_wait(generation_, seen);
        g = generation_.load(std::memory_order_acquire);
      }
      seen = g;
      if (stop_.load(std::memory_order_acquire)) return;
      (*region_)(rank);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) detail::futex_wake(pending_, 1);
    }
  }

  void shutdown() noexcept {
    stop_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_release);
    detail::futex_wake(generation_, INT_MAX);
    for (auto& w : workers_) w->join();
    workers_.clear();
  }

  const int size_;
  FunctionRef<void(int)>* region_ = nullptr;
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  alignas(64) std::atomic<std::uint32_t> pending_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::unique_ptr<detail::RtThread>> workers_;
};

}  // namespace

std::unique_ptr<Team> make_team(const TeamConfig& config) {
  return std::make_unique<BlockingTeam>(config);
}

}  // namespace rtpar
