// channel.cpp — the kind-independent parts of channels (rtpar/channel.hpp): names, validation,
// creation dispatch, reader claims and handles. The protocols live in one file per kind.
#include <string>
#include <utility>

#include "rtpar/channel.hpp"
#include "rtpar/error.hpp"
#include "runtime/channel/channel_base.hpp"

namespace rtpar {

namespace {

// fail throws the InputError for member `member` of config, naming the channel in the field.
[[noreturn]] void fail(const ChannelConfig& config, const char* member, const std::string& what) {
  const std::string field = config.name.empty() ? member : config.name + "." + member;
  throw InputError({}, field, what);
}

}  // namespace

void validate_channel_config(const ChannelConfig& config) {
  if (config.size_bytes == 0 || config.size_bytes > kMaxChannelBytes) {
    fail(config, "size_bytes",
         "must be between 1 and " + std::to_string(kMaxChannelBytes) + " bytes, got " +
             std::to_string(config.size_bytes));
  }
  if (config.max_readers < 1 || config.max_readers > kMaxChannelReaders) {
    fail(config, "max_readers",
         "must be between 1 and " + std::to_string(kMaxChannelReaders) + ", got " +
             std::to_string(config.max_readers));
  }
  if (config.numtries < 1) {
    fail(config, "numtries", "must be at least 1, got " + std::to_string(config.numtries));
  }
  // SCHED_FIFO priorities are 1..99 on Linux; 0 means no ceiling.
  if (config.ceiling_priority < 0 || config.ceiling_priority > 99) {
    fail(config, "ceiling_priority",
         "must be 0 (no ceiling) or a SCHED_FIFO priority 1..99, got " +
             std::to_string(config.ceiling_priority));
  }
  if (config.nonpreemptive_priority < 0 || config.nonpreemptive_priority > 99) {
    fail(config, "nonpreemptive_priority",
         "must be 0 (no raise) or a SCHED_FIFO priority 1..99, got " +
             std::to_string(config.nonpreemptive_priority));
  }
  if (config.declared_hold_ns < 0) {
    fail(config, "declared_hold_ns",
         "must be 0 (none) or positive, got " + std::to_string(config.declared_hold_ns));
  }
  if (config.user_tasks.size() > static_cast<std::size_t>(config.max_readers) + 1) {
    fail(config, "user_tasks",
         "has " + std::to_string(config.user_tasks.size()) +
             " entries; a channel has at most a writer and max_readers readers");
  }
  if (config.lock_rank < -1 || config.lock_rank >= kMaxExplicitLockRank) {
    fail(config, "lock_rank",
         "must be 0.." + std::to_string(kMaxExplicitLockRank - 1) +
             ", or -1 for creation order, got " + std::to_string(config.lock_rank));
  }
}

std::size_t channel_memory_bytes(const ChannelConfig& config) {
  validate_channel_config(config);
  switch (config.kind) {
    case ChannelKind::retry:
      return detail::retry_memory_bytes(config);
    case ChannelKind::double_buffer:
      return detail::double_buffer_memory_bytes(config);
    case ChannelKind::latest:
      return detail::latest_memory_bytes(config);
    case ChannelKind::lock:
      return detail::lock_memory_bytes(config);
  }
  return 0;
}

std::unique_ptr<ByteChannel> make_channel(const ChannelConfig& config) {
  validate_channel_config(config);
  switch (config.kind) {
    case ChannelKind::retry:
      return detail::make_retry_channel(config);
    case ChannelKind::double_buffer:
      return detail::make_double_buffer_channel(config);
    case ChannelKind::latest:
      return detail::make_latest_channel(config);
    case ChannelKind::lock:
      return detail::make_lock_channel(config);
  }
  fail(config, "kind", "unknown channel kind");
}

ByteChannel::ByteChannel(ChannelConfig config)
    : config_(std::move(config)),
      slots_(new detail::ChannelReaderSlot[static_cast<std::size_t>(config_.max_readers)]) {
  // The slots start unclaimed with zero counts (their initialisers); the channel is not shared
  // yet: make_channel's caller publishes it to other threads.
}

ChannelReadCounts ByteChannel::read_counts(int index) const noexcept {
  if (index < 0 || index >= config_.max_readers) return {};
  const detail::ChannelReaderSlot& slot = slots_[static_cast<std::size_t>(index)];
  // relaxed: statistics, exact after the reader joined (see writes()).
  return {slot.reads.load(std::memory_order_relaxed), slot.failed.load(std::memory_order_relaxed),
          slot.tries.load(std::memory_order_relaxed)};
}

ByteChannel::~ByteChannel() = default;

ChannelReader ByteChannel::reader(int index) {
  if (index < 0 || index >= config_.max_readers) {
    fail(config_, "reader",
         "reader index " + std::to_string(index) + " is out of range 0.." +
             std::to_string(config_.max_readers - 1));
  }
  // The exchange makes a claim exclusive even if two threads race for one index at setup; the
  // acquire pairs with the release in ChannelReader::reset, so the new owner sees every access
  // the previous owner made through the index (the latest kind's slot state).
  if (slots_[index].claimed.exchange(true, std::memory_order_acquire)) {
    fail(config_, "reader", "reader index " + std::to_string(index) + " is already claimed");
  }
  return ChannelReader(this, index);
}

ChannelReader::ChannelReader(ChannelReader&& other) noexcept
    : channel_(std::exchange(other.channel_, nullptr)), index_(std::exchange(other.index_, -1)) {}

ChannelReader& ChannelReader::operator=(ChannelReader&& other) noexcept {
  if (this != &other) {
    reset();
    channel_ = std::exchange(other.channel_, nullptr);
    index_ = std::exchange(other.index_, -1);
  }
  return *this;
}

ChannelReader::~ChannelReader() { reset(); }

void ChannelReader::reset() noexcept {
  // release: pairs with the acquire exchange in ByteChannel::reader (the next claimer sees our
  // accesses through this index).
  if (channel_ != nullptr) {
    channel_->slots_[index_].claimed.store(false, std::memory_order_release);
  }
  channel_ = nullptr;
  index_ = -1;
}

ReadResult ChannelReader::read(void* dst) {
  if (channel_ == nullptr) return {};
  const ReadResult r = channel_->read_as(index_, dst);
  // One reader per index: loads and stores, no read-modify-write; relaxed: statistics, read
  // after the reader joined (ByteChannel::read_counts).
  detail::ChannelReaderSlot& slot = channel_->slots_[index_];
  const auto bump = [](std::atomic<std::int64_t>& c, std::int64_t by) {
    c.store(c.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  };
  bump(slot.reads, 1);
  if (!r.ok) bump(slot.failed, 1);
  bump(slot.tries, r.tries);
  return r;
}

namespace detail {

void set_channel_hooks(ByteChannel& channel, const ChannelHooks& hooks) {
  if (auto* base = dynamic_cast<ChannelBase*>(&channel)) base->set_hooks(hooks);
}

void throw_channel_size_mismatch(const ByteChannel* channel, std::size_t type_size) {
  if (channel == nullptr) throw InputError({}, "channel", "no channel to view");
  fail(channel->config(), "size_bytes",
       "channel holds " + std::to_string(channel->size_bytes()) + " bytes but the type has " +
           std::to_string(type_size));
}

}  // namespace detail

}  // namespace rtpar
