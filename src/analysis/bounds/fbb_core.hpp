// fbb_core.hpp — one core as fbb_place (fbb_ffd.hpp) fills it: the segments it holds and what it
// remembers about its load, so that most load conditions cost O(1) instead of a pass over the
// core. Every value it returns is core_interference's (fbb_ffd.hpp), exactly; the memos only
// decide when that value must be computed again. The arguments are in the comments below and in
// docs/analysis.md ("Many sets: FJOS-style systems at 40 cores").
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "analysis/bounds/fbb_ffd.hpp"
#include "analysis/bounds/rbf.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// same_fields says whether two strands give core_interference the same inputs (task, segment,
// offset, window, period and WCET).
inline bool same_fields(const FbbStrand& a, const FbbStrand& b) {
  return a.task == b.task && a.segment == b.segment && a.offset == b.offset &&
         a.window == b.window && a.period == b.period && a.wcet == b.wcet;
}

// FbbCore is one core of fbb_place: its members (one entry per (task, segment), ordered by
// (task, offset)) and three memos. fbb_place visits strands in fbb_order, so windows never
// decrease from one call to the next; lower_bound relies on that, the exact values do not.
class FbbCore {
 public:
  // members is what the core holds, ordered by (task, offset) (offset_burst's linear path needs
  // each task's entries sorted by offset).
  const std::vector<CoreSegment>& members() const { return members_; }

  // others_cached says whether load(s) reuses the other tasks' part without a pass over the core.
  bool others_cached(const FbbStrand& s) const {
    return others_.valid && others_.task == s.task && others_.window == s.window;
  }

  // lower_bound is ≤ load(s, fit) for a strand whose window is at least that of every strand
  // evaluated before on this core (fbb_order's visit order), when every WCET and window is ≥ 0
  // (fbb_place checks; decompose makes them so). The other tasks' part is the sum of
  // each task's term last computed on this core: RBF*_q(τ_j, d) (rbf_fbb for first_fit) does not
  // decrease with d (offset_burst counts more releases in a longer window, ⌈d·W/T⌉ grows) nor
  // with the work placed since (works only grow, and are ≥ 0), so an old value stays below the
  // current one; a task not evaluated yet counts 0 ≤ its term. The own part is the memo's exact
  // value when it applies, else 0 (own_interference ≥ W_{i,k} ≥ 0; rbf_fbb ≥ 0).
  __int128 lower_bound(const FbbStrand& s, FitKind fit) const;

  // bounds_hold says whether lower_bound and refined_lower_bound apply: every task's entries on
  // the core have one period (decompose gives all strands of a task the task's T; with mixed
  // periods a term's ⌈d·W/T⌉ takes the first entry's T, which may grow, and the term shrink).
  bool bounds_hold() const { return !mixed_periods_; }

  // exceeds says whether lower_bound(s, fit), or refined_lower_bound(s, fit) with own_lower for
  // the own part, exceeds `room` (the cheap one first): then load(s, fit) does too.
  bool exceeds(const FbbStrand& s, FitKind fit, __int128 room);

  // refined_lower_bound is lower_bound with each other task's term T_j(d) = B_j(d) + ⌈d·W_j/T_j⌉
  // taken as its burst B_j when last computed (offset_burst for fbb_ffd and worst_fit, which
  // grows with d and work as above; for first_fit B_j = W_j, exact) plus the exact ⌈d·W_j/T_j⌉
  // for the work W_j on the core now: O(tasks on the core), no pass over the entries, and ≥
  // lower_bound. Same conditions as lower_bound.
  __int128 refined_lower_bound(const FbbStrand& s, FitKind fit) const;

  // load is core_interference(members(), s, fit), from the memos where they apply: others(s)
  // + own(s).
  __int128 load(const FbbStrand& s, FitKind fit) { return others(s, fit) + own(s, fit); }

  // others is the other tasks' part of load(s, fit) (Σ over the other tasks on the core).
  __int128 others(const FbbStrand& s, FitKind fit);

  // own is s's own task's part of load(s, fit); ≥ 0 when WCETs and windows are (lower_bound).
  __int128 own(const FbbStrand& s, FitKind fit);

  // own_lower is ≤ own(s, fit) and ≥ 0 under lower_bound's conditions, without offset_burst:
  // own_interference's case (A), a·w + ca (own itself without another task on the core or when
  // its bursts are known, and for first_fit).
  __int128 own_lower(const FbbStrand& s, FitKind fit);

  // has_segment says whether the core holds a strand of s's segment (then s takes no new level).
  bool has_segment(const FbbStrand& s) const;

  // add places s on the core: its work joins s's (task, segment) entry. It returns the entry's
  // rank: how many entries the core held when the entry was made (strand_priorities's rank, as
  // fbb_place adds strands in fbb_order).
  int add(const FbbStrand& s);

 private:
  // TaskBound is the last term computed for one task on this core as another task's (see
  // lower_bound); one per task on the core, ordered by task.
  struct TaskBound {
    std::size_t task = 0;
    __int128 value = 0;            // the term last computed (0 before)
    __int128 burst = 0;            // its B_j part (refined_lower_bound)
    __int128 work = 0;             // W_j on the core now
    std::int64_t period = 1;       // the period of the task's first entry (the term's T_j)
    bool burst_fresh = false;      // `burst` is offset_burst of the entries as they are now
    std::int64_t burst_d = 0;      // ... for windows in [burst_d, burst_until]
    std::int64_t burst_until = 0;  // (offset_burst_until)
  };
  // OthersMemo is the other tasks' part for (task, window): it reads only the other tasks'
  // entries, s's task and s's window, so it holds until a strand of another task joins.
  struct OthersMemo {
    bool valid = false;
    std::size_t task = 0;
    std::int64_t window = 0;
    __int128 value = 0;
  };
  // OwnTerm is s's own-task term (fit = fbb_ffd and worst_fit) as a function of w, the work of
  // s's segment on the core (see fill_own):
  //   no other task on the core:  w
  //   else:  max(a·w + ca, max(p + w, q − e))      (case (A), case (B) of own_interference)
  // It reads s's fields, the task's other entries and whether another task is present: a strand
  // of s's segment with s's fields joining changes only w, anything else joining drops it.
  struct OwnTerm {
    bool valid = false;
    FbbStrand key;
    bool others_present = false;
    bool present = false;  // the core holds an entry of s's segment
    __int128 w = 0;
    __int128 ca = 0;
    int a = 1;
    bool window_positive = true;  // d > 0 (else offset_burst is 0 and case (B) is −e)
    __int128 p = 0;
    __int128 q = 0;
    bool bursts_ready = true;  // p and q computed (fill_bursts); else only ca and a
    __int128 others_work = 0;  // Σ work of the task's other entries (fill_bursts's H − 1)
  };
  // OwnMemo is the own part for fit = first_fit: its last value for the strand `key`, dropped
  // when any strand joins.
  struct OwnMemo {
    bool valid = false;
    FbbStrand key;
    __int128 value = 0;
  };

  // task_entries is the span of `task`'s entries.
  std::pair<std::size_t, std::size_t> task_entries(std::size_t task) const;
  // bound_of is `task`'s TaskBound value, 0 when it has no entry.
  __int128 bound_of(std::size_t task) const;
  // own_bound is lower_bound's own part: the memo's exact value when it applies, else 0.
  __int128 own_bound(const FbbStrand& s, FitKind fit) const;
  // refined_others is refined_lower_bound's other-task part.
  __int128 refined_others(const FbbStrand& s, FitKind fit) const;
  // others_present says whether a task other than `task` has an entry.
  bool others_present(std::size_t task) const;
  // others_load computes the other tasks' part afresh and records each task's term.
  __int128 others_load(const FbbStrand& s, FitKind fit);
  // fill_own computes own_ for s, but for p and q when they need offset_burst.
  void fill_own(const FbbStrand& s);
  // fill_bursts computes own_'s p and q.
  void fill_bursts();
  // own_value is own_'s term at its current w.
  __int128 own_value() const;

  // TaskSpan is task_entries's last answer, kept until an entry is inserted.
  struct TaskSpan {
    bool valid = false;
    std::size_t task = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
  };

  std::vector<CoreSegment> members_;
  mutable TaskSpan span_;
  mutable std::size_t bound_hint_ = 0;  // bound_of's last index (checked before use)
  std::vector<int> ranks_;              // per entry of members_ (same index): its rank (add)
  std::vector<TaskBound> bounds_;
  __int128 bound_total_ = 0;    // Σ bounds_
  bool mixed_periods_ = false;  // a task's entries have different periods (bounds_hold)
  OthersMemo others_;
  OwnTerm own_;
  OwnMemo ff_own_;
};

}  // namespace rtpar::analysis
