// rtpar/channel.hpp — inter-task channels: one writer publishes a fixed-size value, readers
// copy it.
//
// Four protocols (OpenMP-RT §3.5), chosen per channel by ChannelKind; each is stated with its
// memory-ordering argument in docs/internals/channels.md and next to its code in
// src/runtime/channel/. Every channel allocates all of its memory in make_channel(): reads and
// writes never allocate, and those of the three lock-free kinds never block and make no system
// call.
//
// Roles. Exactly one thread at a time may call write() (single producer). Each reading thread
// claims a reader index once, at setup, with ByteChannel::reader(i), and reads through that
// handle; an index is used by one thread at a time (the latest kind keeps per-reader state).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "rtpar/channel_kind.hpp"

namespace rtpar {

// ChannelConfig describes a channel; make_channel() validates it (see validate_channel_config).
struct ChannelConfig {
  ChannelKind kind = ChannelKind::latest;
  std::size_t size_bytes = 0;  // payload size, 1..kMaxChannelBytes
  int max_readers = 1;         // reader indices 0..max_readers-1, 1..kMaxChannelReaders
  int numtries = 2;            // retry: attempts per read before it reports failure (>= 1)
  // lock: SCHED_FIFO priority ceiling (PTHREAD_PRIO_PROTECT), 1..99. Must be >= the priority of
  // every thread that uses the channel — the task-set loader computes it as the maximum priority
  // of the writer and readers. Such a lock can only be taken by SCHED_FIFO/SCHED_RR threads (glibc
  // refuses SCHED_OTHER callers with EINVAL), which is why the loader refuses lock channels
  // between RT and non-RT tasks. 0 = no ceiling (a plain mutex, for non-RT or best-effort use).
  int ceiling_priority = 0;
  // lock: position in the global lock order; a thread holding several channel locks must have
  // acquired them in strictly increasing rank. -1 = assign automatically in creation order (after
  // every explicit rank; explicit ranks are 0..kMaxExplicitLockRank-1). Ignored by the lock-free
  // kinds.
  std::int64_t lock_rank = -1;
  // lock: the protocol (rtpar/channel_kind.hpp). ceiling uses ceiling_priority (0: a plain mutex);
  // msrp raises a requesting thread to nonpreemptive_priority (≥ every priority of the run's
  // tasks, so nothing of the set preempts it; 0: no raise, for best-effort runs) and serves
  // requests in FIFO order with spinning waiters.
  LockProtocol protocol = LockProtocol::ceiling;
  int nonpreemptive_priority = 0;
  // lock: the declared longest hold (ChannelSpec::hold) in ns; a longer hold is counted as an
  // overrun in LockStats. 0: none declared (nothing counted).
  std::int64_t declared_hold_ns = 0;
  // lock: the task index of each user slot of LockStats, writer first then readers in order;
  // empty: one anonymous slot. Explicit holds are attributed to the thread's channel user
  // (set_channel_user), falling back to the role of the read or write.
  std::vector<int> user_tasks;
  std::string name;  // for error messages and reports
};

// LockUserStats is what one user of a lock channel did during a run (written by the holder only,
// read after the run).
struct LockUserStats {
  int task = -1;                   // task index (ChannelConfig::user_tasks), -1: unattributed
  std::int64_t acquisitions = 0;   // accesses
  std::int64_t max_hold_ns = 0;    // longest time from acquisition to release
  std::int64_t max_wait_ns = 0;    // longest time from request to acquisition
  std::int64_t hold_overruns = 0;  // holds longer than ChannelConfig::declared_hold_ns
};

// set_channel_user makes the calling thread's explicit lock holds count for task `task` (an
// index into ChannelConfig::user_tasks' domain; -1 clears it). The executor calls it on each
// task's master thread.
void set_channel_user(int task) noexcept;

// validate_channel_config throws InputError (field = "<name>.<member>") if config is unusable.
void validate_channel_config(const ChannelConfig& config);

// channel_memory_bytes is the number of bytes make_channel(config) allocates, all at creation:
// payload copies (size rounded up to 64 bytes, times 1, 2, readers + 2 or 1 by kind) plus
// per-reader control lines and a fixed overhead. Validates config like make_channel.
std::size_t channel_memory_bytes(const ChannelConfig& config);

// ReadResult reports one read. ok = false is the paper's flag = 1 (retry only).
struct ReadResult {
  bool ok = false;  // the copy is a complete value (for double_buffer: unless lapped, see above)
  int tries = 0;    // attempts made: 1..numtries for retry, 1 for the other kinds
  // sequence is the number of writes that had completed when the value read was published: k
  // means the value of the k-th write, 0 the initial value (all zero bytes). For one reader it
  // never decreases between successful reads. On a failed retry read, the sequence the last
  // attempt started from.
  std::uint64_t sequence = 0;
  // origin_ns is the origin stamp the value was written with (ByteChannel::write's origin_ns):
  // for a cause-effect chain, the release time of the chain's first job whose data this value
  // carries; 0 for the initial value or an unstamped write. Same guard as the payload (a torn
  // double_buffer read may pair a payload with another write's stamp, like its words).
  std::int64_t origin_ns = 0;
};

// LockOrderError reports that a thread tried to take channel locks out of rank order (or more
// than kMaxHeldChannelLocks at once). It is thrown before blocking, so it replaces a possible
// deadlock by an error; it is a bug in the program or the task set, not in the input data.
class LockOrderError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

class ByteChannel;

// ChannelReadCounts is what one reader index did (ByteChannel::read_counts): reads, reads that
// failed (retry: numtries attempts without a consistent copy), and attempts in total.
struct ChannelReadCounts {
  std::int64_t reads = 0;
  std::int64_t failed = 0;
  std::int64_t tries = 0;
};

namespace detail {
// ChannelReaderSlot is one reader index's claim flag and counters, a cache line of its own so
// that readers on different cores never share a line (written only by the index's reader).
struct alignas(64) ChannelReaderSlot {
  std::atomic<bool> claimed{false};
  std::atomic<std::int64_t> reads{0};
  std::atomic<std::int64_t> failed{0};
  std::atomic<std::int64_t> tries{0};
};
}  // namespace detail

// ChannelReader is one reader's handle on a channel, obtained once at setup with
// ByteChannel::reader(i). Move-only; destroying it frees index i for a later reader(i). It must
// not outlive its channel.
class ChannelReader {
 public:
  // ChannelReader builds an empty handle (read() on it reports failure).
  ChannelReader() = default;
  ChannelReader(ChannelReader&& other) noexcept;
  ChannelReader& operator=(ChannelReader&& other) noexcept;
  ChannelReader(const ChannelReader&) = delete;
  ChannelReader& operator=(const ChannelReader&) = delete;
  ~ChannelReader();

  // read copies the channel's current value (size_bytes() bytes) into dst. Lock-free kinds never
  // block and never allocate. A failed retry read leaves in dst the bytes of its last attempt:
  // each aligned 8-byte word of the payload comes whole from one write, but words may come from
  // different writes. Lock kind: may throw LockOrderError or EnvironmentError (see ByteChannel).
  ReadResult read(void* dst);

  // index is this handle's reader index (-1 for an empty handle).
  [[nodiscard]] int index() const noexcept { return index_; }
  // channel is the channel read from (nullptr for an empty handle).
  [[nodiscard]] ByteChannel* channel() const noexcept { return channel_; }
  // valid says whether the handle refers to a channel.
  explicit operator bool() const noexcept { return channel_ != nullptr; }

 private:
  friend class ByteChannel;
  ChannelReader(ByteChannel* channel, int index) noexcept : channel_(channel), index_(index) {}
  void reset() noexcept;

  ByteChannel* channel_ = nullptr;
  int index_ = -1;
};

// ByteChannel is a type-erased channel of size_bytes() bytes, created by make_channel().
class ByteChannel {
 public:
  virtual ~ByteChannel();
  ByteChannel(const ByteChannel&) = delete;
  ByteChannel& operator=(const ByteChannel&) = delete;

  // config is the configuration the channel was created with (lock_rank resolved).
  [[nodiscard]] const ChannelConfig& config() const noexcept { return config_; }
  // kind, size_bytes, max_readers and name are shorthands for config() fields.
  [[nodiscard]] ChannelKind kind() const noexcept { return config_.kind; }
  [[nodiscard]] std::size_t size_bytes() const noexcept { return config_.size_bytes; }
  [[nodiscard]] int max_readers() const noexcept { return config_.max_readers; }
  [[nodiscard]] const std::string& name() const noexcept { return config_.name; }

  // memory_bytes is what the channel allocated (equals channel_memory_bytes(config())).
  [[nodiscard]] virtual std::size_t memory_bytes() const noexcept = 0;

  // lock_stats is a lock channel's per-user record (one slot per ChannelConfig::user_tasks entry
  // plus a last slot for holds it could not attribute); empty for the lock-free kinds. Read it
  // only when no thread uses the channel.
  [[nodiscard]] virtual std::vector<LockUserStats> lock_stats() const { return {}; }

  // write publishes size_bytes() bytes from src. One writer at a time. Lock-free kinds: bounded
  // steps, no blocking, no allocation. Lock kind: blocks on the mutex; throws LockOrderError if the
  // thread holds a channel lock of equal or higher rank, EnvironmentError if the mutex refuses
  // the thread (priority above the ceiling, or a SCHED_OTHER thread on a ceiling lock).
  void write(const void* src) {
    publish(src, 0);
    count_write();
  }
  // write stamps the value with origin_ns (returned by the reads of this value in
  // ReadResult::origin_ns) — the executor's cause-effect chain measurement (Endpoint). Same
  // rules and costs as write(src): the stamp travels with the payload, one more word.
  void write(const void* src, std::int64_t origin_ns) {
    publish(src, origin_ns);
    count_write();
  }

  // writes is how many writes completed; read_counts what reader index i did (0 <= i <
  // max_readers()). Exact once no thread uses the channel (after the run's threads joined);
  // a snapshot otherwise.
  [[nodiscard]] std::int64_t writes() const noexcept {
    return writes_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] ChannelReadCounts read_counts(int index) const noexcept;

  // reader claims reader index i (0 <= i < max_readers()) and returns its handle. Setup-time
  // only. Throws InputError if i is out of range or already claimed by a live handle.
  ChannelReader reader(int index);

 protected:
  // ByteChannel stores the (validated, resolved) configuration and the reader claim flags.
  explicit ByteChannel(ChannelConfig config);

  // publish is write(src, origin_ns), implemented by each kind.
  virtual void publish(const void* src, std::int64_t origin_ns) = 0;
  // read_as is ChannelReader::read for reader index `index`.
  virtual ReadResult read_as(int index, void* dst) = 0;
  // hold and release back ChannelHold: lock kinds take and drop their mutex; others do nothing.
  virtual void hold() {}
  virtual void release() noexcept {}

 private:
  friend class ChannelReader;
  friend class ChannelHold;

  // count_write counts a completed write. One writer at a time, so a load and a store (no
  // read-modify-write); relaxed: a statistic, read after the writer joined (writes()).
  void count_write() noexcept {
    writes_.store(writes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  ChannelConfig config_;
  std::unique_ptr<detail::ChannelReaderSlot[]> slots_;  // one per reader index
  alignas(64) std::atomic<std::int64_t> writes_{0};     // the writer's line
};

// make_channel creates a channel; all its memory is allocated here. Throws InputError for an
// invalid config, EnvironmentError if the kernel refuses the mutex (lock kind).
std::unique_ptr<ByteChannel> make_channel(const ChannelConfig& config);

// ChannelHold holds a lock channel's mutex for a scope, so one thread can read and write several
// lock channels as one critical section (the paper's generated code locks all of a task's lock
// channels in the total order, unlocks in reverse). Reads and writes by the holding thread then
// do not lock again. Holds nest only in strictly increasing lock_rank: acquiring out of order
// throws LockOrderError (before blocking). On a lock-free channel a hold does nothing.
class ChannelHold {
 public:
  explicit ChannelHold(ByteChannel& channel) : channel_(channel) { channel_.hold(); }
  ~ChannelHold() { channel_.release(); }
  ChannelHold(const ChannelHold&) = delete;
  ChannelHold& operator=(const ChannelHold&) = delete;

 private:
  ByteChannel& channel_;
};

// Channel is a typed view of a byte channel of sizeof(T) bytes; T must be trivially copyable.
// It shares ownership of the byte channel, so a task-set loader can keep ByteChannels by name and
// hand out typed channels to task code.
template <class T>
class Channel {
  static_assert(std::is_trivially_copyable_v<T>, "channel payloads are copied as bytes");

 public:
  // Reader is a typed ChannelReader.
  class Reader {
   public:
    Reader() = default;
    // read copies the current value into out (see ChannelReader::read for failed retry reads).
    ReadResult read(T& out) { return reader_.read(&out); }
    // index is the reader index.
    [[nodiscard]] int index() const noexcept { return reader_.index(); }

   private:
    friend class Channel;
    explicit Reader(ChannelReader reader) noexcept : reader_(std::move(reader)) {}
    ChannelReader reader_;
  };

  // Channel creates a channel of sizeof(T) bytes; config.size_bytes must be 0 or sizeof(T).
  explicit Channel(ChannelConfig config) : bytes_(create(std::move(config))) {}
  // Channel adopts an existing byte channel; throws InputError unless its size is sizeof(T).
  explicit Channel(std::shared_ptr<ByteChannel> bytes) : bytes_(checked(std::move(bytes))) {}

  // write publishes value (see ByteChannel::write).
  void write(const T& value) { bytes_->write(&value); }
  // reader claims reader index i (see ByteChannel::reader).
  Reader reader(int index) { return Reader(bytes_->reader(index)); }
  // bytes is the underlying byte channel.
  [[nodiscard]] ByteChannel& bytes() const noexcept { return *bytes_; }
  // shared is the owning pointer to the byte channel.
  [[nodiscard]] const std::shared_ptr<ByteChannel>& shared() const noexcept { return bytes_; }

 private:
  static std::shared_ptr<ByteChannel> create(ChannelConfig config) {
    if (config.size_bytes == 0) config.size_bytes = sizeof(T);
    return checked(make_channel(config));
  }
  static std::shared_ptr<ByteChannel> checked(std::shared_ptr<ByteChannel> bytes);

  std::shared_ptr<ByteChannel> bytes_;
};

namespace detail {
// throw_channel_size_mismatch throws the InputError for a typed view of the wrong size.
[[noreturn]] void throw_channel_size_mismatch(const ByteChannel* channel, std::size_t type_size);
}  // namespace detail

template <class T>
std::shared_ptr<ByteChannel> Channel<T>::checked(std::shared_ptr<ByteChannel> bytes) {
  if (bytes == nullptr || bytes->size_bytes() != sizeof(T)) {
    detail::throw_channel_size_mismatch(bytes.get(), sizeof(T));
  }
  return bytes;
}

}  // namespace rtpar
