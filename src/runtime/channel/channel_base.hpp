// channel_base.hpp — what the four channel kinds share: test hooks, the per-kind factories and
// memory formulas that make_channel() (channel.cpp) dispatches to.
#pragma once

#include <cstddef>
#include <memory>

#include "rtpar/channel.hpp"

namespace rtpar::detail {

// ChannelHooks are test-only callbacks that every kind calls in the middle of a payload copy
// (between the two halves cut at copy_split): mid_write inside write(), mid_read inside every
// read attempt. Tests use them to stall a writer mid-write or pause a reader mid-copy
// deterministically. Unset hooks cost one predictable branch per copy.
struct ChannelHooks {
  void (*mid_write)(void* context) = nullptr;
  void (*mid_read)(void* context, int reader) = nullptr;
  void* context = nullptr;
};

// ChannelBase is the base of rtpar's channel implementations: it carries the hooks.
class ChannelBase : public ByteChannel {
 public:
  // set_hooks installs test hooks; call before any thread uses the channel (plain fields).
  void set_hooks(const ChannelHooks& hooks) noexcept { hooks_ = hooks; }

 protected:
  using ByteChannel::ByteChannel;

  // mid_write calls the mid_write hook, if any.
  void mid_write() const {
    if (hooks_.mid_write != nullptr) hooks_.mid_write(hooks_.context);
  }
  // mid_read calls the mid_read hook, if any.
  void mid_read(int reader) const {
    if (hooks_.mid_read != nullptr) hooks_.mid_read(hooks_.context, reader);
  }

 private:
  ChannelHooks hooks_;
};

// set_channel_hooks installs hooks on a channel made by make_channel (test-only entry point).
void set_channel_hooks(ByteChannel& channel, const ChannelHooks& hooks);

// claim_bytes is the memory of the reader slots (claim flag and read counters, a cache line
// each) every channel allocates.
inline std::size_t claim_bytes(const ChannelConfig& config) noexcept {
  return static_cast<std::size_t>(config.max_readers) * sizeof(ChannelReaderSlot);
}

// The per-kind factories (config already validated) and memory formulas (see memory_bytes).
std::unique_ptr<ByteChannel> make_retry_channel(const ChannelConfig& config);
std::unique_ptr<ByteChannel> make_double_buffer_channel(const ChannelConfig& config);
std::unique_ptr<ByteChannel> make_latest_channel(const ChannelConfig& config);
std::unique_ptr<ByteChannel> make_lock_channel(const ChannelConfig& config);
std::size_t retry_memory_bytes(const ChannelConfig& config) noexcept;
std::size_t double_buffer_memory_bytes(const ChannelConfig& config) noexcept;
std::size_t latest_memory_bytes(const ChannelConfig& config) noexcept;
std::size_t lock_memory_bytes(const ChannelConfig& config) noexcept;

}  // namespace rtpar::detail
