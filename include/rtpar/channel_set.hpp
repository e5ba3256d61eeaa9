// rtpar/channel_set.hpp — the [[channel]]s of a task set, created for a run, and each
// endpoint's handles on them (what a job sees as JobContext::channels).
#pragma once

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
class Endpoint {
 public:
  // writer is the channel this endpoint writes; throws std::out_of_range if it does not write it.
  ByteChannel& writer(std::string_view channel);
  // reader is this endpoint's reader handle on a channel; throws std::out_of_range otherwise.
  ChannelReader& reader(std::string_view channel);

  // write publishes value on channel; sizeof(T) must equal the channel's size.
  template <class T>
  void write(std::string_view channel, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "channel payloads are copied as bytes");
    ByteChannel& c = writer(channel);
    check_size(c, sizeof(T));
    c.write(&value);
  }

  // read copies the channel's current value into value; sizeof(T) must equal its size.
  template <class T>
  ReadResult read(std::string_view channel, T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "channel payloads are copied as bytes");
    ChannelReader& r = reader(channel);
    check_size(*r.channel(), sizeof(T));
    return r.read(&value);
  }

  // task_index is the set index of the task this endpoint belongs to (-1: "nonrt"); a task's
  // threads pass it to set_channel_user so that their explicit lock holds are recorded as its.
  [[nodiscard]] int task_index() const noexcept { return task_; }

 private:
  friend class ChannelSet;
  static void check_size(const ByteChannel& c, std::size_t size);

  int task_ = -1;
  std::vector<std::pair<std::string, ByteChannel*>> writes_;
  std::vector<std::pair<std::string, ChannelReader>> reads_;
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

 private:
  bool best_effort_;
  std::vector<std::unique_ptr<ByteChannel>> channels_;
  std::vector<std::pair<std::string, std::unique_ptr<Endpoint>>> endpoints_;
};

}  // namespace rtpar
