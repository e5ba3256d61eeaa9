// pool.cpp — Pool: workers, their run/idle protocol, and the steal-cost calibration.
//
// Run protocol (memory orderings):
//   run():    reset counters → running = true → busy = P-1 → epoch += 1 (release) → futex_wake
//   worker:   futex_wait(epoch) until it changes (acquire) → steal while running (acquire) →
//             after_run → busy -= 1 (acq_rel), futex_wake(busy) when it reaches 0
//   run():    root() → running = false (release) → futex_wait(busy) until 0 (acquire) → profile
// The epoch's release/acquire publishes the counter reset and `running` to the workers; busy's
// acq_rel chain publishes each worker's counters back to run(), so last_profile() reads them
// without races. Between runs every worker sleeps in futex_wait: zero CPU while idle.
#include <algorithm>
#include <climits>
#include <string>

#include "rtpar/error.hpp"
#include "rtpar/steal.hpp"
#include "runtime/futex.hpp"
#include "runtime/rt_thread.hpp"
#include "steal/backoff.hpp"

namespace rtpar::steal {

namespace {

// kCalibrationSamples is the number of steal round trips timed at construction (median kept).
constexpr int kCalibrationSamples = 15;
// kCalibrationTimeoutNs bounds one sample's wait for a thief (a busy machine may not give one).
constexpr std::int64_t kCalibrationTimeoutNs = 2'000'000;

std::int64_t round_up_pow2(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace

// State is everything the Pool allocates at construction.
struct Pool::State {
  PoolConfig config;
  std::vector<std::unique_ptr<detail::Worker>> workers;
  std::vector<detail::Worker*> peers;
  std::vector<std::unique_ptr<std::atomic<detail::Frame*>[]>> buffers;
  std::vector<std::unique_ptr<std::byte[]>> frame_pools;
  std::vector<std::unique_ptr<rtpar::detail::RtThread>> threads;
  alignas(64) std::atomic<std::uint32_t> epoch{0};
  alignas(64) std::atomic<std::uint32_t> busy{0};
  std::atomic<bool> running{false};
  std::atomic<bool> stop{false};
  std::int64_t steal_cost_ns = 0;
  JobProfile profile;

  // worker_main is the body of workers 1..P-1.
  void worker_main(int index);
  // steal_loop takes work from random victims (xorshift) until the run ends.
  void steal_loop(detail::Worker* w);
  // calibrate times steal round trips of an empty frame (called inside a run, on worker 0).
  std::int64_t calibrate(detail::Worker* w);
};

void Pool::State::steal_loop(detail::Worker* w) {
  detail::Backoff backoff;
  const int p = static_cast<int>(peers.size());
  while (running.load(std::memory_order_acquire)) {
    // xorshift64 (Marsaglia 2003): cheap, per-worker, no shared state.
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 7;
    w->rng ^= w->rng << 17;
    int victim = static_cast<int>(w->rng % static_cast<std::uint64_t>(p - 1));
    if (victim >= w->index) ++victim;
    if (detail::Frame* f = peers[static_cast<std::size_t>(victim)]->steal()) {
      detail::run_stolen(w, f);
      backoff.reset();
    } else {
      backoff.pause();
    }
  }
}

void Pool::State::worker_main(int index) {
  detail::Worker* w = workers[static_cast<std::size_t>(index)].get();
  detail::tls_worker = w;
  std::uint32_t seen = 0;
  for (;;) {
    std::uint32_t e = epoch.load(std::memory_order_acquire);
    while (e == seen) {
      rtpar::detail::futex_wait(epoch, e);
      e = epoch.load(std::memory_order_acquire);
    }
    seen = e;
    if (stop.load(std::memory_order_acquire)) break;
    steal_loop(w);
    if (config.after_run) config.after_run(index);
    if (busy.fetch_sub(1, std::memory_order_acq_rel) == 1) rtpar::detail::futex_wake(busy, 1);
  }
  detail::tls_worker = nullptr;
}

// calibrate: worker 0 publishes an empty frame and spins (without popping) until a thief has run
// it; push-to-done as seen by the owner is one steal round trip (thief finds and takes the frame,
// runs nothing, signals done, owner observes it). Samples where no thief came within the timeout
// are dropped (the frame is popped back or waited for).
std::int64_t Pool::State::calibrate(detail::Worker* w) {
  std::vector<std::int64_t> samples;
  samples.reserve(kCalibrationSamples);
  for (int i = 0; i < kCalibrationSamples; ++i) {
    detail::Frame f;
    f.execute = [](detail::Frame*) {};
    f.depth = 1;
    w->push(&f);
    const std::int64_t t0 = detail::now_ns();
    std::int64_t t1 = t0;
    while (f.state.load(std::memory_order_acquire) != detail::kDone &&
           t1 - t0 < kCalibrationTimeoutNs) {
      cpu_relax();
      t1 = detail::now_ns();
    }
    if (f.state.load(std::memory_order_acquire) == detail::kDone) {
      w->pop();  // the deque is empty; restores bottom after the thief's take
      samples.push_back(t1 - t0);
    } else if (w->pop() != &f) {
      detail::wait_stolen(w, &f);
    }
  }
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

Pool::Pool(PoolConfig config) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.config = std::move(config);
  const StealConfig& budget = s.config.budget;
  if (s.config.workers.empty()) {
    throw InputError({}, "threads", "a work-stealing pool needs at least one worker");
  }
  if (budget.max_depth < 1) throw InputError({}, "steal.max_depth", "must be ≥ 1");
  if (budget.frames_per_worker < 1) throw InputError({}, "steal.frames_per_worker", "must be ≥ 1");
  const int p = static_cast<int>(s.config.workers.size());
  // Deque capacity: one entry per join level plus one per scope frame (docs §2).
  const std::int64_t capacity =
      round_up_pow2(static_cast<std::int64_t>(budget.max_depth) + budget.frames_per_worker + 1);
  const std::size_t stride = (sizeof(Scope::Child) + 63) / 64 * 64;
  for (int i = 0; i < p; ++i) {
    auto w = std::make_unique<detail::Worker>();
    s.buffers.push_back(std::make_unique<std::atomic<detail::Frame*>[]>(
        static_cast<std::size_t>(capacity)));
    s.frame_pools.push_back(std::make_unique<std::byte[]>(
        stride * static_cast<std::size_t>(budget.frames_per_worker) + 64));
    w->buffer = s.buffers.back().get();
    w->mask = capacity - 1;
    w->index = i;
    w->max_depth = budget.max_depth;
    w->frames_capacity = budget.frames_per_worker;
    // Align the pool to 64 bytes (Child needs 16; 64 avoids false sharing between frames).
    auto raw = reinterpret_cast<std::uintptr_t>(s.frame_pools.back().get());
    w->frame_pool = s.frame_pools.back().get() + ((64 - raw % 64) % 64);
    w->frame_stride = stride;
    w->rng = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1);
    s.peers.push_back(w.get());
    s.workers.push_back(std::move(w));
  }
  for (auto& w : s.workers) w->peers = s.peers.data();
  try {
    for (int i = 1; i < p; ++i) {
      ThreadConfig tc = s.config.workers[static_cast<std::size_t>(i)];
      // Worker stacks are part of the budget: sized from [task.steal].stack_bytes unless the
      // worker's ThreadConfig asks for a size itself.
      if (tc.stack_bytes == 0) tc.stack_bytes = budget.stack_bytes;
      s.threads.push_back(
          std::make_unique<rtpar::detail::RtThread>(tc, [&s, i] { s.worker_main(i); }));
    }
  } catch (...) {
    s.stop.store(true, std::memory_order_release);
    s.epoch.fetch_add(1, std::memory_order_release);
    rtpar::detail::futex_wake(s.epoch, INT_MAX);
    s.threads.clear();
    throw;
  }
  if (p >= 2) {
    std::int64_t cost = 0;
    run([&] { cost = s.calibrate(s.workers[0].get()); });
    s.steal_cost_ns = cost;
    for (auto& w : s.workers) w->steal_cost_ns = cost;
  }
  s.profile = JobProfile{};
}

Pool::~Pool() {
  State& s = *state_;
  s.stop.store(true, std::memory_order_release);
  s.epoch.fetch_add(1, std::memory_order_release);
  rtpar::detail::futex_wake(s.epoch, INT_MAX);
  for (auto& t : s.threads) t->join();
}

void Pool::run(FunctionRef<void()> root) {
  State& s = *state_;
  if (detail::tls_worker != nullptr) {
    throw std::logic_error("rtpar::steal::Pool::run called from inside a job");
  }
  detail::Worker* w0 = s.workers[0].get();
  for (auto& w : s.workers) {
    w->spawns = 0;
    w->steals = 0;
    w->frames_used = 0;
    w->depth = 0;
  }
  const std::uint32_t others = static_cast<std::uint32_t>(s.workers.size() - 1);
  if (others > 0) {
    s.running.store(true, std::memory_order_relaxed);
    s.busy.store(others, std::memory_order_relaxed);
    s.epoch.fetch_add(1, std::memory_order_release);
    rtpar::detail::futex_wake(s.epoch, INT_MAX);
  }
  detail::tls_worker = w0;
  const std::int64_t start = detail::now_ns();
  w0->prof = detail::Prof{0, 0, 0, start};
  std::exception_ptr error;
  try {
    root();
  } catch (...) {
    error = std::current_exception();
  }
  w0->prof.finish(detail::now_ns());
  detail::tls_worker = nullptr;
  if (others > 0) s.running.store(false, std::memory_order_release);
  if (s.config.after_run) s.config.after_run(0);
  for (std::uint32_t b; (b = s.busy.load(std::memory_order_acquire)) != 0;) {
    rtpar::detail::futex_wait(s.busy, b);
  }
  JobProfile profile;
  profile.work_ns = w0->prof.work;
  profile.span_ns = w0->prof.span;
  profile.burdened_span_ns = w0->prof.bspan;
  for (auto& w : s.workers) {
    profile.spawns += w->spawns;
    profile.steals += w->steals;
  }
  s.profile = profile;
  if (error) std::rethrow_exception(error);
}

JobProfile Pool::last_profile() const { return state_->profile; }

std::vector<int> Pool::worker_tids() const {
  std::vector<int> tids;
  for (const auto& t : state_->threads) tids.push_back(t->tid());
  return tids;
}

int Pool::size() const noexcept { return static_cast<int>(state_->workers.size()); }

std::int64_t Pool::steal_cost_ns() const noexcept { return state_->steal_cost_ns; }

}  // namespace rtpar::steal
