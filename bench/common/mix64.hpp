// mix64.hpp — the bench kernels' 64-bit mixer (checksums, the synthetic tasks' draws).
#pragma once

#include <cstdint>

// mix64 is splitmix64's finalizer (Steele, Lea, Flood, OOPSLA 2014): a bijection on 64 bits, so
// distinct inputs stay distinct — the checksums' mixer and the synthetic tasks' hash.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
