// channel_rules.hpp — the rules of a task set's [[channel]] tables, shared by the loader and by
// validate_taskset (sets built in code).
#pragma once

#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// check_channels enforces the channel rules: valid unique names, size within limits, a writer and
// at least one reader that are tasks of the set or "nonrt", no endpoint twice, numtries only for
// retry, and no `lock` channel across the real-time / non-real-time boundary (a priority-ceiling
// mutex cannot be shared with a SCHED_OTHER thread, and an RT thread must never wait for one).
// A lock channel needs 0 < hold < the deadline of each of its users and 1 ≤ accesses ≤ 10^6;
// hold and accesses on another kind are errors.
// It also refuses a set whose channels need more memory in total (channel_memory_estimate) than
// memory_limit_bytes allows, at the channel that crosses the limit.
void check_channels(const TaskSet& set, const FieldLocations* locations);

// channel_memory_estimate is the memory a run allocates for channel c, from above: the payload
// copies its kind keeps (latest: readers + 2, double_buffer: 2, retry and lock: 1), each rounded
// up to whole 64-byte cache lines, plus kChannelFixedBytes for its state and reader slots.
std::uint64_t channel_memory_estimate(const ChannelSpec& c) noexcept;

// kChannelFixedBytes bounds a channel's memory besides its payload copies (its object, sequence
// words, one cache line per reader slot and the claim flags, for at most kMaxChannelReaders).
inline constexpr std::uint64_t kChannelFixedBytes = 64 * 1024;

// memory_limit_bytes is system.memory_limit, or half the physical memory when it is 0 (and
// unlimited when the machine does not report its memory).
std::uint64_t memory_limit_bytes(const SystemSpec& system) noexcept;

}  // namespace rtpar::model
