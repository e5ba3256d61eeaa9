// steal_fft.hpp — the fft kernel of `rtpar bench steal`: a recursive radix-2 Cooley-Tukey FFT
// (decimation in time, out of place), for P3LS3 §5.1's "this trend is also visible in non
// synthetic divide and conquer algorithms like a fast Fourier transform".
//
// The recursion is written once, over a fork(a, b) that runs two halves, maybe in parallel: each
// program (rtpar, libgomp, libomp, oneTBB) passes its own spawn-and-join, the serial version runs
// a then b. Every output value is computed by one fixed sequence of multiplies and adds whichever
// thread runs it (no reductions, no FMA: the bench flags target baseline x86-64), so the parallel
// result equals the serial one bit for bit and rows of all programs share one checksum.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace rtpar_bench {

// FftComplex is one complex value; the products are written out so no library call (with its
// NaN/Inf recovery) differs between compilers.
struct FftComplex {
  double re = 0.0;
  double im = 0.0;
};
static_assert(sizeof(FftComplex) == 2 * sizeof(double), "result() copies FftComplex as 2 doubles");

// fft_butterflies combines the two half transforms in out[0, h) and out[h, 2h) in place: out[k] =
// E + w^k·O, out[k+h] = E − w^k·O, with w^k = tw[k·tw_step] (tw: the e^{−2πik/N} of the full size).
inline void fft_butterflies(FftComplex* out, std::size_t h, const FftComplex* tw,
                            std::size_t tw_step) {
  for (std::size_t k = 0; k < h; ++k) {
    const FftComplex w = tw[k * tw_step];
    const FftComplex o = out[k + h];
    const FftComplex t{w.re * o.re - w.im * o.im, w.re * o.im + w.im * o.re};
    const FftComplex e = out[k];
    out[k] = {e.re + t.re, e.im + t.im};
    out[k + h] = {e.re - t.re, e.im - t.im};
  }
}

// fft_recursive writes the DFT of the n values in[0], in[stride], ... to out[0, n) (n a power of
// two): the even and odd halves recursively, then the butterflies. Halves of more than `grain`
// points go through fork (the parallel split); smaller ones recurse serially.
template <class Fork>
void fft_recursive(const FftComplex* in, std::size_t stride, FftComplex* out, std::size_t n,
                   const FftComplex* tw, std::size_t tw_step, std::size_t grain, Fork& fork) {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  const std::size_t h = n / 2;
  if (n > grain) {
    fork([&] { fft_recursive(in, 2 * stride, out, h, tw, 2 * tw_step, grain, fork); },
         [&] { fft_recursive(in + stride, 2 * stride, out + h, h, tw, 2 * tw_step, grain, fork); });
  } else {
    fft_recursive(in, 2 * stride, out, h, tw, 2 * tw_step, grain, fork);
    fft_recursive(in + stride, 2 * stride, out + h, h, tw, 2 * tw_step, grain, fork);
  }
  fft_butterflies(out, h, tw, tw_step);
}

// Fft holds one transform of n points (n a power of two): input, twiddles and output.
struct Fft {
  std::size_t n = 0;
  std::size_t grain = 1024;  // halves of at most this many points are not split (a task ≈ 50 µs)
  std::vector<FftComplex> in, tw, out;

  // Fft fills the input with small integers in [-8, 8] and the twiddles e^{−2πik/n}, k < n/2.
  explicit Fft(std::size_t size) : n(size), in(size), tw(size / 2), out(size) {
    for (std::size_t i = 0; i < n; ++i) {
      in[i] = {static_cast<double>(static_cast<int>((i * 7) % 17) - 8),
               static_cast<double>(static_cast<int>((i * 5) % 13) - 6)};
    }
    const double pi = 3.14159265358979323846;
    for (std::size_t k = 0; k < n / 2; ++k) {
      const double a = -2.0 * pi * static_cast<double>(k) / static_cast<double>(n);
      tw[k] = {std::cos(a), std::sin(a)};
    }
  }

  // run computes out = DFT(in) with fork as the split (see fft_recursive).
  template <class Fork>
  void run(Fork& fork) {
    fft_recursive(in.data(), 1, out.data(), n, tw.data(), 1, grain, fork);
  }

  // serial computes out with both halves run in turn.
  void serial() {
    auto both = [](auto&& a, auto&& b) {
      a();
      b();
    };
    run(both);
  }

  // reset fills out with a value no transform yields here (untimed, before each repetition).
  void reset() {
    for (FftComplex& c : out) c = {-1e300, -1e300};
  }

  // result is out as interleaved doubles (for the bit-for-bit check and the checksum).
  [[nodiscard]] std::vector<double> result() const {
    std::vector<double> v(2 * n);
    std::memcpy(v.data(), out.data(), v.size() * sizeof(double));
    return v;
  }
};

// fft_is_power_of_two says whether n is a power of two of at least 2 (the radix-2 sizes).
inline bool fft_is_power_of_two(std::uint64_t n) { return n >= 2 && (n & (n - 1)) == 0; }

}  // namespace rtpar_bench
