// task_deps.cpp — task dependences between sibling tasks (OpenMP 5.0 §2.17.11) and
// GOMP_taskwait_depend.
//
// Each parent task owns a DepTable (allocated on its first child with dependences): for every
// address, the last writer (out/inout/mutexinoutset/inoutset — the last three are treated as
// inout, which the specification allows: it only adds ordering) and the readers since. A new
// task depends on the last writer (in), or on the readers since it, or on it when there are none
// (out); omp_all_memory (address NULL, out) depends on everything and everything later depends on
// it. Edges are successor lists (DepEdge) on the predecessor; `npred` counts the incomplete
// predecessors; the task is queued when it drops to 0.
//
// Locking: all dependence state of a team (tables, DepRec, succ lists, the edge pool) is guarded
// by TeamTasks::deps_lock — a mutex on the dependence path only, never on the spawn/steal fast
// path of tasks without dependences. npred is atomic only so that an undeferred waiter can poll
// it without the lock (release decrement, acquire load). Tables use std::unordered_map: a task
// with dependences may allocate (documented).
#include <unordered_map>

#include "omp/runtime.hpp"

namespace rtpar::omp {

// DepEdge is one link of a successor list or of a reader list (pooled per team).
struct DepEdge {
  Task* task;
  DepEdge* next;
};

namespace {

// DepEntry is the dependence state of one address: last writer and the readers since.
struct DepEntry {
  Task* writer = nullptr;
  DepEdge* readers = nullptr;
};

}  // namespace

// DepTable maps a parent's children's dependence addresses to their state.
struct DepTable {
  std::unordered_map<void*, DepEntry> map;
  Task* all = nullptr;  // the last omp_all_memory task
};

namespace task_detail {

namespace {

constexpr std::uintptr_t kDependIn = 1;  // GOMP_DEPEND_IN (omp_depend_t kinds)

// edge_alloc takes an edge from the team's pool (under deps_lock), growing it by a block.
DepEdge* edge_alloc(TeamTasks& tt) {
  if (tt.free_edges == nullptr) {
    constexpr int kBlock = 256;
    auto* block = new DepEdge[kBlock];  // kept for the process lifetime (pool)
    for (int i = 0; i < kBlock; ++i) block[i].next = i + 1 < kBlock ? &block[i + 1] : nullptr;
    tt.free_edges = block;
  }
  DepEdge* e = tt.free_edges;
  tt.free_edges = e->next;
  return e;
}

// edge_free returns an edge to the pool (under deps_lock).
void edge_free(TeamTasks& tt, DepEdge* e) {
  e->next = tt.free_edges;
  tt.free_edges = e;
}

// free_list returns a whole list to the pool (under deps_lock).
void free_list(TeamTasks& tt, DepEdge* e) {
  while (e != nullptr) {
    DepEdge* n = e->next;
    edge_free(tt, e);
    e = n;
  }
}

// add_edge makes t wait for pred (under deps_lock).
void add_edge(TeamTasks& tt, Task* pred, Task* t) {
  if (pred == nullptr || pred == t) return;
  if (pred->succ != nullptr && pred->succ->task == t) return;  // same pair through another dep
  DepEdge* e = edge_alloc(tt);
  e->task = t;
  e->next = pred->succ;
  pred->succ = e;
  // relaxed: under deps_lock.
  t->npred.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

std::size_t deps_count(void** depend) noexcept {
  const auto n0 = reinterpret_cast<std::uintptr_t>(depend[0]);
  return n0 != 0 ? n0 : reinterpret_cast<std::uintptr_t>(depend[1]);
}

void deps_fill(void** depend, DepRec* recs) noexcept {
  const auto n0 = reinterpret_cast<std::uintptr_t>(depend[0]);
  if (n0 != 0) {
    // [n, nout, out/inout addresses..., in addresses...]
    const auto nout = reinterpret_cast<std::uintptr_t>(depend[1]);
    for (std::uintptr_t i = 0; i < n0; ++i) recs[i] = DepRec{depend[2 + i], i < nout};
    return;
  }
  // [0, n, nout, nmutexinoutset, nin, addresses..., omp_depend_t pointers...]
  const auto n = reinterpret_cast<std::uintptr_t>(depend[1]);
  const auto nout = reinterpret_cast<std::uintptr_t>(depend[2]);
  const auto nmutex = reinterpret_cast<std::uintptr_t>(depend[3]);
  const auto nin = reinterpret_cast<std::uintptr_t>(depend[4]);
  const std::uintptr_t normal = nout + nmutex + nin;
  for (std::uintptr_t i = 0; i < n; ++i) {
    if (i < normal) {
      recs[i] = DepRec{depend[5 + i], i < nout + nmutex};
    } else {
      void** obj = static_cast<void**>(depend[5 + i]);  // omp_depend_t: {address, kind}
      recs[i] = DepRec{obj[0], reinterpret_cast<std::uintptr_t>(obj[1]) != kDependIn};
    }
  }
}

int deps_register(Task* parent, Task* t, bool insert) {
  TeamTasks& tt = t->team->tasks;
  std::lock_guard<std::mutex> lock(tt.deps_lock);
  if (parent->dep_table == nullptr) parent->dep_table = new DepTable;
  DepTable& tab = *parent->dep_table;
  add_edge(tt, tab.all, t);
  for (int i = 0; i < t->ndeps; ++i) {
    const DepRec& r = t->deps[i];
    if (r.addr == nullptr && r.out) {  // omp_all_memory
      for (auto& [addr, e] : tab.map) {
        add_edge(tt, e.writer, t);
        for (DepEdge* x = e.readers; x != nullptr; x = x->next) add_edge(tt, x->task, t);
      }
      if (insert) {
        for (auto& [addr, e] : tab.map) free_list(tt, e.readers);
        tab.map.clear();
        tab.all = t;
      }
      continue;
    }
    DepEntry& e = tab.map[r.addr];
    if (r.out) {
      if (e.readers != nullptr) {
        for (DepEdge* x = e.readers; x != nullptr; x = x->next) add_edge(tt, x->task, t);
      } else {
        add_edge(tt, e.writer, t);
      }
      if (insert) {
        free_list(tt, e.readers);
        e.readers = nullptr;
        e.writer = t;
      }
    } else {
      add_edge(tt, e.writer, t);
      if (insert) {
        DepEdge* x = edge_alloc(tt);
        x->task = t;
        x->next = e.readers;
        e.readers = x;
      }
    }
    if (!insert && e.writer == nullptr && e.readers == nullptr) tab.map.erase(r.addr);
  }
  // relaxed: under deps_lock.
  return t->npred.load(std::memory_order_relaxed);
}

void deps_release(ThreadState& ts, Task* t) {
  TeamTasks& tt = t->team->tasks;
  Task* ready = nullptr;
  {
    std::lock_guard<std::mutex> lock(tt.deps_lock);
    DepTable* tab = t->parent->dep_table;
    if (tab != nullptr) {
      if (tab->all == t) tab->all = nullptr;
      for (int i = 0; i < t->ndeps; ++i) {
        auto it = tab->map.find(t->deps[i].addr);
        if (it == tab->map.end()) continue;
        DepEntry& e = it->second;
        if (e.writer == t) e.writer = nullptr;
        for (DepEdge** p = &e.readers; *p != nullptr;) {
          if ((*p)->task == t) {
            DepEdge* x = *p;
            *p = x->next;
            edge_free(tt, x);
          } else {
            p = &(*p)->next;
          }
        }
        if (e.writer == nullptr && e.readers == nullptr) tab->map.erase(it);
      }
    }
    for (DepEdge* e = t->succ; e != nullptr;) {
      DepEdge* n = e->next;
      Task* s = e->task;
      const bool deferred = s->deferred;  // read first: an undeferred waiter may leave at once
      // release: our (the predecessor's) writes reach the undeferred waiter's acquire poll.
      if (s->npred.fetch_sub(1, std::memory_order_release) == 1 && deferred) {
        s->next = ready;
        ready = s;
      }
      edge_free(tt, e);
      e = n;
    }
    t->succ = nullptr;
  }
  while (ready != nullptr) {
    Task* s = ready;
    ready = s->next;
    s->next = nullptr;
    schedule(ts, s);
  }
}

void deps_free_table(Task* t) noexcept {
  delete t->dep_table;
  t->dep_table = nullptr;
}

void deps_wait(ThreadState& ts, void** depend) {
  Task* parent = ts.task;
  // Only this thread (running the parent) creates the parent's table.
  if (parent->dep_table == nullptr) return;
  const std::size_t n = deps_count(depend);
  auto* recs = static_cast<DepRec*>(__builtin_alloca(n * sizeof(DepRec)));
  deps_fill(depend, recs);
  Task waiter;
  waiter.team = ts.team;
  waiter.parent = parent;
  set_lineage_child(waiter, parent);
  waiter.implicit = false;
  waiter.deferred = false;
  waiter.deps = recs;
  waiter.ndeps = static_cast<int>(n);
  if (deps_register(parent, &waiter, false) == 0) return;
  // The predecessors are the parent's children: the parent is the suspended tied task.
  // acquire: pairs with deps_release's release decrement.
  wait_until(ts, parent, [&waiter] { return waiter.npred.load(std::memory_order_acquire) == 0; });
}

}  // namespace task_detail

RTPAR_OMP_EXPORT void GOMP_taskwait_depend(void** depend) {
  ThreadState& ts = self();
  if (depend != nullptr) task_detail::deps_wait(ts, depend);
}

}  // namespace rtpar::omp
