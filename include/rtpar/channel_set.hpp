// rtpar/channel_set.hpp — the [[channel]]s of a task set, created for a run, and each
// endpoint's handles on them (what a job sees as JobContext::channels).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "rtpar/channel.hpp"

namespace rtpar {

struct TaskSet;
struct Plan;

// Endpoint is one participant's handles: the channels it writes and its reader handles on the
// channels it reads. Built at setup; lookups by name scan a short vector (no allocation).
//
// Origins (cause-effect chains, docs/analysis.md "Cause-effect chains"). Writes through the
// endpoint stamp the value with an origin: the release time of the chain's first job whose data
// it carries. A write to a channel that continues a chain (ChannelSet links it to the chain's
// previous channel, read by this task) carries the origin of the last value this endpoint read
// from that channel; any other write carries the current job's release (begin_job). Reads
// through the endpoint remember the origin of what they returned. The runner reads the origins
// after the job (input_origin) to measure data age at the chain's last task. The raw handles
// (writer(), reader()) bypass the stamps.
class Endpoint {
 public:
  // writer is the channel this endpoint writes; throws std::out_of_range if it does not write it.
  ByteChannel& writer(std::string_view channel);
  // reader is this endpoint's reader handle on a channel; throws std::out_of_range otherwise.
  ChannelReader& reader(std::string_view channel);

  // write_bytes publishes size bytes from src on channel, stamped with its origin; throws
  // std::out_of_range (not written here) or std::invalid_argument (size is not the channel's).
  void write_bytes(std::string_view channel, const void* src, std::size_t size);
  // read_bytes copies the channel's value (size bytes) into dst and remembers its origin; throws
  // like write_bytes.
  ReadResult read_bytes(std::string_view channel, void* dst, std::size_t size);

  // write publishes value on channel; sizeof(T) must equal the channel's size.
  template <class T>
  void write(std::string_view channel, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "channel payloads are copied as bytes");
    write_bytes(channel, &value, sizeof(T));
  }

  // read copies the channel's current value into value; sizeof(T) must equal its size.
  template <class T>
  ReadResult read(std::string_view channel, T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "channel payloads are copied as bytes");
    return read_bytes(channel, &value, sizeof(T));
  }

  // begin_job makes release_ns the origin of this job's writes that continue no chain. The
  // runner calls it before each job (the thread that then runs the job happens-after it).
  void begin_job(std::int64_t release_ns) noexcept {
    // relaxed: the runner publishes it with the job (the task runner before it runs the job and
    // forks, the strand runner before its release store of the job word), so every write of the
    // job happens-after it.
    job_origin_.store(release_ns, std::memory_order_relaxed);
  }
  // read_index is the position of channel among this endpoint's reads (-1 if not read here).
  [[nodiscard]] int read_index(std::string_view channel) const noexcept;
  // input_origin is the origin of the last value read through read_bytes from read position
  // `index` (0: nothing stamped read yet). Same single-thread discipline as the reader handle.
  [[nodiscard]] std::int64_t input_origin(int index) const noexcept {
    return reads_[static_cast<std::size_t>(index)].origin;
  }
  // traced_inputs are the read positions whose origin the runner records per job (channels
  // that end a chain at this task; trace_input adds one at setup).
  [[nodiscard]] const std::vector<int>& traced_inputs() const noexcept { return traced_; }
  // read_name is the channel read at position index.
  [[nodiscard]] const std::string& read_name(int index) const noexcept {
    return reads_[static_cast<std::size_t>(index)].name;
  }
  // trace_input adds channel's read position to traced_inputs (setup only; once each).
  void trace_input(std::string_view channel);
  // continue_chain makes writes to channel `output` carry the origin last read from `input`
  // (setup only; both must be this endpoint's). Returns false if `output` already continues
  // another input (a channel shared by two chains with different predecessors: the first wins).
  bool continue_chain(std::string_view output, std::string_view input);

  // task_index is the set index of the task this endpoint belongs to (-1: "nonrt"); a task's
  // threads pass it to set_channel_user so that their explicit lock holds are recorded as its.
  [[nodiscard]] int task_index() const noexcept { return task_; }

 private:
  friend class ChannelSet;
  static void check_size(const ByteChannel& c, std::size_t size);

  // WriteSlot is one written channel and the read position whose origin its writes carry.
  struct WriteSlot {
    std::string name;
    ByteChannel* channel = nullptr;
    int origin_input = -1;  // -1: the job's release
  };
  // ReadSlot is one reader handle and the origin of the last value read through it.
  struct ReadSlot {
    std::string name;
    ChannelReader reader;
    std::int64_t origin = 0;
  };

  int task_ = -1;
  std::atomic<std::int64_t> job_origin_{0};
  std::vector<WriteSlot> writes_;
  std::vector<ReadSlot> reads_;
  std::vector<int> traced_;
};

// ChannelSet owns every channel of a task set for one run. All memory is allocated here.
class ChannelSet {
 public:
  // ChannelSet creates the channels of set. A lock channel's ceiling is the highest SCHED_FIFO
  // priority the plan gives its writer and readers (all real-time tasks: the loader refuses lock
  // channels with "nonrt"); with best_effort the tasks run SCHED_OTHER, so no ceiling is set. The
  // global lock order is the file order of the lock channels.
  ChannelSet(const TaskSet& set, const Plan& plan, bool best_effort);
  ~ChannelSet();
  ChannelSet(const ChannelSet&) = delete;
  ChannelSet& operator=(const ChannelSet&) = delete;

  // endpoint is the handles of a task (by name) or of the non-real-time program ("nonrt").
  // Throws std::out_of_range for a name that is neither.
  Endpoint& endpoint(std::string_view name);
  // channel finds a channel by name (nullptr if there is none).
  ByteChannel* channel(std::string_view name) noexcept;
  // best_effort tells whether the set was created for a best-effort run (no ceilings).
  [[nodiscard]] bool best_effort() const noexcept { return best_effort_; }
  // chain_traced tells whether chain c (TaskSet::chains order) carries its own origins end to
  // end: false when one of its links continues another chain from a different input.
  [[nodiscard]] bool chain_traced(std::size_t c) const noexcept {
    return c < chain_traced_.size() && chain_traced_[c];
  }

 private:
  bool best_effort_;
  std::vector<bool> chain_traced_;
  std::vector<std::unique_ptr<ByteChannel>> channels_;
  std::vector<std::pair<std::string, std::unique_ptr<Endpoint>>> endpoints_;
};

}  // namespace rtpar
