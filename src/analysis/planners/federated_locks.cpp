// federated_locks.cpp — federated_lock_spins and charge_federated_blocking (lock_blocking.hpp):
// the federated planners' charge for shared locks.
//
// Before placement every lock is charged as global (MSRP, analysis/bounds/msrp.hpp): where its
// users will run is not known yet, so the number of requests that can be ahead of one is bounded
// without it — each user thread has at most one pending request (it spins non-preemptively), a
// job makes N_{u,ℓ} of them, and each core holds at most one. The spins grow each user's work and
// span, the set is planned with them, and once the light tasks are placed each gets its blocking
// term on its core: the ceiling term of the locks that turned out local (model::lock_protocol
// then runs the ceiling protocol) and the longest lower-priority MSRP section of the others.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "analysis/bounds/blocking.hpp"
#include "analysis/bounds/msrp.hpp"
#include "analysis/planners/lock_blocking.hpp"
#include "core/checked_math.hpp"
#include "model/lock_placement.hpp"

namespace rtpar::analysis {

namespace {

// light_on is true when plan task i is a placed light task on `core` (one core, shared).
bool light_on(const TaskPlan& t, int core) {
  return !t.reason && !t.heavy && !t.dedicated_cores && t.cores.size() == 1 && t.cores[0] == core;
}

}  // namespace

FederatedLocks federated_lock_spins(const TaskSet& set, std::size_t cores,
                                    const std::optional<PeriodicServer>& server) {
  FederatedLocks out;
  out.inflated = set;
  out.spin.assign(set.tasks.size(), 0);
  out.refusal.assign(set.tasks.size(), std::nullopt);
  out.section.assign(set.channels.size(), 0);
  out.request_spin.assign(set.channels.size(), 0);
  for (std::size_t ci = 0; ci < set.channels.size(); ++ci) {
    const ChannelSpec& c = set.channels[ci];
    if (c.kind != ChannelKind::lock) continue;
    const std::vector<int> users = model::lock_users(c, set);
    if (users.empty()) continue;  // non-real-time users only: nothing to charge
    std::int64_t limit = kInt64Max;
    for (const int u : users)
      limit = std::min(limit, set.tasks[static_cast<std::size_t>(u)].deadline.count());
    // Requests that can be pending at once: N per user, one per core.
    const std::int64_t requests = std::min<std::int64_t>(
        static_cast<std::int64_t>(users.size()) * c.accesses, static_cast<std::int64_t>(cores));
    const std::optional<std::int64_t> section = msrp_section(c.hold.count(), server, limit);
    const std::optional<std::int64_t> spin =
        section ? msrp_spin(std::max<std::int64_t>(requests - 1, 0), *section) : std::nullopt;
    const std::optional<std::int64_t> per_job =
        spin ? checked_mul(c.accesses, *spin) : std::nullopt;
    if (!per_job) {
      const std::string why = fmt::format(
          "channel '{}' (kind = \"lock\"): a critical section of {} cannot be bounded below its "
          "users' least deadline {} with {} charged",
          c.name, format_duration(c.hold), format_duration(Duration(limit)),
          server ? server->what : std::string("nothing"));
      for (const int u : users) {
        if (!out.refusal[static_cast<std::size_t>(u)])
          out.refusal[static_cast<std::size_t>(u)] = why;
      }
      continue;
    }
    out.section[ci] = *section;
    out.request_spin[ci] = *spin;
    for (const int u : users) {
      const auto i = static_cast<std::size_t>(u);
      TaskSpec& t = out.inflated.tasks[i];
      const std::optional<std::int64_t> total = checked_add(out.spin[i], *per_job);
      const std::optional<std::int64_t> work = checked_add(t.work.count(), *per_job);
      const std::optional<std::int64_t> span = checked_add(t.span.count(), *per_job);
      if (!total || !work || !span) {
        out.refusal[i] =
            fmt::format("channel '{}' (kind = \"lock\"): the spin charge of '{}' overflows 64 bits",
                        c.name, t.name);
        continue;
      }
      out.spin[i] = *total;
      t.work = Duration(*work);
      t.span = Duration(*span);
    }
  }
  return out;
}

void charge_federated_blocking(Plan& plan, const TaskSet& set, const FederatedLocks& locks,
                               const std::vector<RtaInterferer>& above) {
  const std::size_t n = std::min(set.tasks.size(), plan.tasks.size());
  // Each placed light task's longest MSRP section (spin + critical section), and each core's
  // local locks with their ceilings (plan priorities).
  std::vector<std::int64_t> np(n, 0);
  std::vector<std::string> np_lock(n);
  std::map<int, std::vector<LocalLock>> local;
  std::map<int, std::vector<std::string>> local_names;
  for (std::size_t ci = 0; ci < set.channels.size(); ++ci) {
    const ChannelSpec& c = set.channels[ci];
    if (c.kind != ChannelKind::lock) continue;
    const std::vector<int> users = model::lock_users(c, set);
    if (users.empty()) continue;
    for (const int u : users) {
      const auto i = static_cast<std::size_t>(u);
      if (i < n && locks.refusal[i] && !plan.tasks[i].reason)
        plan.tasks[i].reason = locks.refusal[i];
    }
    if (locks.section[ci] == 0) continue;  // refused above
    const LockProtocol protocol = model::lock_protocol(c, set, plan);
    std::vector<int> cpus;
    for (const int u : users) {
      for (const int k : model::thread_cpus(plan.tasks[static_cast<std::size_t>(u)]))
        cpus.push_back(k);
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    if (protocol == LockProtocol::ceiling) {
      LocalLock lock;
      lock.hold = c.hold.count();
      for (const int u : users)
        lock.user_priorities.push_back(plan.tasks[static_cast<std::size_t>(u)].priority);
      lock.ceiling = *std::max_element(lock.user_priorities.begin(), lock.user_priorities.end());
      local[cpus.front()].push_back(lock);
      local_names[cpus.front()].push_back(c.name);
    } else {
      const std::int64_t section_ns = sat_add(locks.request_spin[ci], locks.section[ci]);
      for (const int u : users) {
        const auto i = static_cast<std::size_t>(u);
        if (section_ns > np[i]) {
          np[i] = section_ns;
          np_lock[i] = c.name;
        }
      }
    }
    std::vector<std::string> charged;
    for (const int u : users) {
      const auto i = static_cast<std::size_t>(u);
      charged.push_back(
          fmt::format("'{}' +{}", set.tasks[i].name,
                      format_duration(Duration(sat_mul(c.accesses, locks.request_spin[ci])))));
    }
    plan.notes.push_back(fmt::format(
        "channel '{}' (kind = \"lock\"): {} (users on cores {}); charged before placement as "
        "MSRP: ≤ {} spin per access (other pending requests × section {}), added to C and L: {}",
        c.name,
        protocol == LockProtocol::ceiling ? "local, priority ceiling protocol at run time"
                                          : "global, MSRP at run time",
        fmt::join(cpus, ", "), format_duration(Duration(locks.request_spin[ci])),
        format_duration(Duration(locks.section[ci])), fmt::join(charged, ", ")));
  }

  for (std::size_t i = 0; i < n; ++i) {
    TaskPlan& tp = plan.tasks[i];
    if (tp.reason || tp.heavy || tp.dedicated_cores || tp.cores.size() != 1) continue;
    const int k = tp.cores[0];
    BlockingTerm ceiling;
    if (const auto it = local.find(k); it != local.end())
      ceiling = pcp_blocking(tp.priority, it->second);
    std::int64_t global = 0;
    std::string global_why;
    std::vector<RtaInterferer> hp = above;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i || !light_on(plan.tasks[j], k)) continue;
      if (plan.tasks[j].priority >= tp.priority) {
        hp.push_back(
            {locks.inflated.tasks[j].work.count(), locks.inflated.tasks[j].period.count()});
      } else if (np[j] > global) {
        global = np[j];
        global_why = fmt::format(
            "channel '{}' (kind = \"lock\"), task '{}''s non-preemptive MSRP spin and critical "
            "section",
            np_lock[j], set.tasks[j].name);
      }
    }
    const std::int64_t blocking = std::max(ceiling.ns, global);
    if (blocking == 0) continue;
    const std::string what = ceiling.ns >= global
                                 ? fmt::format(
                                       "channel '{}' (kind = \"lock\"), a lower-priority user's "
                                       "critical section under the priority ceiling protocol",
                                       local_names[k][*ceiling.lock])
                                 : global_why;
    const TaskSpec& t = locks.inflated.tasks[i];
    const std::int64_t own = sat_add(t.work.count(), blocking);
    const RtaResult r = fixed_point_response(own, t.deadline.count(), rta_start(own, hp), hp);
    if (r.status == RtaStatus::met) {
      tp.response_bound_ns = r.response.count();
      plan.notes.push_back(fmt::format(
          "task '{}': blocking B = {} charged ({}; docs/analysis.md, \"Blocking (shared locks)\")",
          tp.name, format_duration(Duration(blocking)), what));
    } else {
      tp.response_bound_ns.reset();
      tp.reason = r.status == RtaStatus::capped ? std::string(kRtaCapReason)
                                                : fmt::format(
                                                      "with blocking B = {} ({}) the response "
                                                      "bound exceeds the deadline {} on core {}",
                                                      format_duration(Duration(blocking)), what,
                                                      format_duration(t.deadline), k);
    }
  }
  plan.schedulable =
      plan.schedulable && std::none_of(plan.tasks.begin(), plan.tasks.end(),
                                       [](const TaskPlan& t) { return t.reason.has_value(); });
}

}  // namespace rtpar::analysis
