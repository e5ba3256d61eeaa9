// stop_signals.cpp — see stop_signals.hpp.
//
// Why handlers and not only sigtimedwait: a run's reports are written after the control loop,
// while nobody waits for signals. With the signals merely blocked, a second Ctrl-C stays pending
// and kills the process the moment the mask is restored (the "double Ctrl-C" defect); with a
// handler installed for the whole command, a late signal is consumed, said once, and ignored.
#include "platform/stop_signals.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <iterator>
#include <mutex>

#include "platform/futex.hpp"
#include "rtpar/time.hpp"

namespace rtpar::detail {

namespace {

// The state word (a futex word, so the control thread can sleep on it): the low byte holds the
// first stop signal (0 = none yet); kShutdownBit says the stopping phase is over.
constexpr std::uint32_t kSignalMask = 0xff;
constexpr std::uint32_t kShutdownBit = 0x100;
// kCrashBit: wake_for_crash was called and wait_for_stop_signal has not returned for it yet.
constexpr std::uint32_t kCrashBit = 0x200;

// Lock-free atomics are the only shared state a signal handler may touch (async-signal-safe).
std::atomic<std::uint32_t> g_word{0};
std::atomic<bool> g_warned{false};
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);

constexpr char kIgnoredMessage[] = "rtpar: shutting down, writing reports; signal ignored\n";

// kIgnoredSignals are ignored so the failing call reports the error: SIGPIPE (a write to a closed
// pipe or socket fails with EPIPE) and SIGXFSZ (a write over RLIMIT_FSIZE fails with EFBIG).
constexpr int kIgnoredSignals[] = {SIGPIPE, SIGXFSZ};

constexpr std::size_t kStopCount = std::size(kStopSignalList);
constexpr std::size_t kIgnoredCount = std::size(kIgnoredSignals);

std::mutex g_stop_signals_mutex;
int g_depth = 0;  // nesting of StopSignals scopes (guarded by g_stop_signals_mutex)
struct sigaction g_old_stop[kStopCount];
struct sigaction g_old_ignored[kIgnoredCount];

sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  for (const int sig : kStopSignalList) sigaddset(&set, sig);
  return set;
}

// on_stop_signal records the first stop signal and wakes the control thread; any other signal
// (a second one, or any after begin_shutdown) is ignored with one message. Only async-signal-safe
// operations: lock-free atomics, the futex syscall, write(2).
extern "C" void on_stop_signal(int sig) {
  const int saved_errno = errno;
  // acquire: pairs with the acq_rel CAS below and begin_shutdown's fetch_or, so a handler sees
  // the latest state; the word carries no other data.
  std::uint32_t state = g_word.load(std::memory_order_acquire);
  while ((state & (kSignalMask | kShutdownBit)) == 0) {
    // acq_rel: the first signal wins exactly once (a concurrent handler on another thread retries
    // and then sees it); release publishes the signal number to wait_for_stop_signal's acquire.
    if (g_word.compare_exchange_weak(state, state | static_cast<std::uint32_t>(sig),
                                     std::memory_order_acq_rel, std::memory_order_acquire)) {
      futex_wake(g_word, INT_MAX);
      errno = saved_errno;
      return;
    }
  }
  // relaxed: a once-only flag that guards no data; exchange makes exactly one handler print.
  if (!g_warned.exchange(true, std::memory_order_relaxed)) {
    const ssize_t ignored = ::write(STDERR_FILENO, kIgnoredMessage, sizeof(kIgnoredMessage) - 1);
    (void)ignored;  // nothing to do if stderr is gone
  }
  errno = saved_errno;
}

}  // namespace

StopSignals::StopSignals() {
  const std::lock_guard lock(g_stop_signals_mutex);
  if (g_depth++ > 0) return;
  // relaxed: no handler is installed yet, nothing reads these concurrently.
  g_word.store(0, std::memory_order_relaxed);
  // relaxed: as above.
  g_warned.store(false, std::memory_order_relaxed);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  // The other stop signals wait while the handler runs; SA_RESTART keeps write(2) of the reports
  // and of stdout from failing with EINTR when a signal arrives during them.
  action.sa_mask = stop_set();
  action.sa_flags = SA_RESTART;
  for (std::size_t i = 0; i < kStopCount; ++i) {
    sigaction(kStopSignalList[i], nullptr, &g_old_stop[i]);
    // `nohup rtpar run ...` asks to survive a hangup: an inherited SIG_IGN of SIGHUP is kept.
    // (SIGINT and SIGQUIT are not: shells without job control ignore them in background jobs,
    // where a Ctrl-C or `kill -INT` is still meant to stop the run.)
    if (kStopSignalList[i] == SIGHUP && g_old_stop[i].sa_handler == SIG_IGN) continue;
    sigaction(kStopSignalList[i], &action, nullptr);
  }
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (std::size_t i = 0; i < kIgnoredCount; ++i) {
    sigaction(kIgnoredSignals[i], &ignore, &g_old_ignored[i]);
  }
}

StopSignals::~StopSignals() {
  const std::lock_guard lock(g_stop_signals_mutex);
  if (--g_depth > 0) return;
  // A run stopped by a signal is ending: the rest of a burst (Ctrl-C twice, a supervisor's TERM
  // after INT) may still be in flight, and restoring the default action here would let it kill
  // the process between its last report and exit, with a signal status. So once a stop signal
  // was received, the stop signals stay ignored; otherwise the previous dispositions return.
  // acquire: pairs with the handler's acq_rel CAS (the signal number is the only data).
  const bool stopped = (g_word.load(std::memory_order_acquire) & kSignalMask) != 0;
  struct sigaction ignore_stop {};
  ignore_stop.sa_handler = SIG_IGN;
  sigemptyset(&ignore_stop.sa_mask);
  for (std::size_t i = 0; i < kStopCount; ++i) {
    sigaction(kStopSignalList[i], stopped ? &ignore_stop : &g_old_stop[i], nullptr);
  }
  for (std::size_t i = 0; i < kIgnoredCount; ++i) {
    sigaction(kIgnoredSignals[i], &g_old_ignored[i], nullptr);
  }
}

BlockStopSignals::BlockStopSignals() {
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_BLOCK, &set, &old_);
}

BlockStopSignals::~BlockStopSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

int stop_signal_received() noexcept {
  // acquire: pairs with the handler's acq_rel CAS (the signal number is the only data).
  return static_cast<int>(g_word.load(std::memory_order_acquire) & kSignalMask);
}

int wait_for_stop_signal(std::int64_t deadline_ns) noexcept {
  for (;;) {
    // acquire: as in stop_signal_received.
    const std::uint32_t state = g_word.load(std::memory_order_acquire);
    if ((state & kSignalMask) != 0) return static_cast<int>(state & kSignalMask);
    if ((state & kCrashBit) != 0) {
      // acq_rel: consumes the wake (a later wait sleeps again); the word carries no other data.
      g_word.fetch_and(~kCrashBit, std::memory_order_acq_rel);
      return 0;
    }
    if (monotonic_now() >= deadline_ns) return 0;
    // Returns at the deadline, on the handler's wake, or at once if the word already changed.
    futex_wait_until(g_word, state, deadline_ns);
  }
}

void wake_for_crash() noexcept {
  // release: the crash record is published by crash_guard's own word; this only ends the wait.
  g_word.fetch_or(kCrashBit, std::memory_order_release);
  futex_wake(g_word, INT_MAX);
}

void begin_shutdown() noexcept {
  // acq_rel: orders the shutdown bit with the handler's CAS, so a signal either was recorded as
  // the stop signal before it or is ignored after it, never both; it publishes no other data.
  g_word.fetch_or(kShutdownBit, std::memory_order_acq_rel);
}

}  // namespace rtpar::detail
