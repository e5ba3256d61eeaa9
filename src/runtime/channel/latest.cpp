// latest.cpp — the latest channel (the default): wait-free reads and writes, never a torn value.
//
// Algorithm: Chen & Burns' fully asynchronous reader/writer mechanism for one writer and N
// readers with N+2 buffers (University of York, YCS-288, 1997) — the multi-reader generalisation
// of the triple buffer. Chosen over Simpson's four-slot algorithm, which is single-reader: giving
// each reader its own four slots would cost the writer N copies per write and 4N buffers, where
// this costs one copy per write and N+2 buffers.
//
// State: buffers 0..N+1 (each with the sequence of the write that filled it), `latest` (the last
// published buffer), and per reader a `reading` slot on its own cache line holding a buffer index
// (pinned), kRequest (the reader is choosing a buffer) or kNone (never read).
//
//   writer:  w = a buffer that is neither latest nor in any reader's slot   (N loads)
//            fill buffer w (plain memcpy); latest = w
//            for each reader r: CAS(reading[r], kRequest -> w)             (one attempt each)
//   reader:  reading[r] = kRequest; x = latest
//            j = CAS(reading[r], kRequest -> x) succeeded ? x : reading[r] (the writer gave one)
//            copy buffer j (plain memcpy)
//
// A free buffer always exists: at most N slots and `latest` exclude N+1 of the N+2 buffers.
// Every step is bounded — the reader does one store, one load, one CAS and one copy; the writer N
// loads, one store, N CASes and one copy. No loop waits for another thread: wait-free.
//
// No torn read. All control operations are seq_cst, so they lie in one total order S (the lines
// in write(), read_as() and choose_free() cite the steps below). Claim: if
// reader R copies buffer j filled by write k, no later write fills j until R's copy is done.
//  * R pinned j (its slot holds j) before write W scans it: W's scan reads something else only
//    after R replaced j with kRequest at the start of its next read, i.e. after the copy. That
//    store is a release (seq_cst) and W's scan load an acquire, so R's copy happens-before W's
//    fill.
//  * R's slot gets j after W's scan: either the writer's CAS gave it (W's own, after its fill: R
//    reads the new value), or R's own CAS with x = j loaded from latest. If R loaded latest after
//    W's scan, j is W's newly published buffer (j was not latest at the scan). If R loaded latest
//    before W's scan, latest changed from j in between, by a write W1 that precedes W; W1's CAS on
//    R's slot also precedes W's scan and found kRequest (R had not CASed yet), so it succeeded and
//    R's own CAS fails — R does not read j. Contradiction.
// Conversely, R's copy sees all of write k: j came from latest (R's acquire load reads write k's
// release store) or from write k's CAS (a release RMW after the fill). So payloads and sequences
// are *plain* memory with no data race at all — TSan checks this argument on every test run.
//
// Freshness and order: the value read was `latest` at some instant during the read (R's load of
// latest, or while the writer's CAS ran), so successive reads by one reader return
// non-decreasing sequences. A writer stalled mid-write leaves readers unaffected: they keep
// returning the last complete value (tests/runtime/channel/test_channel_latest.cpp).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>

#include "runtime/channel/channel_base.hpp"
#include "runtime/channel/word_copy.hpp"

namespace rtpar::detail {

namespace {

// Slot::reading values besides a buffer index 0..count_-1 (which pins that buffer).
inline constexpr std::uint32_t kRequest = 0xFFFFFFFFU;  // the reader is choosing a buffer
inline constexpr std::uint32_t kNone = 0xFFFFFFFEU;     // pins nothing (before the first read)

class LatestChannel final : public ChannelBase {
 public:
  explicit LatestChannel(const ChannelConfig& config)
      : ChannelBase(config),
        count_(static_cast<std::uint32_t>(config.max_readers) + 2),
        buffers_(config.size_bytes, count_),
        sequences_(new std::uint64_t[count_]()),
        origins_(new std::int64_t[count_]()),
        slots_(new Slot[static_cast<std::size_t>(config.max_readers)]),
        in_use_(new bool[count_]()) {}

  [[nodiscard]] std::size_t memory_bytes() const noexcept override {
    return latest_memory_bytes(config());
  }

  void publish(const void* src, std::int64_t origin_ns) override {
    const std::uint32_t w = choose_free();
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    auto* to = reinterpret_cast<unsigned char*>(buffers_.copy(w));
    const auto* from = static_cast<const unsigned char*>(src);
    std::memcpy(to, from, half);
    mid_write();
    std::memcpy(to + half, from + half, size - half);
    sequences_[w] = ++writes_;
    origins_[w] = origin_ns;
    // seq_cst ⊇ release: a reader whose load of latest returns w sees the fill and sequence
    // ("conversely" above); seq_cst places it in S for the no-torn-read argument.
    latest_.value.store(w, std::memory_order_seq_cst);
    latest_index_ = w;
    const int readers = max_readers();
    for (int r = 0; r < readers; ++r) {
      std::uint32_t expected = kRequest;
      // seq_cst (release half: a reader whose CAS fails reads w from here and sees the fill): one
      // attempt; success hands w to a reader still choosing, failure means it already chose.
      slots_[r].reading.compare_exchange_strong(expected, w, std::memory_order_seq_cst);
    }
  }

 protected:
  ReadResult read_as(int index, void* dst) override {
    std::atomic<std::uint32_t>& reading = slots_[index].reading;
    // seq_cst ⊇ release: unpins our previous buffer; the writer's scan that reads this (or our
    // later CAS, same release sequence) sees our previous copy finished (first case above).
    reading.store(kRequest, std::memory_order_seq_cst);
    // seq_cst ⊇ acquire: pairs with the writer's store of latest; buffer x's fill is visible.
    const std::uint32_t x = latest_.value.load(std::memory_order_seq_cst);
    std::uint32_t j = kRequest;
    // seq_cst: in S with the writers' CASes on our slot (second case above). On failure the
    // writer has already given this reader a buffer; j receives it (acquire: sees its fill).
    if (reading.compare_exchange_strong(j, x, std::memory_order_seq_cst)) j = x;
    const std::size_t size = size_bytes();
    const std::size_t half = copy_split(size);
    const auto* from = reinterpret_cast<const unsigned char*>(buffers_.copy(j));
    auto* to = static_cast<unsigned char*>(dst);
    std::memcpy(to, from, half);
    mid_read(index);
    std::memcpy(to + half, from + half, size - half);
    return ReadResult{true, 1, sequences_[j], origins_[j]};
  }

 private:
  // choose_free returns a buffer that is neither latest nor pinned by a reader.
  std::uint32_t choose_free() noexcept {
    std::fill(in_use_.get(), in_use_.get() + count_, false);
    in_use_[latest_index_] = true;
    const int readers = max_readers();
    for (int r = 0; r < readers; ++r) {
      // seq_cst ⊇ acquire: W's scan; reading kRequest (or later) synchronizes with the reader's
      // unpinning store, so its copy of the old buffer is done before we fill it (first case).
      const std::uint32_t v = slots_[r].reading.load(std::memory_order_seq_cst);
      if (v < count_) in_use_[v] = true;
    }
    // Start after the last buffer written, so consecutive writes do not reuse the same lines.
    for (std::uint32_t step = 1; step <= count_; ++step) {
      const std::uint32_t i = (latest_index_ + step) % count_;
      if (!in_use_[i]) return i;
    }
    return latest_index_;  // unreachable: at most count_ - 1 buffers are in use
  }

  // Slot is one reader's `reading` word on a cache line of its own.
  struct alignas(kCacheLine) Slot {
    std::atomic<std::uint32_t> reading{kNone};
  };
  // Latest is the published buffer index on a cache line of its own.
  struct alignas(kCacheLine) Latest {
    std::atomic<std::uint32_t> value{0};  // buffer 0 holds the initial zeros, sequence 0
  };

  const std::uint32_t count_;  // number of buffers: readers + 2
  Latest latest_;
  WordBuffer buffers_;
  std::unique_ptr<std::uint64_t[]> sequences_;  // per buffer, guarded like the payload
  std::unique_ptr<std::int64_t[]> origins_;     // per buffer origin stamps, likewise
  std::unique_ptr<Slot[]> slots_;
  std::unique_ptr<bool[]> in_use_;  // writer's scratch for choose_free
  std::uint32_t latest_index_ = 0;  // writer-private copy of latest
  std::uint64_t writes_ = 0;        // writer-private count of completed writes
};

}  // namespace

std::size_t latest_memory_bytes(const ChannelConfig& config) noexcept {
  const auto readers = static_cast<std::size_t>(config.max_readers);
  const std::size_t count = readers + 2;
  return sizeof(LatestChannel) + count * payload_stride(config.size_bytes) +
         count * (sizeof(std::uint64_t) + sizeof(std::int64_t)) + readers * kCacheLine + count * sizeof(bool) +
         claim_bytes(config);
}

std::unique_ptr<ByteChannel> make_latest_channel(const ChannelConfig& config) {
  return std::make_unique<LatestChannel>(config);
}

}  // namespace rtpar::detail
