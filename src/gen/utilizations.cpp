// utilizations.cpp — UUniFast, UUniFast-discard and RandFixedSum (utilizations.hpp).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include "gen/utilizations.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace rtpar::gen {

std::vector<double> uunifast(Rng& rng, int n, double total) {
  std::vector<double> u;
  u.reserve(static_cast<std::size_t>(n));
  double sum = total;
  for (int i = 1; i < n; ++i) {
    const double next = sum * std::pow(rng.uniform01(), 1.0 / (n - i));
    u.push_back(sum - next);
    sum = next;
  }
  u.push_back(sum);
  return u;
}

std::optional<std::vector<double>> uunifast_discard(Rng& rng, int n, double total, double max,
                                                    std::int64_t max_tries, std::int64_t* redraws) {
  for (std::int64_t tries = 0; tries <= max_tries; ++tries) {
    std::vector<double> u = uunifast(rng, n, total);
    if (*std::max_element(u.begin(), u.end()) <= max) return u;
    ++*redraws;
  }
  return std::nullopt;
}

std::vector<double> randfixedsum(Rng& rng, int n, double total, double lo, double hi) {
  // Work on the unit cube: x in [0, 1]^n with Σx = s. The cube slice s is cut by the hyperplanes
  // Σx = k into simplex pieces; w[i][j] holds (scaled) volumes of the i+1-dimensional pieces and
  // t[i][j] the probability of stepping down a piece when one coordinate is fixed.
  const auto N = static_cast<std::size_t>(n);
  double s = (total - n * lo) / (hi - lo);
  const int k = std::max(std::min(static_cast<int>(std::floor(s)), n - 1), 0);
  s = std::max(std::min(s, static_cast<double>(k + 1)), static_cast<double>(k));
  std::vector<double> s1(N), s2(N);
  for (std::size_t i = 0; i < N; ++i) {
    s1[i] = s - static_cast<double>(k - static_cast<int>(i));
    s2[i] = static_cast<double>(k + n - static_cast<int>(i)) - s;
  }
  // w is n × (n+1), t is (n−1) × n; both 0-based here (the description is 1-based).
  std::vector<std::vector<double>> w(N, std::vector<double>(N + 1, 0.0));
  std::vector<std::vector<double>> t(N > 1 ? N - 1 : 0, std::vector<double>(N, 0.0));
  w[0][1] = DBL_MAX;  // a large scale keeps the volumes from underflowing; only ratios matter
  constexpr double kTiny = 0x1.0p-1074;
  for (std::size_t i = 2; i <= N; ++i) {
    for (std::size_t j = 1; j <= i; ++j) {
      // tmp1: pieces entering from above; tmp2: from below (columns j and j−1 of row i−2).
      const double tmp1 = w[i - 2][j] * s1[j - 1] / static_cast<double>(i);
      const double tmp2 = w[i - 2][j - 1] * s2[N - i + j - 1] / static_cast<double>(i);
      w[i - 1][j] = tmp1 + tmp2;
      const double tmp3 = w[i - 1][j] + kTiny;
      const bool below = s2[N - i + j - 1] > s1[j - 1];
      t[i - 2][j - 1] = below ? tmp2 / tmp3 : 1.0 - tmp1 / tmp3;
    }
  }
  std::vector<double> x(N, 0.0);
  double sm = 0, pr = 1, rest = s;
  int j = k + 1;  // 1-based column of t
  for (int i = n - 1; i >= 1; --i) {
    const double rt = rng.uniform01();
    const double rs = rng.uniform01();
    const bool e = rt <= t[static_cast<std::size_t>(i - 1)][static_cast<std::size_t>(j - 1)];
    const double sx = std::pow(rs, 1.0 / i);
    sm += (1.0 - sx) * pr * rest / (i + 1);
    pr *= sx;
    x[static_cast<std::size_t>(n - i - 1)] = sm + pr * (e ? 1.0 : 0.0);
    if (e) {
      rest -= 1.0;
      --j;
    }
  }
  x[N - 1] = sm + pr * rest;
  // Fisher–Yates: the construction orders the coordinates, the distribution does not.
  for (std::size_t i = N; i > 1; --i) std::swap(x[i - 1], x[rng.below(i)]);
  for (double& v : x) v = std::clamp(lo + (hi - lo) * v, lo, hi);
  return x;
}

}  // namespace rtpar::gen
