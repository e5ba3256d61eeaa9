// stop_signals.hpp — the signal policy of a command that must always finish its reports
// (`rtpar run`): the first stop signal asks the run to stop, every later one is ignored (said once
// on stderr) until the reports are written; SIGPIPE and SIGXFSZ are ignored so that a closed pipe
// or a file-size limit becomes a reported write error (EPIPE, EFBIG) instead of a silent death.
// docs/internals/executor.md ("Signals") gives the states and why handlers rather than sigwait.
#pragma once

#include <signal.h>

#include <cstdint>

namespace rtpar::detail {

// kStopSignalList is every signal that stops a run: the ones a user, a terminal or a supervisor
// sends to end a process (SIGINT, SIGTERM, SIGHUP, SIGQUIT), the user signals (SIGUSR1, SIGUSR2),
// SIGALRM and SIGXCPU (a CPU-time limit). Each would otherwise kill the process without reports.
inline constexpr int kStopSignalList[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
                                          SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU};

// StopSignals installs the policy for its lifetime: handlers for kStopSignalList, SIGPIPE and
// SIGXFSZ ignored. Scopes nest (an inner one, e.g. execute()'s inside `rtpar run`'s, changes
// nothing); the outermost one starts with no signal received and, when it ends, restores the
// previous dispositions — or, if a stop signal was received, leaves the stop signals ignored (the
// run was asked to end; the rest of a burst must not kill the process before it exits).
// Construct and destroy from one thread.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
};

// BlockStopSignals blocks kStopSignalList in the calling thread for its lifetime; threads created
// meanwhile inherit the mask and keep it, so real-time threads never run the handler (the control
// thread, which unblocks them afterwards, does).
class BlockStopSignals {
 public:
  BlockStopSignals();
  ~BlockStopSignals();
  BlockStopSignals(const BlockStopSignals&) = delete;
  BlockStopSignals& operator=(const BlockStopSignals&) = delete;

 private:
  sigset_t old_{};
};

// stop_signal_received is the first stop signal received while StopSignals is installed and
// shutdown had not begun (0 if none).
[[nodiscard]] int stop_signal_received() noexcept;

// wait_for_stop_signal sleeps until deadline_ns (CLOCK_MONOTONIC), until a stop signal arrives or
// until wake_for_crash is called (once per call of it); returns stop_signal_received().
int wait_for_stop_signal(std::int64_t deadline_ns) noexcept;

// wake_for_crash wakes wait_for_stop_signal early (async-signal-safe): a task crashed
// (platform/crash_guard.hpp) and the control thread is to end the run at once.
void wake_for_crash() noexcept;

// begin_shutdown ends the stopping phase: from now on every stop signal is ignored, and the first
// one prints "rtpar: shutting down, writing reports; signal ignored" on stderr.
void begin_shutdown() noexcept;

}  // namespace rtpar::detail
