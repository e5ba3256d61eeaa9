// lock_blocking.cpp — refuse_lock_channels and partitioned_lock_charge (lock_blocking.hpp).
//
// Why a lock with users on several cores is refused rather than charged (docs/analysis.md,
// "Blocking (shared locks)"): the runtime's lock is a PTHREAD_PRIO_PROTECT mutex
// (runtime/channel/lock.cpp). A waiter raises itself to the ceiling and then sleeps on a futex;
// unlock wakes one waiter without handing the lock over, so a holder on another core that takes
// the lock again at once (its next access, or another remote user) can overtake the woken waiter
// any number of times. That is neither MPCP (Rajkumar 1990: priority-ordered queue, the lock
// passed to the highest waiter, global critical sections above every local priority) nor MSRP
// (Gai et al. 2001: non-preemptive FIFO spinning), and the wait has no per-request bound that a
// published analysis states for it, so no planner admits such a set.
#include "analysis/planners/lock_blocking.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "analysis/bounds/blocking.hpp"

namespace rtpar::analysis {

namespace {

// users_of is the writer followed by the readers of channel c.
std::vector<std::string> users_of(const ChannelSpec& c) {
  std::vector<std::string> users{c.writer};
  users.insert(users.end(), c.readers.begin(), c.readers.end());
  return users;
}

// index_of is the index of task `name` in the set, or nullopt ("nonrt").
std::optional<std::size_t> index_of(const TaskSet& set, const std::string& name) {
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    if (set.tasks[i].name == name) return i;
  }
  return std::nullopt;
}

constexpr const char* kGlobalWhy =
    "global lock blocking is not analysed: the runtime's priority-ceiling mutex lets a waiter on "
    "another core sleep on a futex without a hand-off, which matches neither MPCP nor MSRP";

}  // namespace

bool has_lock_channels(const TaskSet& set) {
  return std::any_of(set.channels.begin(), set.channels.end(),
                     [](const ChannelSpec& c) { return c.kind == ChannelKind::lock; });
}

void refuse_lock_channels(Plan& plan, const TaskSet& set, std::string_view planner) {
  for (const ChannelSpec& c : set.channels) {
    if (c.kind != ChannelKind::lock) continue;
    const std::string why = fmt::format(
        "channel '{}' (kind = \"lock\") is shared by tasks [{}]: the {} planner does not analyse "
        "blocking; use planner = \"partitioned\" with every user of the lock on one core "
        "(docs/analysis.md, \"Blocking (shared locks)\")",
        c.name, fmt::join(users_of(c), ", "), planner);
    plan.schedulable = false;
    plan.notes.push_back(why);
    for (const std::string& who : users_of(c)) {
      const auto i = index_of(set, who);
      if (i && *i < plan.tasks.size() && !plan.tasks[*i].reason) plan.tasks[*i].reason = why;
    }
  }
}

LockCharge partitioned_lock_charge(const TaskSet& set, const std::vector<Part>& parts) {
  LockCharge out;
  out.blocking.assign(parts.size(), 0);
  out.blocking_lock.assign(parts.size(), "");
  out.refusal.assign(parts.size(), std::nullopt);
  std::map<int, std::vector<LocalLock>> on_core;       // CPU → its local locks
  std::map<int, std::vector<std::string>> lock_names;  // parallel to on_core
  for (const ChannelSpec& c : set.channels) {
    if (c.kind != ChannelKind::lock) continue;
    std::vector<std::size_t> users;
    for (const std::string& who : users_of(c)) {
      if (const auto i = index_of(set, who); i && *i < parts.size()) users.push_back(*i);
    }
    if (std::any_of(users.begin(), users.end(), [&](std::size_t u) { return parts[u].reason; })) {
      continue;  // a user is refused for its own reason already
    }
    std::optional<std::string> why;
    std::vector<int> cores;
    for (const std::size_t u : users) {
      const Part& p = parts[u];
      const std::string& name = set.tasks[u].name;
      if (p.edf) {
        why = fmt::format(
            "channel '{}' (kind = \"lock\") is used by '{}', an EDF-band task: lock blocking "
            "is analysed for static priorities only; give every user of the lock a `priority`",
            c.name, name);
      } else if (p.thread_cores.size() != 1) {
        why = fmt::format(
            "channel '{}' (kind = \"lock\") is used by '{}', which has {} threads: its threads "
            "make it a global lock; {}",
            c.name, name, p.thread_cores.size(), kGlobalWhy);
      }
      if (why) break;
      cores.push_back(p.thread_cores[0]);
    }
    std::sort(cores.begin(), cores.end());
    cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
    if (!why && cores.size() > 1) {
      why = fmt::format(
          "channel '{}' (kind = \"lock\") is shared by tasks on cores {}: {}; place "
          "every user of the lock on one core",
          c.name, fmt::join(cores, " and "), kGlobalWhy);
    }
    if (why) {
      for (const std::size_t u : users) {
        if (!out.refusal[u]) out.refusal[u] = why;
      }
      continue;
    }
    LocalLock lock;
    lock.hold = c.hold.count();
    for (const std::size_t u : users) lock.user_priorities.push_back(parts[u].priority);
    lock.ceiling = *std::max_element(lock.user_priorities.begin(), lock.user_priorities.end());
    on_core[cores[0]].push_back(lock);
    lock_names[cores[0]].push_back(c.name);
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    if (p.reason || p.edf || out.refusal[i]) continue;  // EDF band: above every static ceiling
    for (const int k : p.cores) {
      const auto it = on_core.find(k);
      if (it == on_core.end()) continue;
      const BlockingTerm b = pcp_blocking(p.priority, it->second);
      if (b.ns == 0) continue;
      const std::string& lock = lock_names[k][*b.lock];
      if (p.thread_cores.size() != 1) {
        // A team member can be blocked at each of its resumptions on core k (it waits for its
        // teammates between segments), so the single-blocking bound does not hold.
        out.refusal[i] = fmt::format(
            "task '{}' has {} threads and shares core {} with channel '{}' (kind = \"lock\") "
            "whose ceiling is at or above its priority {}: blocking of a parallel task is not "
            "analysed; move it off core {} or raise its priority above the lock's users",
            set.tasks[i].name, p.thread_cores.size(), k, lock, p.priority, k);
        break;
      }
      out.blocking[i] = b.ns;
      out.blocking_lock[i] = lock;
    }
  }
  return out;
}

}  // namespace rtpar::analysis
