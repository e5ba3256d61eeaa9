// executor.cpp — runs a Plan. Everything is allocated and every thread is created, pinned and
// given its scheduling class before the first release; the control thread then only sleeps,
// reports progress and relays stop signals (platform/stop_signals.hpp) as a stop request.
#include "rtpar/executor.hpp"

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "core/checked_math.hpp"
#include "model/budget_rules.hpp"
#include "model/chain_rules.hpp"
#include "platform/cpu_latency.hpp"
#include "platform/crash_guard.hpp"
#include "platform/futex.hpp"
#include "platform/rt_thread.hpp"
#include "platform/stop_signals.hpp"
#include "runtime/executor/edf_band.hpp"
#include "runtime/executor/keep_alive.hpp"
#include "runtime/executor/release_loop.hpp"
#include "runtime/executor/task_runner.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RTPAR_SANITIZER_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RTPAR_SANITIZER_BUILD 1
#endif
#endif

namespace rtpar {

namespace {

std::string cpu_list(const std::vector<int>& cpus) {
  std::string s;
  for (int c : cpus) s += (s.empty() ? "" : ",") + std::to_string(c);
  return s;
}

// check_runnable refuses plans this machine cannot execute as written.
void check_runnable(const TaskSet& set, const Plan& plan, const RunConfig& config) {
  const SourceLocation file{set.source, 0, 0};
  if (!plan.schedulable && !config.run_refused) {
    throw InputError(file, "", "the plan is not schedulable; run `rtpar check` for the reasons");
  }
  if (!plan_places_every_task(plan)) {
    throw InputError(file, "", "the plan leaves a task without cores; it cannot run");
  }
  if (plan.tasks.size() != set.tasks.size()) {
    throw InputError(file, "", "the plan does not belong to this task set");
  }
  const std::vector<int> online = online_cpus();
  const std::set<int> available(online.begin(), online.end());
  std::vector<int> declared = set.system.cores;
  declared.insert(declared.end(), set.system.nonrt_cores.begin(), set.system.nonrt_cores.end());
  for (int c : declared) {
    if (available.count(c) == 0) {
      throw InputError(set.system.where, "system.cores",
                       "CPU " + std::to_string(c) +
                           " is declared but not online for this process " +
                           "(online: " + cpu_list(online) + "); `rtpar check` can still analyse " +
                           "the task set for that machine");
    }
  }
  for (const TaskPlan& t : plan.tasks) {
    // Every CPU a thread of the task is pinned to: cores, team threads, strands.
    std::vector<int> used = t.cores;
    used.insert(used.end(), t.thread_cores.begin(), t.thread_cores.end());
    for (const SegmentPlan& s : t.segments) {
      for (const StrandPlan& strand : s.strands) used.push_back(strand.core);
    }
    for (int c : used) {
      if (available.count(c) == 0) {
        throw InputError(set.system.where, "system.cores",
                         "task '" + t.name + "' is planned on CPU " + std::to_string(c) +
                             ", which is not online for this process (online: " + cpu_list(online) +
                             "); `rtpar check` can still analyse it");
      }
    }
  }
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    if (!set.tasks[i].code) {
      throw InputError(set.tasks[i].where, "task[" + std::to_string(i) + "].kernel",
                       "task '" + set.tasks[i].name + "' has no code bound" +
                           (set.tasks[i].dag ? std::string(" (a [[task.node]] DAG without a kernel "
                                                           "is for analysis only; name a kernel "
                                                           "to run it)")
                                             : std::string()));
    }
  }
}

// record_capacity is the most jobs a task can release in the run (queue policy bound).
std::int64_t record_capacity(const TaskSpec& t, const RunConfig& config) {
  const std::int64_t window = config.duration.count() - t.phase.count();
  const std::int64_t jobs = window <= 0 ? 0 : (window - 1) / t.period.count() + 1;
  return std::min(jobs, config.max_records_per_task);
}

bool lock_memory(const RunConfig& config) {
#ifdef RTPAR_SANITIZER_BUILD
  // Sanitizer shadow memory spans terabytes of reserved address space: locking it would fail or
  // exhaust memory. Sanitizer builds are for correctness, not latency.
  (void)config;
  return false;
#else
  if (!config.lock_memory) return false;
  if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) return true;
  const int err = errno;
  munlockall();  // leave no partial MCL_FUTURE state behind
  errno = err;
  if (config.best_effort) return false;
  throw EnvironmentError(std::string("mlockall failed: ") + std::strerror(errno),
                         "raise RLIMIT_MEMLOCK (ulimit -l unlimited), run as root, or pass "
                         "--best-effort");
#endif
}

// describe is the message of the exception e: its what(), or a fixed text for non-std types.
// hang_grace is how long after the stop a task's running job may still take before it is taken
// for hung: twice its deadline, four times the longest response the task showed in this run, and
// at least 100 ms. A job that has not returned by then has missed its deadline by a deadline more
// than any the plan admitted, and has run far longer than any of its own jobs did; the second
// term keeps a machine that is merely slow (a sanitizer build, a loaded host) from being
// mistaken for a hang when every job there is slow.
// A sanitizer build runs task code 5-50x slower (ThreadSanitizer most), and its first job has no
// response to scale from: there every term is multiplied by kSlowBuildFactor.
#ifdef RTPAR_SANITIZER_BUILD
constexpr std::int64_t kSlowBuildFactor = 20;
#else
constexpr std::int64_t kSlowBuildFactor = 1;
#endif
std::int64_t hang_grace(const TaskSpec& task, std::int64_t max_response_ns) {
  const std::int64_t observed = sat_mul(4, std::max<std::int64_t>(max_response_ns, 0));
  return sat_mul(kSlowBuildFactor, std::max({sat_mul(2, task.deadline.count()), observed,
                                             std::int64_t{100'000'000}}));
}

// hang_message names a hung task's job for TaskRun::failure.
std::string hang_message(const TaskRun& run) {
  return "hung: job " + std::to_string(run.hung_job) +
         " never returned; its threads were demoted to SCHED_IDLE and left running";
}

// crash_message names a crashed task's signal, job and address for TaskRun::failure.
std::string crash_message(const detail::CrashReport& crash) {
  char address[32];
  std::snprintf(address, sizeof(address), "0x%llx", static_cast<unsigned long long>(crash.address));
  return "crashed: " + std::string(detail::crash_signal_name(crash.signal)) + " at address " +
         address + " in job " + std::to_string(crash.job) +
         "; its threads were left blocked at SCHED_IDLE. The process state may be damaged "
         "(what the code wrote before the fault is not checked)";
}

std::string describe(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

// channel_runs collects each channel's writes and per-reader reads after the run (every user
// joined; reader index k is spec.readers[k], as ChannelSet claims them).
std::vector<ChannelRun> channel_runs(const TaskSet& set, ChannelSet& channels) {
  std::vector<ChannelRun> out;
  for (const ChannelSpec& spec : set.channels) {
    const ByteChannel* channel = channels.channel(spec.name);
    if (channel == nullptr) continue;
    ChannelRun run;
    run.channel = spec.name;
    run.kind = spec.kind;
    run.writer = spec.writer;
    run.writes = channel->writes();
    for (std::size_t k = 0; k < spec.readers.size(); ++k) {
      const ChannelReadCounts c = channel->read_counts(static_cast<int>(k));
      run.readers.push_back({spec.readers[k], c.reads, c.failed, c.tries});
    }
    out.push_back(std::move(run));
  }
  return out;
}

// lock_runs collects each lock channel's per-user records after the run (every user joined).
std::vector<LockRun> lock_runs(const TaskSet& set, ChannelSet& channels) {
  std::vector<LockRun> out;
  for (const ChannelSpec& spec : set.channels) {
    if (spec.kind != ChannelKind::lock) continue;
    const ByteChannel* channel = channels.channel(spec.name);
    if (channel == nullptr) continue;
    LockRun run;
    run.channel = spec.name;
    run.protocol = channel->config().protocol;
    run.declared_hold_ns = channel->config().declared_hold_ns;
    const std::vector<LockUserStats> stats = channel->lock_stats();
    for (std::size_t k = 0; k < stats.size(); ++k) {
      const LockUserStats& s = stats[k];
      const bool unattributed = k == channel->config().user_tasks.size();
      if (unattributed && s.acquisitions == 0) continue;
      LockUserRun user;
      user.task = unattributed ? "(unattributed)"
                  : s.task >= 0 && static_cast<std::size_t>(s.task) < set.tasks.size()
                      ? set.tasks[static_cast<std::size_t>(s.task)].name
                      : std::string(kNonRtEndpoint);
      user.acquisitions = s.acquisitions;
      user.max_hold_ns = s.max_hold_ns;
      user.max_wait_ns = s.max_wait_ns;
      user.hold_overruns = s.hold_overruns;
      run.users.push_back(std::move(user));
    }
    out.push_back(std::move(run));
  }
  return out;
}

// chain_runs measures each chain from its last task's records and the origins its jobs read
// through the chain's last link (every runner joined).
std::vector<ChainMeasure> chain_runs(const TaskSet& set, const Plan& plan,
                                     const std::vector<TaskRun>& tasks,
                                     const ChannelSet& channels) {
  std::vector<ChainMeasure> out;
  for (std::size_t c = 0; c < set.chains.size(); ++c) {
    const ChainSpec& chain = set.chains[c];
    const ChainPlan* bounds = nullptr;
    for (const ChainPlan& p : plan.chains) {
      if (p.name == chain.name) bounds = &p;
    }
    std::vector<ChainSample> samples;
    const std::size_t n = chain.tasks.size();
    const ChannelSpec* link =
        n >= 2 ? model::chain_link(set, chain.tasks[n - 2], chain.tasks[n - 1]) : nullptr;
    for (const TaskRun& run : tasks) {
      if (link == nullptr || run.name != chain.tasks[n - 1]) continue;
      for (const InputOrigins& in : run.input_origins) {
        if (in.channel != link->name) continue;
        for (std::size_t j = 0; j < run.records.size() && j < in.origin_ns.size(); ++j) {
          // A zero stamp is the channel's initial value (or an unstamped write): no data yet.
          samples.push_back({run.records[j].finish_ns, in.origin_ns[j] > 0 ? in.origin_ns[j] : -1});
        }
      }
    }
    const bool traced = channels.chain_traced(c);
    ChainMeasure m =
        measure_chain(chain.name, traced ? samples : std::vector<ChainSample>{}, bounds);
    m.traced = traced;
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

bool plan_places_every_task(const Plan& plan) {
  return std::all_of(plan.tasks.begin(), plan.tasks.end(), [](const TaskPlan& t) {
    if (t.segments.empty()) return !t.cores.empty() || !t.thread_cores.empty();
    return std::all_of(t.segments.begin(), t.segments.end(), [](const SegmentPlan& s) {
      return !s.strands.empty() && std::all_of(s.strands.begin(), s.strands.end(),
                                               [](const StrandPlan& st) { return st.core >= 0; });
    });
  });
}

TaskFailure::TaskFailure(const std::string& task, const std::string& message, RunReport report,
                         std::exception_ptr cause)
    : std::runtime_error("task '" + task + "' failed: " + message),
      report_(std::make_shared<const RunReport>(std::move(report))),
      cause_(std::move(cause)) {}

RunReport execute(const TaskSet& set, const Plan& plan, const RunConfig& config) {
  check_runnable(set, plan, config);
  if (config.duration.count() <= 0) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--duration", "must be > 0");
  }
  // The run ends at now + start_delay + duration on the 64-bit monotonic clock: a sum that
  // overflows would end the run before it starts (0 jobs, "success"), so it is refused.
  std::int64_t latest_end = 0;
  if (config.start_delay.count() < 0 ||
      __builtin_add_overflow(monotonic_now(), config.start_delay.count(), &latest_end) ||
      __builtin_add_overflow(latest_end, config.duration.count(), &latest_end)) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--duration",
                     "'" + format_duration(config.duration) +
                         "' is too long: the end of the run overflows the 64-bit monotonic clock");
  }

  RunReport report;
  report.plan = plan;
  report.best_effort = config.best_effort;
  report.duration_ns = config.duration.count();

  std::unique_ptr<ChannelSet> own_channels;
  ChannelSet* channels = config.channels;
  if (channels == nullptr) {
    own_channels = std::make_unique<ChannelSet>(set, plan, config.best_effort);
    channels = own_channels.get();
  } else if (channels->best_effort() != config.best_effort) {
    throw std::invalid_argument("the channel set was opened for a different best-effort mode");
  }

  // Stop signals: handled for the whole run (a scope `rtpar run` opened earlier makes this one a
  // no-op and outlives it, so it also covers the report writing), and blocked while the threads
  // are created so that only this control thread ever runs the handler.
  std::optional<detail::StopSignals> stop_signals;
  std::optional<detail::BlockStopSignals> blocked;
  if (config.handle_signals) {
    stop_signals.emplace();
    blocked.emplace();
  }
  // The run's control words and EDF ranking live on the heap: a hung task's threads read them
  // after this function returns, so they are kept alive with the runner (keep_alive.hpp).
  auto control_owner = std::make_shared<detail::RunControl>();
  detail::RunControl& control = *control_owner;
  // Partitioned EDF tasks share one ranking per core (runtime/edf_band.hpp); best effort has no
  // SCHED_FIFO priorities to rank, so EDF order is then not enforced (said in the report).
  auto edf_owner = std::make_shared<detail::EdfBand>();
  detail::EdfBand& edf_band = *edf_owner;
  bool any_edf = false;
  for (const TaskPlan& tp : plan.tasks) any_edf = any_edf || tp.scheduling == CoreScheduling::edf;
  if (any_edf && !config.best_effort) control.edf = &edf_band;
  // Crash containment (docs/reliability.md "Crashes"): installed before the first task thread
  // exists and destroyed after the last is joined (runners is declared after it).
  std::optional<detail::CrashGuard> crash_guard;
  if (config.contain_crashes) crash_guard.emplace(set.tasks.size());
  std::vector<std::unique_ptr<detail::Runner>> runners;
  runners.reserve(set.tasks.size());
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    const detail::BudgetRequest budget{model::effective_budget(set, plan, i),
                                       set.system.budget_margin.count()};
    // The team and pool threads made here act for task i (a fault in them is the task's).
    const detail::CrashScope scope(crash_guard ? &*crash_guard : nullptr, static_cast<int>(i));
    runners.push_back(detail::make_runner(set.tasks[i], plan.tasks[i], config.best_effort,
                                          record_capacity(set.tasks[i], config), control,
                                          &channels->endpoint(set.tasks[i].name), budget));
    if (crash_guard) {
      crash_guard->name_task(i, set.tasks[i].name.c_str(), &runners.back()->running_job());
    }
  }
  std::optional<detail::CpuLatencyRequest> cpu_latency;
  try {
    for (std::size_t i = 0; i < runners.size(); ++i) {
      // The master and strand threads made here act for task i too.
      const detail::CrashScope scope(crash_guard ? &*crash_guard : nullptr, static_cast<int>(i));
      runners[i]->start();
    }
    // Locked after every thread exists, so MCL_CURRENT covers their stacks too.
    report.memory_locked = lock_memory(config);
    // Held from before t0 to after the last job: every release wakes from a shallow idle state.
    cpu_latency.emplace(config.best_effort ? -1 : config.cpu_latency_us);
    if (cpu_latency->held()) report.cpu_latency_us = cpu_latency->requested_us();
    report.cpu_latency_refused = cpu_latency->why();
    if (!config.control_cores.empty()) {
      cpu_set_t mask;
      CPU_ZERO(&mask);
      for (const int c : config.control_cores) CPU_SET(c, &mask);
      sched_setaffinity(0, sizeof(mask), &mask);
    }
  } catch (...) {
    // Masters already started wait for `go`; let them see `stop` and leave before unwinding.
    // release (relaxed would do): sequenced before the release store of go below, so a master
    // that acquires go == kGoReleased sees the stop too (RunControl (1), (2)).
    control.stop.store(detail::kStopRequested, std::memory_order_release);
    // release: RunControl (1); start_ns = end_ns = 0 are published with it, so no job is due
    // and every master leaves without releasing one.
    control.go.store(detail::kGoReleased, std::memory_order_release);
    detail::futex_wake(control.go, INT32_MAX);
    throw;
  }

  // Every thread exists and is pinned: fix t0 and release the masters.
  control.start_ns = monotonic_now() + config.start_delay.count();
  // Saturating: the check at the top leaves the setup time as margin, this makes it exact.
  if (__builtin_add_overflow(control.start_ns, config.duration.count(), &control.end_ns)) {
    control.end_ns = INT64_MAX;
  }
  report.start_ns = control.start_ns;
  // release: publishes start_ns/end_ns to the masters' acquire loads of go (RunControl (1)).
  control.go.store(detail::kGoReleased, std::memory_order_release);
  detail::futex_wake(control.go, INT32_MAX);

  // Every thread exists with the stop signals blocked: the control thread takes them from now on.
  blocked.reset();
  const std::int64_t interval = std::max<std::int64_t>(config.progress_interval.count(), 1'000'000);
  for (;;) {
    const std::int64_t now = monotonic_now();
    if (now >= control.end_ns) break;
    const std::int64_t wake = now + std::min(interval, control.end_ns - now);
    if (!config.handle_signals) {
      if (crash_guard) {
        crash_guard->wait_until(wake);
      } else {
        detail::sleep_until(wake);
      }
    } else if (detail::wait_for_stop_signal(wake) != 0) {
      report.interrupted = true;
      break;
    }
    // A task crashed: the run ends at once (docs/reliability.md "Crashes").
    if (crash_guard && crash_guard->any_crashed()) break;
    if (config.progress) {
      std::int64_t jobs = 0;
      std::int64_t misses = 0;
      for (const auto& r : runners) {
        // relaxed: pairs with JobLog::record's relaxed fetch_adds; progress statistics that may
        // lag by a job, nothing is read through them (the records are read after join).
        jobs += r->counters().jobs.load(std::memory_order_relaxed);
        // relaxed: as above.
        misses += r->counters().misses.load(std::memory_order_relaxed);
      }
      config.progress(std::max<std::int64_t>(monotonic_now() - control.start_ns, 0), jobs, misses);
    }
  }
  // From here on a signal no longer stops anything: the run is over and its reports are due.
  if (config.handle_signals) detail::begin_shutdown();
  // Stop releasing (jobs already running finish and are recorded), then collect.
  // release: pairs with the masters' acquire loads of stop (RunControl (2)); it publishes
  // nothing else: what the masters wrote is read after join() (RunControl (3)).
  control.stop.store(detail::kStopRequested, std::memory_order_release);
  detail::futex_wake(control.stop, INT32_MAX);
  // A job still running well after the stop never returns (a hang): its task's threads are
  // demoted and left running, so that the run ends on time with complete reports
  // (docs/reliability.md, "Hangs").
  const std::int64_t stopped = monotonic_now();
  std::vector<bool> hung(runners.size(), false);
  std::vector<std::optional<detail::CrashReport>> crashes(runners.size());
  for (std::size_t i = 0; i < runners.size(); ++i) {
    if (crash_guard) crashes[i] = crash_guard->crashed(i);
    // A crashed task's faulting thread never returns (it is blocked in the handler): it is not
    // waited for; its other threads (a team waiting for the faulted member) are left with it.
    // relaxed: a statistic (RunControl (3) orders nothing here); a stale value only shortens the
    // grace to what an earlier job showed.
    const std::int64_t longest =
        runners[i]->counters().max_response_ns.load(std::memory_order_relaxed);
    hung[i] = crashes[i] ||
              !runners[i]->join_until(sat_add(stopped, hang_grace(set.tasks[i], longest)));
    if (hung[i]) detail::demote_to_idle(runners[i]->thread_ids());
  }
  // A task that crashed while the others were being joined is seen here too, and left like the
  // others (its joined master may own a team whose faulted worker can never be joined).
  for (std::size_t i = 0; crash_guard && i < runners.size(); ++i) {
    if (crashes[i]) continue;
    crashes[i] = crash_guard->crashed(i);
    if (crashes[i] && !hung[i]) {
      hung[i] = true;
      detail::demote_to_idle(runners[i]->thread_ids());
    }
  }
  // A left thread may still fault: its handler and table must stay for the rest of the process.
  if (crash_guard && std::find(hung.begin(), hung.end(), true) != hung.end()) {
    crash_guard->keep_installed();
  }
  if (report.memory_locked) munlockall();
  cpu_latency.reset();  // the run is over: let idle cores sleep deeply again

  std::exception_ptr failure;
  std::string failed_task;
  for (std::size_t i = 0; i < runners.size(); ++i) {
    detail::Runner& r = *runners[i];
    std::exception_ptr e = r.failure();
    if (crashes[i]) {
      // hung_result's records: the crashed job is a record that "finished" now.
      report.tasks.push_back(r.hung_result(monotonic_now()));
      TaskRun& run = report.tasks.back();
      run.hung_job = -1;
      run.crashed_job = crashes[i]->job;
      run.crash_signal = detail::crash_signal_name(crashes[i]->signal);
      e = std::make_exception_ptr(std::runtime_error(crash_message(*crashes[i])));
    } else if (hung[i]) {
      report.tasks.push_back(r.hung_result(monotonic_now()));
      e = std::make_exception_ptr(std::runtime_error(hang_message(report.tasks.back())));
    } else {
      report.tasks.push_back(r.result());
    }
    if (e) {
      report.tasks.back().failure = describe(e);
      if (!failure) {
        failure = e;
        failed_task = report.tasks.back().name;
      }
    }
  }
  for (std::size_t i = 0; i < runners.size(); ++i) {
    // A hung (or crashed) task's threads still use its runner, its channel endpoint and its
    // code: kept alive, and reachable, until the process ends — the caller's TaskSet may be
    // destroyed while they run (keep_alive.hpp).
    if (hung[i]) {
      if (control_owner) detail::keep_alive_forever(std::move(control_owner));
      if (edf_owner) detail::keep_alive_forever(std::move(edf_owner));
      detail::keep_alive_forever(std::move(runners[i]));
      detail::keep_alive_forever(set.tasks[i].code);
      if (own_channels) detail::keep_alive_forever(std::move(own_channels));
    }
  }
  runners.clear();  // joins the team workers
  report.locks = lock_runs(set, *channels);
  report.channels = channel_runs(set, *channels);
  report.chains = chain_runs(set, plan, report.tasks, *channels);
  if (failure) {
    const std::string what = describe(failure);
    throw TaskFailure(failed_task, what, std::move(report), failure);
  }
  return report;
}

}  // namespace rtpar
