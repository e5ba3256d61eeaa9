// lock.cpp — the lock channel: the paper's lock-based baseline (OpenMP-RT §3.5.3), with the two
// protocols admission control analyses (docs/analysis.md, "Blocking (shared locks)").
//
// Protocol `ceiling` (every user is one thread on one core). One pthread mutex per channel;
// write and read copy the payload (plain memcpy) while holding it. With ceiling_priority > 0 the
// mutex uses PTHREAD_PRIO_PROTECT — the priority ceiling emulation protocol: while a thread holds
// it, the kernel runs that thread at the ceiling (glibc calls sched_setscheduler on lock and
// restores the old priority on unlock). With the ceiling at least the priority of every user, a
// holder cannot be preempted by another user of the lock on its core, so a blocked thread waits
// for at most one critical section per lock. Observe the boost with sched_getparam(0);
// pthread_getschedparam keeps reporting the assigned priority, as POSIX requires. glibc refuses
// (EINVAL) a caller whose priority is above the ceiling and any SCHED_OTHER caller: such errors
// are thrown as EnvironmentError. A non-RT thread must never block an RT one, so the task-set
// loader refuses lock channels that cross the RT boundary; ceiling_priority = 0 gives a plain
// mutex for channels used only by non-RT (or best-effort) threads.
//
// Protocol `msrp` (users on several cores, or a team): the Multiprocessor Stack Resource Policy
// of Gai, Lipari & Di Natale, "Minimizing Memory Utilization of Real-Time Task Sets in Single and
// Multi-Processor Systems-on-a-Chip" (RTSS 2001), §4: a request first makes the thread
// non-preemptive on its core — here: SCHED_FIFO at nonpreemptive_priority, which is at least the
// priority of every task of the run, and SCHED_FIFO never preempts a running thread for one of
// equal priority — then takes a ticket and spins (no system call, cpu_relax) until the ticket is
// served; the holder keeps running non-preemptively until it releases, then returns to its own
// priority. Tickets serve requests in FIFO order, and a core has at most one request pending
// (the requester cannot be preempted), so a request waits for at most one critical section per
// other core that hosts a user: the spin bound the planners charge.
//
// Lock order (lock_order.hpp). Every lock channel has a rank; a thread that holds several locks
// (ChannelHold) must take them in increasing rank, which makes deadlock impossible; the
// violation is detected before blocking. A read or write by a thread that already holds the
// channel copies without locking again.
//
// Records. Each acquisition records the wait (request to acquisition) and the hold (acquisition
// to release) in its user's slot (ChannelConfig::user_tasks); a hold longer than the declared
// one counts as an overrun. Only the holder writes them (plain fields, ordered by the lock);
// they are read after the run's threads are joined.
//
// Memory ordering: the mutex's acquire/release, or the ticket lock's acquire load and release
// store of `serving_`, order all payload and record accesses; the sequence is a plain counter
// under the lock.
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "rtpar/cpu_relax.hpp"
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"
#include "runtime/channel/channel_base.hpp"
#include "runtime/channel/lock_order.hpp"
#include "runtime/channel/nonpreemptive_hook.hpp"
#include "runtime/channel/word_copy.hpp"

namespace rtpar::detail {

namespace {

// t_channel_user is the task whose explicit holds the calling thread makes (set_channel_user).
thread_local int t_channel_user = -1;

// NonPreemptive is the calling thread's MSRP state: how many msrp locks it is inside (requests
// nest in lock order) and the scheduling it returns to when it leaves the outermost one.
struct NonPreemptive {
  int depth = 0;
  int policy = SCHED_OTHER;
  sched_param saved{};
  bool raised = false;
  bool hooked = false;  // the section's priority is in the hook's word (nonpreemptive_hook.hpp)
};
thread_local NonPreemptive t_nonpreemptive;

// t_nonpreemptive_hook is the calling thread's hook (set_nonpreemptive_hook), or nullptr.
thread_local const NonPreemptiveHook* t_nonpreemptive_hook = nullptr;

// kWriterSlot and kExplicitSlot are the roles acquire() is told: the writer's slot, or "an
// explicit hold" (the thread's channel user decides); a reader passes its index + 1.
constexpr int kWriterSlot = 0;
constexpr int kExplicitSlot = -1;

// throw_lock_error reports a mutex the kernel or glibc refused to lock.
[[noreturn]] void throw_lock_error(const ByteChannel& channel, int error) {
  std::string message =
      "channel '" + channel.name() + "': locking its mutex failed: " + std::strerror(error);
  std::string hint =
      "a priority-ceiling channel can only be locked by SCHED_FIFO/SCHED_RR threads whose "
      "priority is at most ceiling_priority (" +
      std::to_string(channel.config().ceiling_priority) +
      "); use ceiling_priority = 0 for a channel between non-real-time threads";
  throw EnvironmentError(message, hint);
}

class LockChannel final : public ChannelBase {
 public:
  explicit LockChannel(const ChannelConfig& config)
      : ChannelBase(config),
        data_(config.size_bytes, 1),
        msrp_(config.protocol == LockProtocol::msrp),
        stats_(config.user_tasks.size() + 1) {
    for (std::size_t k = 0; k < config.user_tasks.size(); ++k)
      stats_[k].task = config.user_tasks[k];
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    int rc = 0;
    if (config.ceiling_priority > 0) {
      rc = pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_PROTECT);
      if (rc == 0) rc = pthread_mutexattr_setprioceiling(&attr, config.ceiling_priority);
    }
    if (rc == 0) rc = pthread_mutex_init(&mutex_, &attr);
    pthread_mutexattr_destroy(&attr);
    if (rc != 0) {
      throw EnvironmentError(
          "channel '" + config.name + "': creating its mutex failed: " + std::strerror(rc),
          "check ceiling_priority (1..99) and the C library's support for "
          "PTHREAD_PRIO_PROTECT");
    }
  }

  ~LockChannel() override { pthread_mutex_destroy(&mutex_); }

  [[nodiscard]] std::size_t memory_bytes() const noexcept override {
    return lock_memory_bytes(config());
  }

  [[nodiscard]] std::vector<LockUserStats> lock_stats() const override { return stats_; }

  void publish(const void* src, std::int64_t origin_ns) override {
    Scope scope(*this, kWriterSlot);
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    auto* to = reinterpret_cast<unsigned char*>(data_.copy(0));
    const auto* from = static_cast<const unsigned char*>(src);
    std::memcpy(to, from, half);
    mid_write();
    std::memcpy(to + half, from + half, size - half);
    origin_ = origin_ns;
    ++writes_;
  }

 protected:
  ReadResult read_as(int index, void* dst) override {
    Scope scope(*this, index + 1);
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    const auto* from = reinterpret_cast<const unsigned char*>(data_.copy(0));
    auto* to = static_cast<unsigned char*>(dst);
    std::memcpy(to, from, half);
    mid_read(index);
    std::memcpy(to + half, from + half, size - half);
    return ReadResult{true, 1, writes_, origin_};
  }

  void hold() override { acquire(kExplicitSlot); }

  void release() noexcept override {
    const std::int64_t held = monotonic_now() - acquired_ns_;
    LockUserStats& s = stats_[holder_slot_];
    if (held > s.max_hold_ns) s.max_hold_ns = held;
    if (config().declared_hold_ns > 0 && held > config().declared_hold_ns) ++s.hold_overruns;
    pop_held(this);
    if (msrp_) {
      // release: publishes the critical section's writes (payload, records, writes_) to the next
      // ticket's acquire load in msrp_lock.
      serving_.store(ticket_ + 1, std::memory_order_release);
      leave_nonpreemptive();
    } else {
      pthread_mutex_unlock(&mutex_);
    }
  }

 private:
  // Scope locks for one read or write unless the thread already holds the channel.
  class Scope {
   public:
    Scope(LockChannel& channel, int slot)
        : channel_(channel), owned_(!held_by_this_thread(&channel)) {
      if (owned_) channel_.acquire(slot);
    }
    ~Scope() {
      if (owned_) channel_.release();
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    LockChannel& channel_;
    bool owned_;
  };

  // acquire takes the lock for the role `slot` (kWriterSlot, reader index + 1 or kExplicitSlot)
  // and starts its records: the wait now, the hold at release().
  void acquire(int slot) {
    check_lock_order(this);
    // MSRP: the request starts once the thread is non-preemptive (before that a higher-priority
    // task may run, which is its interference, not this lock's wait); the spin is what is timed.
    std::int64_t requested = 0;
    if (msrp_) {
      enter_nonpreemptive();
      requested = monotonic_now();
      msrp_lock();
    } else {
      requested = monotonic_now();
      lock();
    }
    acquired_ns_ = monotonic_now();
    push_held(this);
    holder_slot_ = slot_of(slot);
    LockUserStats& s = stats_[holder_slot_];
    ++s.acquisitions;
    if (acquired_ns_ - requested > s.max_wait_ns) s.max_wait_ns = acquired_ns_ - requested;
  }

  // slot_of maps a role to its user slot: a read or write by its role, an explicit hold by the
  // thread's channel user; the last slot when neither names a user.
  [[nodiscard]] std::size_t slot_of(int slot) const noexcept {
    const std::vector<int>& users = config().user_tasks;
    if (slot >= 0 && static_cast<std::size_t>(slot) < users.size()) {
      return static_cast<std::size_t>(slot);
    }
    for (std::size_t k = 0; k < users.size(); ++k) {
      if (t_channel_user >= 0 && users[k] == t_channel_user) return k;
    }
    return users.size();
  }

  // lock takes the mutex or throws EnvironmentError.
  void lock() {
    const int rc = pthread_mutex_lock(&mutex_);
    if (rc != 0) throw_lock_error(*this, rc);
  }

  // msrp_lock waits for a ticket without a system call (the caller made the thread
  // non-preemptive first).
  void msrp_lock() {
    // relaxed: the ticket only orders the requests; what the previous holder wrote is ordered
    // by the acquire load of serving_ below.
    const std::uint32_t ticket = next_.fetch_add(1, std::memory_order_relaxed);
    // acquire: pairs with the release store in release() of the holder before us.
    while (serving_.load(std::memory_order_acquire) != ticket) cpu_relax();
    ticket_ = ticket;
  }

  // enter_nonpreemptive raises the thread to nonpreemptive_priority at its outermost msrp
  // request (nothing when it already runs at least that high, or the priority is 0: best effort).
  void enter_nonpreemptive() {
    NonPreemptive& np = t_nonpreemptive;
    if (np.depth++ > 0) return;
    np.raised = false;
    np.hooked = false;
    const int target = config().nonpreemptive_priority;
    if (target <= 0) return;
    int rc = pthread_getschedparam(pthread_self(), &np.policy, &np.saved);
    const bool realtime = rc == 0 && (np.policy == SCHED_FIFO || np.policy == SCHED_RR);
    if (const NonPreemptiveHook* hook = t_nonpreemptive_hook; hook != nullptr && rc == 0) {
      // seq_cst: stored before the raise below; a re-ranker that loads it after its own
      // sched_setscheduler on this thread sees it whenever that call landed after our raise, and
      // raises the thread back (edf_band.cpp, invariant 4).
      hook->priority->store(realtime ? std::max(target, np.saved.sched_priority) : target,
                            std::memory_order_seq_cst);
      np.hooked = true;
    }
    if (realtime && np.saved.sched_priority >= target) return;
    sched_param raised{};
    raised.sched_priority = target;
    if (rc == 0) rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &raised);
    if (rc != 0) {
      leave_hook();
      --np.depth;
      throw EnvironmentError(
          "channel '" + name() + "': making the thread non-preemptive (SCHED_FIFO " +
              std::to_string(target) + ") for the MSRP lock failed: " + std::strerror(rc),
          "run with real-time privileges (root or CAP_SYS_NICE), or use --best-effort");
    }
    np.raised = true;
  }

  // leave_nonpreemptive returns the thread to its own scheduling when it leaves its outermost
  // msrp section.
  static void leave_nonpreemptive() noexcept {
    NonPreemptive& np = t_nonpreemptive;
    if (--np.depth > 0) return;
    const bool hooked = np.hooked;
    if (hooked) {
      // seq_cst: cleared before the thread's priority comes down (the invariant of the store
      // in enter_nonpreemptive, in the other direction).
      t_nonpreemptive_hook->priority->store(0, std::memory_order_seq_cst);
    }
    if (np.raised) {
      np.raised = false;
      // Lowering the priority puts the thread at the head of its old level's run list, so a
      // preempted-to-be thread of its own level does not overtake it (sched(7)).
      pthread_setschedparam(pthread_self(), np.policy, &np.saved);
    }
    if (hooked) leave_hook();
  }

  // leave_hook ends the hook's part of a section: the word cleared, `left` called (its
  // scheduler re-ranks the thread, whose saved priority may be stale by now).
  static void leave_hook() noexcept {
    NonPreemptive& np = t_nonpreemptive;
    if (!np.hooked) return;
    np.hooked = false;
    const NonPreemptiveHook* hook = t_nonpreemptive_hook;
    // seq_cst: as in leave_nonpreemptive (a second store of 0 is harmless).
    hook->priority->store(0, std::memory_order_seq_cst);
    if (hook->left != nullptr) hook->left(hook->context);
  }

  pthread_mutex_t mutex_{};
  WordBuffer data_;
  std::uint64_t writes_ = 0;  // guarded by the lock
  std::int64_t origin_ = 0;   // origin stamp of the value (ByteChannel::write), likewise
  const bool msrp_;
  // next_ hands out tickets, serving_ is the ticket allowed in (msrp only), on separate lines so
  // that spinning readers of serving_ do not slow the requests' fetch_add.
  alignas(64) std::atomic<std::uint32_t> next_{0};
  alignas(64) std::atomic<std::uint32_t> serving_{0};
  std::uint32_t ticket_ = 0;          // the holder's ticket (guarded by the lock)
  std::int64_t acquired_ns_ = 0;      // when the holder acquired it (guarded by the lock)
  std::size_t holder_slot_ = 0;       // the holder's stats slot (guarded by the lock)
  std::vector<LockUserStats> stats_;  // one per user, then the unattributed slot
};

// set_channel_user_slot backs rtpar::set_channel_user (the thread-local lives here).
void set_channel_user_slot(int task) noexcept { t_channel_user = task; }

}  // namespace

void set_nonpreemptive_hook(const NonPreemptiveHook* hook) noexcept { t_nonpreemptive_hook = hook; }

std::size_t lock_memory_bytes(const ChannelConfig& config) noexcept {
  return sizeof(LockChannel) + payload_stride(config.size_bytes) + claim_bytes(config) +
         (config.user_tasks.size() + 1) * sizeof(LockUserStats);
}

std::unique_ptr<ByteChannel> make_lock_channel(const ChannelConfig& config) {
  ChannelConfig resolved = config;
  if (resolved.lock_rank < 0) resolved.lock_rank = next_auto_rank();
  return std::make_unique<LockChannel>(resolved);
}

}  // namespace rtpar::detail

namespace rtpar {

void set_channel_user(int task) noexcept { detail::set_channel_user_slot(task); }

}  // namespace rtpar
