// keep_alive.hpp — keep_alive_forever: what a hung or crashed task's threads still use (its
// runner, the channels, its code) must outlive every destructor of the process, yet stay
// reachable, so that leak checkers (LeakSanitizer) do not report it as lost.
#pragma once

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace rtpar::detail {

// keep_alive_forever moves `object` into a list that is never destroyed: the list is allocated
// once and reachable from a function-local static until the process ends. Called after a run,
// at most once per hung task and run (never on a job path).
template <typename T>
void keep_alive_forever(T object) {
  static std::mutex lock;
  // Never deleted: the objects must outlive static destruction too (the threads still run).
  static auto* const kept = new std::vector<std::shared_ptr<void>>();
  const std::lock_guard<std::mutex> guard(lock);
  kept->push_back(std::make_shared<T>(std::move(object)));
}

}  // namespace rtpar::detail
