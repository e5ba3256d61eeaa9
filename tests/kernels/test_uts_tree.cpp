// test_uts_tree.cpp — the UTS SHA-1 node rule (src/kernels/uts_rng.hpp, uts_tree.hpp) against the
// UTS benchmark's published sample trees (sample_trees: T1 geometric fixed, T3 binomial: size,
// depth and leaves), the rule's byte layout against a direct SHA-1, and P3LS3 §5.1's tree.
#include <doctest/doctest.h>
#include <openssl/evp.h>

#include <cstring>

#include "kernels/uts_tree.hpp"

using namespace rtpar::kernels;

namespace {

// sha1_of is an independent SHA-1 of len bytes (one-shot EVP, no fetched digest).
UtsState sha1_of(const unsigned char* msg, std::size_t len) {
  UtsState s{};
  unsigned int got = 0;
  REQUIRE(EVP_Digest(msg, len, s.data(), &got, EVP_sha1(), nullptr) == 1);
  REQUIRE(got == 20);
  return s;
}

}  // namespace

TEST_CASE("uts rng: root and child states are SHA-1 of the published byte layout") {
  // The SHA-1 of the empty string is the FIPS 180 test vector: libcrypto's digest is SHA-1.
  const UtsState empty = sha1_of(nullptr, 0);
  const unsigned char expect_empty[20] = {0xda, 0x39, 0xa3, 0xee, 0x5e, 0x6b, 0x4b, 0x0d, 0x32, 0x55,
                                          0xbf, 0xef, 0x95, 0x60, 0x18, 0x90, 0xaf, 0xd8, 0x07, 0x09};
  CHECK(std::memcmp(empty.data(), expect_empty, 20) == 0);

  // Root: 16 zero bytes, then the seed big-endian.
  unsigned char root_msg[20] = {};
  root_msg[16] = 0x01, root_msg[17] = 0x02, root_msg[18] = 0x03, root_msg[19] = 0x04;
  CHECK(uts_rng_root(0x01020304u) == sha1_of(root_msg, 20));
  // Child i: the parent's 20 bytes, then i big-endian.
  const UtsState parent = uts_rng_root(7);
  unsigned char child_msg[24];
  std::memcpy(child_msg, parent.data(), 20);
  child_msg[20] = 0x00, child_msg[21] = 0x00, child_msg[22] = 0x01, child_msg[23] = 0x2c;
  CHECK(uts_rng_spawn(parent, 300) == sha1_of(child_msg, 24));
  CHECK(uts_rng_spawn(parent, 300) != uts_rng_spawn(parent, 301));
  // The random number is the last 4 bytes with the sign bit cleared; its probability is < 1.
  UtsState s{};
  s[16] = 0xff, s[17] = 0xff, s[18] = 0xff, s[19] = 0xff;
  CHECK(uts_rng_rand(s) == 0x7fffffffu);
  CHECK(uts_rng_prob(s) < 1.0);
}

TEST_CASE("uts tree: the published sample tree T3 (binomial, b0 2000, q 0.124875, m 8, r 42)") {
  UtsParams p;
  p.b0 = 2000;
  p.m = 8;
  p.q = 0.124875;
  p.seed = 42;
  const UtsTreeShape s = uts_tree_shape(p, UINT64_MAX);
  CHECK(s.nodes == 4112897);  // UTS sample_trees: "Tree size = 4112897, tree depth = 1572,
  CHECK(s.max_depth == 1572);  //                    num leaves = 3599034"
  CHECK(s.leaves == 3599034);
}

TEST_CASE("uts tree: the published sample tree T1 (geometric fixed, d 10, b0 4, r 19)") {
  UtsParams p;
  p.type = UtsTreeType::geometric;
  p.shape = UtsGeoShape::fixed;
  p.gen_mx = 10;
  p.b0 = 4;
  p.seed = 19;
  const UtsTreeShape s = uts_tree_shape(p, UINT64_MAX);
  CHECK(s.nodes == 4130071);  // UTS sample_trees: "Tree size = 4130071, tree depth = 10,
  CHECK(s.max_depth == 10);    //                    num leaves = 3305118"
  CHECK(s.leaves == 3305118);
}

TEST_CASE("uts tree: P3LS3 §5.1's tree is the default (about 71,000 nodes) and max_nodes stops") {
  const UtsParams p;
  const UtsTreeShape s = uts_tree_shape(p, UINT64_MAX);
  CHECK(s.nodes == 72197);
  CHECK(s.max_depth == 335);
  // The shape's open-spawn count bounds the root's b0 plus one m per level below it.
  CHECK(s.max_open_spawns >= static_cast<std::uint64_t>(p.b0));
  CHECK(uts_tree_shape(p, 1000).nodes == 1001);
  // Geometric shapes: the fixed shape ends at gen_mx; the linear mean falls to 0 at gen_mx.
  UtsParams g;
  g.type = UtsTreeType::geometric;
  g.b0 = 4;
  g.gen_mx = 6;
  CHECK(uts_geo_mean(g, 0) == 4.0);
  CHECK(uts_geo_mean(g, 3) == 2.0);
  CHECK(uts_geo_mean(g, 6) == 0.0);
  g.shape = UtsGeoShape::fixed;
  CHECK(uts_geo_mean(g, 5) == 4.0);
  CHECK(uts_geo_mean(g, 6) == 0.0);
}
