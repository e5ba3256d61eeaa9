// fib_join.hpp — the parallel recursion of the `fib` kernel on rtpar's work stealing: both
// recursive calls forked with steal::join down to a cut-off. The kernel (fib.cpp) and the
// benchmark program rtpar-bench-steal-rtpar (bench/programs/steal_rtpar.cpp, cut-off 0: one join
// per call) both run this one recursion, so the benchmark measures what the kernel does.
#pragma once

#include <cstdint>

#include "rtpar/steal.hpp"

namespace rtpar::kernels {

// fib_recursive is the plain recursion (the leaves below the cut-off).
inline std::uint64_t fib_recursive(int n) {
  return n < 2 ? static_cast<std::uint64_t>(n) : fib_recursive(n - 1) + fib_recursive(n - 2);
}

// fib_join forks both recursive calls with join down to the cut-off (call it inside a steal
// pool's run); at or below the cut-off, and for n < 2, it recurses serially.
inline std::uint64_t fib_join(int n, int cutoff) {
  if (n < 2 || n <= cutoff) return fib_recursive(n);
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  steal::join([&a, n, cutoff] { a = fib_join(n - 1, cutoff); },
              [&b, n, cutoff] { b = fib_join(n - 2, cutoff); });
  return a + b;
}

}  // namespace rtpar::kernels
