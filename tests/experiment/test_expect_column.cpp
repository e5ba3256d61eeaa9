// test_expect_column.cpp — check_column_expect (experiment/expect_column.hpp): a column
// expectation on a merged CSV, worked by hand (issue 36 item 7).
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "experiment/expect_column.hpp"

using namespace rtpar::experiment;

namespace {

// kCsv is a bench study's merged CSV: 2 panels × 2 x values × 2 series, one metric, one empty
// cell (gomp's periodic 3-thread run measured nothing).
const std::string kCsv =
    "experiment,panel,x,series,n,measured,median_mean_ns,min_mean_ns,max_mean_ns\n"
    "b,back,2,spin,1,1,400,400,400\n"
    "b,back,2,gomp,1,1,1000,1000,1000\n"
    "b,back,3,spin,1,1,500,500,500\n"
    "b,back,3,gomp,1,1,1100,1100,1100\n"
    "b,periodic,2,spin,1,1,900,900,900\n"
    "b,periodic,2,gomp,1,1,1000,1000,1000\n"
    "b,periodic,3,spin,1,1,950,950,950\n"
    "b,periodic,3,gomp,1,0,,,\n";

// expect is a column expectation of `kind` on median_mean_ns, spin against gomp.
Expect expect(ExpectKind kind, double factor, const std::string& panel = "") {
  Expect e;
  e.kind = kind;
  e.series = "spin";
  e.over = "gomp";
  e.factor = factor;
  e.panel = panel;
  e.column = "median_mean_ns";
  return e;
}

}  // namespace

TEST_CASE("column expectation: at_most with a tolerance, per panel and over all panels") {
  // Ratios spin/gomp: back 0.40, 0.45; periodic 0.90 (the 3-thread periodic point has no gomp
  // value and is not compared): 3 points.
  ExpectCheck c = check_column_expect(expect(ExpectKind::at_most, 0.9), kCsv);
  CHECK(c.pass);  // 900 ≤ 0.9 × 1000 holds with equality
  CHECK(c.what.find("(0 of 3 points not)") != std::string::npos);
  c = check_column_expect(expect(ExpectKind::at_most, 0.85), kCsv);
  CHECK_FALSE(c.pass);  // periodic x = 2: 900 > 850
  CHECK(c.what.find("(1 of 3 points not, first at periodic x = 2: 900 vs 1000)") !=
        std::string::npos);
  CHECK(check_column_expect(expect(ExpectKind::at_most, 0.5, "back"), kCsv).pass);
  CHECK_FALSE(check_column_expect(expect(ExpectKind::at_most, 0.42, "back"), kCsv).pass);
}

TEST_CASE("column expectation: dominates, the default column and no comparable point") {
  Expect e = expect(ExpectKind::dominates, 2.0);
  e.series = "gomp";
  e.over = "spin";
  e.panel = "back";
  CHECK(check_column_expect(e, kCsv).pass);  // 1000 ≥ 800, 1100 ≥ 1000
  e.panel = "";
  CHECK_FALSE(check_column_expect(e, kCsv).pass);  // periodic: 1000 < 1800
  // A column the CSV lacks compares nothing: FAIL, and says why.
  e.column = "median_p99_ns";
  const ExpectCheck missing = check_column_expect(e, kCsv);
  CHECK_FALSE(missing.pass);
  CHECK(missing.what.find("no column median_p99_ns") != std::string::npos);
  // at_most without a column compares the fraction `value`.
  Expect v;
  v.kind = ExpectKind::at_most;
  v.series = "a";
  v.over = "b";
  const std::string fractions =
      "experiment,panel,x,series,n,value\ns,p,1,a,10,0.5\ns,p,1,b,10,0.6\n";
  CHECK(check_column_expect(v, fractions).pass);
  v.factor = 0.8;
  CHECK_FALSE(check_column_expect(v, fractions).pass);  // 0.5 > 0.48
}

TEST_CASE("column expectation: over_column compares two columns, of one series or two") {
  // median_mean_ns against max_mean_ns of the same series (RTWS §IV-B's p99-vs-mean form):
  // spin's min = median = max, so ≤ 1.0 × holds and ≤ 0.99 × fails.
  Expect e = expect(ExpectKind::at_most, 1.0);
  e.over = "spin";
  e.over_column = "max_mean_ns";
  ExpectCheck c = check_column_expect(e, kCsv);
  CHECK(c.pass);
  CHECK(c.what.find("median_mean_ns(spin) <= 1 x max_mean_ns(spin)") != std::string::npos);
  CHECK(c.what.find("(0 of 4 points not)") != std::string::npos);
  e.factor = 0.99;
  CHECK_FALSE(check_column_expect(e, kCsv).pass);
  // Across series: spin's median ≤ 0.5 × gomp's max only in panel back.
  e.over = "gomp";
  e.factor = 0.5;
  e.panel = "back";
  CHECK(check_column_expect(e, kCsv).pass);
  e.panel = "periodic";
  CHECK_FALSE(check_column_expect(e, kCsv).pass);
  // A missing over_column is named, and nothing passes.
  e.over_column = "p99_nope";
  c = check_column_expect(e, kCsv);
  CHECK_FALSE(c.pass);
  CHECK(c.what.find("no column p99_nope") != std::string::npos);
}

TEST_CASE("column expectation: close within an absolute tolerance, both ways") {
  // Differences spin - gomp: back -600, -600; periodic -100 (3 points; periodic x = 3 has no gomp).
  Expect e = expect(ExpectKind::close, 1.0);
  e.tolerance = 600;
  ExpectCheck c = check_column_expect(e, kCsv);
  CHECK(c.pass);  // |400 - 1000| = 600 ≤ 600: the bound is inclusive
  CHECK(c.what.find("within 600 of") != std::string::npos);
  e.tolerance = 599;
  c = check_column_expect(e, kCsv);
  CHECK_FALSE(c.pass);
  CHECK(c.what.find("(2 of 3 points not, first at back x = 2: 400 vs 1000)") != std::string::npos);
  // Symmetric: the series' and over's roles swap without changing the verdict.
  std::swap(e.series, e.over);
  CHECK_FALSE(check_column_expect(e, kCsv).pass);
  e.panel = "periodic";
  e.tolerance = 100;
  CHECK(check_column_expect(e, kCsv).pass);  // |1000 - 900| = 100
  e.tolerance = 0;
  CHECK_FALSE(check_column_expect(e, kCsv).pass);
}
