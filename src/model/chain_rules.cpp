// chain_rules.cpp — chain_link and check_chains (chain_rules.hpp).
#include "model/chain_rules.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "rtpar/error.hpp"

namespace rtpar::model {

const ChannelSpec* chain_link(const TaskSet& set, const std::string& from, const std::string& to) {
  for (const ChannelSpec& c : set.channels) {
    if (c.kind != ChannelKind::latest && c.kind != ChannelKind::double_buffer) continue;
    if (c.writer == from && std::find(c.readers.begin(), c.readers.end(), to) != c.readers.end()) {
      return &c;
    }
  }
  return nullptr;
}

void check_chains(const TaskSet& set, const FieldLocations* locations) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < set.chains.size(); ++i) {
    const ChainSpec& chain = set.chains[i];
    const std::string prefix = "chain[" + std::to_string(i) + "]";
    const auto fail = [&](const std::string& key, const std::string& message) {
      const SourceLocation fallback =
          chain.where.file.empty() ? SourceLocation{set.source, 0, 0} : chain.where;
      const SourceLocation* at =
          locations != nullptr ? locations->find(prefix + "." + key) : nullptr;
      throw InputError(at != nullptr ? *at : fallback, prefix + "." + key,
                       message + " (chain \"" + chain.name + "\")");
    };
    if (!is_valid_task_name(chain.name)) {
      fail("name", "must be non-empty and use only [A-Za-z0-9_.-]");
    }
    if (!names.insert(chain.name).second) fail("name", "duplicate chain name");
    if (chain.tasks.size() < 2) fail("tasks", "a chain needs at least two tasks");
    std::set<std::string> seen;
    for (std::size_t k = 0; k < chain.tasks.size(); ++k) {
      const std::string& name = chain.tasks[k];
      const std::string key = "tasks[" + std::to_string(k) + "]";
      const bool known = std::any_of(set.tasks.begin(), set.tasks.end(),
                                     [&](const TaskSpec& t) { return t.name == name; });
      if (!known) fail(key, "no task named \"" + name + "\"");
      if (!seen.insert(name).second) fail(key, "task \"" + name + "\" appears twice");
      if (k == 0) continue;
      const std::string& from = chain.tasks[k - 1];
      if (chain_link(set, from, name) != nullptr) continue;
      std::string other;
      for (const ChannelSpec& c : set.channels) {
        if (c.writer == from &&
            std::find(c.readers.begin(), c.readers.end(), name) != c.readers.end()) {
          other = "; channel \"" + c.name + "\" connects them but is kind = \"" +
                  to_string(c.kind) + "\"";
        }
      }
      fail(key, "\"" + from + "\" does not feed \"" + name +
                    "\": a chain follows a `latest` or `double_buffer` channel written by the "
                    "earlier task and read by the later one" +
                    other);
    }
    if (chain.max_age && chain.max_age->count() <= 0) fail("max_age", "must be > 0");
  }
}

}  // namespace rtpar::model
