// rng.hpp — rtpar's one random source, for the generators, the simulator and the experiment
// runner: one fully specified engine, the seed derivations and distributions written here, never
// std::*_distribution (whose output the C++ standard leaves to the library, so libstdc++ and
// libc++ would draw different task sets from the same seed). It lives in core so that the
// simulator draws from the generators' engine without depending on the generators.
#pragma once

#include <cstdint>
#include <string_view>

namespace rtpar {

// splitmix64 advances `state` by the golden-ratio increment and returns its mixed value
// (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014). It
// expands one 64-bit seed into the engine's state and derives the seed of the i-th set.
std::uint64_t splitmix64(std::uint64_t& state) noexcept;

// derive_seed is the seed of item `index` of a sequence seeded with `seed`: a splitmix64 output,
// so items are independent and `--count` sequences are prefix-stable.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) noexcept;

// fnv1a64 is the 64-bit FNV-1a hash of text (Fowler, Noll, Vo): it turns a text key (an
// experiment unit's "NAME|panel|x|trial", a manifest's inputs) into a 64-bit value to seed from.
std::uint64_t fnv1a64(std::string_view text);

// Rng is xoshiro256** 1.0 (Blackman and Vigna, "Scrambled linear pseudorandom number
// generators", ACM TOMS 2021; prng.di.unimi.it), its 256-bit state filled by four splitmix64
// outputs of the seed, as its authors recommend. Every distribution below is a function of the
// 64-bit outputs only, so a seed gives the same values on every platform. log, exp, sqrt, cos
// come from libm: glibc's (correctly rounded in practice for these) are the reference.
class Rng {
 public:
  // Rng seeds the engine from one 64-bit value.
  explicit Rng(std::uint64_t seed) noexcept;

  // next returns the next 64-bit output.
  std::uint64_t next() noexcept;

  // uniform01 is a double in [0, 1): the top 53 bits of one output times 2^-53.
  double uniform01() noexcept;

  // below returns an integer uniform in [0, n) for n ≥ 1, without bias: Lemire's multiply-shift
  // ("Fast random integer generation in an interval", ACM TOMACS 2019) with his rejection of the
  // low products below 2^64 mod n.
  std::uint64_t below(std::uint64_t n) noexcept;

  // uniform_int returns an integer uniform in [lo, hi] (lo ≤ hi).
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi) noexcept;

  // uniform_real returns a + (b − a)·U with U = uniform01(): in [a, b) when a < b.
  double uniform_real(double a, double b) noexcept;

  // log_uniform returns exp(U[ln a, ln b)) for 0 < a ≤ b: every decade equally likely.
  double log_uniform(double a, double b) noexcept;

  // normal returns a standard normal value by the Box–Muller transform (Box and Muller, 1958):
  // sqrt(−2 ln U1)·cos(2π U2) with U1 in (0, 1]. One pair of outputs per value (the sine half is
  // dropped, so no state is carried between calls).
  double normal() noexcept;

  // lognormal_mean returns a log-normal value with mean `mean` (> 0) and log-standard deviation
  // `sigma`: exp(μ + σZ) with μ = ln(mean) − σ²/2.
  double lognormal_mean(double mean, double sigma) noexcept;

 private:
  std::uint64_t s_[4];
};

}  // namespace rtpar
