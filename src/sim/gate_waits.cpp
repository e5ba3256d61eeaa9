// gate_waits.cpp — see gate_waits.hpp.
#include "sim/gate_waits.hpp"

#include "core/checked_math.hpp"

namespace rtpar::sim {

GateWaits::GateWaits(const SimModel& model)
    : own_(model.threads.size()), cursor_(model.threads.size(), 0) {
  for (const SimTask& t : model.tasks) {
    for (std::size_t n = 0; n < t.nodes.size(); ++n) {
      const int th = t.nodes[n].thread;
      if (th >= 0) own_[static_cast<std::size_t>(th)].push_back(static_cast<int>(n));
    }
  }
}

void GateWaits::start_job(const SimTask& task) {
  for (const int th : task.threads) cursor_[static_cast<std::size_t>(th)] = 0;
}

int GateWaits::waiting(int th, const SimTask& task, const std::vector<std::int64_t>& untaken,
                       const std::vector<int>& preds, std::int64_t release, std::int64_t t) {
  const std::vector<int>& own = own_[static_cast<std::size_t>(th)];
  std::size_t& cursor = cursor_[static_cast<std::size_t>(th)];
  // Taken and finished nodes (and empty ones) stay behind: each job moves the cursor forward only.
  while (cursor < own.size() && untaken[static_cast<std::size_t>(own[cursor])] == 0) ++cursor;
  if (cursor == own.size()) return -1;
  const int n = own[cursor];
  const SimNode& node = task.nodes[static_cast<std::size_t>(n)];
  const bool gate_closed = preds[static_cast<std::size_t>(n)] > 0;
  return node.spin > 0 && gate_closed && sat_add(release, node.offset) <= t ? n : -1;
}

}  // namespace rtpar::sim
