// crash_guard.cpp — see crash_guard.hpp.
//
// The handler runs on the faulting thread, on its alternate stack, and uses only async-signal-safe
// operations: lock-free atomics, a thread-local int of the initial-exec model (a fixed offset from
// the thread pointer: no allocation, no lock), and single system calls (sigaction, write,
// sched_setscheduler, futex, sigsuspend). Memory ordering: a task thread gets its table pointer
// from its creator (RtThread's start, a happens-before edge) after the table was filled, and the
// names and job words are set before the executor's go store, which every job follows; each
// entry's fault is published by a release store of its signal after its job and address, and the
// control thread reads the signal with acquire before them.
#include "platform/crash_guard.hpp"

#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <iterator>
#include <mutex>

#include "platform/futex.hpp"
#include "platform/stop_signals.hpp"
#include "rtpar/time.hpp"

namespace rtpar::detail {

namespace {

constexpr std::size_t kCrashSignalCount = std::size(kCrashSignalList);

// t_crash_table and t_crash_task are what the thread acts for (CrashIdentity; null/-1: none).
// initial-exec: the handler reads them without __tls_get_addr, which may allocate for a module's
// first access in a thread.
__attribute__((tls_model("initial-exec"))) thread_local CrashGuard::Table* t_crash_table = nullptr;
__attribute__((tls_model("initial-exec"))) thread_local int t_crash_task = -1;

// kAltStackBytes is each thread's alternate signal stack: the handler's frame (a few hundred
// bytes) plus the kernel's signal frame (up to a few KiB with AVX-512 state), with ample margin.
constexpr std::size_t kAltStackBytes = 64 * 1024;

static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<std::int64_t>::is_always_lock_free);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

}  // namespace

struct CrashGuard::Table {
  // CrashEntry is one task's slot in the table.
  struct CrashEntry {
    const char* name = nullptr;                      // set before the run, read by the handler
    const std::atomic<std::int64_t>* job = nullptr;  // the task's running job word
    std::atomic<bool> claimed{false};                // the task's first fault writes the record
    std::atomic<int> signal{0};                      // published last (release)
    std::int64_t job_at_fault = -1;                  // written before signal, read after it
    std::uintptr_t address = 0;                      // as job_at_fault
  };
  std::unique_ptr<CrashEntry[]> entries;
  std::size_t count = 0;
  // faults counts the faults recorded (a futex word: the control thread sleeps on it).
  std::atomic<std::uint32_t> faults{0};
};

namespace {

// g_install_mutex guards g_guards and g_previous: the handlers are installed while g_guards > 0.
std::mutex g_install_mutex;
int g_guards = 0;
struct sigaction g_previous[kCrashSignalCount];

// crash_append copies text into buf at *at (bounded by size), for the handler's message.
void crash_append(char* buf, std::size_t size, std::size_t* at, const char* text) noexcept {
  while (*text != '\0' && *at + 1 < size) buf[(*at)++] = *text++;
}

// crash_append_number appends value in base 10 (base 16 with "0x" when hex), without allocation.
void crash_append_number(char* buf, std::size_t size, std::size_t* at, std::uint64_t value,
                         bool hex, bool negative = false) noexcept {
  char digits[24];
  std::size_t n = 0;
  const std::uint64_t base = hex ? 16 : 10;
  do {
    digits[n++] = "0123456789abcdef"[value % base];
    value /= base;
  } while (value != 0 && n < sizeof(digits));
  if (negative) crash_append(buf, size, at, "-");
  if (hex) crash_append(buf, size, at, "0x");
  while (n > 0 && *at + 1 < size) buf[(*at)++] = digits[--n];
}

// crash_default_action gives sig its default disposition again; the fault then repeats (a
// synchronous fault re-executes the instruction) or, for a sent signal, is raised again, and ends
// the process as it would have without rtpar.
void crash_default_action(int sig, bool sent) noexcept {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  if (sent) raise(sig);  // blocked in the handler: delivered as it returns
}

// rtpar_on_crash_signal is the handler (see the top of the file for what it may do).
extern "C" void rtpar_on_crash_signal(int sig, siginfo_t* info, void* /*context*/) {
  const int saved_errno = errno;
  CrashGuard::Table* table = t_crash_table;
  const int task = t_crash_task;
  // A signal sent with kill/tgkill/sigqueue (si_code ≤ 0) is not a fault of the code.
  const bool sent = info == nullptr || info->si_code <= 0;
  if (table == nullptr || task < 0 || static_cast<std::size_t>(task) >= table->count || sent) {
    crash_default_action(sig, sent);
    errno = saved_errno;
    return;
  }
  CrashGuard::Table::CrashEntry& entry = table->entries[static_cast<std::size_t>(task)];
  // relaxed: the exchange only elects the thread that writes the record; signal publishes it.
  if (!entry.claimed.exchange(true, std::memory_order_relaxed)) {
    // acquire: pairs with the runner's release store of its running job.
    entry.job_at_fault = entry.job != nullptr ? entry.job->load(std::memory_order_acquire) : -1;
    entry.address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    // release: publishes job_at_fault and address to crashed()'s acquire load.
    entry.signal.store(sig, std::memory_order_release);
    char msg[512];
    std::size_t at = 0;
    crash_append(msg, sizeof(msg), &at, "rtpar: task '");
    if (entry.name != nullptr) {
      crash_append(msg, sizeof(msg), &at, entry.name);
    } else {
      crash_append_number(msg, sizeof(msg), &at, static_cast<std::uint64_t>(task), false);
    }
    crash_append(msg, sizeof(msg), &at, "' crashed: ");
    crash_append(msg, sizeof(msg), &at, crash_signal_name(sig));
    crash_append(msg, sizeof(msg), &at, " at address ");
    crash_append_number(msg, sizeof(msg), &at, entry.address, true);
    crash_append(msg, sizeof(msg), &at, " in job ");
    const std::int64_t job = entry.job_at_fault;
    crash_append_number(
        msg, sizeof(msg), &at,
        job < 0 ? 0 - static_cast<std::uint64_t>(job) : static_cast<std::uint64_t>(job), false,
        job < 0);
    crash_append(msg, sizeof(msg), &at, "; ending the run and writing the reports\n");
    const ssize_t written = ::write(STDERR_FILENO, msg, at);
    (void)written;  // nothing to do if stderr is gone
  }
  // Below every other thread: what this thread no longer does cannot starve anyone, and a thread
  // may always lower its own class.
  const sched_param idle{};
  (void)sched_setscheduler(0, SCHED_IDLE, &idle);
  // release: orders the record (stored above, or by the task's first faulting thread) before the
  // count the control thread acquires.
  table->faults.fetch_add(1, std::memory_order_release);
  futex_wake(table->faults, INT_MAX);
  wake_for_crash();  // the control thread may be waiting for a stop signal instead
  // Never return: the faulting instruction would run again. Every signal stays blocked (SIGKILL
  // and SIGSTOP cannot be); the process's exit ends the thread.
  sigset_t all;
  sigfillset(&all);
  for (;;) sigsuspend(&all);
}

}  // namespace

const char* crash_signal_name(int sig) noexcept {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    default:
      return "a fault signal";
  }
}

CrashGuard::CrashGuard(std::size_t tasks) : table_(std::make_unique<Table>()) {
  table_->entries = std::make_unique<Table::CrashEntry[]>(tasks);
  table_->count = tasks;
  const std::lock_guard lock(g_install_mutex);
  if (g_guards++ > 0) return;
  struct sigaction action {};
  action.sa_sigaction = rtpar_on_crash_signal;
  sigemptyset(&action.sa_mask);
  // SA_ONSTACK: a stack overflow is a SIGSEGV with no stack left (CrashAltStack).
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  for (std::size_t i = 0; i < kCrashSignalCount; ++i) {
    sigaction(kCrashSignalList[i], &action, &g_previous[i]);
  }
}

CrashGuard::~CrashGuard() {
  if (!table_) return;  // kept: the handlers and the table stay
  const std::lock_guard lock(g_install_mutex);
  if (--g_guards > 0) return;
  for (std::size_t i = 0; i < kCrashSignalCount; ++i) {
    sigaction(kCrashSignalList[i], &g_previous[i], nullptr);
  }
}

void CrashGuard::keep_installed() noexcept { (void)table_.release(); }

void CrashGuard::name_task(std::size_t task, const char* name,
                           const std::atomic<std::int64_t>* job) noexcept {
  if (!table_ || task >= table_->count) return;
  table_->entries[task].name = name;
  table_->entries[task].job = job;
}

std::optional<CrashReport> CrashGuard::crashed(std::size_t task) const noexcept {
  if (!table_ || task >= table_->count) return std::nullopt;
  const Table::CrashEntry& e = table_->entries[task];
  // acquire: pairs with the handler's release store; job_at_fault and address are visible.
  const int sig = e.signal.load(std::memory_order_acquire);
  if (sig == 0) return std::nullopt;
  return CrashReport{sig, e.job_at_fault, e.address};
}

bool CrashGuard::any_crashed() const noexcept {
  // acquire: pairs with the handler's release fetch_add (the records are read through crashed()).
  return table_ && table_->faults.load(std::memory_order_acquire) != 0;
}

bool CrashGuard::wait_until(std::int64_t deadline_ns) const noexcept {
  if (!table_) return false;
  for (;;) {
    if (any_crashed()) return true;
    if (monotonic_now() >= deadline_ns) return false;
    // Returns at the deadline, on the handler's wake, or at once if a fault was counted meanwhile.
    futex_wait_until(table_->faults, 0, deadline_ns);
  }
}

CrashScope::CrashScope(const CrashGuard* guard, int task) noexcept : previous_(crash_identity()) {
  set_crash_identity(guard != nullptr && guard->table_ ? CrashIdentity{guard->table_.get(), task}
                                                       : CrashIdentity{});
}

CrashScope::~CrashScope() { set_crash_identity(previous_); }

CrashIdentity crash_identity() noexcept { return CrashIdentity{t_crash_table, t_crash_task}; }

void set_crash_identity(CrashIdentity identity) noexcept {
  t_crash_table = identity.table;
  t_crash_task = identity.task;
}

CrashAltStack::CrashAltStack() {
  void* p = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) return;  // only stack overflows go uncontained
  memory_ = p;
  size_ = kAltStackBytes;
}

CrashAltStack::~CrashAltStack() {
  if (memory_ != nullptr) munmap(memory_, size_);
}

void CrashAltStack::install() noexcept {
  if (memory_ == nullptr) return;
  stack_t stack{};
  stack.ss_sp = memory_;
  stack.ss_size = size_;
  stack.ss_flags = 0;
  (void)sigaltstack(&stack, nullptr);  // a refusal leaves only stack overflows uncontained
}

void CrashAltStack::uninstall() noexcept {
  if (memory_ == nullptr) return;
  stack_t stack{};
  stack.ss_flags = SS_DISABLE;
  (void)sigaltstack(&stack, nullptr);
}

}  // namespace rtpar::detail
