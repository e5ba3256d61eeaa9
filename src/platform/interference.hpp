// interference.hpp — what the kernel may run above SCHED_FIFO on a CPU: the fair server (a
// SCHED_DEADLINE server per CPU that serves starved SCHED_OTHER tasks, Linux ≥ 6.12) and RT
// throttling (sched_rt_runtime_us of every sched_rt_period_us left to non-RT tasks).
//
// Both are read from files, under a root directory so that tests can use a fake tree:
//   <root>/sys/kernel/debug/sched/fair_server/cpu<N>/{runtime,period}   (ns; debugfs, root only)
//   <root>/proc/sys/kernel/sched_rt_runtime_us, sched_rt_period_us      (µs; -1 = throttling off)
// A file that cannot be read is "unknown", with the reason; nothing is guessed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rtpar::platform {

// kFairServerDir is the fair server's debugfs directory below the root.
inline constexpr const char* kFairServerDir = "sys/kernel/debug/sched/fair_server";
// kRtRuntimeFile and kRtPeriodFile are RT throttling's sysctl files below the root.
inline constexpr const char* kRtRuntimeFile = "proc/sys/kernel/sched_rt_runtime_us";
inline constexpr const char* kRtPeriodFile = "proc/sys/kernel/sched_rt_period_us";

// FairServerSetting is one CPU's fair server as read.
struct FairServerSetting {
  int cpu = 0;
  std::int64_t runtime_ns = 0;  // budget per period; 0 = the server never runs
  std::int64_t period_ns = 0;
};

// RtThrottling is the global RT throttling setting as read.
struct RtThrottling {
  std::int64_t runtime_us = 0;  // -1 = off
  std::int64_t period_us = 0;
};

// SchedInterference is the highest-priority interference on a set of CPUs: a server that may run
// budget_ns in every period_ns on each of them (the largest budget and shortest period over the
// CPUs and over both sources, which covers each of them), where it comes from and whether every
// part of it could be read.
struct SchedInterference {
  bool known = false;          // every source could be read for every CPU asked about
  std::int64_t budget_ns = 0;  // Q (0: nothing known runs above SCHED_FIFO)
  std::int64_t period_ns = 0;  // P (0 when budget_ns is 0)
  std::string source;          // for people: each source and its values, or why it is unknown
  std::vector<FairServerSetting> fair_server;      // per CPU read (empty when unreadable)
  std::optional<std::string> fair_server_unknown;  // why the fair server could not be read
  std::optional<RtThrottling> rt_throttling;       // nullopt when unreadable
};

// read_sched_interference reads both sources for `cpus` below `root` ("/" on a real machine).
SchedInterference read_sched_interference(const std::string& root, const std::vector<int>& cpus);

// read_int_file reads a file holding one decimal integer (surrounding blanks allowed); nullopt
// with `error` set ("<path>: <reason>") when it cannot be opened or does not hold one.
std::optional<std::int64_t> read_int_file(const std::string& path, std::string& error);

// join_path joins a root and a relative path ("/" + "proc/x" = "/proc/x").
std::string join_path(const std::string& root, const std::string& relative);

}  // namespace rtpar::platform
