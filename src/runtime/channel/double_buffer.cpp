// double_buffer.cpp — the double-buffer channel of OpenMP-RT §3.5.2, flaw included.
//
// Protocol. Two payload buffers and one control word `active` = (sequence << 1) | index of the
// readable buffer. The writer copies into the other buffer, then publishes it with one release
// store; a reader loads `active` (acquire) and copies the buffer it names.
//
//   writer:  w = 1 - index(active)  (only the writer changes active, so it knows it)
//            copy words into buffer w (relaxed stores)
//            active.store(((k+1) << 1) | w, release)
//   reader:  a = active.load(acquire); copy words from buffer index(a) (relaxed loads)
//
// Memory ordering. The acquire load that reads the value published by write k synchronizes with
// its release store, so every word of write k happens-before the reader's copy: a reader that is
// not overtaken sees exactly write k. Reads and writes are wait-free (one copy, one atomic each).
//
// The flaw, kept on purpose. The paper claims a concurrent write "does not invalidate the data
// read by the consumer, as the new data was written to a separate buffer". That holds for one
// write. If the writer completes a write into the other buffer and then starts a second one while
// the reader is still copying, the second write goes into the very buffer being copied: the
// reader returns a mix of write k and write k+2 — a torn value — and reports ok, because nothing
// tells it. Here that tearing is only *logical*: all shared words are relaxed atomics
// (word_copy.hpp), so it is not a C++ data race and TSan stays quiet; a real C implementation with
// memcpy would add undefined behaviour on top. tests/runtime/channel/test_channel_double_buffer.cpp demonstrates
// the torn read deterministically. The sequence comes from the control word, so it is exact and
// never decreases for one reader — it names the write the copy *started* from.
#include <atomic>
#include <cstdint>
#include <memory>

#include "runtime/channel/channel_base.hpp"
#include "runtime/channel/word_copy.hpp"

namespace rtpar::detail {

namespace {

// active_ = (sequence << kSequenceShift) | index of the readable buffer (0 or 1).
inline constexpr std::uint64_t kIndexMask = 1;
inline constexpr unsigned kSequenceShift = 1;

class DoubleBufferChannel final : public ChannelBase {
 public:
  explicit DoubleBufferChannel(const ChannelConfig& config)
      : ChannelBase(config), buffers_(config.size_bytes, 2) {}

  [[nodiscard]] std::size_t memory_bytes() const noexcept override {
    return double_buffer_memory_bytes(config());
  }

  void publish(const void* src, std::int64_t origin_ns) override {
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    // relaxed: only the writer stores active; we read our own last store.
    const std::uint64_t current = active_.value.load(std::memory_order_relaxed);
    const std::uint64_t w = (current & kIndexMask) ^ 1U;  // the other buffer
    store_words(buffers_.copy(w), src, 0, half);
    mid_write();
    store_words(buffers_.copy(w), src, half, size);
    // relaxed, like the payload words: published by the release store below.
    origins_[w].store(origin_ns, std::memory_order_relaxed);
    // release: pairs with the reader's acquire load; a reader that sees this value sees every
    // word stored above (a later write into the same buffer can still tear its copy: the flaw).
    active_.value.store((((current >> kSequenceShift) + 1) << kSequenceShift) | w,
                        std::memory_order_release);
  }

 protected:
  ReadResult read_as(int index, void* dst) override {
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    // acquire: pairs with the writer's release store of a; the copy sees at least write a's words.
    const std::uint64_t a = active_.value.load(std::memory_order_acquire);
    std::uint64_t* words = buffers_.copy(a & kIndexMask);
    load_words(dst, words, 0, half);
    mid_read(index);
    load_words(dst, words, half, size);
    // relaxed, like the payload words (after the acquire load of a; may tear with them).
    const std::int64_t origin = origins_[a & kIndexMask].load(std::memory_order_relaxed);
    return ReadResult{true, 1, a >> kSequenceShift, origin};
  }

 private:
  // Active is the control word on a cache line of its own.
  struct alignas(kCacheLine) Active {
    std::atomic<std::uint64_t> value{0};  // sequence 0, buffer 0: the initial zeros
  };
  Active active_;
  WordBuffer buffers_;
  std::atomic<std::int64_t> origins_[2] = {};  // per buffer origin stamp, stored like the words
};

}  // namespace

std::size_t double_buffer_memory_bytes(const ChannelConfig& config) noexcept {
  return sizeof(DoubleBufferChannel) + 2 * payload_stride(config.size_bytes) + claim_bytes(config);
}

std::unique_ptr<ByteChannel> make_double_buffer_channel(const ChannelConfig& config) {
  return std::make_unique<DoubleBufferChannel>(config);
}

}  // namespace rtpar::detail
