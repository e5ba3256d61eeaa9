// rt_thread.cpp — see rt_thread.hpp.
#include "platform/rt_thread.hpp"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "rtpar/time.hpp"
#include "platform/crash_guard.hpp"
#include "platform/futex.hpp"
#include "rtpar/error.hpp"

namespace rtpar::detail {

namespace {

constexpr const char* kPrivilegeHint =
    "real-time scheduling needs root, CAP_SYS_NICE, or an RLIMIT_RTPRIO limit (ulimit -r) of at "
    "least the planned priority; or pass --best-effort to run at normal priority";

std::string describe(const ThreadConfig& c) {
  std::string s = c.sched == SchedClass::fifo ? "SCHED_FIFO priority " + std::to_string(c.priority)
                                              : std::string("SCHED_OTHER");
  if (c.cpu >= 0) s += " on CPU " + std::to_string(c.cpu);
  return s;
}

[[noreturn]] void refuse(const ThreadConfig& c, int err) {
  if (err == EPERM || err == EACCES) {
    throw EnvironmentError("the kernel refused " + describe(c) + ": " + std::strerror(err),
                           kPrivilegeHint);
  }
  if (err == EAGAIN) {
    throw EnvironmentError(
        "cannot create a thread with " + describe(c) + ": " + std::strerror(err),
        "the process or locked-memory limit is exhausted (ulimit -u, ulimit -l)");
  }
  if (err == EINVAL && c.cpu >= 0) {
    throw EnvironmentError("cannot run a thread with " + describe(c) + ": " + std::strerror(err),
                           "the CPU may be offline or outside this process's cpuset");
  }
  throw std::system_error(err, std::generic_category(), "creating thread with " + describe(c));
}

}  // namespace

struct RtThread::Start {
  std::function<void()> body;
  std::string name;
  std::atomic<int> tid{0};
  // crash_identity is the creator's task (CrashScope): a thread created for a task acts for it.
  CrashIdentity crash_identity;
  // alt_stack is the thread's alternate signal stack (a stack overflow still reaches the crash
  // handler); allocated here, by the creator, never on the new thread.
  CrashAltStack alt_stack;
  // finished is 1 once the body has returned (futex word: join_until sleeps on it). join_until
  // waits on it, then calls pthread_join, rather than pthread_clockjoin_np: a thread joined that
  // way is invisible to ThreadSanitizer, which would report every such thread as leaked.
  std::atomic<std::uint32_t> finished{0};
};

RtThread::RtThread(const ThreadConfig& config, std::function<void()> body)
    : start_(std::make_shared<Start>()) {
  start_->body = std::move(body);
  start_->name = config.name.substr(0, 15);
  start_->crash_identity = crash_identity();

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  struct AttrGuard {
    pthread_attr_t* a;
    ~AttrGuard() { pthread_attr_destroy(a); }
  } guard{&attr};

  if (config.cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(config.cpu, &set);
    pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
  }
  // Explicit scheduling: the new thread starts in its class instead of inheriting the creator's.
  pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
  sched_param param{};
  if (config.sched == SchedClass::fifo) {
    pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
    param.sched_priority = config.priority;
  } else {
    pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
    param.sched_priority = 0;
  }
  pthread_attr_setschedparam(&attr, &param);
  // A work-stealing worker's stack is part of its static memory budget ([task.steal].stack_bytes):
  // the kernel maps it (and mlockall pins it) before the thread runs, never during a job.
  if (config.stack_bytes > 0) {
    const int src = pthread_attr_setstacksize(&attr, config.stack_bytes);
    if (src != 0) {
      throw InputError({}, "steal.stack_bytes",
                       "stack size " + std::to_string(config.stack_bytes) +
                           " is refused by pthread_attr_setstacksize (minimum PTHREAD_STACK_MIN)");
    }
  }

  // The Start block is kept alive by a reference the thread owns until it finishes.
  auto* keep = new std::shared_ptr<Start>(start_);
  const int rc = pthread_create(
      &handle_, &attr,
      [](void* arg) -> void* {
        std::shared_ptr<Start> s = std::move(*static_cast<std::shared_ptr<Start>*>(arg));
        delete static_cast<std::shared_ptr<Start>*>(arg);
        s->tid.store(static_cast<int>(syscall(SYS_gettid)), std::memory_order_release);
        if (!s->name.empty()) pthread_setname_np(pthread_self(), s->name.c_str());
        set_crash_identity(s->crash_identity);
        s->alt_stack.install();
        s->body();
        s->alt_stack.uninstall();
        leave_real_time();
        // release: pairs with join_until's acquire load; all the body wrote happens-before a
        // join that saw it (pthread_join, which follows, orders it too).
        s->finished.store(1, std::memory_order_release);
        futex_wake(s->finished, INT32_MAX);
        return nullptr;
      },
      keep);
  if (rc != 0) {
    delete keep;
    refuse(config, rc);
  }
  joinable_ = true;
}

RtThread::~RtThread() { join(); }

void RtThread::join() {
  if (joinable_) {
    pthread_join(handle_, nullptr);
    joinable_ = false;
  }
}

bool RtThread::join_until(std::int64_t deadline_ns) {
  if (!joinable_) return true;
  // acquire: pairs with the thread's release store of finished (see Start::finished).
  while (start_->finished.load(std::memory_order_acquire) == 0) {
    if (monotonic_now() >= deadline_ns) return false;
    futex_wait_until(start_->finished, 0, deadline_ns);
  }
  join();  // the body has returned: the thread only unwinds its start routine now
  return true;
}

int RtThread::tid() const noexcept { return start_->tid.load(std::memory_order_acquire); }

void apply_to_current_thread(const ThreadConfig& config) {
  if (config.cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(config.cpu, &set);
    if (const int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set); rc != 0) {
      refuse(config, rc);
    }
  }
  sched_param param{};
  param.sched_priority = config.sched == SchedClass::fifo ? config.priority : 0;
  const int policy = config.sched == SchedClass::fifo ? SCHED_FIFO : SCHED_OTHER;
  if (const int rc = pthread_setschedparam(pthread_self(), policy, &param); rc != 0) {
    refuse(config, rc);
  }
}

void demote_to_idle(const std::vector<int>& tids) noexcept {
  const sched_param param{};
  for (const int tid : tids) {
    if (tid > 0) (void)sched_setscheduler(tid, SCHED_IDLE, &param);
  }
}

void leave_real_time() noexcept {
  sched_param param{};
  // Lowering a thread's own class needs no privilege; a failure leaves it where it was.
  (void)pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
}

}  // namespace rtpar::detail
