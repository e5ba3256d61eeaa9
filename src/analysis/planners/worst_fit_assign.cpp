// worst_fit_assign.cpp — see worst_fit_assign.hpp.
#include "analysis/planners/worst_fit_assign.hpp"

#include <algorithm>

#include "core/checked_math.hpp"

namespace rtpar::analysis {

namespace {

// kScale: utilizations are ranked as Σ ⌈c·kScale/T⌉ (the greedy's scale, fork_join_rta.cpp).
constexpr std::int64_t kScale = 1'000'000'000;

}  // namespace

WorstFitCores::WorstFitCores(const std::vector<int>& cpus) {
  for (const int cpu : cpus) heap_.push_back(Slot{0, cpu});
  std::sort(heap_.begin(), heap_.end(), [](const Slot& a, const Slot& b) { return a.cpu < b.cpu; });
  // Sorted by (0, cpu) ascending: already a min-heap.
}

int WorstFitCores::place(std::int64_t c, std::int64_t period) {
  // std heaps keep the largest first: "after" = larger (load, cpu), so the front is the least.
  const auto after = [](const Slot& a, const Slot& b) {
    return a.load != b.load ? a.load > b.load : a.cpu > b.cpu;
  };
  std::pop_heap(heap_.begin(), heap_.end(), after);
  Slot& least = heap_.back();
  least.load += ceil_div(static_cast<__int128>(c) * kScale, period);
  const int cpu = least.cpu;
  std::push_heap(heap_.begin(), heap_.end(), after);
  return cpu;
}

StrandCores worst_fit_strands(const std::vector<SegmentSpec>& stages, std::int64_t period,
                              WorstFitCores& cores) {
  StrandCores out(stages.size());
  for (std::size_t j = 0; j < stages.size(); ++j) {
    out[j].reserve(static_cast<std::size_t>(stages[j].strands));
    for (std::int64_t k = 0; k < stages[j].strands; ++k) {
      out[j].push_back(cores.place(stages[j].length.count(), period));
    }
  }
  return out;
}

std::vector<int> distinct_cores(const StrandCores& placement) {
  std::vector<int> cpus;
  for (const auto& stage : placement) cpus.insert(cpus.end(), stage.begin(), stage.end());
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::optional<FjTask> aggregate_strands(const std::vector<SegmentSpec>& stages,
                                        const StrandCores& placement, std::int64_t overhead) {
  FjTask t;
  for (std::size_t j = 0; j < stages.size(); ++j) {
    std::vector<std::pair<int, std::int64_t>> count;  // core → strands, in first-strand order
    for (const int cpu : placement[j]) {
      auto it =
          std::find_if(count.begin(), count.end(), [cpu](const auto& c) { return c.first == cpu; });
      if (it == count.end()) {
        count.emplace_back(cpu, 1);
      } else {
        ++it->second;
      }
    }
    FjStage stage;
    for (const auto& [cpu, n] : count) {
      const auto work = checked_mul(n, stages[j].length.count());
      const auto wcet = work ? checked_add(*work, count.size() > 1 ? overhead : 0) : std::nullopt;
      if (!wcet) return std::nullopt;
      stage.groups.push_back(FjGroup{cpu, *wcet});
    }
    t.stages.push_back(std::move(stage));
  }
  return t;
}

}  // namespace rtpar::analysis
