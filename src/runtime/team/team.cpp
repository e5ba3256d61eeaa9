// team.cpp — rtpar's fork/join team: wait-free fork and join in the style of FJOS (FJOS §III).
//
// Fork. Each worker waits on a slot of its own (one cache line, a signal_word.hpp word whose
// payload is the region generation). The master copies the region reference (two words) into it,
// and publishes generation g+1 into the slots with release exchanges: into every worker's slot
// directly, or — for sleeping policies in teams of at least `tree_wakeup_min` — only into the
// slots of its children in a binary tree (children of rank r are 2r+1 and 2r+2); each woken worker
// first publishes into its own children's slots, then runs the region (FJOS's multicast: the
// O(P) futex wake-ups are spread over the workers instead of serialised on the master).
//
// Join. The join word counts arrivals cumulatively (P-1 per region, kArrival each), so the master
// never resets it. Each worker adds one arrival with a fetch_add (wait-free); the one that
// completes the region's count wakes the master only if the master set the sleeper flag (and the
// master clears the flag when it wakes). The master spins, sleeps, or spins then sleeps.
//
// Barrier (inside a region): members fetch_add an arrival count; the last arriver resets the count
// and publishes the next barrier generation; the others wait for the generation to change.
//
// Between jobs: park() sets a flag that spinning workers poll, so they fall through to futex sleep
// and no core spins at SCHED_FIFO while no job runs.
//
// Self-timed release (expect_release): a worker about to sleep for a fork reads the expected
// fork time R (a hint, next_release_: the release plus the job's learned sequential prefix,
// platform/release_forecast.hpp) and, when R is ahead, sleeps on its slot with an absolute
// deadline R - lead (FUTEX_WAIT_BITSET: the timer fires on the worker's own core; the lead is
// release_lead plus the worker's own recent timer lateness, platform/timer_lead.hpp), then clears
// its SLEEPER flag and spins until R + window. A fork at R therefore costs the master a plain store
// (publish sees no flag) instead of a cross-core futex wake-up; a fork during the timed sleep
// wakes the worker through the flag as before; a fork after the window finds it asleep with the
// flag set. Only one thread ever waits on a slot (its worker), so the worker may clear its own
// flag: nobody else can be asleep there.
//
// Member jobs (TeamConfig::member_hooks): park() advances a master-only job number that every fork
// copies into the slots with the region; a worker calls job_begin before its first region of a
// job (a job number it has not begun) and job_end when, about to sleep or after a timed wake-up,
// it sees parked_ set — at once under spin and hybrid after the job's last region, since parked_
// ends their spin — or, when it slept through the park, before it begins the next job. A worker
// whose job was demoted ends it before it sleeps (restored, it wakes for the next fork at its
// priority; a later region of the same job begins a new one). The hooks
// run on the sleeping path and around the region, never inside a spin.
//
// Memory-ordering invariants (each argued on its line; docs/internals/forkjoin.md):
//  (1) fork: region reference (plain) → release exchange of the slot → worker's acquire; transitive
//      along tree edges. A worker cannot miss a generation: the next fork starts only after the
//      join completed, i.e. after every worker went back to its slot.
//  (2) join: the arrivals form a release sequence on join_, so the master's acquire load of the
//      target count sees every worker's region writes.
//  (3) barrier: arrivals release into the last arriver's acquire; its release publish of the
//      generation reaches every waiter's acquire. parked_ and next_release_ are only hints
//      (relaxed everywhere): they decide how a worker waits, never whether it sees a fork.
//  (4) timed sleep: the worker's flag CAS and the master's publish exchange are RMWs of one word
//      (signal word (1)): publish first → the CAS fails on the new generation; CAS first → the
//      exchange returns the flag and wakes the sleeper. Clearing the flag after a timeout is an
//      RMW too: if a fork came in between, the returned value shows the new generation.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "platform/futex.hpp"
#include "platform/release_forecast.hpp"
#include "platform/rt_thread.hpp"
#include "platform/spin_wait.hpp"
#include "platform/timer_lead.hpp"
#include "rtpar/team.hpp"
#include "runtime/team/signal_word.hpp"

namespace rtpar {

namespace {

// Signal-word payloads (slots, join_, barrier_gen_) move in steps of 2: bit 0 is
// detail::kSleeper (signal_word.hpp).
inline constexpr std::uint32_t kGenerationStep = 2;  // a fork or barrier generation
inline constexpr std::uint32_t kArrival = 2;         // one worker's arrival in join_
static_assert((kGenerationStep & detail::kSleeper) == 0 && (kArrival & detail::kSleeper) == 0);
// parked_ values (wait_fork's give-up hint: parked ends the policy's spin).
inline constexpr std::uint32_t kUnparked = 0;  // a job runs: workers may spin per the policy
inline constexpr std::uint32_t kParked = 1;    // between jobs: spinning workers go to sleep

// kNoRegion is what a slot refers to before the first fork (never called).
inline constexpr auto kNoRegion = [](int) {};

// Slot is one worker's activation record on a cache line of its own: the fork word and the region
// to run (FJOS's per-worker ring buffer of one entry), so a fork moves one line per worker and
// workers never share a line.
struct alignas(64) Slot {
  std::atomic<std::uint32_t> word{0};
  // region is a copy of the region reference, written by the master before it publishes `word`:
  // a copy, not a pointer to the master's FunctionRef, so that the worker reads everything the
  // fork sends from this one line instead of also pulling a line of the master's stack.
  FunctionRef<void(int)> region{kNoRegion};
  // job is the master's job number at the fork (member jobs, file comment), written and published
  // with region.
  std::uint32_t job = 0;
};

// MemberJob is what a worker knows of its part of the current job for TeamConfig::member_hooks.
struct MemberJob {
  bool open = false;      // job_begin called, job_end not yet
  std::uint32_t job = 0;  // the job number it began (valid when open)
};

class ForkJoinTeam final : public Team {
 public:
  explicit ForkJoinTeam(const TeamConfig& config)
      : size_(static_cast<int>(config.members.empty() ? 1 : config.members.size())),
        slots_(static_cast<std::size_t>(size_)),
        tree_(config.wait.kind != WaitKind::spin && size_ >= config.tree_wakeup_min),
        release_lead_ns_(config.release_lead.count()),
        release_window_ns_(config.release_window.count()),
        hooks_(config.member_hooks) {
    wait_.kind = config.wait.kind;
    wait_.spin_ns = config.wait.spin_ns.count();
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

  ~ForkJoinTeam() override { shutdown(); }

  [[nodiscard]] int size() const noexcept override { return size_; }

  void run(FunctionRef<void(int)> fn) override {
    if (size_ == 1) {
      fn(0);
      return;
    }
    start(fn);
    fn(0);
    finish();
  }

  void start(const FunctionRef<void(int)>& fn) override {
    if (size_ == 1) return;
    if (forecast_.pending()) {  // the job's first fork: learn its offset, forecast the next job's
      forecast_.first_fork(detail::spin_clock_ns());
      // relaxed: a hint for sleeping workers (invariant 3).
      next_release_.store(forecast_.forecast(), std::memory_order_relaxed);
    }
    // Only store when it changes: an unconditional store would pull the line from spinning
    // workers (who poll it) on every fork.
    // relaxed, both: a hint to spinners only (invariant 3); a worker that still sees kParked
    // sleeps and is woken by the publish below.
    if (parked_.load(std::memory_order_relaxed) != kUnparked) {
      // relaxed: the hint, see above.
      parked_.store(kUnparked, std::memory_order_relaxed);
    }
    // Plain: published by the release exchange of each slot (detail::publish, invariant 1).
    for (int r = 1; r < size_; ++r) {
      slots_[static_cast<std::size_t>(r)].region = fn;
      slots_[static_cast<std::size_t>(r)].job = job_;
    }
    generation_ += kGenerationStep;
    if (tree_) {
      wake_children(0, generation_);
    } else {
      for (int r = 1; r < size_; ++r) detail::publish(slot(r), generation_);
    }
  }

  void finish() override {
    if (size_ == 1) return;
    const std::uint32_t target = join_target(generation_);
    // wait_until loads join_ with acquire: reading the target synchronizes with every arrival
    // (invariant 2).
    const std::uint32_t joined = detail::wait_until(
        join_, wait_, [target](std::uint32_t v) { return (v & ~detail::kSleeper) == target; });
    // The master slept: clear its flag, or every later join would make a needless wake-up call.
    if ((joined & detail::kSleeper) != 0) {
      // relaxed: all arrivals of this region are in; the next region's workers see the cleared
      // flag through the next fork's release/acquire. An RMW, so it keeps the release sequence.
      join_.fetch_and(~detail::kSleeper, std::memory_order_relaxed);
    }
  }

  void barrier() override {
    if (size_ == 1) return;
    // acquire (relaxed would do: the acq_rel RMW below keeps this load before our arrival).
    // Read before arriving, so this member cannot see the next generation early.
    const std::uint32_t seen = barrier_gen_.load(std::memory_order_acquire) & ~detail::kSleeper;
    // acq_rel (invariant 3): release publishes our writes to the last arriver; acquire makes the
    // last arriver see every member's (the arrivals form a release sequence).
    if (barrier_count_.fetch_add(1, std::memory_order_acq_rel) ==
        static_cast<std::uint32_t>(size_ - 1)) {
      // relaxed: no member touches the count until it sees the new generation, which the release
      // exchange in publish() orders after this store.
      barrier_count_.store(0, std::memory_order_relaxed);
      detail::publish(barrier_gen_, seen + kGenerationStep);
      return;
    }
    detail::wait_change(barrier_gen_, seen, wait_);
  }

  // relaxed: a hint to spinners; correctness rests on the slot protocol (invariant 3). The job
  // number is master-only (plain), published by the next fork.
  void park() noexcept override {
    ++job_;
    parked_.store(kParked, std::memory_order_relaxed);
  }

  // relaxed: a hint for sleeping workers (invariant 3); written by the master only.
  void expect_release(std::int64_t release_ns) noexcept override {
    forecast_.expect(release_ns, detail::spin_clock_ns());
    next_release_.store(forecast_.forecast(), std::memory_order_relaxed);
  }

  [[nodiscard]] std::vector<int> worker_tids() const override {
    std::vector<int> out;
    out.reserve(workers_.size());
    for (const auto& w : workers_) out.push_back(w->tid());
    return out;
  }

 private:
  // join_target is the join word's payload once every worker finished the region of generation
  // g: arrivals accumulate (P-1 per region, kArrival each), so the master never resets the word
  // and a fork does not have to pull its cache line back. Modulo 2^32 on both sides: the value
  // wraps consistently with the generation.
  [[nodiscard]] std::uint32_t join_target(std::uint32_t g) const noexcept {
    return (g / kGenerationStep) * static_cast<std::uint32_t>(size_ - 1) * kArrival;
  }

  std::atomic<std::uint32_t>& slot(int rank) noexcept {
    return slots_[static_cast<std::size_t>(rank)].word;
  }

  // wake_children publishes generation g into the slots of rank's children in the wake-up tree.
  void wake_children(int rank, std::uint32_t g) noexcept {
    for (int child = 2 * rank + 1; child <= 2 * rank + 2 && child < size_; ++child) {
      detail::publish(slot(child), g);
    }
  }

  // wait_fork waits until the payload of rank's slot differs from `seen` (a fork or the
  // shutdown) and returns it: spinning per the policy unless parked, then sleeping — on a timer
  // up to the expected release and spinning through the release window when one is expected
  // (file comment), else until woken. `lead` is the worker's own timer lead, learned from its
  // timer wake-ups (platform/timer_lead.hpp). Every load of the slot is acquire (invariant 1).
  std::uint32_t wait_fork(int rank, std::uint32_t seen, detail::TimerLead& lead,
                          MemberJob& member) noexcept {
    std::atomic<std::uint32_t>& word = slot(rank);
    std::uint32_t v = 0;
    // acquire (invariant 1): the fork's region pointer is visible once the new payload is.
    const auto forked = [&] {
      return ((v = word.load(std::memory_order_acquire)) & ~detail::kSleeper) != seen;
    };
    if (wait_.kind != WaitKind::block) {
      const std::int64_t budget =
          wait_.kind == WaitKind::hybrid ? wait_.spin_ns : detail::kSpinForever;
      // relaxed: parked_ is a hint (invariant 3).
      if (detail::spin_until(forked, budget, [this] {
            return parked_.load(std::memory_order_relaxed) != kUnparked;
          })) {
        return v;
      }
    }
    for (;;) {
      if (forked()) return v;
      // About to sleep (or awake from a timed sleep): end this worker's job if the master parked
      // or it was demoted (member jobs, file comment). relaxed: a hint (invariant 3); parked_ can
      // only read kParked after this job's park — the fork we acquired was published after start()
      // cleared it — and a stale kUnparked only leaves the job open until the next job's first
      // region.
      if (member.open &&
          (parked_.load(std::memory_order_relaxed) != kUnparked || hooks_->demoted(rank))) {
        hooks_->job_end(rank);
        member.open = false;
      }
      // relaxed: a hint (invariant 3); a stale value only changes how long we sleep or spin.
      const std::int64_t release = next_release_.load(std::memory_order_relaxed);
      const std::int64_t now = detail::spin_clock_ns();
      const bool expected = release != 0 && now < release + release_window_ns_;
      const std::int64_t deadline = release - lead.lead();
      if (expected && now >= deadline) {
        // The release window: spin for the fork (a plain store on the master's side).
        if (detail::spin_until(forked, release + release_window_ns_ - now)) return v;
        continue;  // the window passed: sleep until woken
      }
      if ((v & detail::kSleeper) == 0) {
        // acquire CAS: sets the flag (invariant 4); fails if a fork changed the payload.
        if (!word.compare_exchange_weak(v, v | detail::kSleeper, std::memory_order_acquire,
                                        std::memory_order_acquire)) {
          continue;
        }
        v |= detail::kSleeper;
      }
      if (!expected) {
        detail::futex_wait(word, v);
        continue;
      }
      detail::futex_wait_until(word, v, deadline);
      // How late this worker's timer woke it (ignored when a fork woke it before the deadline).
      lead.observe(detail::spin_clock_ns() - deadline);
      // Awake on the timer (or a fork): clear our flag so that a fork in the window is a plain
      // store. acquire RMW (invariant 4): returns the current payload, a fork's included.
      v = word.fetch_and(~detail::kSleeper, std::memory_order_acquire) & ~detail::kSleeper;
      if (v != seen) return v;
    }
  }

  void worker_loop(int rank) noexcept {
    std::uint32_t seen = 0;
    detail::TimerLead lead(release_lead_ns_, release_window_ns_);  // this worker's own
    MemberJob member;
    if (hooks_ != nullptr) hooks_->started(rank);
    for (;;) {
      // wait_fork loads the slot with acquire: pairs with the master's (or tree parent's)
      // release exchange; we see region, job and stop_ (invariant 1).
      seen = wait_fork(rank, seen, lead, member) & ~detail::kSleeper;
      // acquire (relaxed would do: the slot's acquire above already ordered shutdown's store).
      if (stop_.load(std::memory_order_acquire)) break;
      if (tree_) wake_children(rank, seen);
      Slot& mine = slots_[static_cast<std::size_t>(rank)];
      if (hooks_ != nullptr && (!member.open || member.job != mine.job)) {
        if (member.open) hooks_->job_end(rank);  // slept through the park of the last job
        hooks_->job_begin(rank);
        member.open = true;
        member.job = mine.job;
      }
      mine.region(rank);
      // acq_rel: the release half publishes our region writes to the master (invariant 2); the
      // acquire half is not needed (we read nothing through it) but costs nothing on x86.
      const std::uint32_t before = join_.fetch_add(kArrival, std::memory_order_acq_rel);
      if (((before + kArrival) & ~detail::kSleeper) == join_target(seen) &&
          (before & detail::kSleeper) != 0) {
        detail::futex_wake(join_, 1);
      }
    }
    if (hooks_ == nullptr) return;
    if (member.open) hooks_->job_end(rank);
    hooks_->exiting(rank);
  }

  void shutdown() noexcept {
    // release (relaxed would do): the release exchanges of publish() below carry it (invariant 1).
    stop_.store(true, std::memory_order_release);
    generation_ += kGenerationStep;
    // Directly, not through the tree: workers leave without forwarding.
    for (int r = 1; r < size_; ++r) detail::publish(slot(r), generation_);
    for (auto& w : workers_) w->join();
    workers_.clear();
  }

  const int size_;
  std::vector<Slot> slots_;  // slots_[0] unused: the master does not wait for forks
  const bool tree_;
  detail::WaitSpec wait_;  // the policy: master's join wait, barrier waits, workers' fork wait
  const std::int64_t release_lead_ns_;    // TeamConfig::release_lead
  const std::int64_t release_window_ns_;  // TeamConfig::release_window
  MemberJobHooks* const hooks_;           // TeamConfig::member_hooks (may be null)
  std::uint32_t generation_ = 0;          // master-only
  std::uint32_t job_ = 0;                 // master-only: jobs parked (member jobs, file comment)
  detail::ReleaseForecast forecast_;      // master-only: expect_release and the first forks
  std::atomic<bool> stop_{false};
  alignas(64) std::atomic<std::uint32_t> join_{0};
  alignas(64) std::atomic<std::uint32_t> parked_{kParked};
  // next_release_ is the forecast first fork of the next job (expect_release's hint); 0: none.
  std::atomic<std::int64_t> next_release_{0};
  alignas(64) std::atomic<std::uint32_t> barrier_count_{0};
  alignas(64) std::atomic<std::uint32_t> barrier_gen_{0};
  std::vector<std::unique_ptr<detail::RtThread>> workers_;
};

}  // namespace

std::unique_ptr<Team> make_team(const TeamConfig& config) {
  return std::make_unique<ForkJoinTeam>(config);
}

}  // namespace rtpar
