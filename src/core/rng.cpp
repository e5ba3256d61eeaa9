// rng.cpp — xoshiro256**, splitmix64, FNV-1a and the in-house distributions (rng.hpp).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include "core/rng.hpp"

#include <cmath>

namespace rtpar {

std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  state += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) noexcept {
  // The index-th splitmix64 output of `seed` (the state advances linearly, so jump to it).
  std::uint64_t state = seed + index * 0x9e3779b97f4a7c15ULL;
  return splitmix64(state);
}

std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64-bit offset basis
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;  // FNV 64-bit prime
  }
  return h;
}

namespace {
// rotl rotates x left by k bits (0 < k < 64).
constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
}  // namespace

Rng::Rng(std::uint64_t seed) noexcept {
  std::uint64_t state = seed;
  for (std::uint64_t& word : s_) word = splitmix64(state);
}

std::uint64_t Rng::next() noexcept {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform01() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::uint64_t Rng::below(std::uint64_t n) noexcept {
  unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    // Products whose low half is below 2^64 mod n would make small results more likely.
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(next()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

std::int64_t Rng::uniform_int(std::int64_t lo, std::int64_t hi) noexcept {
  // The width hi − lo + 1 is computed in unsigned arithmetic, where it cannot overflow except for
  // the full int64 range, whose width 2^64 wraps to 0: then every output is already uniform.
  const std::uint64_t width = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
  const std::uint64_t offset = width == 0 ? next() : below(width);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + offset);
}

double Rng::uniform_real(double a, double b) noexcept { return a + (b - a) * uniform01(); }

double Rng::log_uniform(double a, double b) noexcept {
  return std::exp(uniform_real(std::log(a), std::log(b)));
}

double Rng::normal() noexcept {
  const double u1 = 1.0 - uniform01();  // (0, 1]: log never sees 0
  const double u2 = uniform01();
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

double Rng::lognormal_mean(double mean, double sigma) noexcept {
  const double mu = std::log(mean) - sigma * sigma / 2.0;
  return std::exp(mu + sigma * normal());
}

}  // namespace rtpar
