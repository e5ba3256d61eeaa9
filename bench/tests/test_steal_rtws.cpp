// test_steal_rtws.cpp — unit tests of the RTWS §IV kernels of `rtpar bench steal`
// (bench/common/steal_sync.hpp, steal_tiled.hpp, steal_rtws_leaves.hpp): the tiled
// factorizations are right (checked against the input by multiplying the factors back), any
// order of the independent calls of a phase gives the serial bits, and the synthetic task is the
// one RTWS §IV-A defines.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/steal_kernels.hpp"
#include "common/steal_sync.hpp"
#include "common/steal_tiled.hpp"

namespace {

using namespace rtpar_bench;

// element reads (i, j) of the padded matrix from a tile-major buffer.
double element(const TiledMatrix& m, const std::vector<double>& buf, int i, int j) {
  return buf[m.index(i, j)];
}

// max_reconstruction_error is max |(L·Lᵀ or L·U)(i, j) − A(i, j)| over the n×n block.
double max_reconstruction_error(const TiledMatrix& m) {
  double worst = 0.0;
  for (int i = 0; i < m.n; ++i) {
    for (int j = 0; j < m.n; ++j) {
      double s = 0.0;
      for (int p = 0; p <= std::min(i, j); ++p) {
        if (m.lu) {
          const double l = p == i ? 1.0 : element(m, m.a, i, p);  // unit lower
          s += l * element(m, m.a, p, j);
        } else {
          s += element(m, m.a, i, p) * element(m, m.a, j, p);
        }
      }
      worst = std::max(worst, std::fabs(s - element(m, m.init, i, j)));
    }
  }
  return worst;
}

// reversed_forkjoin runs every phase's calls in reverse order (another legal schedule).
void reversed_forkjoin(TiledMatrix& m) {
  tiled_forkjoin(m, [](std::int64_t count, auto&& body) {
    for (std::int64_t i = count - 1; i >= 0; --i) body(i);
  });
}

}  // namespace

TEST_CASE("tiled Cholesky and LU reproduce their input, with and without padding") {
  for (const bool lu : {false, true}) {
    for (const auto& [n, b] : {std::pair{50, 8}, std::pair{64, 4}, std::pair{33, 32}}) {
      CAPTURE(lu);
      CAPTURE(n);
      CAPTURE(b);
      TiledMatrix m(lu, n, b);
      tiled_serial(m);
      CHECK(max_reconstruction_error(m) < 1e-9 * n);
      // The padding stays the identity's factor.
      const int np = m.tiles * m.b;
      for (int i = n; i < np; ++i) CHECK(element(m, m.a, i, i) == 1.0);
    }
  }
}

TEST_CASE("any order of a phase's tile operations gives the serial bits") {
  for (const bool lu : {false, true}) {
    TiledMatrix serial(lu, 70, 8), other(lu, 70, 8);
    tiled_serial(serial);
    reversed_forkjoin(other);
    CHECK(same_doubles(serial.a, other.a));
    other.reset();
    CHECK(same_doubles(other.a, other.init));
  }
}

TEST_CASE("a factorization with a skipped tile operation is caught") {
  TiledMatrix serial(false, 40, 8), skipped(false, 40, 8);
  tiled_serial(serial);
  bool skip = true;
  tiled_forkjoin(skipped, [&skip](std::int64_t count, auto&& body) {
    for (std::int64_t i = 0; i < count; ++i) {
      if (skip && count > 3 && i == 1) {
        skip = false;
        continue;
      }
      body(i);
    }
  });
  CHECK_FALSE(same_doubles(serial.a, skipped.a));
}

TEST_CASE("the synchronous task types follow RTWS §IV-A") {
  const std::int64_t nodes[3][2] = {{100'000, 200'000}, {10'000, 20'000}, {1'000, 2'000}};
  const std::int64_t ns[3][2] = {{5, 10}, {2'000, 4'500}, {20'000, 50'000}};
  for (int type = 1; type <= 3; ++type) {
    for (std::uint64_t seed : {1ull, 2ull, 77ull}) {
      CAPTURE(type);
      CAPTURE(seed);
      const SyncTask t(type, seed, 1);
      CHECK(t.segments() >= 10);
      CHECK(t.segments() <= 20);
      for (int s = 0; s < t.segments(); ++s) {
        const std::int64_t n = t.start[static_cast<std::size_t>(s) + 1] -
                               t.start[static_cast<std::size_t>(s)];
        CHECK(n >= nodes[type - 1][0]);
        CHECK(n <= nodes[type - 1][1]);
      }
      for (std::int64_t i = 0; i < t.start.back(); i += 997) {
        CHECK(t.node_ns(i) >= ns[type - 1][0]);
        CHECK(t.node_ns(i) <= ns[type - 1][1]);
      }
    }
  }
  // Draws differ between seeds.
  CHECK(SyncTask(2, 1, 1).start != SyncTask(2, 2, 1).start);
}

TEST_CASE("the synchronous task's checksum sees every node, in any order") {
  SyncTask a(2, 5, 100), b(2, 5, 100);
  a.serial();
  for (std::int64_t i = b.start.back() - 1; i >= 0; --i) b.node(i);
  CHECK(a.checksum() == b.checksum());
  b.reset();
  for (std::int64_t i = 1; i < b.start.back(); ++i) b.node(i);  // node 0 skipped
  CHECK(a.checksum() != b.checksum());
  CHECK(a.size().find("type=2,seed=5") == 0);
}
