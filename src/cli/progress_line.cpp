// progress_line.cpp — see progress_line.hpp.
#include "progress_line.hpp"

#include <unistd.h>

#include <cstdio>

#include "rtpar/time.hpp"

namespace rtpar::cli {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;
// kTerminalDelay: a planning that ends within it shows nothing on a terminal.
constexpr std::int64_t kTerminalDelay = kSecond;
// kTerminalEvery / kLineEvery: the least time between two updates, in place / as lines.
constexpr std::int64_t kTerminalEvery = kSecond / 5;
constexpr std::int64_t kLineEvery = kSecond;

}  // namespace

ProgressLine::ProgressLine(bool forced)
    : tty_(isatty(STDERR_FILENO) == 1), enabled_(forced || tty_), start_ns_(monotonic_now()) {}

ProgressLine::~ProgressLine() {
  if (shown_) std::fputs("\r\033[K", stderr);  // leave the terminal as the output expects it
}

void ProgressLine::report(const char* stage, std::int64_t done, std::int64_t total) {
  if (!enabled_) return;
  const std::int64_t now = monotonic_now();
  const bool last = done >= total;
  const double seconds = static_cast<double>(now - start_ns_) / static_cast<double>(kSecond);
  if (tty_) {
    if (now - start_ns_ < kTerminalDelay) return;
    if (!last && last_ns_ >= 0 && now - last_ns_ < kTerminalEvery) return;
    std::fprintf(stderr, "\r\033[Kcheck: %s %lld/%lld (%.0f s)", stage,
                 static_cast<long long>(done), static_cast<long long>(total), seconds);
    std::fflush(stderr);
    shown_ = true;
  } else {
    if (!last && last_ns_ >= 0 && now - last_ns_ < kLineEvery) return;
    std::fprintf(stderr, "check: %s %lld/%lld (%.1f s)\n", stage, static_cast<long long>(done),
                 static_cast<long long>(total), seconds);
  }
  last_ns_ = now;
}

}  // namespace rtpar::cli
