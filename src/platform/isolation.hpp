// isolation.hpp — removing the kernel's interference from the real-time cores for one run, and
// putting every setting back: `rtpar run --isolate` / `[system] isolate = true` (docs/cli.md).
//
// What changes (each only where the kernel permits it; interference.hpp names the files):
//  * the fair server's runtime of every real-time CPU → 0 (debugfs; mounted first if absent);
//  * RT throttling off (sched_rt_runtime_us = -1; global: a runaway SCHED_FIFO thread then owns
//    its core), so that no kernel mechanism keeps a share of the real-time cores;
//  * every IRQ's affinity (/proc/irq/N/smp_affinity_list) → the non-real-time CPUs, when there
//    are some; IRQs that refuse (per-CPU ones) are counted and left alone.
// Restoring: before anything changes, the old values are written to a restore record (JSON,
// restore_record_path) with this process's pid; Isolation's destructor writes them back and
// deletes it. A process that dies first (SIGKILL, a crash) leaves the record behind, and the next
// `rtpar run` applies it (apply_leftover_record) before anything else.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rtpar::platform {

// kDefaultStateDir is where the restore record lives unless RTPAR_STATE_DIR says otherwise: a
// runtime directory (tmpfs, cleared at boot, when the settings are back to their boot values too).
inline constexpr const char* kDefaultStateDir = "/run/rtpar";

// state_dir is $RTPAR_STATE_DIR when set and non-empty, else kDefaultStateDir.
std::string state_dir();

// restore_record_path is the record's file in `dir`.
std::string restore_record_path(const std::string& dir);

// IsolationConfig says what to isolate, and where the files are.
struct IsolationConfig {
  std::string root = "/";                    // filesystem root (tests use a fake tree)
  std::string state_dir = kDefaultStateDir;  // where the restore record goes
  std::vector<int> rt_cpus;                  // the real-time cores
  std::vector<int> housekeeping_cpus;        // where IRQs go; empty: IRQs stay where they are
  bool mount_debugfs = true;  // mount debugfs when the fair server's files are missing
};

// IsolationOutcome is what the isolation achieved.
struct IsolationOutcome {
  std::vector<int> fair_server_zeroed;           // CPUs whose fair-server runtime is 0 now
  std::optional<std::string> fair_server_error;  // why some CPU's could not be set
  bool rt_throttling_off = false;                // sched_rt_runtime_us is -1 now
  std::optional<std::string> rt_throttling_error;
  int irqs_moved = 0;    // IRQs now on the housekeeping CPUs
  int irqs_refused = 0;  // IRQs whose affinity could not be changed
  std::string irq_note;  // why no IRQ was moved, when none was tried
  // complete says every mechanism that can interfere is off on every real-time CPU.
  [[nodiscard]] bool complete() const { return !fair_server_error && rt_throttling_off; }
  // summary is one line for the plan and the report.
  [[nodiscard]] std::string summary() const;
};

// Isolation applies an IsolationConfig for its lifetime (RAII) and restores on destruction.
class Isolation {
 public:
  // Isolation writes the restore record, then changes the settings. Throws EnvironmentError
  // (exit 3) when not root, when another live process holds a record, or when nothing could be
  // changed; the record is then removed again.
  explicit Isolation(IsolationConfig config);
  ~Isolation();
  Isolation(const Isolation&) = delete;
  Isolation& operator=(const Isolation&) = delete;

  // restore writes the old values back and deletes the record; later calls do nothing. Errors go
  // to stderr (a restore must not throw from a destructor).
  void restore() noexcept;
  [[nodiscard]] const IsolationOutcome& outcome() const noexcept { return outcome_; }

 private:
  IsolationConfig config_;
  IsolationOutcome outcome_;
  bool restored_ = false;
};

// apply_leftover_record applies and deletes a record whose process is gone; returns a message
// for stderr when it did ("" when there was none, or when its process still runs). Idempotent.
std::string apply_leftover_record(const std::string& state_dir);

}  // namespace rtpar::platform
