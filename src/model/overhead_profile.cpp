// overhead_profile.cpp — overhead profiles: the bound an analysis charges per fork, and the JSON
// file `rtpar calibrate --out` writes (measuring is runtime/team/fork_join_cost.cpp).
#include "rtpar/tools/overhead.hpp"

#include <algorithm>
#include <iterator>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/checked_math.hpp"
#include "core/names.hpp"
#include "model/json_input.hpp"
#include "rtpar/error.hpp"

namespace rtpar {

namespace {

// bound_over is fork_join_bound's rule over any list of entries (fork_join, release or barrier).
std::optional<ForkJoinCharge> bound_over(const std::vector<ForkJoinCost>& entries, int threads,
                                         WaitKind wait) {
  // B(n): the worst p99.9 measured for a team of n with this policy, parked or not.
  std::map<int, std::int64_t> by_size;
  for (const ForkJoinCost& c : entries) {
    if (c.wait != wait) continue;
    const auto it = by_size.try_emplace(c.threads, 0).first;
    it->second = std::max({it->second, c.p999_ns, std::int64_t{0}});
  }
  if (by_size.empty()) return std::nullopt;
  if (const auto it = by_size.lower_bound(threads); it != by_size.end()) {
    return ForkJoinCharge{it->second, it->first, false};
  }
  // Larger than every measured team: extrapolate (docs/analysis.md, "Overhead profiles"). A team
  // of one wakes nobody, so it says nothing about waking workers.
  const auto [largest, base] = *by_size.rbegin();
  if (largest < 2) return std::nullopt;
  // The steepest chord between measured sizes is the steepest step between neighbours (a chord's
  // slope is a weighted mean of the steps under it), so neighbours suffice.
  __int128 slope = 0;
  for (auto a = by_size.begin(), b = std::next(a); b != by_size.end(); ++a, ++b) {
    const __int128 rise = static_cast<__int128>(b->second) - a->second;
    const __int128 run = b->first - a->first;
    if (rise > 0) slope = std::max(slope, (rise + run - 1) / run);
  }
  const std::int64_t workers = static_cast<std::int64_t>(threads) - 1;
  const std::int64_t measured_workers = largest - 1;
  const __int128 blocks =
      static_cast<__int128>((workers + measured_workers - 1) / measured_workers) * base;
  const __int128 linear = base + slope * (threads - largest);
  return ForkJoinCharge{sat_narrow(std::max(blocks, linear)), largest, true};
}

}  // namespace

std::optional<ForkJoinCharge> OverheadProfile::fork_join_bound(int threads, WaitKind wait) const {
  return bound_over(fork_join, threads, wait);
}

std::optional<ForkJoinCharge> OverheadProfile::release_bound(int threads, WaitKind wait) const {
  return bound_over(release, threads, wait);
}

std::optional<ForkJoinCharge> OverheadProfile::barrier_bound(int threads, WaitKind wait) const {
  return bound_over(barrier, threads, wait);
}

namespace {

// entries_json renders fork_join, release or barrier entries.
nlohmann::json entries_json(const std::vector<ForkJoinCost>& costs) {
  nlohmann::json entries = nlohmann::json::array();
  for (const ForkJoinCost& c : costs) {
    nlohmann::json e = {{"threads", c.threads},
                        {"wait", to_string(c.wait)},
                        {"parked", c.parked},
                        {"p999_ns", c.p999_ns},
                        {"max_ns", c.max_ns}};
    // The optional fields are written when they hold something: load_overhead_profile reads an
    // absent one as 0 (samples: as "not given"), so every profile it accepts reads back the same
    // (found by fuzz/overhead_profile_fuzz.cpp: a mean and percentiles given without samples).
    if (c.samples > 0) e["samples"] = c.samples;
    if (c.mean_ns != 0) e["mean_ns"] = c.mean_ns;
    if (c.p50_ns != 0) e["p50_ns"] = c.p50_ns;
    if (c.p99_ns != 0) e["p99_ns"] = c.p99_ns;
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace

std::string overhead_profile_json(const OverheadProfile& profile) {
  nlohmann::json doc{{"machine", profile.machine}, {"fork_join", entries_json(profile.fork_join)}};
  if (!profile.release.empty()) doc["release"] = entries_json(profile.release);
  if (!profile.barrier.empty()) doc["barrier"] = entries_json(profile.barrier);
  if (!profile.supply.empty()) {
    nlohmann::json supply = nlohmann::json::array();
    for (const SupplyLoss& s : profile.supply) {
      nlohmann::json e = {{"window_ns", s.window_ns}, {"loss_ns", s.loss_ns}};
      if (s.samples > 0) e["samples"] = s.samples;
      supply.push_back(std::move(e));
    }
    doc["supply"] = std::move(supply);
  }
  const auto budget_cost = [](const BudgetCost& c) {
    return nlohmann::json{{"samples", c.samples}, {"p50_ns", c.p50_ns}, {"p99_ns", c.p99_ns},
                          {"p999_ns", c.p999_ns}, {"max_ns", c.max_ns}};
  };
  if (profile.budget_job || profile.budget_demotion) {
    nlohmann::json budget = nlohmann::json::object();
    if (profile.budget_job) budget["job"] = budget_cost(*profile.budget_job);
    if (profile.budget_demotion) budget["demotion"] = budget_cost(*profile.budget_demotion);
    doc["budget"] = std::move(budget);
  }
  return doc.dump(2);
}

namespace {

// same_measurement says whether two entries for one (threads, wait, parked) state the same costs.
bool same_measurement(const ForkJoinCost& a, const ForkJoinCost& b) {
  return a.samples == b.samples && a.mean_ns == b.mean_ns && a.p50_ns == b.p50_ns &&
         a.p99_ns == b.p99_ns && a.p999_ns == b.p999_ns && a.max_ns == b.max_ns;
}

// read_entry is fork_join[i], release[i] or barrier[i]: the fields, their ranges and the order of
// the percentiles.
ForkJoinCost read_entry(const model::JsonAt& e) {
  e.only_keys(
      {"threads", "wait", "parked", "samples", "mean_ns", "p50_ns", "p99_ns", "p999_ns", "max_ns"});
  ForkJoinCost c;
  c.threads = static_cast<int>(e.member("threads").integer(1, kMaxProfiledThreads, "threads"));
  const model::JsonAt wait = e.member("wait");
  const std::string name = wait.string();
  const auto kind = names::value_of(names::kWaits, name);
  if (!kind) wait.fail("unknown wait policy '" + name + "' (expected spin, block or hybrid)");
  c.wait = *kind;
  if (e.has("parked")) c.parked = e.member("parked").boolean();
  if (e.has("samples")) c.samples = e.member("samples").integer(1, kInt64Max);
  auto cost = [&e](const char* key) {
    return e.member(key).integer(0, kMaxForkJoinCostNs, "ns (1 s per fork)");
  };
  c.p999_ns = cost("p999_ns");
  // Optional percentiles default to p99.9 for the order check below (calibrate writes them all).
  c.p50_ns = e.has("p50_ns") ? cost("p50_ns") : 0;
  c.p99_ns = e.has("p99_ns") ? cost("p99_ns") : 0;
  // max_ns is informational (nothing charges it): one preempted sample may take longer than the
  // cap on a loaded machine, which must not void the profile, so it is only checked for order.
  c.max_ns = e.has("max_ns") ? e.member("max_ns").integer(0, kInt64Max, "ns") : c.p999_ns;
  if (e.has("mean_ns")) {
    c.mean_ns = e.member("mean_ns").number(0, static_cast<double>(kMaxForkJoinCostNs), "ns");
  }
  if (c.p50_ns > c.p99_ns && e.has("p99_ns")) e.member("p50_ns").fail("is above p99_ns");
  if (c.p99_ns > c.p999_ns) e.member("p99_ns").fail("is above p999_ns");
  if (c.p50_ns > c.p999_ns) e.member("p50_ns").fail("is above p999_ns");
  if (c.p999_ns > c.max_ns) e.member("p999_ns").fail("is above max_ns");
  return c;
}

// read_entries reads the array `key` of root into out (at least `min_size` entries); two entries
// for the same (threads, wait, parked) must agree.
void read_entries(const model::JsonAt& root, const char* key, std::size_t min_size,
                  std::vector<ForkJoinCost>& out) {
  const model::JsonAt entries = root.member(key);
  const std::size_t n = entries.array_size(min_size);
  for (std::size_t i = 0; i < n; ++i) {
    const model::JsonAt e = entries.element(i);
    const ForkJoinCost c = read_entry(e);
    for (std::size_t j = 0; j < out.size(); ++j) {
      const ForkJoinCost& o = out[j];
      if (o.threads == c.threads && o.wait == c.wait && o.parked == c.parked &&
          !same_measurement(o, c)) {
        e.fail(fmt::format("contradicts {}[{}] (same threads, wait and parked, different costs)",
                           key, j));
      }
    }
    out.push_back(c);
  }
}

// read_supply reads the optional array `supply` of root into out, in ascending windows.
void read_supply(const model::JsonAt& root, std::vector<SupplyLoss>& out) {
  const model::JsonAt entries = root.member("supply");
  const std::size_t n = entries.array_size(1);
  for (std::size_t i = 0; i < n; ++i) {
    const model::JsonAt e = entries.element(i);
    e.only_keys({"window_ns", "loss_ns", "samples"});
    SupplyLoss s;
    s.window_ns = e.member("window_ns").integer(1, kMaxSupplyWindowNs, "ns (10 s)");
    s.loss_ns = e.member("loss_ns").integer(0, s.window_ns, "ns (the window)");
    if (e.has("samples")) s.samples = e.member("samples").integer(1, kInt64Max);
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (out[j].window_ns == s.window_ns) {
        e.member("window_ns").fail(fmt::format("repeats supply[{}]'s window", j));
      }
    }
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(),
            [](const SupplyLoss& a, const SupplyLoss& b) { return a.window_ns < b.window_ns; });
}

// read_budget_cost reads budget.job or budget.demotion: every field required, percentiles in
// order, each at most kMaxForkJoinCostNs.
BudgetCost read_budget_cost(const model::JsonAt& e) {
  e.only_keys({"samples", "p50_ns", "p99_ns", "p999_ns", "max_ns"});
  BudgetCost c;
  c.samples = e.member("samples").integer(1, kInt64Max);
  c.p50_ns = e.member("p50_ns").integer(0, kMaxForkJoinCostNs, "ns (1 s)");
  c.p99_ns = e.member("p99_ns").integer(c.p50_ns, kMaxForkJoinCostNs, "ns (1 s)");
  c.p999_ns = e.member("p999_ns").integer(c.p99_ns, kMaxForkJoinCostNs, "ns (1 s)");
  c.max_ns = e.member("max_ns").integer(c.p999_ns, kMaxForkJoinCostNs, "ns (1 s)");
  return c;
}

// read_budget reads the optional object `budget` of root (BudgetCost entries job and demotion).
void read_budget(const model::JsonAt& root, OverheadProfile& profile) {
  const model::JsonAt budget = root.member("budget");
  budget.only_keys({"job", "demotion"});
  if (budget.has("job")) profile.budget_job = read_budget_cost(budget.member("job"));
  if (budget.has("demotion")) profile.budget_demotion = read_budget_cost(budget.member("demotion"));
}

}  // namespace

OverheadProfile load_overhead_profile(const std::string& path) {
  const nlohmann::json doc = model::read_json_file(path, "overhead profile");
  const model::JsonAt root{doc, path, ""};
  root.only_keys({"machine", "fork_join", "release", "barrier", "supply", "budget"});
  OverheadProfile profile;
  profile.source = path;
  if (root.has("machine")) profile.machine = root.member("machine").string();
  read_entries(root, "fork_join", 1, profile.fork_join);
  if (root.has("release")) read_entries(root, "release", 1, profile.release);
  if (root.has("barrier")) read_entries(root, "barrier", 1, profile.barrier);
  if (root.has("supply")) read_supply(root, profile.supply);
  if (root.has("budget")) read_budget(root, profile);
  return profile;
}

}  // namespace rtpar
