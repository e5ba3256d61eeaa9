// crash_guard.hpp — containing a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL) in task code during a run
// (docs/reliability.md, "Crashes"). A fault in a thread that runs a task's jobs does not kill the
// process: the thread records (task, job, signal, address) in a preallocated table, says so on
// stderr with write(2), demotes itself to SCHED_IDLE and blocks in its handler for the rest of the
// process's life; the control thread is woken, ends the run at once and writes every report, the
// crashed task treated as hung (its threads left, never freed). A fault anywhere else (the control
// thread, a thread of no task) keeps the default action: the process dies with a core dump.
//
// Why not siglongjmp back into the runner: the fault may be in the middle of a malloc, a lock
// hold or a team barrier; unwinding past it leaves those states broken for the other threads,
// while a thread that never returns only keeps what it holds. Limits: what the faulting code wrote
// before the fault (memory corruption) is not detected, and a lock it held stays held — the report
// says the process state may be damaged.
#pragma once

#include <signal.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace rtpar::detail {

// kCrashSignalList is the synchronous faults contained: invalid memory access (SIGSEGV), a bus error
// (SIGBUS: e.g. a truncated mapped file), an arithmetic fault (SIGFPE: integer division by zero)
// and an illegal instruction (SIGILL).
inline constexpr int kCrashSignalList[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

// CrashReport is what the handler recorded for one task: the first fault of any of its threads.
struct CrashReport {
  int signal = 0;              // the signal number (SIGSEGV, ...)
  std::int64_t job = -1;       // the task's job running (or published) at the fault; -1: before any
  std::uintptr_t address = 0;  // si_addr: the faulting address (SIGSEGV, SIGBUS) or instruction
};

// crash_signal_name is "SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL" or "a fault signal" (static storage).
const char* crash_signal_name(int sig) noexcept;

// CrashGuard owns the table the handler records into — one entry per task, named and given its
// job word by the executor before the first release — and keeps the crash handlers installed for
// its lifetime (process-wide, counted: the first guard installs them, the last one gone restores
// the previous dispositions). Guards of concurrent or successive runs coexist: each task thread
// records into the table of the guard it acts for (CrashIdentity). keep_installed() — a thread of
// the run may still fault (a crashed or hung task's threads are left running) — leaves the table
// and the handlers for the rest of the process.
class CrashGuard {
 public:
  // CrashGuard prepares a table of `tasks` entries and installs the handlers.
  explicit CrashGuard(std::size_t tasks);
  ~CrashGuard();
  CrashGuard(const CrashGuard&) = delete;
  CrashGuard& operator=(const CrashGuard&) = delete;

  // name_task gives entry `task` the name the handler prints (the string must outlive the guard)
  // and the word holding the task's running job (RunnerBase::running_). Call before the task's
  // threads can run a job.
  void name_task(std::size_t task, const char* name, const std::atomic<std::int64_t>* job) noexcept;
  // crashed is the fault recorded for entry `task`, if one of its threads faulted.
  [[nodiscard]] std::optional<CrashReport> crashed(std::size_t task) const noexcept;
  // any_crashed says whether any task faulted.
  [[nodiscard]] bool any_crashed() const noexcept;
  // wait_until sleeps until deadline_ns (CLOCK_MONOTONIC) or until a task faults; returns
  // any_crashed().
  bool wait_until(std::int64_t deadline_ns) const noexcept;
  // keep_installed leaves the handlers and the table in place for the rest of the process.
  void keep_installed() noexcept;

  struct Table;  // the handler's view (crash_guard.cpp)

 private:
  friend class CrashScope;
  std::unique_ptr<Table> table_;
};

// CrashIdentity is what a thread acts for: entry `task` of a guard's table (none: no table).
struct CrashIdentity {
  CrashGuard::Table* table = nullptr;
  int task = -1;
};

// CrashScope makes the calling thread act for task `task` of `guard` (none when guard is null)
// while it lives, and every RtThread it creates meanwhile for ever (the identity is copied at
// creation, see RtThread): the executor holds one while it builds and starts a task's runner, so
// that the task's master, team, pool and strand threads are all the task's. Restores the previous
// identity when destroyed.
class CrashScope {
 public:
  CrashScope(const CrashGuard* guard, int task) noexcept;
  ~CrashScope();
  CrashScope(const CrashScope&) = delete;
  CrashScope& operator=(const CrashScope&) = delete;

 private:
  CrashIdentity previous_;
};

// crash_identity is what the calling thread acts for.
CrashIdentity crash_identity() noexcept;
// set_crash_identity sets it (a new RtThread sets the identity its creator had).
void set_crash_identity(CrashIdentity identity) noexcept;

// CrashAltStack is a thread's alternate signal stack, so that a stack overflow (a SIGSEGV on the
// guard page) still runs the handler. Constructed by the thread's creator (it maps the memory, as
// the thread's own stack is mapped: never from the heap, whose size the steal pools account),
// then install() and uninstall() by the thread itself, first and last in its body. Without
// memory (the mapping was refused) install() does nothing.
class CrashAltStack {
 public:
  CrashAltStack();
  ~CrashAltStack();
  CrashAltStack(const CrashAltStack&) = delete;
  CrashAltStack& operator=(const CrashAltStack&) = delete;
  // install makes the memory the calling thread's alternate signal stack.
  void install() noexcept;
  // uninstall disables it again, before the thread ends (the memory is freed by its owner).
  void uninstall() noexcept;

 private:
  void* memory_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace rtpar::detail
