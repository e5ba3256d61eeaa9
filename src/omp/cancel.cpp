// cancel.cpp — `cancel` and `cancellation point` (OpenMP 5.0 §2.18.1, §2.18.2).
//
// Active only when cancel-var is true (OMP_CANCELLATION). `which` is GCC's construct mask:
// 1 parallel, 2 loop, 4 sections, 8 taskgroup. Cancelling a region sets the team's flag and wakes
// the members sleeping in a barrier; cancelling a loop or sections sets the work share's flag,
// which the loop dispatch checks, so the remaining chunks are not handed out.
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

constexpr int kCancelParallel = 1;
constexpr int kCancelLoop = 2;
constexpr int kCancelSections = 4;
constexpr int kCancelTaskgroup = 8;

}  // namespace

RTPAR_OMP_EXPORT bool GOMP_cancellation_point(int which) {
  if (!globals().cancellation) return false;
  ThreadState& ts = self();
  if ((which & kCancelParallel) != 0) {
    // acquire: pairs with the release store in GOMP_cancel.
    return ts.team->cancelled.load(std::memory_order_acquire);
  }
  if ((which & (kCancelLoop | kCancelSections)) != 0) {
    // acquire: as above.
    return (ts.ws != nullptr && ts.ws->cancelled.load(std::memory_order_acquire)) ||
           ts.team->cancelled.load(std::memory_order_acquire);
  }
  if ((which & kCancelTaskgroup) != 0) return taskgroup_cancelled(ts);
  return false;
}

RTPAR_OMP_EXPORT bool GOMP_cancel(int which, bool do_cancel) {
  if (!globals().cancellation) return false;
  if (!do_cancel) return GOMP_cancellation_point(which);
  ThreadState& ts = self();
  if ((which & kCancelParallel) != 0) {
    // release: what the cancelling thread wrote before is visible to members that see the flag.
    ts.team->cancelled.store(true, std::memory_order_release);
    barrier_poke(*ts.team);
    return true;
  }
  if ((which & (kCancelLoop | kCancelSections)) != 0) {
    // release: as above.
    if (ts.ws != nullptr) ts.ws->cancelled.store(true, std::memory_order_release);
    return true;
  }
  if ((which & kCancelTaskgroup) != 0) return taskgroup_cancel(ts);
  return false;
}

}  // namespace rtpar::omp
