// cpu_latency_flag.hpp — `--cpu-latency DUR` of `rtpar run` and `rtpar calibrate`: one reading.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/duration_flag.hpp"
#include "platform/cpu_latency.hpp"
#include "rtpar/error.hpp"

namespace rtpar::cli {

// parse_cpu_latency_flag reads --cpu-latency: a duration ≥ 0 of whole µs (the kernel's unit of a
// CPU latency QoS request); a fraction of a µs names the flag like any bad duration (exit 2).
inline std::int64_t parse_cpu_latency_flag(const std::string& text) {
  const Duration cap = parse_duration_flag("--cpu-latency", text, DurationFloor::zero);
  try {
    return detail::cpu_latency_us(cap.count());
  } catch (const std::invalid_argument& e) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--cpu-latency",
                     "'" + text + "': " + e.what());
  }
}

}  // namespace rtpar::cli
