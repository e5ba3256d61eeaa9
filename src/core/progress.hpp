// progress.hpp — progress: how a long loop (a planner's first-fit over 100,000 tasks) says how far
// it got, to whoever the calling thread installed (PlanProgressScope, rtpar/tools/planners.hpp).
// `rtpar check` shows it on a terminal (docs/cli.md, "check").
#pragma once

#include <cstdint>
#include <functional>

namespace rtpar::detail {

// ProgressFn receives `done` of `total` items of `stage`.
using ProgressFn = std::function<void(const char* stage, std::int64_t done, std::int64_t total)>;

// kProgressEvery is how many items a loop handles between two calls of progress.
inline constexpr std::int64_t kProgressEvery = 256;

// progress tells the calling thread's receiver, if any, that `done` of `total` items of `stage`
// are handled. Cheap without a receiver (one thread-local read); loops call it every
// kProgressEvery items and once at their end.
void progress(const char* stage, std::int64_t done, std::int64_t total);

// installed_progress is the calling thread's receiver, or null (PlanProgressScope sets it).
const ProgressFn*& installed_progress() noexcept;

}  // namespace rtpar::detail
