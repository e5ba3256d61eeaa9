// lock_blocking.cpp — has_lock_channels, refuse_lock_channels and partitioned_lock_charge
// (lock_blocking.hpp); the federated charges are in federated_locks.cpp.
//
// Which protocol each lock runs is decided from the placement alone (model/lock_placement.hpp),
// and the runtime runs exactly that one (runtime/channel/lock.cpp): the priority ceiling mutex
// for a lock whose users are one thread each on one core, MSRP (non-preemptive FIFO spinning)
// otherwise. The analyses here charge the same protocol (docs/analysis.md, "Blocking (shared
// locks)").
#include "analysis/planners/lock_blocking.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/bounds/blocking.hpp"
#include "analysis/bounds/msrp.hpp"
#include "core/checked_math.hpp"

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
        "blocking; use planner = \"partitioned\" or \"federated\" (docs/analysis.md, "
        "\"Blocking (shared locks)\")",
        c.name, fmt::join(users_of(c), ", "), planner);
    plan.schedulable = false;
    plan.notes.push_back(why);
    for (const std::string& who : users_of(c)) {
      const auto i = index_of(set, who);
      if (i && *i < plan.tasks.size() && !plan.tasks[*i].reason) plan.tasks[*i].reason = why;
    }
  }
}

namespace {

// cores_of is the distinct CPUs of the users' threads, ascending.
std::vector<int> cores_of(const std::vector<Part>& parts, const std::vector<std::size_t>& users) {
  std::vector<int> cores;
  for (const std::size_t u : users) {
    cores.insert(cores.end(), parts[u].cores.begin(), parts[u].cores.end());
  }
  std::sort(cores.begin(), cores.end());
  cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
  return cores;
}

// Blocker is the longest non-preemptive MSRP section (spin + critical section) of one task.
struct Blocker {
  std::int64_t ns = 0;
  std::string lock;  // the channel
  std::string task;  // the task that holds or waits (blocking terms only)
};

}  // namespace

LockCharge partitioned_lock_charge(const TaskSet& set, const std::vector<Part>& parts,
                                   const std::optional<PeriodicServer>& server,
                                   const std::set<int>& exact_bands) {
  const std::size_t n = parts.size();
  LockCharge out;
  out.nonpreemptive.assign(n, 0);
  out.blocking.assign(n, 0);
  out.blocking_lock.assign(n, "");
  out.spin.assign(n, 0);
  out.refusal.assign(n, std::nullopt);
  std::map<int, std::vector<LocalLock>> on_core;       // CPU → its local locks
  std::map<int, std::vector<std::string>> lock_names;  // parallel to on_core
  std::vector<Blocker> np(n);                          // each task's longest MSRP section
  for (const ChannelSpec& c : set.channels) {
    if (c.kind != ChannelKind::lock) continue;
    std::vector<std::size_t> users;
    for (const std::string& who : users_of(c)) {
      if (const auto i = index_of(set, who); i && *i < n) users.push_back(*i);
    }
    if (std::any_of(users.begin(), users.end(), [&](std::size_t u) { return parts[u].reason; })) {
      continue;  // a user is refused for its own reason already
    }
    const std::vector<int> cores = cores_of(parts, users);
    const bool one_thread_each = std::all_of(users.begin(), users.end(), [&](std::size_t u) {
      return parts[u].thread_cores.size() == 1;
    });
    // An EDF-band user makes the lock MSRP even on one core: the band re-ranks its threads at
    // every release, so a ceiling would not hold; a non-preemptive section does (edf_band.hpp).
    const bool any_edf =
        std::any_of(users.begin(), users.end(), [&](std::size_t u) { return parts[u].edf; });
    const bool local = one_thread_each && cores.size() == 1 && !any_edf;
    std::optional<std::string> why;
    for (const std::size_t u : users) {
      const Part& p = parts[u];
      const std::string& name = set.tasks[u].name;
      if (!local && p.thread_cores.size() != 1) {
        why = fmt::format(
            "channel '{}' (kind = \"lock\") is used by '{}', which has {} threads: a team's "
            "requests of a global (MSRP) lock are analysed by the federated planners, where the "
            "team has cores of its own; give it one thread or use planner = \"federated\"",
            c.name, name, p.thread_cores.size());
      }
      if (why) break;
    }
    std::optional<std::int64_t> section;
    std::optional<std::int64_t> request_spin;
    if (!why && !local) {
      std::int64_t limit = kInt64Max;
      for (const std::size_t u : users) limit = std::min(limit, parts[u].d);
      section = msrp_section(c.hold.count(), server, limit);
      if (section) request_spin = msrp_spin(static_cast<std::int64_t>(cores.size()) - 1, *section);
      if (!section || !request_spin) {
        why = fmt::format(
            "channel '{}' (kind = \"lock\"): a critical section of {} cannot be bounded below "
            "its users' least deadline {} with {} charged",
            c.name, format_duration(c.hold), format_duration(Duration(limit)),
            server ? server->what : std::string("nothing"));
      }
    }
    if (why) {
      for (const std::size_t u : users) {
        if (!out.refusal[u]) out.refusal[u] = why;
      }
      continue;
    }
    if (local) {
      LocalLock lock;
      lock.hold = c.hold.count();
      for (const std::size_t u : users) lock.user_priorities.push_back(parts[u].priority);
      lock.ceiling = *std::max_element(lock.user_priorities.begin(), lock.user_priorities.end());
      on_core[cores[0]].push_back(lock);
      lock_names[cores[0]].push_back(c.name);
      out.notes.push_back(fmt::format(
          "channel '{}' (kind = \"lock\"): local to core {}, priority ceiling protocol (ceiling "
          "{}, hold {})",
          c.name, cores[0], lock.ceiling, format_duration(c.hold)));
      continue;
    }
    // Global: MSRP. Each access spins ≤ request_spin, then holds non-preemptively.
    std::vector<std::string> charged;
    for (const std::size_t u : users) {
      const std::optional<std::int64_t> per_job = checked_mul(c.accesses, *request_spin);
      const std::optional<std::int64_t> total =
          per_job ? checked_add(out.spin[u], *per_job) : std::nullopt;
      const std::optional<std::int64_t> np_ns = checked_add(*request_spin, *section);
      if (!total || !np_ns) {
        out.refusal[u] =
            fmt::format("channel '{}' (kind = \"lock\"): the spin charge of '{}' overflows 64 bits",
                        c.name, set.tasks[u].name);
        continue;
      }
      out.spin[u] = *total;
      if (*np_ns > np[u].ns) np[u] = Blocker{*np_ns, c.name, set.tasks[u].name};
      charged.push_back(
          fmt::format("'{}' +{}", set.tasks[u].name, format_duration(Duration(*per_job))));
    }
    out.notes.push_back(fmt::format(
        "channel '{}' (kind = \"lock\"): global (users on cores {}), MSRP: a request runs "
        "non-preemptively and waits ≤ {} ({} other core{} × section {}) per access; spin per job "
        "added to C: {}",
        c.name, fmt::join(cores, ", "), format_duration(Duration(*request_spin)), cores.size() - 1,
        cores.size() == 2 ? "" : "s", format_duration(Duration(*section)),
        fmt::join(charged, ", ")));
  }

  for (std::size_t i = 0; i < n; ++i) {
    const Part& p = parts[i];
    if (p.reason || out.refusal[i]) continue;
    for (const int k : p.cores) {
      // The longest MSRP section of another task on core k that can block i: a lower static
      // priority (an EDF-band task is above every static priority, so any static one).
      Blocker global;
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i || np[j].ns == 0 || parts[j].reason || out.refusal[j]) continue;
        if (!std::binary_search(parts[j].cores.begin(), parts[j].cores.end(), k)) continue;
        // A band task is above every static one: its sections are interference to them.
        if (!p.edf && (parts[j].edf || parts[j].priority >= p.priority)) continue;
        if (np[j].ns > global.ns) global = Blocker{np[j].ns, np[j].lock, set.tasks[j].name};
      }
      if (p.edf) {
        // The exact band test charges the sections as B(t) (edf_band_blockers); a band that is
        // only tested by response bounds (a task spanning cores, a charged server) charges none.
        if (global.ns > 0 && p.cores.size() == 1 && exact_bands.count(k) != 0) continue;
        if (global.ns > 0) {
          out.refusal[i] = fmt::format(
              "task '{}' is in the EDF band of core {}, where '{}' runs non-preemptively for up to "
              "{} in channel '{}' (kind = \"lock\", MSRP), and that band has no exact test (a "
              "task of it spans cores, or a kernel server is charged): move one of them to "
              "another core",
              set.tasks[i].name, k, global.task, format_duration(Duration(global.ns)), global.lock);
        }
        continue;  // local ceilings are static priorities, below the band
      }
      BlockingTerm local;
      if (const auto it = on_core.find(k); it != on_core.end()) {
        local = pcp_blocking(p.priority, it->second);
      }
      if (local.ns == 0 && global.ns == 0) continue;
      const std::string what =
          local.ns >= global.ns
              ? fmt::format(
                    "channel '{}' (kind = \"lock\"), a lower-priority user's critical "
                    "section under the priority ceiling protocol",
                    lock_names[k][*local.lock])
              : fmt::format(
                    "channel '{}' (kind = \"lock\"), task '{}''s non-preemptive MSRP "
                    "spin and critical section",
                    global.lock, global.task);
      if (p.thread_cores.size() != 1) {
        // A team member can be blocked at each of its resumptions on core k (it waits for its
        // teammates between segments), so the single-blocking bound does not hold.
        out.refusal[i] = fmt::format(
            "task '{}' has {} threads and shares core {} with a blocker ({}): blocking of a "
            "parallel task on a shared core is not analysed; move it off core {} or raise its "
            "priority above the lock's users",
            set.tasks[i].name, p.thread_cores.size(), k, what, k);
        break;
      }
      out.blocking[i] = std::max(local.ns, global.ns);
      out.blocking_lock[i] = what;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!parts[i].reason && !out.refusal[i]) out.nonpreemptive[i] = np[i].ns;
  }
  return out;
}

std::vector<DemandBlocker> edf_band_blockers(const std::vector<Part>& parts,
                                             const LockCharge& locks, int core) {
  std::vector<DemandBlocker> out;
  for (std::size_t j = 0; j < parts.size(); ++j) {
    const Part& p = parts[j];
    if (locks.nonpreemptive[j] == 0) continue;
    if (!std::binary_search(p.cores.begin(), p.cores.end(), core)) continue;
    out.push_back(DemandBlocker{locks.nonpreemptive[j], p.edf ? p.d : kBlockerAlways});
  }
  return out;
}

}  // namespace rtpar::analysis
