// icv.cpp — the process settings (parsed once from the environment, env.cpp) and how ICVs pass
// from a task to the implicit tasks of the regions it encounters.
#include "omp/env.hpp"

namespace rtpar::omp {

const Globals& globals() noexcept {
  // A function-local static: initialised once, thread-safely (the compiler's guard), on first
  // use: start_runtime reads the environment and starts the runtime (display_env.cpp). The
  // library constructor makes that first use happen at load time, except in a program built
  // for LLVM's runtime, which starts at its first OpenMP call (display_env.cpp).
  static const Globals g = start_runtime();
  return g;
}

Icvs child_icvs(const Icvs& parent) noexcept {
  // OpenMP 5.1 §2.6.1/§2.4: a list-valued nthreads-var or bind-var loses its first element in
  // the new region, i.e. level k of nesting uses element k; past the end the value is inherited.
  const Globals& g = globals();
  Icvs child = parent;
  const int nlevel = parent.nthreads_level + 1;
  if (static_cast<std::size_t>(nlevel) < g.nthreads_list.size()) {
    child.nthreads = g.nthreads_list[static_cast<std::size_t>(nlevel)];
  }
  child.nthreads_level = nlevel;
  const int blevel = parent.bind_level + 1;
  if (static_cast<std::size_t>(blevel) < g.bind_list.size()) {
    child.bind = g.bind_list[static_cast<std::size_t>(blevel)];
  }
  child.bind_level = blevel;
  return child;
}

}  // namespace rtpar::omp
