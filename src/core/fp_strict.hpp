// fp_strict.hpp — included first by every generator source that does floating-point arithmetic:
// forbids contracting a·b + c into one fused multiply-add. GCC contracts across statements by
// default wherever the target has FMA (aarch64, or x86-64 with -march=haswell), which rounds once
// instead of twice and would make the same seed draw a different task set on another machine.
// With contraction off, every operation is one correctly rounded IEEE double operation; only
// libm's log/exp/pow/sqrt/cos remain platform-dependent (glibc's are the reference).
// core/rng.cpp, whose distributions the generators draw from, includes it first too.
#pragma once

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
