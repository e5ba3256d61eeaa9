// work_share.cpp — the team's ring of work-share slots (runtime.hpp).
//
// Construct k of a region (counted per thread in encounter order, the same for every member by
// the OpenMP rule that all members encounter the same worksharing constructs in the same order)
// uses slot k mod kWorkShareRing. The slot's state is a signal word whose payload/2 encodes
//   3k    free for construct k,   3k+1  being initialised for k,   3k+2  ready for k,
// so a member that runs ahead (nowait) to construct k + kWorkShareRing waits until every member
// left construct k.
//
// Memory ordering:
//  (1) the initialiser wins the slot with a CAS free→initialising (one winner: RMWs on one word);
//  (2) its initialisation (plain stores) is published by the release exchange ready (publish);
//      members that read "ready" with acquire see it;
//  (3) leaving is an acq_rel fetch_add on `left`; the last leaver (who thus saw every member's
//      use of the slot) resets `left` and publishes "free for k + kWorkShareRing" with a release
//      exchange, so the next initialiser (acquire) starts after every use.
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// payload is the state word's payload for construct k in phase (0 free, 1 initialising, 2 ready),
// modulo 2^32 like the counter it derives from.
constexpr std::uint32_t payload(std::uint32_t k, std::uint32_t phase) noexcept {
  return (3 * k + phase) * 2;
}

}  // namespace

bool ws_enter(ThreadState& ts) {
  TeamState& t = *ts.team;
  const std::uint32_t k = ts.ws_next++;
  WorkShare& w = t.ring[k % kWorkShareRing];
  ts.ws = &w;
  ts.ws_index = k;
  for (;;) {
    // acquire (2): "ready" carries the initialiser's stores.
    std::uint32_t v = w.state.load(std::memory_order_acquire);
    const std::uint32_t p = v & ~detail::kSleeper;
    if (p == payload(k, 2)) return false;
    if (p == payload(k, 0)) {
      // acq_rel CAS (1) and (3): wins the slot and sees every use of its previous construct.
      // The SLEEPER bit is kept, so publish() still wakes whoever sleeps on the slot.
      if (w.state.compare_exchange_weak(v, payload(k, 1) | (v & detail::kSleeper),
                                        std::memory_order_acq_rel, std::memory_order_acquire)) {
        // relaxed: published by ws_publish (2).
        w.cancelled.store(false, std::memory_order_relaxed);
        w.copyprivate = nullptr;
        return true;
      }
      continue;
    }
    // The slot still holds construct k - kWorkShareRing, or another member initialises it.
    detail::wait_change(w.state, p, t.wait);
  }
}

void ws_publish(ThreadState& ts) { detail::publish(ts.ws->state, payload(ts.ws_index, 2)); }

void ws_leave(ThreadState& ts) {
  WorkShare& w = *ts.ws;
  // acq_rel (3).
  if (w.left.fetch_add(1, std::memory_order_acq_rel) == ts.team->nthreads - 1) {
    // relaxed: ordered before the release exchange below (3).
    w.left.store(0, std::memory_order_relaxed);
    detail::publish(w.state, payload(ts.ws_index + kWorkShareRing, 0));
  }
}

void ws_release(ThreadState& ts) {
  // `left` stayed 0 (nobody called ws_leave). The barrier's acq_rel arrivals (barrier.cpp (1))
  // put every member's use of the slot before this point; the release exchange then publishes
  // "free for k + kWorkShareRing" as the last leaver's does (3).
  detail::publish(ts.ws->state, payload(ts.ws_index + kWorkShareRing, 0));
}

}  // namespace rtpar::omp
