// rtpar/report.hpp — what a run produced: every job's record and per-task statistics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/channel_kind.hpp"
#include "rtpar/plan.hpp"

namespace rtpar {

// JobRecord is one job: absolute CLOCK_MONOTONIC times in ns.
struct JobRecord {
  std::int64_t index = 0;
  std::int64_t release_ns = 0;
  std::int64_t start_ns = 0;
  std::int64_t finish_ns = 0;
  // Online work, span and burdened span of the job (runtime = "steal"; docs/internals/steal.md
  // §5); 0 when the task's runtime does not measure them.
  std::int64_t work_ns = 0;
  std::int64_t span_ns = 0;
  std::int64_t burdened_span_ns = 0;
  // overrun_ns is the CPU time the job used beyond the budget its plan charged (TaskRun::budget_ns)
  // when it overran its budget, 0 otherwise (and when the task has no budget). For a strand-level
  // task: the largest over the task's threads.
  std::int64_t overrun_ns = 0;
};

// ThreadSliceKind is what a thread did during a ThreadSlice.
enum class ThreadSliceKind : std::uint8_t {
  job,      // the master of a one-thread or team task ran a whole job
  segment,  // a strand-level task's thread ran its strands of one segment of a job
  wait,     // a strand-level task's thread waited for the previous segment (its gate)
  overrun,  // CPU time beyond the thread's budget, drawn at the end of its part of the job
  share,    // a team worker ran its share of one fork/join region of a job
  steal,    // a steal-pool worker took part in a job: from joining its run to leaving it (running
            // stolen work or looking for it, at its priority on its CPU)
};

// ThreadSlice is one interval of a thread's life during a job: absolute CLOCK_MONOTONIC ns.
struct ThreadSlice {
  std::int64_t job = 0;  // the job's index (JobRecord::index)
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int32_t segment = -1;  // the segment of a segment or wait slice, -1 otherwise
  ThreadSliceKind kind = ThreadSliceKind::job;
};

// ThreadTrack is one thread of a task and the slices it recorded (docs/cli.md, "trace.json").
// Threads are pinned, so `cpu` (the CPU its plan gave it, -1: unpinned) is where it ran.
struct ThreadTrack {
  int tid = 0;  // Linux thread id (0: unknown)
  int cpu = -1;
  std::string role;  // "master", "strand 1", …
  std::vector<ThreadSlice> slices;
  std::int64_t dropped = 0;  // slices not recorded: the preallocated storage was full
};

// ProfileStats summarises one per-job measurement (work, span or burdened span) over the jobs that
// measured it.
struct ProfileStats {
  std::int64_t p50_ns = 0;
  std::int64_t p99_ns = 0;
  std::int64_t max_ns = 0;
};

// TaskStats summarises one task's jobs. Response = finish - release; a miss is response > D.
struct TaskStats {
  std::string name;
  std::int64_t jobs = 0;
  std::int64_t misses = 0;
  std::int64_t skipped = 0;  // releases dropped by the `skip` overrun policy
  double miss_ratio = 0.0;
  std::int64_t response_min_ns = 0;
  std::int64_t response_p50_ns = 0;
  std::int64_t response_p99_ns = 0;
  std::int64_t response_max_ns = 0;
  double max_relative_response = 0.0;  // max response / D
  // Online work/span (runtime = "steal"): profiled_jobs counts the jobs that measured them.
  std::int64_t profiled_jobs = 0;
  ProfileStats work, span, burdened_span;
  // Budgets (TaskRun's fields of the same names): jobs that overran, the largest CPU time beyond
  // the budget, and the time demoted.
  std::int64_t overruns = 0;
  std::int64_t max_overrun_ns = 0;
  std::int64_t demoted_ns = 0;
};

// InputOrigins is what a task's jobs read through one chain-ending channel: per recorded job,
// the origin stamp (ReadResult::origin_ns) of the last value read from it.
struct InputOrigins {
  std::string channel;
  std::vector<std::int64_t> origin_ns;
};

// TaskRun is the raw outcome for one task: its records and the thread ids that ran it.
struct TaskRun {
  std::string name;
  std::int64_t deadline_ns = 0;
  std::int64_t period_ns = 0;
  std::int64_t skipped = 0;
  bool records_truncated = false;  // more jobs ran than the preallocated record storage held
  bool profiled = false;           // its runtime measures work and span per job (steal)
  std::string failure;             // what its code threw, if it stopped on an exception
  int master_tid = 0;              // Linux thread id of the task's master thread
  std::vector<int> worker_tids;    // thread ids of its team workers
  std::vector<int> cores;
  std::vector<JobRecord> records;
  // input_origins: per channel that ends a cause-effect chain at this task, the origin of the
  // value each recorded job last read from it (aligned with records; 0: none read yet).
  std::vector<InputOrigins> input_origins;
  // budget is the budget mode the task ran with (docs/reliability.md, "Budgets"); budget_ns the
  // CPU time charged per job to its busiest thread (0 when none). budget_note says why a task
  // that asked for a budget ran without one ("" otherwise).
  BudgetMode budget = BudgetMode::none;
  std::int64_t budget_ns = 0;
  std::string budget_note;
  std::int64_t overruns = 0;        // jobs that used more CPU time than their budget
  std::int64_t max_overrun_ns = 0;  // the largest CPU time a job used beyond its budget
  std::int64_t demoted_ns = 0;      // enforce: time its threads spent demoted, summed
  // hung_job is the index of a job that never returned (its thread was left running, demoted to
  // SCHED_IDLE; docs/reliability.md "Hangs"); -1 when none did.
  std::int64_t hung_job = -1;
  // crashed_job is the job during which a thread of the task faulted (SIGSEGV, SIGBUS, SIGFPE,
  // SIGILL; docs/reliability.md "Crashes"), -1 when none did; crash_signal names the signal.
  std::int64_t crashed_job = -1;
  std::string crash_signal;
  // threads are the task's threads with what each executed (empty when its runner records none,
  // e.g. a hung task's); trace.json draws them as per-thread and per-CPU tracks.
  std::vector<ThreadTrack> threads;
};

// LockUserRun is what one user of a lock channel did during a run (runtime/channel/lock.cpp).
struct LockUserRun {
  std::string task;                // task name, "nonrt", or "(unattributed)" (explicit holds
                                   // by a thread that is not a task's master)
  std::int64_t acquisitions = 0;   // accesses
  std::int64_t max_hold_ns = 0;    // longest acquisition-to-release time
  std::int64_t max_wait_ns = 0;    // longest request-to-acquisition time
  std::int64_t hold_overruns = 0;  // holds longer than the channel's declared `hold`
};

// LockRun is one lock channel's record of a run: the protocol it ran and each user's holds.
struct LockRun {
  std::string channel;
  LockProtocol protocol = LockProtocol::ceiling;
  std::int64_t declared_hold_ns = 0;
  std::vector<LockUserRun> users;
};

// ChannelReaderRun is what one reader of a channel did during a run (ChannelReadCounts).
struct ChannelReaderRun {
  std::string task;  // the reading task, or "nonrt"
  std::int64_t reads = 0;
  std::int64_t failed_reads = 0;  // retry: reads that gave up after numtries attempts
  std::int64_t tries = 0;         // attempts over all reads (retry: > reads when it retried)
};

// ChannelRun is one channel's traffic during a run: writes and each reader's reads.
struct ChannelRun {
  std::string channel;
  ChannelKind kind = ChannelKind::latest;
  std::string writer;
  std::int64_t writes = 0;  // 0: readers only ever read the initial zeros
  std::vector<ChannelReaderRun> readers;
};

// ChainSample is one output of a chain's last task: when its job finished and the origin (the
// release time of the chain's first job) of the data it used; origin < 0: none yet.
struct ChainSample {
  std::int64_t finish_ns = 0;
  std::int64_t origin_ns = 0;
};

// ChainMeasure is a chain's measured end-to-end latency (run or simulation) beside its bounds.
// Data age = finish − origin of every output; reaction = for each origin, the first output that
// used it, finish − origin (the bound adds the sampling delay of an input arriving just after a
// release, which a release-stamped measurement cannot see: docs/analysis.md "Cause-effect
// chains").
struct ChainMeasure {
  std::string name;
  bool traced = true;        // false: a link carries another chain's origins (not measured)
  std::int64_t samples = 0;  // outputs that used stamped data
  std::int64_t origins = 0;  // distinct origins seen (reaction samples)
  std::int64_t age_p50_ns = 0, age_p99_ns = 0, age_max_ns = 0;
  std::int64_t reaction_p99_ns = 0, reaction_max_ns = 0;
  std::optional<std::int64_t> age_bound_ns;  // the plan's bounds, copied (ChainPlan)
  std::optional<std::int64_t> reaction_bound_ns;
  // within_bounds: every measured age and reaction is at most its bound (true without bounds).
  [[nodiscard]] bool within_bounds() const noexcept {
    return (!age_bound_ns || age_max_ns <= *age_bound_ns) &&
           (!reaction_bound_ns || reaction_max_ns <= *reaction_bound_ns);
  }
};

// measure_chain summarises a chain's outputs (in finish order; samples with origin < 0 — no
// stamped data yet — are skipped) into a ChainMeasure named `name` with the plan's bounds of
// `bounds` (nullptr: none).
ChainMeasure measure_chain(const std::string& name, const std::vector<ChainSample>& samples,
                           const ChainPlan* bounds);

// RunReport is the whole run.
struct RunReport {
  std::int64_t start_ns = 0;     // CLOCK_MONOTONIC time of the first possible release
  std::int64_t duration_ns = 0;  // requested run length
  bool best_effort = false;      // ran without real-time scheduling (said in every output)
  bool interrupted = false;      // stopped early by SIGINT/SIGTERM
  bool memory_locked = false;    // mlockall succeeded
  // cpu_latency_us is the CPU latency QoS cap held during the run in µs
  // (RunConfig::cpu_latency_us); -1: none held. cpu_latency_refused says why a requested cap was
  // not held ("" otherwise).
  std::int64_t cpu_latency_us = -1;
  std::string cpu_latency_refused;
  Plan plan;
  std::vector<TaskRun> tasks;
  std::vector<LockRun> locks;        // one per lock channel, file order
  std::vector<ChannelRun> channels;  // one per [[channel]], file order
  std::vector<ChainMeasure> chains;  // one per [[chain]], file order
  // overhead_profile is the overhead profile the plan charged (its file; "" when none was), and
  // host_steal_ns the time the hypervisor stole from the real-time cores during the run
  // (/proc/stat; nullopt when unknown). Set by `rtpar run`; they explain a broken bound in the
  // verdict (report/run_verdict.hpp).
  std::string overhead_profile;
  std::optional<std::int64_t> host_steal_ns;

  // total_hold_overruns sums the holds longer than declared over all locks: each is a broken
  // assumption of the admission test, reported like a deadline miss.
  [[nodiscard]] std::int64_t total_hold_overruns() const;

  // stats computes per-task statistics from the records (in TaskRun order).
  [[nodiscard]] std::vector<TaskStats> stats() const;
  // total_misses sums deadline misses over all tasks.
  [[nodiscard]] std::int64_t total_misses() const;
};

// summarize computes TaskStats for one task's records.
TaskStats summarize(const TaskRun& run);

// percentile returns the nearest-rank q-quantile (0 < q ≤ 1) of sorted values; 0 when empty.
std::int64_t percentile(const std::vector<std::int64_t>& sorted, double q);

}  // namespace rtpar
