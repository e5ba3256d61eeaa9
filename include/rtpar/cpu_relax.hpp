// rtpar/cpu_relax.hpp — the spin-loop hint rtpar's own spin waits use; header-only, so benchmark
// programs and user spin loops can share it without linking librtpar.
#pragma once

namespace rtpar {

// cpu_relax tells the core that this is a spin loop: it frees pipeline resources for a sibling
// hyper-thread and lets a hypervisor's pause-loop exiting notice a spinning vCPU.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace rtpar
