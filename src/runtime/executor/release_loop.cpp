// release_loop.cpp — see release_loop.hpp. The release sleep that a stop interrupts.
#include "runtime/executor/release_loop.hpp"

#include "platform/futex.hpp"
#include "rtpar/time.hpp"

namespace rtpar::detail {

bool ReleaseLoop::sleep_until_release(std::int64_t when) const noexcept {
  // The sleep is FUTEX_WAIT_BITSET on `stop` with an absolute deadline: it ends at `when`, or at
  // once when the control thread stores kStopRequested and wakes it (RunControl (2)). A stop
  // stored between the load and the sleep makes the kernel's compare with kStopClear fail.
  std::atomic<std::uint32_t>& stop = control_.stop;
  // acquire: pairs with the control thread's release store of stop (RunControl (2)); the flag
  // only goes kStopClear → kStopRequested.
  while (stop.load(std::memory_order_acquire) == kStopClear && monotonic_now() < when) {
    futex_wait_until(stop, kStopClear, when);
  }
  // acquire: as above — the verdict the caller acts on.
  return stop.load(std::memory_order_acquire) == kStopClear;
}

}  // namespace rtpar::detail
