// channel_set.cpp — creating a task set's channels and handing each endpoint its handles.
#include "rtpar/channel_set.hpp"

#include <algorithm>

#include "model/chain_rules.hpp"
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
  for (WriteSlot& w : writes_) {
    if (w.name == channel) return *w.channel;
  }
  throw std::out_of_range("this endpoint does not write channel \"" + std::string(channel) + "\"");
}

ChannelReader& Endpoint::reader(std::string_view channel) {
  for (ReadSlot& r : reads_) {
    if (r.name == channel) return r.reader;
  }
  throw std::out_of_range("this endpoint does not read channel \"" + std::string(channel) + "\"");
}

void Endpoint::write_bytes(std::string_view channel, const void* src, std::size_t size) {
  for (WriteSlot& w : writes_) {
    if (w.name != channel) continue;
    check_size(*w.channel, size);
    // relaxed: see begin_job.
    const std::int64_t origin = w.origin_input < 0
                                    ? job_origin_.load(std::memory_order_relaxed)
                                    : reads_[static_cast<std::size_t>(w.origin_input)].origin;
    w.channel->write(src, origin);
    return;
  }
  throw std::out_of_range("this endpoint does not write channel \"" + std::string(channel) + "\"");
}

ReadResult Endpoint::read_bytes(std::string_view channel, void* dst, std::size_t size) {
  for (ReadSlot& r : reads_) {
    if (r.name != channel) continue;
    check_size(*r.reader.channel(), size);
    const ReadResult result = r.reader.read(dst);
    // A failed retry read returns no value: the origin stays that of the last complete one.
    if (result.ok) r.origin = result.origin_ns;
    return result;
  }
  throw std::out_of_range("this endpoint does not read channel \"" + std::string(channel) + "\"");
}

int Endpoint::read_index(std::string_view channel) const noexcept {
  for (std::size_t i = 0; i < reads_.size(); ++i) {
    if (reads_[i].name == channel) return static_cast<int>(i);
  }
  return -1;
}

void Endpoint::trace_input(std::string_view channel) {
  const int in = read_index(channel);
  if (in >= 0 && std::find(traced_.begin(), traced_.end(), in) == traced_.end()) {
    traced_.push_back(in);
  }
}

bool Endpoint::continue_chain(std::string_view output, std::string_view input) {
  const int in = read_index(input);
  for (WriteSlot& w : writes_) {
    if (w.name != output || in < 0) continue;
    if (w.origin_input >= 0 && w.origin_input != in) return false;
    w.origin_input = in;
    return true;
  }
  return false;
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
    endpoint_of(spec.writer).writes_.push_back({spec.name, channel, -1});
    for (std::size_t k = 0; k < spec.readers.size(); ++k) {
      endpoint_of(spec.readers[k])
          .reads_.push_back({spec.name, channel->reader(static_cast<int>(k)), 0});
    }
  }
  // Chains: task k (0 < k < n − 1) forwards the origin it read from link k − 1 on link k.
  // A chain whose link another chain already continues from a different input cannot be
  // measured (one stamp per value): chain_traced says so.
  for (const ChainSpec& chain : set.chains) {
    bool traced = true;
    for (std::size_t k = 1; k + 1 < chain.tasks.size(); ++k) {
      const ChannelSpec* in = model::chain_link(set, chain.tasks[k - 1], chain.tasks[k]);
      const ChannelSpec* out = model::chain_link(set, chain.tasks[k], chain.tasks[k + 1]);
      traced = traced && in != nullptr && out != nullptr &&
               endpoint_of(chain.tasks[k]).continue_chain(out->name, in->name);
    }
    chain_traced_.push_back(traced);
    const std::size_t n = chain.tasks.size();
    if (const ChannelSpec* last = n >= 2 ? model::chain_link(set, chain.tasks[n - 2], chain.tasks[n - 1]) : nullptr) {
      endpoint_of(chain.tasks[n - 1]).trace_input(last->name);
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
