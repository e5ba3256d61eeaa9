// wait.cpp — waiting on conditions that no signal word announces (ordered, doacross).
//
// Spins per the team's wait policy (spin: unbounded, hybrid: spin_ns, block: not at all), then
// sleeps in growing steps from 1 µs to 1 ms, so a waiter never spins unboundedly at SCHED_FIFO
// outside the spin policy, and a long wait costs at most one wake-up per millisecond.
#include <time.h>

#include "omp/runtime.hpp"
#include "platform/spin_wait.hpp"

namespace rtpar::omp {

void wait_for(ThreadState& ts, FunctionRef<bool()> done) {
  const detail::WaitSpec& w = ts.team->wait;
  if (w.kind != WaitKind::block) {
    const std::int64_t budget = w.kind == WaitKind::spin ? detail::kSpinForever : w.spin_ns;
    if (detail::spin_until([&] { return done(); }, budget)) return;
  }
  long step_ns = 1000;
  while (!done()) {
    timespec d{0, step_ns};
    nanosleep(&d, nullptr);
    if (step_ns < 1'000'000) step_ns *= 2;
  }
}

}  // namespace rtpar::omp
