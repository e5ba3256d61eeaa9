// progress_line.hpp — ProgressLine: how `rtpar check` shows a long planning's progress on stderr
// (docs/cli.md, "check"): on a terminal, one line rewritten in place once the planning has taken
// a second; with --progress, also when stderr is not a terminal, as plain lines at most one a
// second plus the last of each stage.
#pragma once

#include <cstdint>
#include <string>

namespace rtpar::cli {

// ProgressLine prints PlanProgress reports (rtpar/tools/planners.hpp) on stderr.
class ProgressLine {
 public:
  // ProgressLine shows progress when stderr is a terminal, or always when `forced`.
  explicit ProgressLine(bool forced);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // report takes one PlanProgress call.
  void report(const char* stage, std::int64_t done, std::int64_t total);

 private:
  bool tty_ = false;
  bool enabled_ = false;
  bool shown_ = false;  // a terminal line is on screen (cleared at the end)
  std::int64_t start_ns_ = 0;
  std::int64_t last_ns_ = -1;  // when the last line was printed (-1: never)
};

}  // namespace rtpar::cli
