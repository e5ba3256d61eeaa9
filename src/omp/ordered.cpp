// ordered.cpp — the `ordered` construct inside an `ordered` loop (OpenMP 5.0 §2.17.9).
//
// Every schedule hands out contiguous chunks of logical iterations, so the ordered regions run in
// order if the thread holding the chunk that starts at iteration T may enter when T is the team's
// turn. The token is the loop's `ordered_turn`, the first iteration of the chunk allowed in: a
// thread enters `ordered` when the turn equals the first iteration of its chunk and keeps the
// token for the whole chunk (it runs the chunk's iterations in order itself); when it finishes the
// chunk (its next _next call, or the loop's end) it waits for its turn if it never entered, and
// moves the turn to the end of its chunk. As in libgomp, a chunk's iterations that have no ordered
// region still pass the token in order, so `_next` finishes the current chunk first.
//
// Waiting: the holder of the token, after moving the turn, changes the loop's ordered_word (a
// signal word, runtime/team/signal_word.hpp) so that waiters may sleep on it.
//
// Memory ordering: the token holder's writes (in and before its ordered regions) are published by
// the release store of the new turn; a thread that reads its turn with acquire sees them.
// Cancellation (of the loop or the region) releases every waiter: chunks never handed out would
// otherwise keep the turn from ever arriving.
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// my_turn says whether the caller may run the ordered part of its chunk (or give up waiting).
bool my_turn(ThreadState& ts) {
  WorkShare& w = *ts.ws;
  // acquire: pairs with the release store in ordered_pass (the previous holder's writes).
  if (w.loop.ordered_turn.load(std::memory_order_acquire) == ts.loop.ord_begin) return true;
  // relaxed, both: cancellation only ends the wait; no data travels with the flags.
  return w.cancelled.load(std::memory_order_relaxed) ||
         ts.team->cancelled.load(std::memory_order_relaxed);
}

// wait_turn waits until my_turn holds: spinning per the team's wait policy, then asleep on the
// loop's ordered_word, which every pass changes (signal word protocol). Cancellation does not
// change the word, so with cancellation enabled the wait polls instead (wait_for).
void wait_turn(ThreadState& ts) {
  if (my_turn(ts)) return;
  if (globals().cancellation) {
    wait_for(ts, [&] { return my_turn(ts); });
    return;
  }
  detail::wait_until(ts.ws->loop.ordered_word, ts.team->wait,
                     [&](std::uint32_t) { return my_turn(ts); });
}

}  // namespace

void ordered_pass(ThreadState& ts) {
  ts.loop.ord_held = false;
  wait_turn(ts);
  LoopState& s = ts.ws->loop;
  // release: publishes this chunk's ordered work to the next chunk's holder.
  s.ordered_turn.store(ts.loop.ord_end, std::memory_order_release);
  // advance's release RMW changes the payload whatever this thread last saw of the word: the
  // previous holder's change may not be visible yet (our acquire of the turn synchronised with
  // its turn store, which precedes its RMW), and republishing a payload unchanged would let a
  // waiter's flag CAS succeed after this pass and sleep for good (signal word (1)).
  detail::advance(s.ordered_word);
}

void ordered_enter(ThreadState& ts) {
  if (!ts.loop.ord_held || ts.ws == nullptr) return;  // not in an ordered loop: nothing to order
  wait_turn(ts);
}

// GOMP_ordered_start enters an ordered region: waits until the caller's chunk is next.
RTPAR_OMP_EXPORT void GOMP_ordered_start() { ordered_enter(self()); }

// GOMP_ordered_end leaves an ordered region. The token moves on when the chunk is finished.
RTPAR_OMP_EXPORT void GOMP_ordered_end() {}

}  // namespace rtpar::omp
