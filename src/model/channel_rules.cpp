// channel_rules.cpp — check_channels (channel_rules.hpp).
#include "model/channel_rules.hpp"

#include <set>
#include <string>
#include <string_view>

namespace rtpar::model {

void check_channels(const TaskSet& set, const FieldLocations* locations) {
  std::set<std::string_view> tasks;
  for (const TaskSpec& t : set.tasks) tasks.insert(t.name);
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
  }
}

}  // namespace rtpar::model
