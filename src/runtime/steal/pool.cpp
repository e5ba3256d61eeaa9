// pool.cpp — Pool: workers, their run/idle protocol, the profile and the steal-cost calibration.
//
// Run protocol (docs/internals/steal.md §3.5; each step's ordering is argued on its line in
// run(), next_epoch() and worker_main()):
//   run():  reset counters, running = true, busy = P-1, epoch += 1, wake sleepers → root() →
//           running = false → wait for busy == 0 → profile
//   worker: wait for a new epoch (spin, then futex) → steal while running → busy -= 1, wake run()
// Invariants: (1) epoch's release/acquire publishes the counter reset, `running` and `busy` to the
// workers; (2) the busy decrements form a release sequence that run()'s acquire load of 0 reads,
// so every worker's counters are visible to the profile; (3) both sleeper handshakes
// (sleepers/epoch, main_waiting/busy) are Dekker pairs of seq_cst accesses: either the waker sees
// the flag or the sleeper sees the new value, and futex_wait re-checks the value in the kernel, so
// no wake-up is lost. Between runs a worker spins at most budget.idle_spin_ns, then sleeps —
// until woken, or, when expect_release gave the next run's release (R: the release plus the
// smallest recent delay of the first run after it, platform/release_forecast.hpp), on its own
// absolute timer
// until R - lead, then spinning (not counted in `sleepers`, so run() makes no wake-up call) until
// R + window. next_release is a hint (relaxed): it decides how a worker waits, never whether it
// sees an epoch (the Dekker pair (3) still guards every sleep).
#include <cpuid.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>

#include "platform/futex.hpp"
#include "platform/release_forecast.hpp"
#include "platform/rt_thread.hpp"
#include "platform/spin_wait.hpp"
#include "platform/timer_lead.hpp"
#include "rtpar/error.hpp"
#include "rtpar/steal.hpp"
#include "runtime/steal/backoff.hpp"

namespace rtpar::steal {

namespace {

// kCalibrationWarmup / kCalibrationSamples: steal round trips timed at construction; the first
// kCalibrationWarmup are dropped (the thief is still waking up), the lower quartile of the rest
// is kept.
constexpr int kCalibrationWarmup = 4;
constexpr int kCalibrationSamples = 31;
// kCalibrationTimeoutNs bounds one sample's wait for a thief (a busy machine may not give one).
constexpr std::int64_t kCalibrationTimeoutNs = 2'000'000;
// kJoinSpinNs is how long run() spins for the workers to check out before it sleeps. (How long a
// worker spins for the next run is StealConfig::idle_spin_ns.)
constexpr std::int64_t kJoinSpinNs = 50'000;

std::int64_t round_up_pow2(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// invariant_tsc says whether the CPU's TSC ticks at a constant rate in every power state (CPUID
// 0x80000007 EDX bit 8), which ticks() needs to be a clock.
bool invariant_tsc() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0x80000000u, &a, &b, &c, &d) == 0 || a < 0x80000007u) return false;
  if (__get_cpuid(0x80000007u, &a, &b, &c, &d) == 0) return false;
  return (d & (1u << 8)) != 0;
#else
  return false;
#endif
}

// spin_until is the shared spin half of a spin-then-sleep wait (platform/spin_wait.hpp).
using rtpar::detail::spin_until;

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
  std::atomic<std::uint32_t> sleepers{0};
  std::atomic<bool> running{false};
  std::atomic<bool> stop{false};
  alignas(64) std::atomic<std::uint32_t> busy{0};
  std::atomic<bool> main_waiting{false};
  alignas(64) std::atomic<std::int64_t> next_release{0};  // expect_release's hint (0: none)
  rtpar::detail::ReleaseForecast forecast;                // run()'s thread only
  alignas(64) std::int64_t steal_cost_ns = 0;
  // The ticks → ns ratio, measured against CLOCK_MONOTONIC since construction (ref_*).
  std::int64_t ref_ticks = 0, ref_ns = 0;
  double ns_per_tick = 1.0;
  JobProfile profile;
  PoolMemory memory;

  // worker_main is the body of workers 1..P-1.
  void worker_main(int index);
  // next_epoch waits (spin, then futex) until epoch differs from seen, and returns it; `lead` is
  // the calling worker's own timer lead for expected releases (platform/timer_lead.hpp).
  std::uint32_t next_epoch(std::uint32_t seen, rtpar::detail::TimerLead& lead);
  // steal_loop takes work from random victims (xorshift) until the run ends.
  void steal_loop(detail::Worker* w);
  // calibrate times steal round trips of an empty frame (called inside a run, on worker 0);
  // returns ticks.
  std::int64_t calibrate(detail::Worker* w);
  // update_ratio refreshes ns_per_tick (worker 0, outside runs).
  void update_ratio() {
    const std::int64_t dt = detail::ticks() - ref_ticks;
    const std::int64_t dn = detail::now_ns() - ref_ns;
    if (dt > 0 && dn > 0) ns_per_tick = static_cast<double>(dn) / static_cast<double>(dt);
  }
  // to_ns converts a tick count.
  [[nodiscard]] std::int64_t to_ns(std::int64_t t) const {
    return std::llround(static_cast<double>(t) * ns_per_tick);
  }
};

void Pool::State::steal_loop(detail::Worker* w) {
  detail::Backoff backoff;
  const int p = static_cast<int>(peers.size());
  // acquire: pairs with run()'s release store of false (root finished: check out). Nothing is
  // read through it (true was published by epoch's acquire), so relaxed would do.
  while (running.load(std::memory_order_acquire)) {
    // xorshift64 (Marsaglia 2003): cheap, per-worker, no shared state.
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 7;
    w->rng ^= w->rng << 17;
    int victim = static_cast<int>(w->rng % static_cast<std::uint64_t>(p - 1));
    if (victim >= w->index) ++victim;
    if (detail::Frame* f = peers[static_cast<std::size_t>(victim)]->steal()) {
      w->busy += detail::run_stolen(w, f);
      backoff.reset();
    } else {
      backoff.pause();
    }
  }
}

std::uint32_t Pool::State::next_epoch(std::uint32_t seen, rtpar::detail::TimerLead& lead) {
  std::uint32_t e = seen;
  // acquire: pairs with run()'s epoch RMW (invariant 1); we then see running, busy and our reset
  // counters.
  if (spin_until([&] { return (e = epoch.load(std::memory_order_acquire)) != seen; },
                 config.budget.idle_spin_ns)) {
    return e;
  }
  const std::int64_t window = config.release_window.count();
  for (;;) {
    // relaxed: a hint (file comment); a stale value only changes how long we sleep or spin.
    const std::int64_t release = next_release.load(std::memory_order_relaxed);
    const std::int64_t now = rtpar::detail::spin_clock_ns();
    const bool expected = release != 0 && now < release + window;
    const std::int64_t deadline = release - lead.lead();
    if (expected && now >= deadline) {
      // The release window: spin for the run, invisible to run()'s sleepers check.
      // acquire: as in the spin above (invariant 1).
      if (spin_until([&] { return (e = epoch.load(std::memory_order_acquire)) != seen; },
                     release + window - now)) {
        return e;
      }
      continue;  // the window passed: sleep until woken
    }
    // seq_cst, Dekker half 1 (invariant 3): announce ourselves before re-reading epoch, so either
    // run()'s sleepers load sees us or our epoch load below sees its increment.
    sleepers.fetch_add(1, std::memory_order_seq_cst);
    // seq_cst, Dekker half 2: read after our announcement in the total order.
    if (epoch.load(std::memory_order_seq_cst) == seen) {
      if (expected) {
        rtpar::detail::futex_wait_until(epoch, seen, deadline);
        // How late our timer woke us (ignored when a run woke us before the deadline).
        lead.observe(rtpar::detail::spin_clock_ns() - deadline);
      } else {
        rtpar::detail::futex_wait(epoch, seen);
      }
    }
    // relaxed: a stale count only costs run() a needless futex_wake; it publishes nothing.
    sleepers.fetch_sub(1, std::memory_order_relaxed);
    // acquire: pairs with run()'s epoch RMW (invariant 1), as in the spin above.
    e = epoch.load(std::memory_order_acquire);
    if (e != seen) return e;
  }
}

void Pool::State::worker_main(int index) {
  detail::Worker* w = workers[static_cast<std::size_t>(index)].get();
  detail::tls_worker = w;
  std::uint32_t seen = 0;
  rtpar::detail::TimerLead lead(config.release_lead.count(), config.release_window.count());
  for (;;) {
    seen = next_epoch(seen, lead);
    // acquire: pairs with the destructor's release store (already ordered by epoch's acquire in
    // next_epoch; relaxed would do).
    if (stop.load(std::memory_order_acquire)) break;
    if (config.before_run) config.before_run(index);
    steal_loop(w);
    if (config.after_run) config.after_run(index);
    // busy: seq_cst ⊇ release, so our counters reach run() through the release sequence
    // (invariant 2); seq_cst is for the Dekker pair with main_waiting (invariant 3): either run()
    // sees busy == 0 after setting main_waiting, or we see main_waiting and wake it.
    if (busy.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
        main_waiting.load(std::memory_order_seq_cst)) {
      rtpar::detail::futex_wake(busy, 1);
    }
  }
  detail::tls_worker = nullptr;
}

// calibrate: worker 0 publishes an empty frame and spins (without popping) until a thief has run
// it; push-to-done as seen by the owner is one steal round trip (thief finds and takes the frame,
// runs nothing, signals done, owner observes it). Samples where no thief came within the timeout
// are dropped (the frame is popped back or waited for). The lower quartile is kept: the
// undisturbed cost, robust to up to 3/4 of the samples inflated by preemption or a thief that was
// inside sched_yield (a median of 15 moved by 2× between pools on a busy machine).
std::int64_t Pool::State::calibrate(detail::Worker* w) {
  std::vector<std::int64_t> samples;
  samples.reserve(kCalibrationSamples);
  for (int i = 0; i < kCalibrationWarmup + kCalibrationSamples; ++i) {
    detail::Frame f;
    f.execute = [](detail::Frame*) noexcept { return false; };
    // relaxed: not yet shared; push's release store of bottom publishes it.
    f.state.store(detail::kPending, std::memory_order_relaxed);
    f.depth = 1;
    w->push(&f);
    const std::int64_t t0 = detail::ticks();
    std::int64_t t1 = t0;
    const bool done = spin_until(
        [&] {
          t1 = detail::ticks();
          // acquire: pairs with the thief's release store of kDone (run_stolen), its last access
          // to f: after this f may go out of scope.
          return f.state.load(std::memory_order_acquire) >= detail::kDone;
        },
        kCalibrationTimeoutNs);
    if (done) {
      w->pop();  // the deque is empty; restores bottom after the thief's take
      if (i >= kCalibrationWarmup) samples.push_back(t1 - t0);
    } else if (w->pop() != &f) {
      detail::wait_stolen(w, &f);
    }
  }
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 4];
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
  if (budget.profile_depth < 0) throw InputError({}, "steal.profile_depth", "must be ≥ 0");
  if (budget.idle_spin_ns < 0) throw InputError({}, "steal.idle_spin", "must be ≥ 0");
  static const bool tsc = invariant_tsc();
  // relaxed: a standalone flag, always the same value; the threads created below synchronize
  // with this thread at creation.
  detail::use_tsc.store(tsc, std::memory_order_relaxed);
  s.ref_ticks = detail::ticks();
  s.ref_ns = detail::now_ns();
  const int p = static_cast<int>(s.config.workers.size());
  // Deque capacity: one entry per join level plus one per scope frame (docs §2).
  const std::int64_t capacity =
      round_up_pow2(static_cast<std::int64_t>(budget.max_depth) + budget.frames_per_worker + 1);
  const std::size_t stride = (sizeof(Scope::Child) + 63) / 64 * 64;
  for (int i = 0; i < p; ++i) {
    auto w = std::make_unique<detail::Worker>();
    s.buffers.push_back(
        std::make_unique<std::atomic<detail::Frame*>[]>(static_cast<std::size_t>(capacity)));
    s.frame_pools.push_back(std::make_unique<std::byte[]>(
        stride * static_cast<std::size_t>(budget.frames_per_worker) + 64));
    w->buffer = s.buffers.back().get();
    w->mask = capacity - 1;
    w->index = i;
    w->max_depth = budget.max_depth;
    w->profile_depth = budget.profile_depth;
    w->frames_capacity = budget.frames_per_worker;
    // Align the pool to 64 bytes (Child needs 16; 64 avoids false sharing between frames).
    auto raw = reinterpret_cast<std::uintptr_t>(s.frame_pools.back().get());
    w->frame_pool = s.frame_pools.back().get() + ((64 - raw % 64) % 64);
    w->frame_stride = stride;
    w->rng = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1);
    s.peers.push_back(w.get());
    s.workers.push_back(std::move(w));
    s.memory.heap_bytes +=
        sizeof(detail::Worker) +
        static_cast<std::size_t>(capacity) * sizeof(std::atomic<detail::Frame*>) +
        stride * static_cast<std::size_t>(budget.frames_per_worker) + 64;
  }
  for (auto& w : s.workers) w->peers = s.peers.data();
  try {
    for (int i = 1; i < p; ++i) {
      ThreadConfig tc = s.config.workers[static_cast<std::size_t>(i)];
      // Worker stacks are part of the budget: sized from [task.steal].stack_bytes unless the
      // worker's ThreadConfig asks for a size itself.
      if (tc.stack_bytes == 0) tc.stack_bytes = budget.stack_bytes;
      s.memory.stack_bytes += tc.stack_bytes;
      s.threads.push_back(
          std::make_unique<rtpar::detail::RtThread>(tc, [&s, i] { s.worker_main(i); }));
    }
  } catch (...) {
    // release, both: the epoch RMW publishes stop = true to the workers' acquire load of epoch;
    // futex_wake always runs, so no Dekker pair is needed (futex_wait re-checks epoch).
    s.stop.store(true, std::memory_order_release);
    // release: the workers' acquire load of epoch then sees stop (above).
    s.epoch.fetch_add(1, std::memory_order_release);
    rtpar::detail::futex_wake(s.epoch, INT_MAX);
    s.threads.clear();
    throw;
  }
  if (p >= 2) {
    std::int64_t cost = 0;
    run([&] { cost = s.calibrate(s.workers[0].get()); });
    for (auto& w : s.workers) w->burden = cost;
    s.steal_cost_ns = s.to_ns(cost);
  }
  s.profile = JobProfile{};
}

Pool::~Pool() {
  State& s = *state_;
  // release, both: as in the constructor's error path — the epoch RMW publishes stop = true, and
  // the unconditional futex_wake needs no sleepers check.
  s.stop.store(true, std::memory_order_release);
  // release: the workers' acquire load of epoch then sees stop (above).
  s.epoch.fetch_add(1, std::memory_order_release);
  rtpar::detail::futex_wake(s.epoch, INT_MAX);
  for (auto& t : s.threads) t->join();
}

void Pool::run(FunctionRef<void()> root) {
  State& s = *state_;
  if (detail::tls_worker != nullptr) {
    throw std::logic_error("rtpar::steal::Pool::run called from inside a job");
  }
  if (s.forecast.pending()) {  // the job's first run: learn its delay, forecast the next job's
    s.forecast.first_fork(rtpar::detail::spin_clock_ns());
    // relaxed: a hint (file comment).
    s.next_release.store(s.forecast.forecast(), std::memory_order_relaxed);
  }
  detail::Worker* w0 = s.workers[0].get();
  for (auto& w : s.workers) {
    w->spawns = 0;
    w->steals = 0;
    w->frames_used = 0;
    w->depth = 0;
    w->deepest = 0;
    w->busy = 0;
    w->idle = 0;
  }
  const std::uint32_t others = static_cast<std::uint32_t>(s.workers.size() - 1);
  if (others > 0) {
    // relaxed, both: published by the epoch RMW below (invariant 1). No worker touches them now:
    // the previous run ended only after busy reached 0.
    s.running.store(true, std::memory_order_relaxed);
    // relaxed: published by the epoch RMW below, like running.
    s.busy.store(others, std::memory_order_relaxed);
    // seq_cst ⊇ release: publishes the resets above (invariant 1); seq_cst for the Dekker pair
    // with a worker's sleepers += 1 / epoch load (invariant 3).
    s.epoch.fetch_add(1, std::memory_order_seq_cst);
    // seq_cst, Dekker half 2: after our epoch RMW in the total order; 0 means every worker about
    // to sleep will see the new epoch and not sleep.
    if (s.sleepers.load(std::memory_order_seq_cst) != 0) {
      rtpar::detail::futex_wake(s.epoch, INT_MAX);
    }
  }
  detail::tls_worker = w0;
  const std::int64_t start = detail::ticks();
  w0->prof = detail::Strand{0, 0, start};
  std::exception_ptr error;
  try {
    root();
  } catch (...) {
    error = std::current_exception();
  }
  const std::int64_t end = detail::ticks();
  detail::tls_worker = nullptr;
  // release: the root's effects precede the end of the run for workers that see false (they
  // publish nothing back through it; busy does that). relaxed would do.
  if (others > 0) s.running.store(false, std::memory_order_release);
  if (s.config.after_run) s.config.after_run(0);
  // acquire: busy's fetch_sub chain is a release sequence, so seeing 0 publishes every worker's
  // counters to the profile below.
  if (others > 0 &&
      // acquire: reading 0 synchronizes with every worker's fetch_sub (invariant 2).
      !spin_until([&] { return s.busy.load(std::memory_order_acquire) == 0; }, kJoinSpinNs)) {
    // seq_cst, Dekker half 1 (invariant 3): set the flag before re-reading busy.
    s.main_waiting.store(true, std::memory_order_seq_cst);
    // seq_cst ⊇ acquire: Dekker half 2, and reading 0 synchronizes as above (invariant 2).
    for (std::uint32_t b; (b = s.busy.load(std::memory_order_seq_cst)) != 0;) {
      rtpar::detail::futex_wait(s.busy, b);
    }
    // relaxed: every worker has decremented busy; a late reader of true only makes a needless
    // futex_wake, and the next run's workers see false through epoch's release (invariant 1).
    s.main_waiting.store(false, std::memory_order_relaxed);
  }
  s.update_ratio();
  // The root strand: at a profiled depth (profile_depth > 0) its joins folded everything into
  // it; with profile_depth 0 the whole job is one unprofiled subtree of the root.
  w0->busy += end - start;
  const detail::Strand& r = w0->prof;
  std::int64_t span = r.span + (end - r.start);
  std::int64_t bspan = r.bspan + (end - r.start);
  if (w0->profile_depth == 0) bspan += w0->burden * w0->deepest;
  std::int64_t work = 0;
  JobProfile profile;
  for (auto& w : s.workers) {
    work += w->busy - w->idle;
    profile.spawns += w->spawns;
    profile.steals += w->steals;
  }
  // Work is at least the span by definition; the two are measured independently (work without
  // the waits, span through them) and may cross by a clock read when all work is critical.
  profile.work_ns = s.to_ns(std::max(work, span));
  profile.span_ns = s.to_ns(span);
  profile.burdened_span_ns = s.to_ns(bspan);
  s.profile = profile;
  if (error) std::rethrow_exception(error);
}

// relaxed: a hint for sleeping workers (file comment).
void Pool::expect_release(std::int64_t release_ns) noexcept {
  state_->forecast.expect(release_ns, rtpar::detail::spin_clock_ns());
  state_->next_release.store(state_->forecast.forecast(), std::memory_order_relaxed);
}

JobProfile Pool::last_profile() const { return state_->profile; }

std::vector<int> Pool::worker_tids() const {
  std::vector<int> tids;
  for (const auto& t : state_->threads) tids.push_back(t->tid());
  return tids;
}

int Pool::size() const noexcept { return static_cast<int>(state_->workers.size()); }

std::int64_t Pool::steal_cost_ns() const noexcept { return state_->steal_cost_ns; }

PoolMemory Pool::memory() const noexcept { return state_->memory; }

}  // namespace rtpar::steal
