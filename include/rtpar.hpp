// rtpar.hpp — the umbrella header: everything a user of rtpar includes, by tier.
//
// User tier (rtpar/):
//   system.hpp        System: load or build a task set, bind code to tasks, check, run, report
//   taskset.hpp       the task model (TaskSet, TaskSpec, ...); task_kinds.hpp its enumerations;
//                     kernel_spec.hpp which code a task runs (described, created only to run);
//                     taskset_file.hpp load_taskset / parse_taskset (TOML, docs/taskset.md)
//   plan.hpp          the Plan: admission control's verdict, the executor's only policy input
//   report.hpp        what a run produced: job records and per-task statistics
//   executor.hpp      execute(): run a Plan on pinned real-time threads
//   team.hpp          fork/join teams (parallel_for_static); wait_policy.hpp how members wait
//   steal.hpp         work stealing: join, Scope, parallel_for, parallel_reduce; steal_config.hpp
//   channel.hpp       lock-free inter-task channels; channel_set.hpp a task's endpoints;
//                     channel_kind.hpp the protocols
//   time.hpp, error.hpp, thread_config.hpp, function_ref.hpp, cpu_relax.hpp   vocabulary
// Extension points (rtpar/ext/): kernel.hpp (Kernel, JobContext): a task's job code.
// C ABI: rtpar/rtpar_kernel.h (task code from a shared object, `kernel = "lib:..."`).
// Tools (rtpar/tools/, not included here): planners.hpp, simulate.hpp, overhead.hpp,
//   calibrate.hpp, topology.hpp, report_io.hpp.
// Not API (rtpar/detail/): included by the user headers only.
#pragma once

#include "rtpar/channel.hpp"
#include "rtpar/channel_kind.hpp"
#include "rtpar/channel_set.hpp"
#include "rtpar/cpu_relax.hpp"
#include "rtpar/error.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/ext/kernel.hpp"
#include "rtpar/function_ref.hpp"
#include "rtpar/kernel_spec.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/steal.hpp"
#include "rtpar/steal_config.hpp"
#include "rtpar/system.hpp"
#include "rtpar/task_kinds.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/taskset_file.hpp"
#include "rtpar/team.hpp"
#include "rtpar/thread_config.hpp"
#include "rtpar/time.hpp"
#include "rtpar/wait_policy.hpp"
