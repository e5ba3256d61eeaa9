// retry.cpp — the retry channel: OpenMP-RT §3.5.1's timestamp protocol as a sequence counter.
//
// Protocol. One 64-bit counter `seq`, even while the buffer is stable, odd while a write is in
// progress; seq/2 is the number of completed writes. The paper's two timestamp registers are this
// one counter seen twice: "timeReg1" is the odd value written before the copy, "timeReg2" the even
// value after it. (The paper's version compares the two registers only for equality, so a reader
// that starts mid-write and finishes after the write reads equal stamps around a partly new copy;
// checking that the first value is even closes that hole.)
//
//   writer:  s = seq (only the writer changes it)        reader, up to numtries attempts:
//            seq.store(s+1, relaxed)                        s1 = seq.load(acquire)
//            fence(release)                                 copy words (relaxed loads)
//            copy words (relaxed stores)                    fence(acquire)
//            seq.store(s+2, release)                        s2 = seq.load(relaxed)
//                                                           success iff s1 == s2 and s1 even
//
// Every shared payload access is a relaxed atomic word (word_copy.hpp), so concurrent copying is
// not a data race; the fences make a successful read a consistent snapshot (the lines in write()
// and read_as() cite these steps):
//  (1) s1 = 2k was written by the release store ending write k, so the acquire load makes every
//      word stored by writes 1..k happen-before the reader's loads: no load returns a value older
//      than write k (write-read coherence).
//  (2) If some load returns a word stored by write k+1 or later, that store is preceded by that
//      write's release fence, and the load is followed by the reader's acquire fence: the fences
//      synchronize, so the odd store 2k+1 happens-before the s2 load, which therefore reads 2k+1
//      or a later (larger) value — s2 != s1 and the attempt fails.
//  Hence s1 == s2 == 2k implies every word came from write k exactly. The release fence also keeps
//  the odd store ahead of the data stores; the acquire fence keeps the data loads ahead of s2.
//
// Bounds. A read makes at most numtries attempts, each one copy plus two loads: lock-free for
// readers (it may fail, never blocks), wait-free for the writer (one copy, two stores). Every
// attempt copies, even one that starts on an odd counter, so a read's worst case is exactly
// numtries copies and a failed read leaves the last attempt's bytes in dst (the paper lets the
// task tolerate a partial update or fall back to its previous value). Successful reads by one
// reader return non-decreasing sequences: its loads of seq read a coherent, increasing order.
#include <atomic>
#include <cstdint>
#include <memory>

#include "runtime/channel/channel_base.hpp"
#include "runtime/channel/word_copy.hpp"

namespace rtpar::detail {

namespace {

// seq_ values: kSeqPerWrite per completed write; kWriting is set while a write is in progress.
inline constexpr std::uint64_t kWriting = 1;      // odd: the writer is between its two stores
inline constexpr std::uint64_t kSeqPerWrite = 2;  // seq / kSeqPerWrite = completed writes

// GCC's TSan does not model standalone fences and warns at every one (-Wtsan). That is harmless
// here: every shared payload access is an atomic, so there is no plain access whose ordering TSan
// would need the fences for (the no-torn-read property is checked by the checksummed tests, which
// run in every build). The pragma keeps the warning out of the TSan build log for these two only.
#if defined(__SANITIZE_THREAD__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
// release_fence is std::atomic_thread_fence(std::memory_order_release).
inline void release_fence() noexcept { __atomic_thread_fence(__ATOMIC_RELEASE); }
// acquire_fence is std::atomic_thread_fence(std::memory_order_acquire).
inline void acquire_fence() noexcept { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
#if defined(__SANITIZE_THREAD__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

class RetryChannel final : public ChannelBase {
 public:
  explicit RetryChannel(const ChannelConfig& config)
      : ChannelBase(config), data_(config.size_bytes, 1) {}

  [[nodiscard]] std::size_t memory_bytes() const noexcept override {
    return retry_memory_bytes(config());
  }

  void publish(const void* src, std::int64_t origin_ns) override {
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    // relaxed: only the writer stores seq; we read our own last store (even).
    const std::uint64_t s = seq_.value.load(std::memory_order_relaxed);
    // relaxed + the release fence below (step 2): a reader whose loads see any word of this write
    // synchronizes with the fence and then reads s + kWriting or later as s2.
    seq_.value.store(s + kWriting, std::memory_order_relaxed);
    release_fence();  // step 2: keeps the odd store ahead of every data store
    store_words(data_.copy(0), src, 0, half);
    mid_write();
    store_words(data_.copy(0), src, half, size);
    // relaxed, inside the odd window like the payload words (checked by the reader's s1 == s2).
    origin_.store(origin_ns, std::memory_order_relaxed);
    // release (step 1): a reader whose acquire load reads this even value sees all words stored.
    seq_.value.store(s + kSeqPerWrite, std::memory_order_release);
  }

 protected:
  ReadResult read_as(int index, void* dst) override {
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    const int numtries = config().numtries;
    ReadResult result;
    for (int attempt = 1; attempt <= numtries; ++attempt) {
      // acquire (step 1): pairs with the release store ending write s1 / kSeqPerWrite; no word
      // loaded below is older than that write.
      const std::uint64_t s1 = seq_.value.load(std::memory_order_acquire);
      load_words(dst, data_.copy(0), 0, half);
      mid_read(index);
      load_words(dst, data_.copy(0), half, size);
      // relaxed, like the payload words: validated with them by s2 below.
      result.origin_ns = origin_.load(std::memory_order_relaxed);
      acquire_fence();  // step 2: keeps the data loads ahead of s2; pairs with the writer's fence
      // relaxed + the acquire fence above (step 2): if any word came from a later write, this
      // reads its odd store or later, so s2 != s1.
      const std::uint64_t s2 = seq_.value.load(std::memory_order_relaxed);
      result.tries = attempt;
      result.sequence = s1 / kSeqPerWrite;
      if (s1 == s2 && (s1 & kWriting) == 0) {
        result.ok = true;
        return result;
      }
    }
    return result;
  }

 private:
  // Seq keeps the counter on a cache line of its own: readers poll it, the payload lines are
  // written by the writer.
  struct alignas(kCacheLine) Seq {
    std::atomic<std::uint64_t> value{0};
  };
  Seq seq_;
  WordBuffer data_;
  std::atomic<std::int64_t> origin_{0};  // origin stamp of the value, stored like a payload word
};

}  // namespace

std::size_t retry_memory_bytes(const ChannelConfig& config) noexcept {
  return sizeof(RetryChannel) + payload_stride(config.size_bytes) + claim_bytes(config);
}

std::unique_ptr<ByteChannel> make_retry_channel(const ChannelConfig& config) {
  return std::make_unique<RetryChannel>(config);
}

}  // namespace rtpar::detail
