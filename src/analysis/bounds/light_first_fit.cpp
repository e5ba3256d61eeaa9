// light_first_fit.cpp — first-fit of light tasks under exact RTA, in O(k) per trial.
//
// The verdict of a trial "core + newcomer x" is, as before, "every task on the core passes the
// exact RTA (rta.hpp) under the priorities PriorityScheme gives the new member list". What changed
// is how that is decided (the old code re-ran the RTA of every member, O(k²·steps) per trial, so
// first-fit was O(n³)):
//  1. U > 1 ⇒ reject. Sound for the RTA under any priorities: a task of lowest priority has every
//     other task in its hp set, and a fixed point R ≤ D ≤ T would give
//     R = C + Σ⌈R/T_j⌉C_j ≥ R·U_i + R·Σ U_j = R·U > R.
//  2. Per task the demand at the deadline F_i = f_i(D_i) = C_i + Σ_{j∈hp(i)} ⌈D_i/T_j⌉·C_j is kept
//     and updated incrementally (+ x's term when x joins hp(i)). F_i ≤ D_i ⇒ the least fixed point
//     of the monotone f_i is ≤ D_i: schedulable (the time-demand test at the single point D_i,
//     Lehoczky, Sha & Ding, RTSS 1989, is sufficient).
//  3. Otherwise the exact RTA, started from a lower bound of the new response (the old response:
//     adding an interferer only raises f_i). Tasks of one priority level share the answer: with
//     G = the tasks of priority ≥ ℓ, every member i of level ℓ has f_i(t) = Σ_{j∈G}⌈t/T_j⌉C_j
//     for 0 < t ≤ T_i (its own term is C_i while t ≤ D_i ≤ T_i), so R_i is the level-ℓ busy
//     period L_ℓ when L_ℓ ≤ D_i and > D_i otherwise; one RTA per level (for its member of least
//     D) decides them all. This matters per core, where beyond 89 tasks all share priority 1.
// Per-core priorities shift when x is inserted (tasks after x in DM order drop by one level,
// PriorityScheme::on_core_ordered); hp sets then also change by ties that appear or vanish, and
// those members get F_i recomputed from scratch (O(k)), with their lower bound reset when their
// hp set shrank.
// Interferers `above` every member (the kernel's server as server_rta_tasks, when charged) are in
// every hp set: in U (1.), in every F_i (2.) and in every RTA (3.); the level argument and the
// quick reject hold unchanged, as both only need the hp terms to be monotone in t.
#include "analysis/bounds/light_first_fit.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/bounds/rta.hpp"
#include "analysis/bounds/utilization.hpp"
#include "core/checked_math.hpp"
#include "core/progress.hpp"

namespace rtpar::analysis {
namespace {

// Wide holds products of two nanosecond counts (utilization comparison, demand terms).
using Wide = __int128;

// kDemandCeiling saturates F_i: it is only compared with D_i < 2^63, and each term is < 2^126,
// so min(F + term, 2^100) never overflows.
constexpr Wide kDemandCeiling = static_cast<Wide>(1) << 100;

// Slot is one light task on one core, with what the incremental test keeps about it.
struct Slot {
  std::size_t task = 0;  // file index
  std::int64_t c = 0, d = 0, t = 0;
  int priority = 0;        // final priority under the core's current members
  // fixed is the priority that does not depend on the core's members (the task's override, or
  // its value in a global scheme), 0 when the core computes it (PriorityScheme::on_core_ordered).
  int fixed = 0;
  Wide demand = 0;         // F_i = f_i(D_i) under the current members
  std::int64_t lower = 0;  // ≤ R_i under the current members (exact after an RTA)
};

// CoreLoad is one core's members in dm_before order, their total utilization and, when known,
// the busy period of its lowest priority level (see quick_reject).
struct CoreLoad {
  std::vector<Slot> slots;
  UtilizationSum util;
  bool bottom_known = false;
  int bottom_priority = 0;       // the least priority on the core
  std::int64_t bottom_busy = 0;  // exact response of its members: the busy period of all members
  std::int64_t bottom_dmin = 0;  // the least deadline among them
};

// Fit is a trial's verdict.
enum class Fit { yes, no, capped };

// term is ⌈D/T_j⌉·C_j, task j's demand in a window of length D (0 < D, 0 < T_j).
Wide term(std::int64_t window, const Slot& j) {
  const auto w = static_cast<std::uint64_t>(window);
  const auto t = static_cast<std::uint64_t>(j.t);
  return static_cast<Wide>(w / t + (w % t != 0)) * j.c;
}

// add_demand is min(F + x, kDemandCeiling).
Wide add_demand(Wide f, Wide x) { return std::min(f + x, kDemandCeiling); }

// above_term is ⌈D/T⌉·C of an interferer above every member (the kernel's server, first_fit_light).
Wide above_term(std::int64_t window, const RtaInterferer& j) {
  return ceil_div(window, j.period) * j.wcet;
}

// full_demand recomputes F_i from scratch: C_i plus the terms of every j ≠ i with priority ≥ p_i
// and of every interferer `above` all members.
Wide full_demand(const std::vector<Slot>& slots, std::size_t i,
                 const std::vector<RtaInterferer>& above) {
  Wide f = slots[i].c;
  for (const RtaInterferer& j : above) f = add_demand(f, above_term(slots[i].d, j));
  for (std::size_t j = 0; j < slots.size(); ++j) {
    if (j != i && slots[j].priority >= slots[i].priority)
      f = add_demand(f, term(slots[i].d, slots[j]));
  }
  return f;
}

// level_rta is the exact RTA of slots[i] under the current priorities, from `start` (a lower bound
// of its response), with the interferers `above` every member in its hp set.
RtaResult level_rta(const std::vector<Slot>& slots, std::size_t i, std::int64_t start,
                    const std::vector<RtaInterferer>& above) {
  std::vector<RtaInterferer> hp = above;
  for (std::size_t j = 0; j < slots.size(); ++j) {
    if (j != i && slots[j].priority >= slots[i].priority) hp.push_back({slots[j].c, slots[j].t});
  }
  return fixed_point_response(slots[i].c, slots[i].d, std::max(start, rta_start(slots[i].c, hp)),
                              hp);
}

// settle_levels runs the exact RTA where the demand test does not decide: for each priority level
// holding a member with F > D (or, with `responses`, every level), one RTA for that level's member
// of least D — or one per member when a member has C = 0, where the level argument does not apply.
// On success every member of the level gets the response as its new lower bound (and responses[i]
// when given). Returns no / capped at the first level that fails — except with `responses` (the
// final pass over an admitted core, whose every member is known to meet its deadline): there a
// capped level reports the least deadline of the level, a sound bound since its members share one
// response R ≤ min D (file top), and the pass goes on.
Fit settle_levels(std::vector<Slot>& slots, std::vector<std::int64_t>* responses,
                  const std::vector<RtaInterferer>& above) {
  const bool all = responses != nullptr;
  constexpr int kLevels = 128;
  std::array<bool, kLevels> open{};
  std::array<bool, kLevels> zero_wcet{};
  for (const Slot& s : slots) {
    const int p = std::clamp(s.priority, 0, kLevels - 1);
    if (all || s.demand > s.d) open[static_cast<std::size_t>(p)] = true;
    if (s.c == 0) zero_wcet[static_cast<std::size_t>(p)] = true;
  }
  // A priority outside 0..127 cannot come from PriorityScheme (1..99); analyse each task alone.
  const auto level_of = [&](const Slot& s) { return std::clamp(s.priority, 0, kLevels - 1); };
  for (int level = kLevels - 1; level >= 0; --level) {
    const auto l = static_cast<std::size_t>(level);
    if (!open[l]) continue;
    const bool alone = zero_wcet[l] || level == 0 || level == kLevels - 1;
    if (alone) {
      for (std::size_t i = 0; i < slots.size(); ++i) {
        if (level_of(slots[i]) != level) continue;
        const RtaResult r = level_rta(slots, i, slots[i].lower, above);
        if (r.status == RtaStatus::capped && all) {
          (*responses)[i] = slots[i].d;  // admitted, so R ≤ D
          continue;
        }
        if (r.status == RtaStatus::capped) return Fit::capped;
        if (r.status == RtaStatus::missed) return Fit::no;
        slots[i].lower = r.response.count();
        if (responses) (*responses)[i] = r.response.count();
      }
      continue;
    }
    std::size_t pick = slots.size();
    std::int64_t start = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (level_of(slots[i]) != level) continue;
      start = std::max(start, slots[i].lower);  // each lower bound is ≤ the level's L (file top)
      if (pick == slots.size() || slots[i].d < slots[pick].d) pick = i;
    }
    const RtaResult r = level_rta(slots, pick, start, above);
    if (r.status == RtaStatus::capped && !all) return Fit::capped;
    if (r.status == RtaStatus::missed) return Fit::no;
    const bool exact = r.status == RtaStatus::met;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (level_of(slots[i]) != level) continue;
      if (exact) slots[i].lower = r.response.count();
      if (responses) (*responses)[i] = exact ? r.response.count() : slots[pick].d;
    }
  }
  return Fit::yes;
}

// refresh_bottom recomputes the CoreLoad's bottom fields after a commit: the members of least
// priority p_min have every other member in their hp set, so (level argument, file top) all of
// them have the response L = the busy period of the whole core, computed here exactly once.
void refresh_bottom(CoreLoad& core, const std::vector<RtaInterferer>& above) {
  core.bottom_known = false;
  if (core.slots.empty()) return;
  std::size_t pick = 0;
  std::int64_t start = 0;
  int p_min = core.slots[0].priority;
  for (const Slot& s : core.slots) p_min = std::min(p_min, s.priority);
  for (std::size_t i = 0; i < core.slots.size(); ++i) {
    const Slot& s = core.slots[i];
    if (s.priority != p_min) continue;
    if (s.c == 0) return;  // the level argument needs C > 0
    start = std::max(start, s.lower);
    if (core.slots[pick].priority != p_min || s.d < core.slots[pick].d) pick = i;
  }
  const RtaResult r = level_rta(core.slots, pick, start, above);
  if (r.status != RtaStatus::met) return;  // cannot happen after an admitted trial
  for (Slot& s : core.slots) {
    if (s.priority == p_min) s.lower = r.response.count();
  }
  core.bottom_known = true;
  core.bottom_priority = p_min;
  core.bottom_busy = r.response.count();
  core.bottom_dmin = core.slots[pick].d;
}

// quick_reject is an O(1) sufficient reason to reject x on `core`, valid while the members of
// least priority p_min keep it and stay the least (global priorities never move; per core, a
// member at priority 1 cannot move). Let L be their response, the busy period of all members.
//  * x at priority ≥ p_min joins their hp set: their new response L' is the least fixed point of
//    W'(t) = W(t) + ⌈t/T_x⌉·C_x ≥ W(t), so L' ≥ L and L' = W'(L') ≥ W'(L) = L + ⌈L/T_x⌉·C_x;
//    above the least deadline among them, one of them misses.
//  * x below p_min (global priorities only) has every member in its hp set: R_x = C_x + W(R_x)
//    with R_x ≥ L, so R_x ≥ C_x + L; above D_x, x misses.
bool quick_reject(const CoreLoad& core, const Slot& x, int px, bool global) {
  if (!core.bottom_known || (!global && core.bottom_priority != kBottomPriority)) return false;
  const Wide busy = core.bottom_busy;
  if (global && px < core.bottom_priority) return busy + x.c > x.d;
  const auto l = static_cast<std::uint64_t>(core.bottom_busy);
  const auto t = static_cast<std::uint64_t>(x.t);
  return busy + static_cast<Wide>(l / t + (l % t != 0)) * x.c > core.bottom_dmin;
}

// try_add decides whether `core` still passes the exact RTA with `x` added; on yes, `out` holds
// the new member list (priorities, demands and lower bounds updated).
// `prio` is scratch space for the members' new priorities (kept by the caller: no allocation
// per trial).
Fit try_add(const CoreLoad& core, const Slot& x, const TaskSet& set,
            const PriorityScheme& priorities, const std::vector<RtaInterferer>& above,
            std::vector<Slot>& out, std::vector<int>& prio) {
  UtilizationSum util = core.util;
  util.add(x.c, x.t);
  if (util.verdict() == UtilVerdict::above_one) return Fit::no;
  // on_core({x.task}): x's priority alone on a core, without building a member list.
  const int alone = x.fixed != 0 ? x.fixed : kTopPriority - 1;
  if (quick_reject(core, x, alone, priorities.global())) {
    return Fit::no;
  }

  const auto pos =
      std::upper_bound(core.slots.begin(), core.slots.end(), x, [&](const Slot& a, const Slot& b) {
        return dm_before(set.tasks[a.task], a.task, set.tasks[b.task], b.task);
      });
  out.clear();
  out.reserve(core.slots.size() + 1);
  out.insert(out.end(), core.slots.begin(), pos);
  const std::size_t xi = out.size();
  out.push_back(x);
  out.insert(out.end(), pos, core.slots.end());

  // PriorityScheme::on_core_ordered of the new member list, from the slots' `fixed` values
  // (the same values, without reading every member's TaskSpec again).
  prio.resize(out.size());
  int next = kTopPriority - 1;
  for (std::size_t k = 0; k < out.size(); ++k) {
    prio[k] = out[k].fixed != 0 ? out[k].fixed : std::max(next--, kBottomPriority);
  }

  // Which members' priorities move, and whether every move is the −1 step on_core_ordered makes
  // for computed priorities behind x (anything else: recompute every demand, reset every bound).
  constexpr int kLevels = 128;
  std::array<int, kLevels> moved_from{};  // members that move, by old priority
  std::array<int, kLevels> stay_at{};     // members that stay, by priority (x excluded)
  bool generic = false;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (k == xi) continue;
    const int old_p = out[k].priority;
    if (old_p < 1 || old_p >= kLevels || prio[k] < 1 || prio[k] >= kLevels) generic = true;
    if (generic) break;
    if (prio[k] == old_p) {
      ++stay_at[static_cast<std::size_t>(old_p)];
    } else if (prio[k] == old_p - 1) {
      ++moved_from[static_cast<std::size_t>(old_p)];
    } else {
      generic = true;
    }
  }

  const int px = prio[xi];
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (k == xi) continue;
    Slot& s = out[k];
    const int old_p = s.priority;
    s.priority = prio[k];
    if (generic) continue;  // recomputed below, once every priority is in place
    const bool moved = prio[k] != old_p;
    // A member that moves down gains the members that stay one level below it (new ties);
    // a member that stays loses the members that move down from its level (ties that vanish).
    const bool grows = moved && stay_at[static_cast<std::size_t>(old_p - 1)] > 0;
    const bool shrinks = !moved && moved_from[static_cast<std::size_t>(old_p)] > 0;
    if (grows || shrinks) {
      s.demand = -1;  // recomputed below
      if (shrinks) s.lower = s.c;
    } else if (px >= prio[k]) {
      s.demand = add_demand(s.demand, term(s.d, out[xi]));
    }
  }
  out[xi].priority = px;
  out[xi].lower = x.c;
  out[xi].demand = -1;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (generic && k != xi) out[k].lower = out[k].c;
    if (generic || out[k].demand < 0) out[k].demand = full_demand(out, k, above);
  }
  return settle_levels(out, nullptr, above);
}

}  // namespace

std::vector<int> realtime_cores(const SystemSpec& system) {
  const std::set<int> reserved(system.nonrt_cores.begin(), system.nonrt_cores.end());
  std::set<int> cores;  // sorted and distinct whatever the input order
  for (int core : system.cores) {
    if (!reserved.count(core)) cores.insert(core);
  }
  return {cores.begin(), cores.end()};
}

std::vector<LightPlacement> first_fit_light(const TaskSet& set,
                                            const std::vector<std::size_t>& light,
                                            const std::vector<int>& cores,
                                            const PriorityScheme& priorities,
                                            const std::vector<RtaInterferer>& above) {
  std::vector<std::size_t> order = light;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const TaskSpec& ta = set.tasks[a];
    const TaskSpec& tb = set.tasks[b];
    // C_a/T_a > C_b/T_b  ⇔  C_a·T_b > C_b·T_a (T > 0): exact, unlike comparing doubles.
    const Wide lhs = Wide(ta.work.count()) * tb.period.count();
    const Wide rhs = Wide(tb.work.count()) * ta.period.count();
    if (lhs != rhs) return lhs > rhs;
    if (ta.name != tb.name) return ta.name < tb.name;
    return a < b;
  });

  std::vector<LightPlacement> out(set.tasks.size());
  std::vector<CoreLoad> loads(cores.size());
  for (CoreLoad& load : loads) {
    for (const RtaInterferer& j : above) load.util.add(j.wcet, j.period);  // in every U > 1 test
  }
  std::vector<Slot> trial;
  std::vector<int> trial_priorities;
  const auto total = static_cast<std::int64_t>(order.size());
  std::int64_t done = 0;
  for (std::size_t task : order) {
    if (done++ % detail::kProgressEvery == 0)
      detail::progress("placing light tasks", done - 1, total);
    const TaskSpec& spec = set.tasks[task];
    Slot x;
    x.task = task;
    // Global priorities, and overrides, are the same on every core (on_core_ordered).
    x.fixed = priorities.global() ? priorities.on_core({task}).front() : spec.priority.value_or(0);
    x.c = spec.work.count();
    x.d = spec.deadline.count();
    x.t = spec.period.count();
    bool capped = false;
    if (!above.empty()) {
      // x under the interferers above alone: its response on any core is at least this (its hp
      // set there holds them and more), so if it misses here every trial would say no — skip them
      // (with the kernel's server, tasks whose D is within a budget or two fit nowhere).
      const RtaResult alone = fixed_point_response(x.c, x.d, rta_start(x.c, above), above);
      if (alone.status != RtaStatus::met) {
        out[task].capped = alone.status == RtaStatus::capped;
        continue;
      }
    }
    for (CoreLoad& load : loads) {
      const Fit fit = try_add(load, x, set, priorities, above, trial, trial_priorities);
      capped = capped || fit == Fit::capped;
      if (fit == Fit::yes) {
        load.slots.swap(trial);
        load.util.add(x.c, x.t);
        refresh_bottom(load, above);
        capped = false;
        break;
      }
    }
    out[task].capped = capped;
  }

  detail::progress("placing light tasks", total, total);
  for (std::size_t task : light) out[task].priority = priorities.on_core({task}).front();
  for (std::size_t c = 0; c < cores.size(); ++c) {
    std::vector<Slot>& slots = loads[c].slots;
    // The final responses: the exact RTA of every level (each admitted trial passed it, so this
    // cannot fail; the lower bounds make it a few steps per level).
    std::vector<std::int64_t> responses(slots.size(), -1);
    settle_levels(slots, &responses, above);
    for (std::size_t k = 0; k < slots.size(); ++k) {
      LightPlacement& placement = out[slots[k].task];
      placement.core = cores[c];
      placement.priority = slots[k].priority;
      if (responses[k] >= 0) placement.response = Duration(responses[k]);
    }
  }
  return out;
}

}  // namespace rtpar::analysis
