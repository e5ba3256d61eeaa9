// rtpar/channel_kind.hpp — the channel protocols and their limits, without the channel API.
//
// Vocabulary shared by the task model ([[channel]] kind, size and reader limits) and the channel
// runtime (rtpar/channel.hpp); the model needs the names and the bounds, not the atomics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rtpar {

// ChannelKind is the protocol a channel uses between its writer and its readers.
enum class ChannelKind {
  retry,          // sequence counter (the paper's timestamps): lock-free, a read may fail after
                  // numtries attempts; a successful read is never torn
  double_buffer,  // the paper's double buffer: wait-free, but a reader lapped twice by the writer
                  // during one copy gets a torn value (kept on purpose, for comparison)
  latest,         // N+2 buffers (Chen & Burns): wait-free reads and writes, never torn (default)
  lock,           // a mutex with the priority-ceiling protocol and a global lock order (baseline)
};

// LockProtocol is how a `lock` channel's waiters and holder behave, chosen from the plan's
// placement of its users (model::lock_protocol) so that the runtime runs exactly the protocol
// the planner analysed (docs/analysis.md, "Blocking (shared locks)").
enum class LockProtocol {
  // ceiling: every user is one thread on one and the same core: priority ceiling emulation
  // (PTHREAD_PRIO_PROTECT; Sha, Rajkumar & Lehoczky 1990; Baker 1991).
  ceiling,
  // msrp: users on several cores (or a team): the Multiprocessor Stack Resource Policy (Gai,
  // Lipari & Di Natale 2001): a request makes its thread non-preemptive on its core, waiters
  // spin in FIFO (ticket) order, the holder runs non-preemptively until it releases.
  msrp,
};

// to_string names a lock protocol ("ceiling", "msrp").
const char* to_string(LockProtocol protocol) noexcept;

// to_string names a kind as the task-set file spells it ("retry", "double_buffer", ...).
const char* to_string(ChannelKind kind) noexcept;

// parse_channel_kind is the inverse of to_string; nullopt for an unknown name.
std::optional<ChannelKind> parse_channel_kind(std::string_view name) noexcept;

// kMaxChannelBytes bounds a channel's payload size (1 GiB; 1 MB payloads are the design case).
inline constexpr std::size_t kMaxChannelBytes = std::size_t{1} << 30;
// kMaxChannelReaders bounds a channel's reader count (the latest kind keeps readers + 2 copies).
inline constexpr int kMaxChannelReaders = 256;
// kMaxExplicitLockRank bounds ChannelConfig::lock_rank; automatic ranks are handed out above it.
inline constexpr std::int64_t kMaxExplicitLockRank = std::int64_t{1} << 40;
// kMaxHeldChannelLocks bounds how many lock channels one thread may hold at once (ChannelHold).
inline constexpr int kMaxHeldChannelLocks = 16;

}  // namespace rtpar
