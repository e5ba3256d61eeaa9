// lock.cpp — the lock channel: the paper's lock-based baseline (OpenMP-RT §3.5.3).
//
// Protocol. One pthread mutex per channel; write and read copy the payload (plain memcpy) while
// holding it. With ceiling_priority > 0 the mutex uses PTHREAD_PRIO_PROTECT — the priority
// ceiling emulation protocol: while a thread holds it, the kernel runs that thread at the
// ceiling (glibc calls sched_setscheduler on lock and restores the old priority on unlock). With
// the ceiling at least the priority of every user, a holder cannot be preempted by another user
// of the lock on its core, so a blocked thread waits for at most one critical section — one
// payload copy — per lock. Observe the boost with sched_getparam(0); pthread_getschedparam keeps
// reporting the assigned priority, as POSIX requires. glibc refuses (EINVAL) a caller whose
// priority is above the ceiling and any SCHED_OTHER caller: such errors are thrown as
// EnvironmentError. A non-RT thread must never block an RT one, so the task-set loader refuses
// lock channels that cross the RT boundary; ceiling_priority = 0 gives a plain mutex for
// channels used only by non-RT (or best-effort) threads.
//
// Lock order (lock_order.hpp). Every lock channel has a rank; a thread that holds several locks
// (ChannelHold) must take them in increasing rank, which makes deadlock impossible; the
// violation is detected before blocking. A read or write by a thread that already holds the
// channel copies without locking again.
//
// Memory ordering: the mutex's acquire/release order all payload accesses; the sequence is a
// plain counter under the lock.
#include <pthread.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "runtime/channel/channel_base.hpp"
#include "runtime/channel/lock_order.hpp"
#include "runtime/channel/word_copy.hpp"
#include "rtpar/error.hpp"

namespace rtpar::detail {

namespace {

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
      : ChannelBase(config), data_(config.size_bytes, 1) {
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

  void write(const void* src) override {
    Scope scope(*this);
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    auto* to = reinterpret_cast<unsigned char*>(data_.copy(0));
    const auto* from = static_cast<const unsigned char*>(src);
    std::memcpy(to, from, half);
    mid_write();
    std::memcpy(to + half, from + half, size - half);
    ++writes_;
  }

 protected:
  ReadResult read_as(int index, void* dst) override {
    Scope scope(*this);
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    const auto* from = reinterpret_cast<const unsigned char*>(data_.copy(0));
    auto* to = static_cast<unsigned char*>(dst);
    std::memcpy(to, from, half);
    mid_read(index);
    std::memcpy(to + half, from + half, size - half);
    return ReadResult{true, 1, writes_};
  }

  void hold() override {
    check_lock_order(this);
    lock();
    push_held(this);
  }

  void release() noexcept override {
    pop_held(this);
    pthread_mutex_unlock(&mutex_);
  }

 private:
  // Scope locks for one read or write unless the thread already holds the channel.
  class Scope {
   public:
    explicit Scope(LockChannel& channel)
        : channel_(channel), owned_(!held_by_this_thread(&channel)) {
      if (owned_) channel_.hold();
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

  // lock takes the mutex or throws EnvironmentError.
  void lock() {
    const int rc = pthread_mutex_lock(&mutex_);
    if (rc != 0) throw_lock_error(*this, rc);
  }

  pthread_mutex_t mutex_{};
  WordBuffer data_;
  std::uint64_t writes_ = 0;  // guarded by mutex_
};

}  // namespace

std::size_t lock_memory_bytes(const ChannelConfig& config) noexcept {
  return sizeof(LockChannel) + payload_stride(config.size_bytes) + claim_bytes(config);
}

std::unique_ptr<ByteChannel> make_lock_channel(const ChannelConfig& config) {
  ChannelConfig resolved = config;
  if (resolved.lock_rank < 0) resolved.lock_rank = next_auto_rank();
  return std::make_unique<LockChannel>(resolved);
}

}  // namespace rtpar::detail
