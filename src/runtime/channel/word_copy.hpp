// word_copy.hpp — the byte-copy helper shared by the channel kinds: payload storage in 64-byte
// aligned 8-byte words, and copies into and out of it with relaxed atomic word accesses.
//
// Why atomics: in the retry and double_buffer protocols a reader copies a buffer that the writer
// may be overwriting at the same moment. With plain memcpy on both sides that is a data race —
// undefined behaviour in C++, and exactly what TSan reports. With every shared access a relaxed
// std::atomic_ref<std::uint64_t> load or store, the race is benign by definition: a racing read
// returns *some* written word (never a half-written one), and the protocol's fences decide
// whether the copy as a whole is accepted. On x86-64 and AArch64 a relaxed 8-byte access is an
// ordinary aligned load/store, so the cost over memcpy is only the lost vectorisation.
//
// Layout. A payload of n bytes occupies ceil(n/8) words; the last word's bytes past n are zero
// (written as zeros by store_words, ignored by load_words). The private side (the user's src or
// dst) may have any alignment: it is accessed with 8-byte memcpy, which compiles to a plain move.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

namespace rtpar::detail {

// kCacheLine is the unit buffers and control words are padded to (no false sharing).
inline constexpr std::size_t kCacheLine = 64;

// round_up rounds n up to a multiple of `to` (a power of two).
constexpr std::size_t round_up(std::size_t n, std::size_t to) noexcept {
  return (n + to - 1) & ~(to - 1);
}

// payload_stride is the bytes one payload copy occupies: size rounded up to whole cache lines.
constexpr std::size_t payload_stride(std::size_t size) noexcept {
  return round_up(size, kCacheLine);
}

// copy_split is where copies are cut in two for the test hooks (ChannelHooks): half the payload,
// rounded down to a whole word so both halves start word-aligned.
constexpr std::size_t copy_split(std::size_t size) noexcept { return (size / 2) & ~std::size_t{7}; }

// WordBuffer is zeroed, cache-line-aligned storage for `copies` payloads of `size` bytes each,
// allocated once at channel creation.
class WordBuffer {
 public:
  WordBuffer() = default;
  WordBuffer(std::size_t size, std::size_t copies)
      : stride_(payload_stride(size)), words_(allocate(stride_ * copies)) {
    std::memset(words_.get(), 0, stride_ * copies);
  }

  // copy is the first word of payload copy i.
  [[nodiscard]] std::uint64_t* copy(std::size_t i) const noexcept {
    return words_.get() + i * (stride_ / sizeof(std::uint64_t));
  }
  // stride is the size of one copy's slot in bytes (payload_stride(size)).
  [[nodiscard]] std::size_t stride() const noexcept { return stride_; }

 private:
  static constexpr std::align_val_t kAlign{kCacheLine};

  static std::uint64_t* allocate(std::size_t bytes) {
    return static_cast<std::uint64_t*>(::operator new(bytes, kAlign));
  }
  struct Free {
    void operator()(std::uint64_t* p) const noexcept { ::operator delete(p, kAlign); }
  };
  std::size_t stride_ = 0;
  std::unique_ptr<std::uint64_t, Free> words_;
};

// store_words copies bytes [begin, end) of the payload from the private buffer src into the shared
// words with relaxed atomic stores. begin is a multiple of 8; end is a multiple of 8 or the
// payload size (then the last word is zero-padded).
inline void store_words(std::uint64_t* words, const void* src, std::size_t begin,
                        std::size_t end) noexcept {
  const auto* from = static_cast<const unsigned char*>(src);
  std::size_t i = begin;
  for (; i + 8 <= end; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, from + i, 8);
    // relaxed: ordered by the caller's protocol (retry's fences, double_buffer's release store).
    std::atomic_ref<std::uint64_t>(words[i / 8]).store(w, std::memory_order_relaxed);
  }
  if (i < end) {
    std::uint64_t w = 0;
    std::memcpy(&w, from + i, end - i);
    // relaxed: as above (the zero-padded last word).
    std::atomic_ref<std::uint64_t>(words[i / 8]).store(w, std::memory_order_relaxed);
  }
}

// load_words copies bytes [begin, end) of the payload from the shared words into the private
// buffer dst with relaxed atomic loads (same bounds rules as store_words).
inline void load_words(void* dst, std::uint64_t* words, std::size_t begin,
                       std::size_t end) noexcept {
  auto* to = static_cast<unsigned char*>(dst);
  std::size_t i = begin;
  for (; i + 8 <= end; i += 8) {
    // relaxed: ordered by the caller's protocol (retry's acquire load and fence, double_buffer's
    // acquire load); atomic only so a racing write is no data race.
    const std::uint64_t w =
        std::atomic_ref<std::uint64_t>(words[i / 8]).load(std::memory_order_relaxed);
    std::memcpy(to + i, &w, 8);
  }
  if (i < end) {
    // relaxed: as above (the last, partial word).
    const std::uint64_t w =
        std::atomic_ref<std::uint64_t>(words[i / 8]).load(std::memory_order_relaxed);
    std::memcpy(to + i, &w, end - i);
  }
}

}  // namespace rtpar::detail
