// kmpc_task_reduction.cpp — task reductions in LLVM's OpenMP ABI: __kmpc_taskred_init and
// __kmpc_task_reduction_init (`taskgroup task_reduction`, taskloop `reduction`),
// __kmpc_task_reduction_get_th_data (`in_reduction`), and the `reduction(task, ...)` modifier of
// parallel regions and work shares (__kmpc_taskred_modifier_init,
// __kmpc_task_reduction_modifier_init / _fini), on task_reduction.cpp's mechanism.
//
// One registration is a GCC task-reduction descriptor (task_reduction.cpp: d[0] variables, d[1]
// bytes per thread, d[2] the copies, d[4] the enclosing registration, then address / offset /
// internal per variable) in a Block that also keeps what LLVM's runtime does itself and GCC's
// compiled code does not: the initialiser, combiner and finaliser of each variable. So
// task_reduction.cpp allocates the team's copies (nthreads, zeroed) and chains the registration
// into the taskgroup; this layer initialises every copy at registration (LLVM's eager mode; the
// lazy flag is a hint), finds the caller's copy (get_th_data: by the shared variable's address,
// or by an address inside some thread's copies, as GOMP_task_reduction_remap does) and, when the
// taskgroup ends, combines every copy into the shared variable, finalises and frees them.
//
// The modifier: every member of the team registers (each passes its own private copy of the
// variable as the shared one) in an implicit taskgroup; the first member's Block owns the copies,
// the others share them (task_reduction.cpp's `orig`), found through a work share of their own.
// At _fini each member ends its taskgroup; the last one combines into its own variable (the
// enclosing `reduction` then combines the members' variables) and frees the copies.
//
// Memory ordering: the registration is published by the work share (work_share.cpp (2)); the
// members' `finished` increments are acq_rel, so the last one sees every member's task results.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "omp/kmpc.hpp"

namespace rtpar::omp::kmpc {

using task_detail::reduction_register;

namespace {

// taskred_input is LLVM's kmp_taskred_input_t (__kmpc_taskred_init, OpenMP 5.0 and later).
struct taskred_input {
  void* shar;        // the shared variable (combined into at the end)
  void* orig;        // the original variable, the initialiser's second argument (or null)
  std::size_t size;  // bytes of the variable
  void* init;        // void init(void* priv, void* orig), or null (zero)
  void* fini;        // void fini(void* priv), or null
  void* comb;        // void comb(void* shar, void* priv)
  kmp_int32 flags;   // bit 0: lazy private copies (a hint)
};

// task_red_input is the older kmp_task_red_input_t (__kmpc_task_reduction_init): no original,
// a one-argument initialiser.
struct task_red_input {
  void* shar;
  std::size_t size;
  void* init;  // void init(void* priv)
  void* fini;
  void* comb;
  kmp_int32 flags;
};

// Item is one variable of a registration.
struct Item {
  void* shar;
  void* orig;
  std::size_t size;
  void* init;
  bool init_orig;  // init takes (priv, orig)
  void* fini;
  void* comb;
};

// Block is one registration: the header, then the items, then the GCC descriptor.
struct Block {
  std::atomic<int> finished{0};  // the modifier: members that ended their taskgroup
  Block* owner = nullptr;        // the block whose `finished` counts and that owns the copies
  std::size_t n = 0;             // variables
  int nthreads = 1;              // copies
  Item* items = nullptr;
  std::uintptr_t* d = nullptr;
};

// kCopyAlign is the alignment of each variable's copy and of each thread's block of copies.
constexpr std::size_t kCopyAlign = 64;
// kDescWords is the GCC descriptor's fixed words before the per-variable triples.
constexpr std::size_t kDescWords = 7;

// block_of is the Block of a descriptor (d[3], the allocator word GCC's compiler fills, which
// task_reduction.cpp does not read).
Block* block_of(const std::uintptr_t* d) noexcept { return reinterpret_cast<Block*>(d[3]); }

// make_block builds a registration of n variables (fill: item i from the compiler's input).
template <class Fill>
Block* make_block(std::size_t n, int nthreads, Fill fill) {
  const std::size_t bytes =
      sizeof(Block) + n * sizeof(Item) + (kDescWords + 3 * n) * sizeof(std::uintptr_t);
  char* mem = static_cast<char*>(::operator new(bytes));
  auto* b = new (mem) Block;
  b->owner = b;
  b->n = n;
  b->nthreads = nthreads;
  b->items = reinterpret_cast<Item*>(mem + sizeof(Block));
  b->d = reinterpret_cast<std::uintptr_t*>(mem + sizeof(Block) + n * sizeof(Item));
  std::uintptr_t* d = b->d;
  std::size_t off = 0;
  for (std::size_t i = 0; i < n; ++i) {
    Item& it = b->items[i];
    fill(i, it);
    d[kDescWords + 3 * i] = reinterpret_cast<std::uintptr_t>(it.shar);
    d[kDescWords + 3 * i + 1] = off;
    d[kDescWords + 3 * i + 2] = 0;
    off += (it.size + kCopyAlign - 1) / kCopyAlign * kCopyAlign;
  }
  d[0] = n;
  d[1] = off == 0 ? kCopyAlign : off;
  d[2] = kCopyAlign;
  d[3] = reinterpret_cast<std::uintptr_t>(b);
  d[4] = 0;
  d[5] = 0;
  d[6] = 0;
  return b;
}

// copy_of is thread `tid`'s copy of variable i of block b.
void* copy_of(const Block& b, int tid, std::size_t i) noexcept {
  const std::uintptr_t* d = b.d;
  return reinterpret_cast<void*>(d[2] + static_cast<std::uintptr_t>(tid) * d[1] +
                                 d[kDescWords + 3 * i + 1]);
}

// init_copies runs every variable's initialiser on every thread's copy (zeroed when none).
void init_copies(const Block& b) {
  for (int t = 0; t < b.nthreads; ++t) {
    for (std::size_t i = 0; i < b.n; ++i) {
      const Item& it = b.items[i];
      if (it.init == nullptr) continue;
      void* priv = copy_of(b, t, i);
      if (it.init_orig) {
        reinterpret_cast<void (*)(void*, void*)>(it.init)(priv,
                                                          it.orig != nullptr ? it.orig : it.shar);
      } else {
        reinterpret_cast<void (*)(void*)>(it.init)(priv);
      }
    }
  }
}

// combine_copies combines every thread's copies into the shared variables of block `into`
// (whose items name them), finalises the copies and frees them.
void combine_copies(const Block& owner, const Block& into) {
  for (std::size_t i = 0; i < into.n; ++i) {
    const Item& it = into.items[i];
    for (int t = 0; t < owner.nthreads; ++t) {
      void* priv = copy_of(owner, t, i);
      reinterpret_cast<void (*)(void*, void*)>(it.comb)(it.shar, priv);
      if (it.fini != nullptr) reinterpret_cast<void (*)(void*)>(it.fini)(priv);
    }
  }
  std::free(reinterpret_cast<void*>(owner.d[2]));
}

// free_block destroys a Block made by make_block.
void free_block(Block* b) noexcept {
  b->~Block();
  ::operator delete(b);
}

// fill_new / fill_old copy the compiler's input item i.
void fill_new(const taskred_input* in, std::size_t i, Item& it) noexcept {
  it = Item{in[i].shar, in[i].orig, in[i].size, in[i].init, true, in[i].fini, in[i].comb};
}
void fill_old(const task_red_input* in, std::size_t i, Item& it) noexcept {
  it = Item{in[i].shar, nullptr, in[i].size, in[i].init, false, in[i].fini, in[i].comb};
}

// register_group registers block b in the caller's current taskgroup (opening one if none).
void register_group(ThreadState& ts, Block* b, std::uintptr_t* orig) {
  if (ts.task->tg_current == nullptr) task_detail::taskgroup_begin(ts);
  Taskgroup* g = ts.task->tg_current;
  reduction_register(b->d, g->reductions, orig, static_cast<unsigned>(b->nthreads));
  g->reductions = b->d;
}

// taskred_init is __kmpc_taskred_init / __kmpc_task_reduction_init for input type In.
template <class In>
void* taskred_init(int num, void* data, void (*fill)(const In*, std::size_t, Item&)) {
  ThreadState& ts = self();
  if (num <= 0) return nullptr;
  const auto* in = static_cast<const In*>(data);
  Block* b = make_block(static_cast<std::size_t>(num), ts.team->nthreads,
                        [&](std::size_t i, Item& it) { fill(in, i, it); });
  register_group(ts, b, nullptr);
  init_copies(*b);
  return b->d;
}

// modifier_init is the reduction modifier's registration for input type In (file comment).
template <class In>
void* modifier_init(bool is_ws, int num, void* data, void (*fill)(const In*, std::size_t, Item&)) {
  ThreadState& ts = self();
  // A work share's implicit taskgroup is not a `taskgroup` region of the program (`cancel
  // taskgroup` binds to the one around it: task_group.cpp).
  if (is_ws) {
    workshare_taskgroup_start(ts);
  } else {
    task_detail::taskgroup_begin(ts);
  }
  if (num <= 0) return nullptr;
  const auto* in = static_cast<const In*>(data);
  Block* b = make_block(static_cast<std::size_t>(num), ts.team->nthreads,
                        [&](std::size_t i, Item& it) { fill(in, i, it); });
  if (ws_enter(ts)) {
    register_group(ts, b, nullptr);
    init_copies(*b);
    ts.ws->loop.task_reductions = b->d;
    ws_publish(ts);
  } else {
    std::uintptr_t* first = ts.ws->loop.task_reductions;
    b->owner = block_of(first);
    register_group(ts, b, first);
  }
  ws_leave(ts);
  return b->d;
}

// find_copy is the caller's copy of the variable at `item` in registrations from d on (item
// itself when it is not a reduction variable).
void* find_copy(const std::uintptr_t* d, int tid, void* item) noexcept {
  const auto want = reinterpret_cast<std::uintptr_t>(item);
  const auto id = static_cast<std::uintptr_t>(tid);
  for (const std::uintptr_t* p = d; p != nullptr; p = reinterpret_cast<std::uintptr_t*>(p[4])) {
    for (std::uintptr_t j = 0; j < p[0]; ++j) {
      if (p[kDescWords + 3 * j] == want) {
        return reinterpret_cast<void*>(p[2] + id * p[1] + p[kDescWords + 3 * j + 1]);
      }
    }
  }
  // An address inside some thread's copies (a task's own copy passed on): same offset, ours.
  for (const std::uintptr_t* p = d; p != nullptr; p = reinterpret_cast<std::uintptr_t*>(p[4])) {
    if (want >= p[2] && want < p[6] && p[1] != 0) {
      return reinterpret_cast<void*>(p[2] + id * p[1] + (want - p[2]) % p[1]);
    }
  }
  return item;
}

}  // namespace

void kmp_reductions_end(std::uintptr_t* mine, const std::uintptr_t* inherited) {
  while (mine != nullptr && mine != inherited) {
    Block* b = block_of(mine);
    auto* next = reinterpret_cast<std::uintptr_t*>(mine[4]);
    combine_copies(*b, *b);
    free_block(b);
    mine = next;
  }
}

// __kmpc_taskred_init registers num task reduction variables (kmp_taskred_input_t) in the
// caller's taskgroup; returns the handle tasks pass to __kmpc_task_reduction_get_th_data.
RTPAR_OMP_EXPORT void* __kmpc_taskred_init(int /*gtid*/, int num, void* data) {
  return taskred_init<taskred_input>(num, data, fill_new);
}

// __kmpc_task_reduction_init is __kmpc_taskred_init with the older kmp_task_red_input_t.
RTPAR_OMP_EXPORT void* __kmpc_task_reduction_init(int /*gtid*/, int num, void* data) {
  return taskred_init<task_red_input>(num, data, fill_old);
}

// __kmpc_task_reduction_get_th_data is the caller's copy of the reduction variable at `data` in
// registration tskgrp (null: the current taskgroup's).
RTPAR_OMP_EXPORT void* __kmpc_task_reduction_get_th_data(int /*gtid*/, void* tskgrp, void* data) {
  ThreadState& ts = self();
  const std::uintptr_t* d = static_cast<const std::uintptr_t*>(tskgrp);
  if (d == nullptr) {
    const Taskgroup* g = ts.task->tg_current != nullptr ? ts.task->tg_current : ts.task->tg_member;
    d = g != nullptr ? g->reductions : nullptr;
  }
  return find_copy(d, ts.tid, data);
}

// __kmpc_taskred_modifier_init starts the `reduction(task, ...)` modifier of a parallel region
// (is_ws 0) or work share (1) for the calling member (kmp_taskred_input_t).
RTPAR_OMP_EXPORT void* __kmpc_taskred_modifier_init(ident* /*loc*/, int /*gtid*/, int is_ws,
                                                    int num, void* data) {
  return modifier_init<taskred_input>(is_ws != 0, num, data, fill_new);
}

// __kmpc_task_reduction_modifier_init is __kmpc_taskred_modifier_init with kmp_task_red_input_t.
RTPAR_OMP_EXPORT void* __kmpc_task_reduction_modifier_init(ident* /*loc*/, int /*gtid*/, int is_ws,
                                                           int num, void* data) {
  return modifier_init<task_red_input>(is_ws != 0, num, data, fill_old);
}

// __kmpc_task_reduction_modifier_fini ends the modifier for the calling member: waits for its
// taskgroup; the last member combines the copies into its variable (file comment).
RTPAR_OMP_EXPORT void __kmpc_task_reduction_modifier_fini(ident* /*loc*/, int /*gtid*/,
                                                          int /*is_ws*/) {
  ThreadState& ts = self();
  Taskgroup* g = ts.task->tg_current;
  std::uintptr_t* mine = g != nullptr ? g->reductions : nullptr;
  const std::uintptr_t* inherited =
      g != nullptr && g->prev != nullptr ? g->prev->reductions : nullptr;
  task_detail::taskgroup_finish(ts);
  if (mine == nullptr || mine == inherited) return;
  Block* b = block_of(mine);
  Block* owner = b->owner;
  // acq_rel: the last member sees every member's results (file comment).
  const bool last = owner->finished.fetch_add(1, std::memory_order_acq_rel) == owner->nthreads - 1;
  if (last) {
    combine_copies(*owner, *b);
    if (owner != b) free_block(owner);
    free_block(b);
  } else if (owner != b) {
    free_block(b);
  }
}

}  // namespace rtpar::omp::kmpc
