// cpu_latency.hpp — a PM QoS CPU latency request held for a run (/dev/cpu_dma_latency).
//
// A periodic task's release is a timer wake-up on an idle core. How long that takes is mostly the
// idle state the core is in: a deep C-state, or on a virtual machine the halt that hands the vCPU
// back to the host, costs tens of µs on every wake-up (measured on this project's 2-vCPU VM:
// timer wake-up p50 27 µs, p99 77–120 µs). The kernel's CPU latency QoS interface
// (Documentation/admin-guide/pm/cpuidle.rst, "Power Management Quality of Service for CPUs") lets
// a process cap the exit latency of the idle states the cpuidle governor may pick: writing a
// 32-bit value in µs to /dev/cpu_dma_latency holds that cap for as long as the file stays open,
// and the kernel drops it when the file is closed — also when the process dies, so a crash never
// leaves the machine polling. A cap of 0 keeps idle cores in the polling state (haltpoll, or the
// shallowest C-state): the same setting cyclictest uses by default. The cost is power (and, on a
// VM, host CPU time), which is why it is held only for a real-time run and stated in its report.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rtpar::detail {

// cpu_latency_us converts a cap given as a duration in ns to the kernel's unit, whole µs; throws
// std::invalid_argument (with the reason) for a negative value or a fraction of a µs.
std::int64_t cpu_latency_us(std::int64_t ns);

// CpuLatencyRequest holds one CPU latency QoS request for its lifetime (file comment). It never
// throws: a refused request (no root, no such device) is a state reported by held() and why().
class CpuLatencyRequest {
 public:
  // CpuLatencyRequest with max_us < 0 requests nothing; otherwise it opens /dev/cpu_dma_latency
  // and writes max_us (clamped to INT32_MAX µs).
  explicit CpuLatencyRequest(std::int64_t max_us) noexcept;
  ~CpuLatencyRequest();
  CpuLatencyRequest(const CpuLatencyRequest&) = delete;
  CpuLatencyRequest& operator=(const CpuLatencyRequest&) = delete;

  // held says whether the kernel accepted the request and holds it now.
  [[nodiscard]] bool held() const noexcept { return fd_ >= 0; }
  // requested says whether a request was asked for (max_us >= 0).
  [[nodiscard]] bool requested() const noexcept { return requested_us_ >= 0; }
  // requested_us is the cap asked for in µs (-1: none).
  [[nodiscard]] std::int64_t requested_us() const noexcept { return requested_us_; }
  // why is the reason a requested cap is not held ("" when held or not requested).
  [[nodiscard]] const std::string& why() const noexcept { return why_; }

 private:
  std::int64_t requested_us_;
  int fd_ = -1;
  std::string why_;
};

}  // namespace rtpar::detail
