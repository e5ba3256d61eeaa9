// uts_rng.hpp — the UTS benchmark's SHA-1 node rule: a node's 20-byte state is the SHA-1 digest of
// its parent's state and its child index, so every run (any thread count, any runtime) builds the
// same tree, and the published sample trees (T1..T5) can be checked node for node count.
//
// The rule is UTS's reference generator (Olivier et al., "UTS: An Unbalanced Tree Search
// Benchmark", LCPC 2006, §3 "splittable random number generator"), written here from its
// definition: root = SHA-1(16 zero bytes ‖ seed as 4 big-endian bytes); child i of a node =
// SHA-1(node state ‖ i as 4 big-endian bytes); a node's random number is its state's last 4
// bytes, big-endian, with the sign bit cleared, and its probability that number / 2^31. SHA-1
// itself is OpenSSL's libcrypto (EVP interface; libssl-dev, scripts/setup.sh).
#pragma once

#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <stdexcept>

namespace rtpar::kernels {

// UtsState is a node's 20-byte SHA-1 state.
using UtsState = std::array<unsigned char, 20>;

// uts_sha1 is the SHA-1 message digest, fetched once (EVP_MD_fetch: a per-call implicit fetch, as
// EVP_sha1() or SHA1() do, doubles the cost of a node). Never freed: it lives as long as the
// process, like OpenSSL's own provider tables.
inline const EVP_MD* uts_sha1() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA1", nullptr);
  if (md == nullptr) throw std::runtime_error("uts: OpenSSL has no SHA-1 (EVP_MD_fetch failed)");
  return md;
}

// uts_digest hashes the 24 bytes of msg into out; a failure of libcrypto is an error, never a
// silently different tree.
inline void uts_digest(const unsigned char (&msg)[24], std::size_t len, UtsState& out) {
  unsigned int got = 0;
  if (EVP_Digest(msg, len, out.data(), &got, uts_sha1(), nullptr) != 1 || got != out.size()) {
    throw std::runtime_error("uts: SHA-1 digest failed");
  }
}

// uts_put_be32 writes v as 4 big-endian bytes at p (UTS's byte order for seeds and indices).
inline void uts_put_be32(unsigned char* p, std::uint32_t v) {
  p[0] = static_cast<unsigned char>(v >> 24);
  p[1] = static_cast<unsigned char>(v >> 16);
  p[2] = static_cast<unsigned char>(v >> 8);
  p[3] = static_cast<unsigned char>(v);
}

// uts_rng_root is the root state for seed (UTS's -r): SHA-1 of 16 zero bytes and the seed.
inline UtsState uts_rng_root(std::uint32_t seed) {
  unsigned char msg[24] = {};
  uts_put_be32(msg + 16, seed);
  UtsState s{};
  uts_digest(msg, 20, s);
  return s;
}

// uts_rng_spawn is the state of child i of a node in state parent.
inline UtsState uts_rng_spawn(const UtsState& parent, std::uint32_t i) {
  unsigned char msg[24];
  for (std::size_t k = 0; k < parent.size(); ++k) msg[k] = parent[k];
  uts_put_be32(msg + 20, i);
  UtsState s{};
  uts_digest(msg, 24, s);
  return s;
}

// uts_rng_rand is a node's 31-bit random number: its state's last 4 bytes, sign bit cleared.
inline std::uint32_t uts_rng_rand(const UtsState& s) {
  const std::uint32_t b = (std::uint32_t{s[16]} << 24) | (std::uint32_t{s[17]} << 16) |
                          (std::uint32_t{s[18]} << 8) | std::uint32_t{s[19]};
  return b & 0x7FFFFFFFu;
}

// uts_rng_prob maps a node's random number to [0, 1): n / 2^31 (exact in double).
inline double uts_rng_prob(const UtsState& s) {
  return static_cast<double>(uts_rng_rand(s)) / 2147483648.0;
}

}  // namespace rtpar::kernels
