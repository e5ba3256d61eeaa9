// interference.cpp — see interference.hpp.
#include "platform/interference.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

namespace rtpar::platform {

std::string join_path(const std::string& root, const std::string& relative) {
  if (root.empty() || root.back() == '/') return root + relative;
  return root + "/" + relative;
}

std::optional<std::int64_t> read_int_file(const std::string& path, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    // errno from the failed open is the useful part ("Operation not permitted" under debugfs).
    error = fmt::format("{}: {}", path, std::strerror(errno));
    return std::nullopt;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  const auto first = text.find_first_not_of(" \t\r\n");
  const auto last = text.find_last_not_of(" \t\r\n");
  if (first == std::string::npos) {
    error = path + ": empty";
    return std::nullopt;
  }
  text = text.substr(first, last - first + 1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    error = fmt::format("{}: not an integer: '{}'", path, text);
    return std::nullopt;
  }
  return value;
}

SchedInterference read_sched_interference(const std::string& root, const std::vector<int>& cpus) {
  SchedInterference out;
  std::string parts;

  // The fair server, per CPU. One unreadable CPU makes the whole source unknown.
  for (const int cpu : cpus) {
    const std::string dir = join_path(root, fmt::format("{}/cpu{}", kFairServerDir, cpu));
    std::string error;
    const auto runtime = read_int_file(dir + "/runtime", error);
    const auto period = runtime ? read_int_file(dir + "/period", error) : std::nullopt;
    if (!runtime || !period || *runtime < 0 || *period <= 0) {
      out.fair_server_unknown = error.empty()
                                    ? fmt::format("{}: runtime {} / period {} out of range", dir,
                                                  runtime.value_or(-1), period.value_or(-1))
                                    : error;
      out.fair_server.clear();
      break;
    }
    out.fair_server.push_back({cpu, *runtime, *period});
  }

  // The largest budget and shortest period over all sources: a server with budget Q' ≥ Q and
  // period P' ≤ P may do everything one with (Q, P) does (docs/analysis.md "Kernel interference").
  auto cover = [&out](std::int64_t q, std::int64_t p) {
    if (q <= 0) return;
    out.budget_ns = std::max(out.budget_ns, q);
    out.period_ns = out.period_ns == 0 ? p : std::min(out.period_ns, p);
  };
  if (!out.fair_server_unknown) {
    std::string list;
    for (const FairServerSetting& s : out.fair_server) {
      cover(s.runtime_ns, s.period_ns);
      list += fmt::format("{}cpu{} {}/{} ns", list.empty() ? "" : ", ", s.cpu, s.runtime_ns,
                          s.period_ns);
    }
    parts = fmt::format("fair server [{}]", list.empty() ? std::string("no CPU") : list);
  } else {
    parts = fmt::format("fair server unknown ({})", *out.fair_server_unknown);
  }

  // RT throttling: with runtime r of every period p left to RT tasks, the rest p − r may go to
  // non-RT tasks, in one piece; -1 switches it off.
  std::string error;
  const auto rt_runtime = read_int_file(join_path(root, kRtRuntimeFile), error);
  const auto rt_period =
      rt_runtime ? read_int_file(join_path(root, kRtPeriodFile), error) : std::nullopt;
  if (rt_runtime && rt_period && *rt_period > 0 && *rt_runtime >= -1 && *rt_runtime <= *rt_period) {
    out.rt_throttling = RtThrottling{*rt_runtime, *rt_period};
    if (*rt_runtime == -1) {
      parts += "; RT throttling off (sched_rt_runtime_us = -1)";
    } else {
      // µs → ns: runtime ≤ period, so both fit int64 once the period does; a larger period is
      // reported as unknown rather than wrapped.
      if (*rt_period > INT64_MAX / 1000) {
        out.rt_throttling.reset();
        parts += "; RT throttling unknown (period out of range)";
      } else {
        cover((*rt_period - *rt_runtime) * 1000, *rt_period * 1000);
        parts +=
            fmt::format("; RT throttling {}/{} µs (RT runtime/period)", *rt_runtime, *rt_period);
      }
    }
  } else {
    parts += fmt::format("; RT throttling unknown ({})",
                         error.empty() ? std::string("values out of range") : error);
  }
  out.known = !out.fair_server_unknown && out.rt_throttling.has_value();
  out.source = parts;
  return out;
}

}  // namespace rtpar::platform
