// expect_column.cpp — check_column_expect (expect_column.hpp).
#include "experiment/expect_column.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace rtpar::experiment {

namespace {

// csv_fields splits one CSV line at commas (merge writes no quoted field).
std::vector<std::string_view> csv_fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == ',') {
      out.push_back(line.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// csv_number reads a cell as a finite number; nullopt when empty or not a number.
std::optional<double> csv_number(std::string_view cell) {
  double v = 0;
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
  if (cell.empty() || ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

}  // namespace

ExpectCheck check_column_expect(const Expect& e, std::string_view csv) {
  const std::string column = e.column.empty() ? "value" : e.column;
  const std::string over_column = e.over_column.empty() ? column : e.over_column;
  const bool at_most = e.kind == ExpectKind::at_most;
  const bool close = e.kind == ExpectKind::close;
  ExpectCheck out;
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < csv.size();) {
    std::size_t end = csv.find('\n', start);
    if (end == std::string_view::npos) end = csv.size();
    lines.push_back(csv.substr(start, end - start));
    start = end + 1;
  }
  // Column indices of panel, x, series and the compared column (−1: absent).
  int ip = -1, ix = -1, is = -1, ic = -1, io = -1;
  if (!lines.empty()) {
    const std::vector<std::string_view> header = csv_fields(lines.front());
    for (std::size_t k = 0; k < header.size(); ++k) {
      const int i = static_cast<int>(k);
      if (header[k] == "panel") ip = i;
      if (header[k] == "x") ix = i;
      if (header[k] == "series") is = i;
      if (header[k] == column) ic = i;
      if (header[k] == over_column) io = i;
    }
  }
  // (panel, x) -> the two values, in CSV order (sweep order within a panel).
  std::vector<std::tuple<std::string, std::string, std::optional<double>, std::optional<double>>>
      points;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  if (ip >= 0 && ix >= 0 && is >= 0 && ic >= 0 && io >= 0) {
    const int need = std::max({ip, ix, is, ic, io});
    for (std::size_t l = 1; l < lines.size(); ++l) {
      const std::vector<std::string_view> c = csv_fields(lines[l]);
      if (static_cast<int>(c.size()) <= need) continue;
      if (!e.panel.empty() && c[ip] != e.panel) continue;
      const bool mine = c[is] == e.series;
      const bool theirs = c[is] == e.over;  // both when series == over (over_column)
      if (!mine && !theirs) continue;
      const std::pair<std::string, std::string> key{std::string(c[ip]), std::string(c[ix])};
      auto [it, fresh] = index.emplace(key, points.size());
      if (fresh) points.emplace_back(key.first, key.second, std::nullopt, std::nullopt);
      auto& p = points[it->second];
      if (mine) std::get<2>(p) = csv_number(c[ic]);
      if (theirs) std::get<3>(p) = csv_number(c[io]);
    }
  }
  int compared = 0;
  int failed = 0;
  std::string first_bad;
  for (const auto& [panel, x, a, b] : points) {
    if (!a || !b) continue;
    ++compared;
    const double bound = e.factor * *b;
    const bool ok = close ? std::abs(*a - *b) <= e.tolerance : at_most ? *a <= bound : *a >= bound;
    if (ok) continue;
    if (failed++ == 0)
      first_bad = fmt::format(", first at {} x = {}: {:.4g} vs {:.4g}", panel, x, *a, *b);
  }
  out.pass = compared > 0 && failed == 0;
  const std::string relation = close ? fmt::format("within {:g} of", e.tolerance)
                                     : fmt::format("{} {:g} x", at_most ? "<=" : ">=", e.factor);
  out.what =
      fmt::format("{}({}) {} {}({}) at every point{} ({} of {} points not{})", column, e.series,
                  relation, over_column, e.over, e.panel.empty() ? "" : " of panel " + e.panel,
                  failed, compared, first_bad);
  if (ic < 0) out.what += " — no column " + column + " in the merged CSV";
  if (io < 0 && over_column != column) {
    out.what += " — no column " + over_column + " in the merged CSV";
  }
  return out;
}

}  // namespace rtpar::experiment
