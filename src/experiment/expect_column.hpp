// expect_column.hpp — checking a column expectation (an [[expect]] with `column`, or of kind
// "at_most") on a study's merged CSV text: any merged column of any class, bench studies
// included (docs/experiments.md "Manifest format").
#pragma once

#include <string>
#include <string_view>

#include "experiment/manifest.hpp"

namespace rtpar::experiment {

// ExpectCheck is one checked expectation: whether it holds and what was compared.
struct ExpectCheck {
  bool pass = false;
  std::string what;
};

// check_column_expect compares e.column (default "value") of series e.series with that of
// e.over at every (panel, x) both have a number for (only panel e.panel when given): kind
// dominates needs series ≥ factor × over, at_most series ≤ factor × over, at every such point.
// It fails when no point compares (a column the CSV lacks, or only empty cells). `csv` is the
// merged CSV as merge writes it: a header line, then one row per (panel, x, series), no quoting.
ExpectCheck check_column_expect(const Expect& e, std::string_view csv);

}  // namespace rtpar::experiment
