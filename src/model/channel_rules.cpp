// channel_rules.cpp — check_channels (channel_rules.hpp).
#include "model/channel_rules.hpp"

#include "platform/physical_memory.hpp"

#include <fmt/format.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rtpar::model {

std::uint64_t channel_memory_estimate(const ChannelSpec& c) noexcept {
  std::uint64_t copies = 1;
  if (c.kind == ChannelKind::latest) copies = static_cast<std::uint64_t>(c.readers.size()) + 2;
  if (c.kind == ChannelKind::double_buffer) copies = 2;
  const unsigned __int128 stride = (static_cast<unsigned __int128>(c.size_bytes) + 63) / 64 * 64;
  const unsigned __int128 bytes = stride * copies + kChannelFixedBytes;
  return bytes > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

std::uint64_t memory_limit_bytes(const SystemSpec& system) noexcept {
  if (system.memory_limit != 0) return system.memory_limit;
  const std::uint64_t physical = platform::physical_memory_bytes();
  return physical == 0 ? UINT64_MAX : physical / 2;
}

namespace {

// mib formats a byte count in MiB for messages.
std::string mib(std::uint64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

}  // namespace

void check_channels(const TaskSet& set, const FieldLocations* locations) {
  const std::uint64_t limit = memory_limit_bytes(set.system);
  std::uint64_t total = 0;
  std::set<std::string_view> tasks;
  for (const TaskSpec& t : set.tasks) tasks.insert(t.name);
  const auto deadline_of = [&](const std::string& who) -> const TaskSpec* {
    for (const TaskSpec& t : set.tasks) {
      if (t.name == who) return &t;
    }
    return nullptr;
  };
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < set.channels.size(); ++i) {
    const ChannelSpec& c = set.channels[i];
    const std::string prefix = "channel[" + std::to_string(i) + "]";
    const auto fail = [&](const std::string& key, const std::string& message) {
      const SourceLocation fallback =
          c.where.file.empty() ? SourceLocation{set.source, 0, 0} : c.where;
      const SourceLocation* at =
          locations != nullptr ? locations->find(prefix + "." + key) : nullptr;
      const std::string base = key.substr(0, key.find('['));
      if (at == nullptr && locations != nullptr) at = locations->find(prefix + "." + base);
      throw InputError(at != nullptr ? *at : fallback, prefix + "." + base,
                       message + " (channel \"" + c.name + "\")");
    };
    if (!is_valid_task_name(c.name)) fail("name", "must be non-empty and use only [A-Za-z0-9_.-]");
    if (!names.insert(c.name).second) fail("name", "duplicate channel name");
    if (c.size_bytes == 0 || c.size_bytes > kMaxChannelBytes) {
      fail("size", "must be between 1 and " + std::to_string(kMaxChannelBytes) + " bytes");
    }
    if (c.numtries < 1) fail("numtries", "must be >= 1");
    const auto known = [&](const std::string& who) {
      return who == kNonRtEndpoint || tasks.count(who) != 0;
    };
    if (!known(c.writer)) fail("writer", "no task named \"" + c.writer + "\" (nor \"nonrt\")");
    if (c.readers.empty()) fail("readers", "needs at least one reader");
    if (static_cast<int>(c.readers.size()) > kMaxChannelReaders) {
      fail("readers", "at most " + std::to_string(kMaxChannelReaders) + " readers");
    }
    std::set<std::string_view> seen;
    bool nonrt = c.writer == kNonRtEndpoint;
    for (std::size_t k = 0; k < c.readers.size(); ++k) {
      const std::string key = "readers[" + std::to_string(k) + "]";
      const std::string& who = c.readers[k];
      if (!known(who)) fail(key, "no task named \"" + who + "\" (nor \"nonrt\")");
      if (!seen.insert(who).second) fail(key, "\"" + who + "\" is listed twice");
      if (who == c.writer) fail(key, "\"" + who + "\" is the writer; it cannot also read");
      nonrt = nonrt || who == kNonRtEndpoint;
    }
    if (c.kind == ChannelKind::lock && nonrt) {
      fail("kind",
           "a \"lock\" channel cannot connect real-time tasks with \"nonrt\": a real-time thread "
           "must never wait for a non-real-time one, and a priority-ceiling mutex refuses "
           "SCHED_OTHER threads; use \"latest\" or \"retry\"");
    }
    if (c.kind != ChannelKind::lock && c.hold != Duration::zero()) {
      fail("hold", "only applies to kind = \"lock\"");
    }
    if (c.kind != ChannelKind::lock && c.accesses != 1) {
      fail("accesses", "only applies to kind = \"lock\"");
    }
    if (c.kind == ChannelKind::lock) {
      // hold is what admission control charges as blocking (analysis/bounds/blocking.hpp): a lock
      // without it cannot be analysed, and a critical section as long as a user's deadline
      // leaves that user no time of its own.
      if (c.hold <= Duration::zero()) {
        fail("hold",
             "required for kind = \"lock\" and must be > 0: the longest time any job holds the "
             "lock in one access, e.g. hold = \"50us\"");
      }
      if (c.accesses < 1 || c.accesses > 1'000'000) {
        fail("accesses", "must be between 1 and 1000000");
      }
      std::vector<std::string> users = c.readers;
      users.insert(users.begin(), c.writer);
      for (const std::string& who : users) {
        const TaskSpec* t = deadline_of(who);
        if (t != nullptr && c.hold >= t->deadline) {
          fail("hold", "hold = " + format_duration(c.hold) +
                           " must be below the deadline of every "
                           "user; task \"" +
                           who + "\" has deadline " + format_duration(t->deadline));
        }
      }
    }
    // The sum saturates: 10,000 channels of 1 GiB must not wrap around to a small number.
    if (__builtin_add_overflow(total, channel_memory_estimate(c), &total)) total = UINT64_MAX;
    if (total > limit) {
      fail("size", "the channels up to this one need about " + mib(total) +
                       " of memory, above the memory limit of " + mib(limit) +
                       (set.system.memory_limit != 0
                            ? std::string(" ([system] memory_limit)")
                            : std::string(" (half the physical memory; set [system] memory_limit "
                                          "to change it)")));
    }
  }
}

}  // namespace rtpar::model
