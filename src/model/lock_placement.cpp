// lock_placement.cpp — thread_cpus, lock_users, lock_protocol, nonpreemptive_priority.
#include "model/lock_placement.hpp"

#include <algorithm>
#include <set>

namespace rtpar::model {

namespace {
// kEdfBandTop is the dispatch priority of a core's EDF band (runtime/executor/edf_band.hpp).
constexpr int kEdfBandTop = 90;
}  // namespace

std::vector<int> thread_cpus(const TaskPlan& task) {
  if (!task.segments.empty()) {
    std::set<int> cpus;
    for (const SegmentPlan& s : task.segments) {
      for (const StrandPlan& st : s.strands) cpus.insert(st.core);
    }
    return {cpus.begin(), cpus.end()};
  }
  return task.thread_cores.empty() ? task.cores : task.thread_cores;
}

std::vector<int> lock_users(const ChannelSpec& c, const TaskSet& set) {
  std::vector<int> users;
  const auto add = [&](const std::string& who) {
    for (std::size_t i = 0; i < set.tasks.size(); ++i) {
      if (set.tasks[i].name == who) users.push_back(static_cast<int>(i));
    }
  };
  add(c.writer);
  for (const std::string& r : c.readers) add(r);
  return users;
}

LockProtocol lock_protocol(const ChannelSpec& c, const TaskSet& set, const Plan& plan) {
  std::set<int> cpus;
  for (const int u : lock_users(c, set)) {
    if (static_cast<std::size_t>(u) >= plan.tasks.size()) return LockProtocol::msrp;
    const TaskPlan& task = plan.tasks[static_cast<std::size_t>(u)];
    // An EDF-band user: the band re-ranks its thread at every release, which would undo a
    // ceiling boost; a non-preemptive section survives it (edf_band.hpp).
    if (task.scheduling == CoreScheduling::edf) return LockProtocol::msrp;
    const std::vector<int> threads = thread_cpus(task);
    if (threads.size() != 1) return LockProtocol::msrp;
    cpus.insert(threads[0]);
  }
  return cpus.size() == 1 ? LockProtocol::ceiling : LockProtocol::msrp;
}

int nonpreemptive_priority(const Plan& plan) {
  int top = 1;
  for (const TaskPlan& t : plan.tasks) {
    top = std::max(top, t.priority);
    // An EDF band runs its threads at SCHED_FIFO 90 and below (runtime/executor/edf_band.hpp).
    if (t.scheduling == CoreScheduling::edf) top = std::max(top, kEdfBandTop);
    for (const SegmentPlan& s : t.segments) {
      for (const StrandPlan& st : s.strands) top = std::max(top, st.priority);
    }
  }
  return std::min(top, 99);
}

}  // namespace rtpar::model
