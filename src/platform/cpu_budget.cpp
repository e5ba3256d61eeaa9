// cpu_budget.cpp — see cpu_budget.hpp.
//
// Ordering argument. Every field below is touched only by the thread that owns the CpuBudget and
// by the expiry handler, which the kernel runs on that same thread (SIGEV_THREAD_ID names it). The
// handler interrupts the thread between two instructions and returns before the thread goes on,
// so the two never run at once: what must be ordered is the compiler's placement of the thread's
// accesses around the arm and disarm points, which std::atomic_signal_fence does. The fields the
// handler touches are lock-free atomics (the only objects a handler may access besides
// volatile sig_atomic_t), all relaxed for that reason.
//  (1) begin: cpu_start_ is read, then armed_ = true, then the timer is armed: an expiry always
//      finds armed_ set.
//  (2) end: armed_ = false before the timer is disarmed: an expiry delivered after it (a signal
//      already queued when the disarm ran) changes nothing — it neither demotes nor re-arms — so
//      a thread is never demoted between jobs; demoted_ and the saved policy are read after the
//      disarm, so a demotion made before it is seen and undone.
//
// Why the timer is on CLOCK_MONOTONIC and not on the thread's CPU-time clock: Linux checks CPU-time
// timers at the scheduler tick (run_posix_cpu_timers), so one expires up to a tick late — 4 ms
// at HZ = 250, measured here as a lower-priority task missing behind an enforced one. A
// CLOCK_MONOTONIC timer is an hrtimer (µs). It is armed for the budget still unspent; its handler
// reads the thread's CPU-time clock and demotes only when the budget is spent, else re-arms for
// what remains (the thread was preempted meanwhile). So the verdict is in CPU time, as with a
// CPU-time timer, and a job that finishes within its budget in wall time never sees a signal.
#include "platform/cpu_budget.hpp"

#include <sched.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <system_error>

#include "rtpar/time.hpp"

namespace rtpar::detail {

namespace {

timespec to_timespec(std::int64_t ns) noexcept {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  return ts;
}

// on_budget_expiry finds the CpuBudget the timer was created for in the signal's value and lets
// it demote its thread. Saves errno: the interrupted code may be between a call and its check.
extern "C" void on_budget_expiry(int /*sig*/, siginfo_t* info, void* /*context*/) {
  const int saved_errno = errno;
  if (info != nullptr && info->si_code == SI_TIMER && info->si_value.sival_ptr != nullptr) {
    static_cast<CpuBudget*>(info->si_value.sival_ptr)->expire();
  }
  errno = saved_errno;
}

}  // namespace

int CpuBudget::signal_number() noexcept { return SIGRTMIN + 2; }

void CpuBudget::install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_budget_expiry;
    // SA_RESTART: a system call the job is in when its budget expires goes on afterwards.
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(signal_number(), &action, nullptr) != 0) {
      throw std::system_error(errno, std::generic_category(), "sigaction (budget timer)");
    }
  });
}

CpuBudget::CpuBudget(bool enforce, std::int64_t charged_ns, std::int64_t margin_ns)
    : enforce_(enforce), charged_ns_(charged_ns), budget_ns_(charged_ns + margin_ns) {
  if (!enforce_) return;
  // The timer exists for the thread's life: creating it per job would cost two more calls.
  install_handler();
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = signal_number();
  event.sigev_value.sival_ptr = this;
  event._sigev_un._tid = static_cast<pid_t>(::gettid());
  if (timer_create(CLOCK_MONOTONIC, &event, &timer_) != 0) {
    throw std::system_error(errno, std::generic_category(), "timer_create (budget timer)");
  }
  has_timer_ = true;
  // The real-time threads are created with the stop signals blocked; this one must get through.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal_number());
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

CpuBudget::~CpuBudget() {
  if (has_timer_) timer_delete(timer_);
}

void CpuBudget::begin() noexcept {
  // relaxed: same-thread handler, (1).
  cpu_start_.store(thread_cpu_now(), std::memory_order_relaxed);
  if (!enforce_) return;
  armed_.store(true, std::memory_order_relaxed);  // relaxed: same-thread handler, (1)
  std::atomic_signal_fence(std::memory_order_seq_cst);
  arm(budget_ns_);
}

void CpuBudget::arm(std::int64_t after_ns) noexcept {
  itimerspec spec{};
  spec.it_value = to_timespec(std::max<std::int64_t>(after_ns, 1));  // 0 would disarm it
  timer_settime(timer_, 0, &spec, nullptr);                          // async-signal-safe (POSIX)
}

std::int64_t CpuBudget::end() noexcept {
  if (enforce_) {
    armed_.store(false, std::memory_order_relaxed);  // relaxed: same-thread handler, (2)
    std::atomic_signal_fence(std::memory_order_seq_cst);
    const itimerspec off{};
    timer_settime(timer_, 0, &off, nullptr);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  // relaxed: written by this thread in begin().
  const std::int64_t used = thread_cpu_now() - cpu_start_.load(std::memory_order_relaxed);
  // relaxed: written by this thread's handler before this point (2).
  if (demoted_.load(std::memory_order_relaxed)) {
    // seq_cst: pairs with the re-ranker's loads (edf_band.cpp); cleared before the restore, so a
    // re-rank from now on may raise the thread again.
    if (shared_demoted_ != nullptr) shared_demoted_->store(false, std::memory_order_seq_cst);
    sched_param param{};
    param.sched_priority = saved_priority_.load(std::memory_order_relaxed);  // relaxed: (2)
    // relaxed: (2). Restoring a policy the thread had is permitted whenever setting it was.
    sched_setscheduler(0, saved_policy_.load(std::memory_order_relaxed), &param);
    demoted_ns_ += monotonic_now() - demote_start_ns_.load(std::memory_order_relaxed);
    demoted_.store(false, std::memory_order_relaxed);  // relaxed: the timer is off (2)
  }
  if (used <= budget_ns_) return 0;
  const std::int64_t excess = used - charged_ns_;
  ++overruns_;
  max_excess_ns_ = std::max(max_excess_ns_, excess);
  return excess;
}

bool CpuBudget::demoted() const noexcept {
  return demoted_.load(std::memory_order_relaxed);  // relaxed: same-thread handler
}

void CpuBudget::expire() noexcept {
  // relaxed: same-thread handler (1), (2).
  if (!armed_.load(std::memory_order_relaxed) || demoted_.load(std::memory_order_relaxed)) return;
  // relaxed: stored by this thread before armed_ (1).
  const std::int64_t used = thread_cpu_now() - cpu_start_.load(std::memory_order_relaxed);
  if (used < budget_ns_) {
    arm(budget_ns_ - used);  // preempted meanwhile: the budget is not spent yet
    return;
  }
  const int policy = sched_getscheduler(0);
  // A thread that is not real-time (a best-effort run) has nothing to be demoted below.
  if (policy != SCHED_FIFO && policy != SCHED_RR) return;
  sched_param param{};
  if (sched_getparam(0, &param) != 0) return;
  const sched_param other{};
  // seq_cst: set before the demotion, so a re-ranker that raises the thread after it sees the flag
  // and demotes it again (edf_band.cpp); lock-free, async-signal-safe.
  if (shared_demoted_ != nullptr) shared_demoted_->store(true, std::memory_order_seq_cst);
  if (sched_setscheduler(0, SCHED_OTHER, &other) != 0) {
    // seq_cst: as above; the thread was not demoted.
    if (shared_demoted_ != nullptr) shared_demoted_->store(false, std::memory_order_seq_cst);
    return;
  }
  // relaxed: read by this thread after the disarm (2).
  saved_policy_.store(policy, std::memory_order_relaxed);
  saved_priority_.store(param.sched_priority, std::memory_order_relaxed);
  demote_start_ns_.store(monotonic_now(), std::memory_order_relaxed);
  demoted_.store(true, std::memory_order_relaxed);
}

}  // namespace rtpar::detail
