// expect_spec.cpp — reading an [[expect]] table of a manifest (expect_spec.hpp).
#include "experiment/expect_spec.hpp"

#include <cmath>

#include <string>
#include <utility>

#include <toml++/toml.h>

#include "experiment/manifest_fields.hpp"

namespace rtpar::experiment {

Expect read_expect_spec(const model::TableReader& t, const Manifest& m) {
  t.allow_only({"kind", "series", "over", "factor", "level", "panel", "quote", "scales", "column",
                "over_column", "tolerance"});
  Expect e;
  e.where = t.where();
  const std::optional<std::string> kind = t.string("kind");
  if (kind == "breakdown_ratio") {
    e.kind = ExpectKind::breakdown_ratio;
  } else if (kind == "dominates") {
    e.kind = ExpectKind::dominates;
  } else if (kind == "at_most") {
    e.kind = ExpectKind::at_most;
  } else if (kind == "close") {
    e.kind = ExpectKind::close;
  } else {
    t.fail(t.node("kind"), "kind",
           "expected \"breakdown_ratio\", \"dominates\", \"at_most\" or \"close\"");
  }
  // close compares two measured columns within an absolute tolerance (its only bound).
  if (const toml::node* n = t.node("tolerance")) {
    if (e.kind != ExpectKind::close) t.fail(n, "tolerance", "only a \"close\" expectation has one");
    if (!n->is_number()) t.fail(n, "tolerance", "expected a number");
    e.tolerance = n->value<double>().value_or(-1);
    if (!(e.tolerance >= 0) || !std::isfinite(e.tolerance)) {
      t.fail(n, "tolerance", "must be a finite number >= 0 (in the column's units)");
    }
  } else if (e.kind == ExpectKind::close) {
    t.fail(nullptr, "tolerance", "a \"close\" expectation needs one (in the column's units)");
  }
  e.column = t.string("column").value_or("");
  if (e.kind == ExpectKind::breakdown_ratio && !e.column.empty()) {
    t.fail(t.node("column"), "column", "a breakdown is taken of the schedulable fraction");
  }
  e.over_column = t.string("over_column").value_or("");
  if (!e.over_column.empty() && e.column.empty()) {
    t.fail(t.node("over_column"), "over_column", "needs `column` (the series' side)");
  }
  if (m.bench && e.column.empty()) {
    // A bench study has no fraction: it compares one of its merged columns (median_p99_ns, ...).
    t.fail(nullptr, "column", "a bench expectation names a merged column, e.g. \"median_mean_ns\"");
  }
  if (m.bench && e.kind == ExpectKind::breakdown_ratio) {
    t.fail(t.node("kind"), "kind", "a bench study has no breakdown: use dominates or at_most");
  }
  e.series = name_value(t, "series");
  e.over = name_value(t, "over");
  e.panel = t.string("panel").value_or("");
  e.quote = t.string("quote").value_or("");
  if (const toml::node* n = t.node("scales")) {
    const toml::array* a = n->as_array();
    if (a == nullptr || a->empty())
      t.fail(n, "scales", "expected a non-empty array of scale names");
    e.scales.clear();
    for (const toml::node& x : *a) {
      if (!x.is_string()) t.fail(&x, "scales", "expected a non-empty array of scale names");
      e.scales.push_back(x.as_string()->get());
    }
  }
  for (const auto& [key, out] : {std::pair{"factor", &e.factor}, std::pair{"level", &e.level}}) {
    const toml::node* n = t.node(key);
    if (n == nullptr) continue;
    if (!n->is_number()) t.fail(n, key, "expected a number");
    *out = n->value<double>().value_or(0);
    if (!(*out > 0) || *out > 1000) t.fail(n, key, "must be in (0, 1000]");
  }
  for (const std::string* s : {&e.series, &e.over}) {
    bool found = false;
    for (const Series& q : m.series) found = found || q.name == *s;
    if (!found) t.fail(nullptr, "series", "no series named " + *s);
  }
  if (!e.panel.empty()) {
    bool found = false;
    for (const Panel& q : m.panels) found = found || q.name == e.panel;
    if (!found) t.fail(t.node("panel"), "panel", "no panel named " + e.panel);
  }
  for (const std::string& scale : e.scales) {
    if (m.scales.count(scale) == 0) t.fail(t.node("scales"), "scales", "no scale named " + scale);
  }
  return e;
}

}  // namespace rtpar::experiment
