// progress.cpp — see progress.hpp.
#include "core/progress.hpp"

namespace rtpar::detail {

const ProgressFn*& installed_progress() noexcept {
  // thread_local: a planning runs on one thread; another thread's planning (experiment workers)
  // has its own receiver or none.
  thread_local const ProgressFn* current = nullptr;
  return current;
}

void progress(const char* stage, std::int64_t done, std::int64_t total) {
  const ProgressFn* receiver = installed_progress();
  if (receiver != nullptr && *receiver) (*receiver)(stage, done, total);
}

}  // namespace rtpar::detail
