// engine.cpp — run_engine (rules in engine.hpp).
#include "sim/engine.hpp"

#include <algorithm>
#include <deque>
#include <optional>
#include <set>
#include <utility>

#include "core/checked_math.hpp"
#include "sim/engine_state.hpp"
#include "sim/execution_draw.hpp"
#include "sim/gate_waits.hpp"
#include "sim/lock_sections.hpp"
#include "sim/node_queue.hpp"
#include "sim/overhead_draw.hpp"

namespace rtpar::sim {

namespace {

// queue_model is the engine's NodeQueue policy for a team model.
QueueModel queue_model(TeamModel model) {
  switch (model) {
    case TeamModel::centralized:
      return QueueModel::centralized;
    case TeamModel::steal:
      return QueueModel::steal;
    case TeamModel::greedy:
      break;
  }
  return QueueModel::greedy;
}

// kIdle, kThief: next_node's answers for a thread with nothing to run, and for one that would
// run no node but a steal attempt or a spawn.
constexpr int kIdle = -1, kThief = -2;

// Engine runs one simulation. Time sums saturate (sat_add): a time past 2^63 − 1 ns is "never"
// (kNeverNs), which is what it needs on absurd horizons, periods and lengths.
class Engine {
 public:
  Engine(const SimModel& model, const EngineParams& params)
      : m_(model),
        params_(params),
        horizon_(params.horizon_ns),
        record_(params.settings.record_jobs) {
    threads_.resize(m_.threads.size());
    pinned_.resize(m_.threads.size());
    core_threads_.resize(m_.cpus.size());
    running_.assign(m_.cpus.size(), -1);
    for (std::size_t th = 0; th < m_.threads.size(); ++th) {
      core_threads_[static_cast<std::size_t>(m_.threads[th].core)].push_back(static_cast<int>(th));
    }
    // Every core is decided at the first dispatch; afterwards only the ones an event touched.
    evaluate_.assign(m_.cpus.size(), 1);
    refresh_.assign(m_.cpus.size(), 1);
    task_cores_.resize(m_.tasks.size());
    worker_of_.assign(m_.threads.size(), 0);
    for (const SimTask& t : m_.tasks) {
      for (std::size_t w = 0; w < t.threads.size(); ++w) {
        worker_of_[static_cast<std::size_t>(t.threads[w])] = static_cast<int>(w);
      }
    }
    for (const SimThread& th : m_.threads) {
      std::vector<int>& cores = task_cores_[static_cast<std::size_t>(th.task)];
      if (std::find(cores.begin(), cores.end(), th.core) == cores.end()) cores.push_back(th.core);
    }
    tasks_.resize(m_.tasks.size());
    out_.tasks.resize(m_.tasks.size());
    std::int64_t longest_deadline = 0;
    for (std::size_t i = 0; i < m_.tasks.size(); ++i) {
      const SimTask& t = m_.tasks[i];
      TaskState& s = tasks_[i];
      s.next_release = t.phase;
      s.preds.resize(t.nodes.size());
      s.untaken.resize(t.nodes.size());
      s.outstanding.resize(t.nodes.size());
      s.length.resize(t.nodes.size());
      // Thieves only where there is shared work: pinned strands' threads would only spin.
      const bool shared = std::any_of(t.nodes.begin(), t.nodes.end(), [](const SimNode& n) {
        return n.thread < 0 && n.length > 0;
      });
      NodeQueueParams qp{
          queue_model(params.settings.team_model), params.settings.queue_lock_ns,
          params.settings.queue_contention_ns, params.settings.queue_grain_ns, {},
          params.settings.steal_cost_ns, params.settings.steal_attempt_ns,
          static_cast<int>(t.threads.size()), params.settings.seed, t.set_index, shared};
      if (qp.grain_ns > 0) {
        for (const SimNode& n : t.nodes) qp.lengths.push_back(n.length);
      }
      s.queue.emplace(std::move(qp));
      out_.tasks[i].deadline_ns = t.deadline;
      longest_deadline = std::max(longest_deadline, t.deadline);
    }
    stop_ = sat_add(horizon_, longest_deadline);
    for (std::size_t i = 0; i < m_.tasks.size(); ++i) retime(static_cast<int>(i));
  }

  EngineOutput run() {
    std::int64_t t = 0;
    for (;;) {
      // The tasks with a release or an offset due; each is independent of the others here (it
      // changes only its own job, pool and pinned nodes), so their order does not matter.
      while (!timers_.empty() && timers_.begin()->first <= t) {
        const int ti = timers_.begin()->second;
        release_due(ti, t);
        offsets_due(ti, t);
        retime(ti);
      }
      dispatch(t);
      ++out_.events;
      std::int64_t next = timers_.empty() ? kNeverNs : timers_.begin()->first;
      for (const int th : running_) {
        if (th >= 0) {
          next = std::min(next, sat_add(t, threads_[static_cast<std::size_t>(th)].left));
        }
      }
      if (next == kNeverNs) break;  // nothing released, ready or pending: every job is done
      if (next > stop_) {
        t = stop_;
        break;
      }
      for (const int th : running_) {
        // A thread spinning for a global lock makes no progress (its section starts at the grant).
        if (th >= 0 && !threads_[static_cast<std::size_t>(th)].lock_spin) {
          threads_[static_cast<std::size_t>(th)].left -= next - t;
        }
      }
      t = next;
      for (const int th : running_) {
        // holds: a spin cut short by its node becoming eligible holds nothing any more.
        if (th >= 0 && holds(th) && threads_[static_cast<std::size_t>(th)].left == 0) {
          finish_piece(th, t);
        }
      }
    }
    finish(t);
    if (locks_.active()) out_.locks = locks_.results();
    return std::move(out_);
  }

 private:
  const SimTask& task(int i) const { return m_.tasks[static_cast<std::size_t>(i)]; }

  // retime files task ti in timers_ under its next release (before the horizon) or offset.
  void retime(int ti) {
    TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    std::int64_t at = s.next_release < horizon_ ? s.next_release : kNeverNs;
    if (!s.pending.empty()) at = std::min(at, s.pending.begin()->first);
    at = std::min(at, s.queue->next_due());
    if (at == s.timer) return;
    if (s.timer != kNeverNs) timers_.erase({s.timer, ti});
    if (at != kNeverNs) timers_.emplace(at, ti);
    s.timer = at;
  }

  // mark says that core c's choice may have changed: it is decided again at this dispatch (if
  // its turn has not come yet) or the next one, and its threads' readiness is re-read at the next.
  void mark(int c) {
    evaluate_[static_cast<std::size_t>(c)] = 1;
    refresh_[static_cast<std::size_t>(c)] = 1;
  }

  // mark_task marks every core that runs a thread of task ti (its shared pool changed).
  void mark_task(int ti) {
    for (const int c : task_cores_[static_cast<std::size_t>(ti)]) mark(c);
  }

  // mark_thread marks the core of thread th (its own node or pinned nodes changed).
  void mark_thread(int th) { mark(m_.threads[static_cast<std::size_t>(th)].core); }

  void release_due(int ti, std::int64_t t) {
    const auto i = static_cast<std::size_t>(ti);
    TaskState& s = tasks_[i];
    while (s.next_release <= t && s.next_release < horizon_) {
      const std::int64_t r = s.next_release;
      s.next_release = sat_add(s.next_release, m_.tasks[i].period);
      if (!s.active) {
        start_job(ti, r, t);
      } else if (m_.tasks[i].overrun == OverrunPolicy::queue) {
        s.queued.push_back(r);
      } else {
        ++out_.tasks[i].skipped;
      }
    }
  }

  void offsets_due(int ti, std::int64_t t) {
    TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    while (!s.pending.empty() && s.pending.begin()->first <= t) {
      const int n = s.pending.begin()->second;
      s.pending.erase(s.pending.begin());
      make_ready(ti, n, t);
    }
    if (s.queue->advance(t)) mark_task(ti);
  }

  void start_job(int ti, std::int64_t release, std::int64_t t) {
    TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    const SimTask& tk = task(ti);
    s.active = true;
    s.release = release;
    s.done = 0;
    ++out_.tasks[static_cast<std::size_t>(ti)].jobs;
    // The release index k of release = φ + k·T (exact: releases are generated that way).
    const auto job = static_cast<std::uint64_t>((release - tk.phase) / tk.period);
    s.queue->start_job(job);
    std::uint64_t instance = 0;
    const JobDraws draws{params_.settings.seed, params_.settings.execution_min_ppm,
                         params_.settings.execution_max_ppm, tk.set_index, job};
    for (std::size_t n = 0; n < tk.nodes.size(); ++n) {
      const SimNode& node = tk.nodes[n];
      const std::int64_t length = job_length(node, n, draws, instance);
      s.length[n] = length;
      s.preds[n] = node.predecessors;
      s.untaken[n] = length;
      s.outstanding[n] = 0;
    }
    if (locks_.active()) locks_.start_job(ti, job, s.length);
    gates_.start_job(tk);
    for (std::size_t n = 0; n < tk.nodes.size(); ++n) {
      if (tk.nodes[n].predecessors == 0) make_eligible(ti, static_cast<int>(n), t);
    }
    for (const int th : tk.threads) maybe_spin(th, t);
  }

  // maybe_spin starts thread th's spin at a gate (Busy::spin, SimNode::spin of CPU time, at the
  // node's priority) when it has nothing in hand or eligible and its next own node of the job
  // waits for predecessors after its offset has passed — the dispatcher's member between its
  // strands of segment j − 1 (or its commit) and gate j − 1 (wait_gate). The spin ends when it
  // has run that long (the thread then sleeps) or when the node becomes eligible (make_ready).
  // A node whose offset is still ahead is slept for, as the member sleeps until it.
  void maybe_spin(int th, std::int64_t t) {
    ThreadState& ts = threads_[static_cast<std::size_t>(th)];
    const int ti = m_.threads[static_cast<std::size_t>(th)].task;
    const TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    if (holds(th) || !s.active || !pinned_[static_cast<std::size_t>(th)].empty()) return;
    const int n = gates_.waiting(th, task(ti), s.untaken, s.preds, s.release, t);
    if (n < 0) return;
    const SimNode& node = task(ti).nodes[static_cast<std::size_t>(n)];
    ts.busy = Busy::spin;
    ts.spin_node = n;
    ts.left = node.spin;
    mark_thread(th);
  }

  // make_eligible: node n of task ti has no unfinished predecessor at t; `by` is the thread whose
  // completion enabled it (−1: the release, or an offset later).
  void make_eligible(int ti, int n, std::int64_t t, int by = -1) {
    TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    const std::int64_t at = sat_add(s.release, task(ti).nodes[static_cast<std::size_t>(n)].offset);
    if (at > t) {
      s.pending.emplace(at, n);
      retime(ti);
    } else {
      make_ready(ti, n, t, by);
    }
  }

  void make_ready(int ti, int n, std::int64_t t, int by = -1) {
    const SimNode& node = task(ti).nodes[static_cast<std::size_t>(n)];
    if (tasks_[static_cast<std::size_t>(ti)].length[static_cast<std::size_t>(n)] == 0) {
      node_done(ti, n, t, by);  // an empty node: its successors are enabled by the same thread
    } else if (node.thread >= 0) {
      pinned_[static_cast<std::size_t>(node.thread)].insert(n);
      ThreadState& waiter = threads_[static_cast<std::size_t>(node.thread)];
      if (waiter.busy == Busy::spin) {
        waiter.busy = Busy::no;  // the gate opened: the spin ends here, the node is taken next
        waiter.left = 0;
      }
      mark_thread(node.thread);
    } else if (by >= 0 && params_.settings.team_model == TeamModel::steal &&
               params_.settings.spawn_cost_ns > 0) {
      threads_[static_cast<std::size_t>(by)].spawning.push_back(n);  // pushed after the spawn
    } else if (tasks_[static_cast<std::size_t>(ti)].queue->push(
                   n, t, by >= 0 ? worker_of_[static_cast<std::size_t>(by)] : -1)) {
      mark_task(ti);
    } else {
      retime(ti);  // enqueued under the lock: takeable when the hold ends (offsets_due)
    }
  }

  // node_done: node n of task ti finished at t, by thread `by` (−1: none, an empty node).
  void node_done(int ti, int n, std::int64_t t, int by = -1) {
    TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    const SimTask& tk = task(ti);
    ++s.done;
    for (const int succ : tk.nodes[static_cast<std::size_t>(n)].successors) {
      if (--s.preds[static_cast<std::size_t>(succ)] == 0) make_eligible(ti, succ, t, by);
    }
    if (s.done == tk.nodes.size()) job_done(ti, t);
  }

  void job_done(int ti, std::int64_t t) {
    TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    SimTaskResult& r = out_.tasks[static_cast<std::size_t>(ti)];
    const std::int64_t response = t - s.release;
    const bool missed = response > task(ti).deadline;
    ++r.completed;
    if (missed) ++r.misses;
    r.relative_response_sum +=
        static_cast<double>(response) / static_cast<double>(task(ti).deadline);
    r.max_response_ns = std::max(r.max_response_ns.value_or(0), response);
    if (record_) r.jobs_log.push_back(SimJob{s.release, t, missed});
    s.active = false;
    if (s.queue->steals()) mark_task(ti);  // its idle workers stop trying to steal
    if (!s.queued.empty()) {
      const std::int64_t next = s.queued.front();
      s.queued.pop_front();
      start_job(ti, next, t);
    }
  }

  // next_node is the node thread th would work on: the one in hand, else its first eligible
  // pinned node, else the first its task's NodeQueue gives it; kThief when it holds an attempt or
  // a spawn, or would try to steal (steal model, its job running); -1 when there is none.
  int next_node(int th) const {
    const ThreadState& ts = threads_[static_cast<std::size_t>(th)];
    if (ts.node >= 0) return ts.node;
    if (ts.busy == Busy::spin) return ts.spin_node;  // ready at the priority it waits with
    if (ts.busy != Busy::no) return kThief;
    const std::set<int>& mine = pinned_[static_cast<std::size_t>(th)];
    if (!mine.empty()) return *mine.begin();
    const TaskState& s =
        tasks_[static_cast<std::size_t>(m_.threads[static_cast<std::size_t>(th)].task)];
    const int n = s.queue->front(worker_of_[static_cast<std::size_t>(th)]);
    if (n < 0 && s.active && s.queue->steals()) return kThief;
    return n;
  }

  // urgency of thread th about to run node n; a thief (kThief) has its task's node 0's (a team's
  // nodes share the task's priority and deadline).
  Urgency urgency(int th, int n) const {
    const int ti = m_.threads[static_cast<std::size_t>(th)].task;
    const SimNode& node = task(ti).nodes[static_cast<std::size_t>(n < 0 ? 0 : n)];
    if (task(ti).supply) return Urgency{3, 0};  // the core is not supplied: above everything
    int priority = node.priority;
    if (locks_.active()) {
      const LockMode mode = locks_.mode(th);
      // MSRP: requesting or holding a global lock, nothing of the core's tasks preempts it.
      if (mode == LockMode::nonpreemptive) return Urgency{2, 0};
      if (mode == LockMode::ceiling) priority = std::max(priority, locks_.ceiling(th));
    }
    if (task(ti).edf) {
      return Urgency{1, -sat_add(tasks_[static_cast<std::size_t>(ti)].release, node.deadline)};
    }
    return Urgency{0, priority};
  }

  // dispatch decides the cores whose choice may have changed since they were last decided (every
  // core whose threads' nodes, pinned nodes or pool changed is marked); an unmarked core keeps
  // its thread, which is what deciding it again would give: its running thread holds a piece and
  // no other thread's readiness or urgency changed. The readiness snapshot (ready_since, for
  // ties) is taken at the start of the dispatch, as if over every thread, since an unmarked
  // thread's readiness did not change.
  void dispatch(std::int64_t t) {
    for (std::size_t c = 0; c < core_threads_.size(); ++c) {
      if (refresh_[c] == 0) continue;
      refresh_[c] = 0;
      for (const int th : core_threads_[c]) {
        ThreadState& ts = threads_[static_cast<std::size_t>(th)];
        const bool ready = next_node(th) != kIdle;
        if (ready && !ts.ready) ts.ready_since = t;
        ts.ready = ready;
      }
    }
    // In core order, like a decision over all cores: a take on core c that changes a pool marks
    // the later cores for this pass and the earlier ones (and c) for the next.
    for (std::size_t c = 0; c < core_threads_.size(); ++c) {
      if (evaluate_[c] == 0) continue;
      evaluate_[c] = 0;
      int best = -1;
      Urgency best_u;
      for (const int th : core_threads_[c]) {
        const int n = next_node(th);  // re-read: a teammate may have just emptied the pool
        if (n == kIdle) continue;
        const Urgency u = urgency(th, n);
        if (best < 0 || u > best_u || (u == best_u && wins_tie(th, best, running_[c]))) {
          best = th;
          best_u = u;
        }
      }
      const int previous = running_[c];
      if (previous >= 0 && previous != best && holds(previous)) {
        // Switched out holding a piece: a preemption (a finished piece has node −1 here).
        threads_[static_cast<std::size_t>(previous)].preempted = true;
        ++out_.tasks[static_cast<std::size_t>(m_.threads[static_cast<std::size_t>(previous)].task)]
              .preemptions;
      }
      running_[c] = best;
      if (best < 0) continue;
      ThreadState& chosen = threads_[static_cast<std::size_t>(best)];
      if (!holds(best)) take(best, t);
      if (chosen.preempted) {
        // Resumes: the context switch is execution of its own piece, charged once.
        chosen.preempted = false;
        // A lock spinner (preempted only by a supply blackout) just spins on: no piece to grow.
        if (!chosen.lock_spin)
          chosen.left = add_or_throw(chosen.left, params_.settings.context_switch_ns,
                                     "a piece with its context switches");
      }
    }
  }

  // wins_tie orders equally urgent threads: the one that ran last on the core, then the one
  // ready the longest, then the lower index.
  bool wins_tie(int a, int b, int last) const {
    if (a == last || b == last) return a == last;
    const std::int64_t ra = threads_[static_cast<std::size_t>(a)].ready_since;
    const std::int64_t rb = threads_[static_cast<std::size_t>(b)].ready_since;
    return ra != rb ? ra < rb : a < b;
  }

  // holds: thread th has something in hand (a node's piece, an attempt or a spawn).
  bool holds(int th) const {
    const ThreadState& ts = threads_[static_cast<std::size_t>(th)];
    return ts.node >= 0 || ts.busy != Busy::no;
  }

  void take(int th, std::int64_t t) {
    ThreadState& ts = threads_[static_cast<std::size_t>(th)];
    const int ti = m_.threads[static_cast<std::size_t>(th)].task;
    TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    std::set<int>& mine = pinned_[static_cast<std::size_t>(th)];
    const bool pinned = !mine.empty();
    const Take got = pinned ? Take{*mine.begin(), 0, -1, false}
                            : s.queue->take(worker_of_[static_cast<std::size_t>(th)], t);
    if (got.node < 0) {
      ts.busy = Busy::attempt;  // a failed steal attempt: try again when it ends
      ts.left = got.cost;
      return;
    }
    const int n = got.node;
    const SimNode& node = task(ti).nodes[static_cast<std::size_t>(n)];
    const std::int64_t begin =
        s.length[static_cast<std::size_t>(n)] - s.untaken[static_cast<std::size_t>(n)];
    const std::int64_t piece = node.piece > 0
                                   ? std::min(node.piece, s.untaken[static_cast<std::size_t>(n)])
                                   : s.untaken[static_cast<std::size_t>(n)];
    s.untaken[static_cast<std::size_t>(n)] -= piece;
    ++s.outstanding[static_cast<std::size_t>(n)];
    if (s.untaken[static_cast<std::size_t>(n)] == 0) {
      if (pinned) {
        mine.erase(mine.begin());
        mark_thread(th);
      } else {
        s.queue->used_up(got);
        mark_task(ti);
      }
    }
    ts.node = n;
    ts.left = add_or_throw(piece, got.cost, "a piece with its take cost");  // pinned: cost 0
    if (locks_.active()) ts.left = locks_.take(th, ti, n, begin, piece, got.cost);  // its steps
  }

  void finish_piece(int th, std::int64_t t) {
    ThreadState& ts = threads_[static_cast<std::size_t>(th)];
    const int ti = m_.threads[static_cast<std::size_t>(th)].task;
    TaskState& s = tasks_[static_cast<std::size_t>(ti)];
    mark_thread(th);
    if (ts.busy != Busy::no) {
      // An attempt or a spin that ran its course (a spinner sleeps until its node is eligible),
      // or a spawn, whose nodes go to the bottom of its deque in the order they were enabled.
      if (ts.busy == Busy::spawn) {
        for (const int n : ts.spawning) {
          s.queue->push(n, t, worker_of_[static_cast<std::size_t>(th)]);
        }
        ts.spawning.clear();
        mark_task(ti);
      }
      ts.busy = Busy::no;
      return;
    }
    if (locks_.active() && lock_step(th, t)) return;
    const int n = ts.node;
    ts.node = -1;
    if (--s.outstanding[static_cast<std::size_t>(n)] == 0 &&
        s.untaken[static_cast<std::size_t>(n)] == 0) {
      node_done(ti, n, t, th);
    }
    if (!ts.spawning.empty()) {
      // Spawning what it enabled takes spawn_cost_ns per node, on its core, before the push.
      ts.busy = Busy::spawn;
      ts.left = mul_or_throw(static_cast<std::int64_t>(ts.spawning.size()),
                             params_.settings.spawn_cost_ns, "a spawn piece");
      return;
    }
    maybe_spin(th, t);
  }

  // lock_step ends the current step of thread th's piece at t (lock_sections.hpp): true when the
  // piece goes on with a next step (a section, or the execution after one), which it sets up.
  // A waiter granted the lock th released starts its section now.
  bool lock_step(int th, std::int64_t t) {
    const LockStep step = locks_.next(th, t);
    if (step.granted >= 0) {
      ThreadState& waiter = threads_[static_cast<std::size_t>(step.granted)];
      waiter.lock_spin = false;
      waiter.left = step.granted_left;
    }
    if (!step.more) return false;
    ThreadState& ts = threads_[static_cast<std::size_t>(th)];
    ts.left = step.left;
    ts.lock_spin = step.spin;
    return true;
  }

  // finish closes the books at time t: unfinished jobs (current and queued) whose deadline has
  // passed are misses; with t = stop_ that is all of them.
  void finish(std::int64_t t) {
    out_.end_ns = t;
    for (std::size_t i = 0; i < tasks_.size(); ++i) {
      const TaskState& s = tasks_[i];
      SimTaskResult& r = out_.tasks[i];
      std::vector<std::int64_t> open(s.queued.begin(), s.queued.end());
      if (s.active) open.insert(open.begin(), s.release);
      r.jobs += static_cast<std::int64_t>(s.queued.size());
      for (const std::int64_t release : open) {
        const bool missed = sat_add(release, m_.tasks[i].deadline) <= t;
        if (missed) ++r.misses;
        if (record_) r.jobs_log.push_back(SimJob{release, -1, missed});
      }
    }
  }

  const SimModel& m_;
  EngineParams params_;
  std::int64_t horizon_;
  bool record_;
  std::int64_t stop_ = 0;
  std::vector<ThreadState> threads_;
  std::vector<std::set<int>> pinned_;         // eligible pinned nodes per thread
  GateWaits gates_{m_};                       // strand plans: the gate each thread waits at
  LockSections locks_{m_, params_.settings};  // the lock channels' sections and protocols
  std::vector<std::vector<int>> core_threads_;
  std::vector<std::vector<int>> task_cores_;  // the cores of each task's threads
  std::vector<int> worker_of_;                // each thread's index in its task's SimTask::threads
  std::vector<std::uint8_t> evaluate_;        // per core: decide it again (mark)
  std::vector<std::uint8_t> refresh_;         // per core: re-read its threads' readiness (mark)
  std::set<std::pair<std::int64_t, int>> timers_;  // (next release or offset, task)
  std::vector<int> running_;  // thread running on each core in the current interval, or -1
  std::vector<TaskState> tasks_;
  EngineOutput out_;
};

}  // namespace

EngineOutput run_engine(const SimModel& model, const EngineParams& params) {
  return Engine(model, params).run();
}

}  // namespace rtpar::sim
