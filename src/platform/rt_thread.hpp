// rt_thread.hpp — creating threads that are pinned and real-time from their first instruction.
#pragma once

#include <pthread.h>

#include <functional>
#include <memory>

#include "rtpar/thread_config.hpp"

namespace rtpar::detail {

// RtThread is a joinable pthread created with its affinity and scheduling class set in the
// attributes, so it never runs on another core or at another priority, not even briefly.
class RtThread {
 public:
  // RtThread starts body on a new thread configured by config. Throws EnvironmentError when the
  // kernel refuses the scheduling class (EPERM) or the CPU, std::system_error otherwise.
  RtThread(const ThreadConfig& config, std::function<void()> body);
  ~RtThread();
  RtThread(const RtThread&) = delete;
  RtThread& operator=(const RtThread&) = delete;

  // join waits for the thread to end (idempotent).
  void join();
  // tid is the Linux thread id, published by the thread as it starts (0 until then).
  [[nodiscard]] int tid() const noexcept;

 private:
  struct Start;
  pthread_t handle_{};
  bool joinable_ = false;
  std::shared_ptr<Start> start_;
};

// apply_to_current_thread pins and schedules the calling thread (used for the master thread of a
// task, which is created by RtThread too, and by tests). Throws like RtThread's constructor.
void apply_to_current_thread(const ThreadConfig& config);

}  // namespace rtpar::detail
