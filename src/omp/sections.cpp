// sections.cpp — the `sections` construct (OpenMP 5.0 §2.8.1): a dynamic loop with chunk 1 over
// the section numbers 1..count, as libomp does. GOMP_sections_start/_next return the next section
// number, or 0 when none is left. The combined `parallel sections` forms set the work share up
// before the team starts (the outlined body calls only GOMP_sections_next).
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// init_sections sets work share w up for `count` sections on a team of nthreads.
void init_sections(WorkShare& w, int nthreads, unsigned count) {
  loop_init(w, nthreads, 1, static_cast<std::uint64_t>(count) + 1, 1, count,
            LoopSched{kSchedDynamic, 1}, false);
}

// next_section hands the caller its next section number (0: none left).
unsigned next_section(ThreadState& ts) {
  std::uint64_t a = 0, b = 0;
  if (!loop_next(ts, a, b)) return 0;
  return static_cast<unsigned>(a + 1);
}

// start_sections enters a sections construct (with GOMP_sections2_start's extras).
unsigned start_sections(unsigned count, std::uintptr_t* reductions, void** mem) {
  ThreadState& ts = self();
  if (loop_enter(ts)) {
    init_sections(*ts.ws, ts.team->nthreads, count);
    if (reductions != nullptr || mem != nullptr) loop_extras(ts, true, reductions, mem);
    ws_publish(ts);
  } else if (reductions != nullptr || mem != nullptr) {
    loop_extras(ts, false, reductions, mem);
  }
  return next_section(ts);
}

}  // namespace

// GOMP_sections_start enters a sections construct of `count` sections; returns the first section
// for the caller (0: none).
RTPAR_OMP_EXPORT unsigned GOMP_sections_start(unsigned count) {
  return start_sections(count, nullptr, nullptr);
}

// GOMP_sections2_start is GOMP_sections_start with task reductions and a scratch block (5.0).
RTPAR_OMP_EXPORT unsigned GOMP_sections2_start(unsigned count, std::uintptr_t* reductions,
                                               void** mem) {
  return start_sections(count, reductions, mem);
}

// GOMP_sections_next returns the caller's next section (0: none left).
RTPAR_OMP_EXPORT unsigned GOMP_sections_next() { return next_section(self()); }

// GOMP_sections_end ends a sections construct with its implicit barrier.
RTPAR_OMP_EXPORT void GOMP_sections_end() { loop_end_common(self(), true, false); }

// GOMP_sections_end_nowait ends a `nowait` sections construct.
RTPAR_OMP_EXPORT void GOMP_sections_end_nowait() { loop_end_common(self(), false, false); }

// GOMP_sections_end_cancel ends sections in a cancellable region; true if it was cancelled.
RTPAR_OMP_EXPORT bool GOMP_sections_end_cancel() { return loop_end_common(self(), true, true); }

// GOMP_parallel_sections runs fn(data) on a team whose first construct is `count` sections.
RTPAR_OMP_EXPORT void GOMP_parallel_sections(void (*fn)(void*), void* data, unsigned num_threads,
                                             unsigned count, unsigned flags) {
  auto init = [count](WorkShare& w, int nthreads) { init_sections(w, nthreads, count); };
  const LoopInit li(init);
  parallel_run(fn, data, resolve_nthreads(self(), num_threads), flags, &li);
}

// GOMP_parallel_sections_start is the legacy form: the caller then runs fn(data) and calls
// GOMP_parallel_end.
RTPAR_OMP_EXPORT void GOMP_parallel_sections_start(void (*fn)(void*), void* data,
                                                   unsigned num_threads, unsigned count) {
  auto init = [count](WorkShare& w, int nthreads) { init_sections(w, nthreads, count); };
  const LoopInit li(init);
  parallel_begin(fn, data, resolve_nthreads(self(), num_threads), 0, &li);
}

}  // namespace rtpar::omp
