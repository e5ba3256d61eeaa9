// channel_set.cpp — creating a task set's channels and handing each endpoint its handles.
#include "rtpar/channel_set.hpp"

#include <algorithm>

#include "model/lock_placement.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar {

void Endpoint::check_size(const ByteChannel& c, std::size_t size) {
  if (size != c.size_bytes()) {
    throw std::invalid_argument("channel \"" + c.name() + "\" carries " +
                                std::to_string(c.size_bytes()) + " bytes, not " +
                                std::to_string(size));
  }
}

ByteChannel& Endpoint::writer(std::string_view channel) {
  for (auto& [name, c] : writes_) {
    if (name == channel) return *c;
  }
  throw std::out_of_range("this endpoint does not write channel \"" + std::string(channel) + "\"");
}

ChannelReader& Endpoint::reader(std::string_view channel) {
  for (auto& [name, r] : reads_) {
    if (name == channel) return r;
  }
  throw std::out_of_range("this endpoint does not read channel \"" + std::string(channel) + "\"");
}

ChannelSet::ChannelSet(const TaskSet& set, const Plan& plan, bool best_effort)
    : best_effort_(best_effort) {
  const auto priority_of = [&](const std::string& who) {
    for (std::size_t i = 0; i < set.tasks.size() && i < plan.tasks.size(); ++i) {
      if (set.tasks[i].name == who) return plan.tasks[i].priority;
    }
    return 0;  // "nonrt"
  };
  const auto endpoint_of = [&](const std::string& who) -> Endpoint& {
    for (auto& [name, e] : endpoints_) {
      if (name == who) return *e;
    }
    endpoints_.emplace_back(who, std::make_unique<Endpoint>());
    return *endpoints_.back().second;
  };
  std::int64_t lock_rank = 0;
  for (const ChannelSpec& spec : set.channels) {
    ChannelConfig config;
    config.kind = spec.kind;
    config.size_bytes = spec.size_bytes;
    config.max_readers = static_cast<int>(spec.readers.size());
    config.numtries = spec.numtries;
    config.name = spec.name;
    if (spec.kind == ChannelKind::lock) {
      // The protocol the planners analysed for this placement (model/lock_placement.hpp). A
      // best-effort run has no priorities to raise: a plain mutex (ceiling 0).
      config.protocol = best_effort ? LockProtocol::ceiling : model::lock_protocol(spec, set, plan);
      if (config.protocol == LockProtocol::ceiling) {
        // Priority ceiling protocol: the ceiling is the highest priority of any user, so
        // holding the lock runs at least as high as anyone who could want it.
        int ceiling = priority_of(spec.writer);
        for (const std::string& r : spec.readers) ceiling = std::max(ceiling, priority_of(r));
        config.ceiling_priority = best_effort ? 0 : ceiling;
      } else {
        config.nonpreemptive_priority = model::nonpreemptive_priority(plan);
      }
      config.declared_hold_ns = spec.hold.count();
      // One stats slot per endpoint (writer, then readers), "nonrt" as -1.
      const auto task_of = [&](const std::string& who) {
        for (std::size_t i = 0; i < set.tasks.size(); ++i) {
          if (set.tasks[i].name == who) return static_cast<int>(i);
        }
        return -1;
      };
      config.user_tasks.push_back(task_of(spec.writer));
      for (const std::string& r : spec.readers) config.user_tasks.push_back(task_of(r));
      config.lock_rank = lock_rank++;
    }
    channels_.push_back(make_channel(config));
    ByteChannel* channel = channels_.back().get();
    endpoint_of(spec.writer).writes_.emplace_back(spec.name, channel);
    for (std::size_t k = 0; k < spec.readers.size(); ++k) {
      endpoint_of(spec.readers[k])
          .reads_.emplace_back(spec.name, channel->reader(static_cast<int>(k)));
    }
  }
  // Tasks without channels get an empty endpoint too, so every job has one.
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    endpoint_of(set.tasks[i].name).task_ = static_cast<int>(i);
  }
  endpoint_of(std::string(kNonRtEndpoint));
}

ChannelSet::~ChannelSet() {
  // Reader handles must die before their channels.
  endpoints_.clear();
  channels_.clear();
}

Endpoint& ChannelSet::endpoint(std::string_view name) {
  for (auto& [n, e] : endpoints_) {
    if (n == name) return *e;
  }
  throw std::out_of_range("no task or endpoint named \"" + std::string(name) + "\"");
}

ByteChannel* ChannelSet::channel(std::string_view name) noexcept {
  for (auto& c : channels_) {
    if (c->name() == name) return c.get();
  }
  return nullptr;
}

}  // namespace rtpar
