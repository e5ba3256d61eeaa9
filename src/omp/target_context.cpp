// target_context.cpp — the initial-thread context of a host-fallback `target` region (OpenMP
// 5.1 §2.14.5: the target region's initial task runs on a new initial thread of the device).
//
// Without offload devices a target region runs on the encountering thread, but not in its
// context: inside the region omp_get_level() is 0, omp_get_num_threads() is 1, the team number
// is 0 of 1 and the ICVs are the device's initial ones (thread-limit-var from the thread_limit
// clause), as libgomp's host fallback gives it a fresh thread state. The context — a root team of
// one with its implicit task, its work-share numbering and its own cache of teams for the
// parallel regions inside — is built on the thread's first target region and reused after, so a
// target region allocates nothing after the first. Target regions do not nest (a target inside a
// target region is non-conforming); one context per thread suffices.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>

#include "omp/runtime.hpp"

namespace rtpar::omp {

// TargetContext is one thread's host-fallback initial-thread context (runtime.hpp).
struct TargetContext {
  TeamState root;              // the fresh root team of one (level 0)
  Task task;                   // its initial task
  MemberContext member;        // the thread's context in it between target regions
  TeamCache* teams = nullptr;  // the teams of the parallel regions inside target regions
  bool in_use = false;         // a target region is running in this context
  // busy: the worker count of the contention group the target region starts (thread-limit-var
  // counts the threads of this group only). relaxed: as parallel.cpp's busy_threads.
  std::atomic<int> busy{0};
};

namespace {

// make_context builds ts's TargetContext (first target region of the thread).
TargetContext* make_context(const ThreadState& ts) {
  auto* c = new TargetContext;
  TeamState& r = c->root;
  r.nthreads = 1;
  r.level = 0;
  r.active_level = 0;
  r.members = std::make_unique<ThreadState*[]>(1);
  r.wait = ts.root.wait;
  r.busy = &c->busy;
  // Slot i starts "free for construct i" (work_share.cpp), as for the thread's own root team.
  // relaxed: the context is private to this thread.
  for (int i = 0; i < kWorkShareRing; ++i) {
    r.ring[i].state.store(static_cast<std::uint32_t>(3 * i) * 2, std::memory_order_relaxed);
  }
  team_tasks_init(r.tasks, 1);
  task_init_implicit(c->task, &r, globals().initial, nullptr);
  c->member.team = &r;
  c->member.tid = 0;
  c->member.task = &c->task;
  return c;
}

}  // namespace

void run_target_region(void (*fn)(void*), void* data, int thread_limit) {
  ThreadState& ts = self();
  if (ts.target == nullptr) ts.target = make_context(ts);
  TargetContext& c = *ts.target;
  if (c.in_use) {  // a target nested in a target region (non-conforming): run it in place
    fn(data);
    return;
  }
  c.in_use = true;
  const MemberContext saved{ts.team, ts.tid,      ts.task,         ts.ws_next,
                            ts.ws,   ts.ws_index, ts.single_count, ts.loop};
  const MemberContext& m = c.member;
  ts.team = m.team;
  ts.tid = m.tid;
  ts.task = m.task;
  ts.ws_next = m.ws_next;
  ts.ws = m.ws;
  ts.ws_index = m.ws_index;
  ts.single_count = m.single_count;
  ts.loop = m.loop;
  c.root.members[0] = &ts;
  // relaxed: only this thread uses the context's team.
  c.root.cancelled.store(false, std::memory_order_relaxed);
  Icvs icv = globals().initial;
  if (thread_limit > 0) icv.thread_limit = thread_limit;
  task_init_implicit(c.task, &c.root, icv, nullptr);
  std::swap(ts.teams, c.teams);

  fn(data);
  tasks_drain(ts);  // the region's tasks complete before the target region does

  std::swap(ts.teams, c.teams);
  c.member = MemberContext{ts.team, ts.tid,      ts.task,         ts.ws_next,
                           ts.ws,   ts.ws_index, ts.single_count, ts.loop};
  ts.team = saved.team;
  ts.tid = saved.tid;
  ts.task = saved.task;
  ts.ws_next = saved.ws_next;
  ts.ws = saved.ws;
  ts.ws_index = saved.ws_index;
  ts.single_count = saved.single_count;
  ts.loop = saved.loop;
  c.in_use = false;
}

}  // namespace rtpar::omp
