// cpu_latency.cpp — CpuLatencyRequest: open /dev/cpu_dma_latency, write the cap, keep it open.
#include "platform/cpu_latency.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

namespace rtpar::detail {

namespace {

// kDevice is the CPU latency QoS device of the kernel (Documentation/power/pm_qos_interface.rst).
constexpr const char* kDevice = "/dev/cpu_dma_latency";

}  // namespace

std::int64_t cpu_latency_us(std::int64_t ns) {
  if (ns < 0) throw std::invalid_argument("must be >= 0");
  if (ns % 1000 != 0) throw std::invalid_argument("must be a whole number of µs");
  return ns / 1000;
}

CpuLatencyRequest::CpuLatencyRequest(std::int64_t max_us) noexcept
    : requested_us_(max_us < 0 ? -1 : max_us) {
  if (requested_us_ < 0) return;
  const std::int32_t value = requested_us_ > std::numeric_limits<std::int32_t>::max()
                                 ? std::numeric_limits<std::int32_t>::max()
                                 : static_cast<std::int32_t>(requested_us_);
  const int fd = ::open(kDevice, O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    why_ = std::string(kDevice) + ": " + std::strerror(errno);
    return;
  }
  // The device takes the value as a binary s32 (it also accepts a hex string; binary is exact).
  if (::write(fd, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) {
    why_ = std::string(kDevice) + ": write: " + std::strerror(errno);
    ::close(fd);
    return;
  }
  fd_ = fd;
}

CpuLatencyRequest::~CpuLatencyRequest() {
  // Closing drops the request: the kernel restores the previous aggregate cap.
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace rtpar::detail
