// fjrta.cpp — see fjrta.hpp.
#include "analysis/fjrta.hpp"

#include <algorithm>

namespace rtpar::analysis {

namespace {

// Interferer is one aggregate strand of a higher- or equal-priority task on the analysed core.
struct Interferer {
  std::int64_t wcet;
  std::int64_t period;
  std::int64_t jitter;
};

}  // namespace

std::optional<std::int64_t> fj_analyse(FjTask& task, const std::vector<const FjTask*>& others) {
  task.finish.clear();
  std::int64_t released = 0;  // B_{i,j−1}
  for (const FjStage& stage : task.stages) {
    std::int64_t slowest = 0;
    for (const FjGroup& g : stage.groups) {
      std::vector<Interferer> hp;
      for (const FjTask* u : others) {
        if (u == &task || u->priority < task.priority) continue;
        for (std::size_t v = 0; v < u->stages.size(); ++v) {
          const std::int64_t jitter = v == 0 ? 0 : u->finish.at(v - 1);
          for (const FjGroup& h : u->stages[v].groups) {
            if (h.core == g.core) hp.push_back(Interferer{h.wcet, u->period, jitter});
          }
        }
      }
      // Least fixed point of w = c_g + Σ ⌈(w + J_h)/T_h⌉·c_h, abandoned once the stage would end
      // after the deadline (the iteration is monotone, so a larger w only grows).
      __int128 w = g.wcet;
      for (;;) {
        __int128 next = g.wcet;
        for (const Interferer& h : hp) {
          next += (w + h.jitter + h.period - 1) / h.period * h.wcet;
        }
        if (released + next > task.deadline) return std::nullopt;
        if (next == w) break;
        w = next;
      }
      slowest = std::max(slowest, static_cast<std::int64_t>(w));
    }
    released += slowest;
    task.finish.push_back(released);
  }
  return released;
}

}  // namespace rtpar::analysis
