// test_steal_fft.cpp — the fft kernel of `rtpar bench steal` (bench/common/steal_fft.hpp): the
// recursive radix-2 transform against a naive O(n²) DFT, and a forked run (halves on two threads)
// equal to the serial one bit for bit, as every bench program's check requires.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <thread>

#include "common/steal_fft.hpp"

using rtpar_bench::Fft;

TEST_CASE("steal fft: the radix-2 recursion equals a naive DFT") {
  for (std::size_t n : {2u, 8u, 64u, 512u}) {
    Fft f(n);
    f.grain = 4;  // the forked branch is the serial path too: exercise both
    f.reset();
    f.serial();
    const double pi = 3.14159265358979323846;
    double worst = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      double re = 0.0, im = 0.0;
      for (std::size_t j = 0; j < n; ++j) {
        const double a = -2.0 * pi * static_cast<double>((j * k) % n) / static_cast<double>(n);
        re += f.in[j].re * std::cos(a) - f.in[j].im * std::sin(a);
        im += f.in[j].re * std::sin(a) + f.in[j].im * std::cos(a);
      }
      worst = std::max(worst, std::hypot(f.out[k].re - re, f.out[k].im - im));
    }
    // Inputs are at most 8 in magnitude: |X_k| ≤ 8·√2·n; rounding stays far below 1e-9·n.
    CHECK(worst < 1e-9 * static_cast<double>(n));
  }
}

TEST_CASE("steal fft: halves forked onto threads give the serial result bit for bit") {
  Fft f(4096);
  f.grain = 256;
  f.serial();
  const std::vector<double> ref = f.result();
  f.reset();
  CHECK(f.result() != ref);  // reset really clears what a skipped half would leave
  // Two threads at every split above the grain (4096 / 256: 15 splits, at most 4 threads deep).
  std::atomic<int> splits{0};
  auto threaded = [&splits](auto&& a, auto&& b) {
    splits.fetch_add(1);
    std::thread t([&a] { a(); });
    b();
    t.join();
  };
  f.run(threaded);
  CHECK(splits.load() == 15);
  CHECK(f.result() == ref);
  CHECK(rtpar_bench::fft_is_power_of_two(4096));
  CHECK_FALSE(rtpar_bench::fft_is_power_of_two(12));
  CHECK_FALSE(rtpar_bench::fft_is_power_of_two(1));
}
