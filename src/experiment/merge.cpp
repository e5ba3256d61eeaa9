// merge.cpp — raw rows → aggregated CSV, expectations and plot description.
#include "experiment/merge.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "experiment/expect_column.hpp"
#include "experiment/machine_env.hpp"
#include "experiment/raw_rows.hpp"
#include "experiment/runner.hpp"

namespace rtpar::experiment {

namespace fs = std::filesystem;

namespace {

// raw_files lists DIR/raw/*.csv in name order (the order never changes the result).
std::vector<fs::path> raw_files(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir / "raw")) return files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir / "raw")) {
    if (e.is_regular_file() && e.path().extension() == ".csv") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// check_machines requires a machine record beside every raw file of a runtime study and, unless
// mix_machines, one record for all of them (machine_env.hpp), which it copies to DIR/machine.txt
// (with mix_machines: every distinct record, each after the raw files that carry it).
void check_machines(const fs::path& dir, bool mix_machines) {
  std::map<std::string, std::vector<std::string>> by_env;  // record -> raw files
  for (const fs::path& f : raw_files(dir)) {
    const fs::path e = env_file(f);
    std::ifstream in(e, std::ios::binary);
    if (!in) {
      throw InputError({e.string(), 0, 0}, "",
                       "no machine record beside " + f.filename().string() +
                           " (a runtime study's raw file is written with one)");
    }
    std::ostringstream text;
    text << in.rdbuf();
    by_env[text.str()].push_back(f.filename().string());
  }
  if (by_env.size() > 1 && !mix_machines) {
    std::string which;
    for (const auto& [env, files] : by_env) {
      which += fmt::format("\n  {}:", fmt::join(files, ", "));
      std::istringstream lines(env);
      for (std::string line; std::getline(lines, line);) which += "\n    " + line;
    }
    throw InputError({(dir / "raw").string(), 0, 0}, "",
                     "runtime rows from different machines (merge them anyway with "
                     "--mix-machines):" +
                         which);
  }
  std::string record;
  for (const auto& [env, files] : by_env) {
    record += by_env.size() > 1 ? fmt::format("# {}\n", fmt::join(files, ", ")) : "";
    record += env;
  }
  write_atomically(dir / "machine.txt", record);
}

// number parses an x value as a number (nullopt for names such as "fbb-ffd").
std::optional<double> number(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return v;
}

// list renders the first few unit indices of v.
std::string list(const std::vector<std::uint64_t>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size() && i < 20; ++i)
    out += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() > 20) out += fmt::format(", ... ({} in all)", v.size());
  return out;
}

// fraction is a cell's admitted fraction among the trials the series could judge.
std::optional<double> fraction(const Cell& c) {
  const std::int64_t n = c.admitted + c.rejected + c.missed;
  if (n == 0) return std::nullopt;
  return static_cast<double>(c.admitted) / static_cast<double>(n);
}

// write_plot_spec writes DIR/NAME.plot.json, the plot's description for tools/plot_experiment.py.
void write_plot_spec(const Resolved& r, const fs::path& dir) {
  const Manifest& m = r.manifest;
  nlohmann::json plot;
  plot["title"] = m.plot.title;
  plot["x_label"] = m.plot.x_label;
  plot["y_label"] = m.plot.y_label;
  plot["log_x"] = m.plot.log_x;
  plot["failure_rate"] = m.plot.failure_rate;
  plot["box"] = m.plot.box;
  plot["bench"] = m.bench.has_value();  // median_M columns then get their min_M..max_M band
  plot["y"] = m.plot.y;
  plot["paper"] = m.paper;
  plot["item"] = m.item;
  plot["scale"] = r.scale;
  plot["trials"] = r.trials;
  plot["panels"] = nlohmann::json::array();
  for (const Panel& p : m.panels) plot["panels"].push_back(p.name);
  plot["series"] = nlohmann::json::array();
  for (const Series& s : m.series) plot["series"].push_back(s.name);
  write_atomically(dir / (m.name + ".plot.json"), plot.dump(2) + "\n");
}

}  // namespace

Wilson wilson95(std::int64_t k, std::int64_t n) {
  constexpr double z = 1.959963984540054;
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(k) / nn;
  const double denom = 1 + z * z / nn;
  const double centre = (p + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  // At k = 0 and k = n the bound on that side is exactly 0 or 1; say so rather than trust rounding.
  const double low = k == 0 ? 0.0 : std::max(0.0, centre - half);
  const double high = k == n ? 1.0 : std::min(1.0, centre + half);
  return Wilson{p, low, high};
}

double breakdown(const std::vector<double>& x, const std::vector<double>& value, double level) {
  if (x.empty()) return 0;
  if (value[0] < level) return x[0];
  for (std::size_t i = 1; i < x.size(); ++i) {
    if (value[i] < level) {
      const double t = (value[i - 1] - level) / (value[i - 1] - value[i]);
      return x[i - 1] + t * (x[i] - x[i - 1]);
    }
  }
  return x.back();
}

Coverage coverage(const Resolved& r, const fs::path& dir) {
  Coverage c;
  std::vector<std::uint8_t> seen(r.units(), 0);
  for (const fs::path& f : raw_files(dir)) {
    std::set<std::uint64_t> units;
    for (const RawRow& row : read_raw(f, r)) units.insert(row.unit);
    for (const std::uint64_t u : units) {
      if (seen[u] != 0) c.duplicated.push_back(u);
      seen[u] = 1;
    }
  }
  for (std::uint64_t u = 0; u < r.units(); ++u) {
    if (seen[u] != 0) {
      ++c.present;
    } else {
      c.missing.push_back(u);
    }
  }
  std::sort(c.duplicated.begin(), c.duplicated.end());
  return c;
}

namespace {

// write_expects checks the manifest's expectations at r's scale and writes DIR/expect.txt: a
// column expectation on the merged CSV text `csv` (expect_column.hpp), the others on the
// fractions of each panel's points in sweep order (`cells`, null for a bench study, whose
// expectations all name a column). Each line goes to result.expects; failures are counted.
void write_expects(const Resolved& r, const Coverage& cov, const std::string& csv,
                   const std::vector<std::vector<Cell>>* cells_of, MergeResult& result,
                   const fs::path& dir) {
  const Manifest& m = r.manifest;
  const std::vector<std::vector<Cell>> none;
  const std::vector<std::vector<Cell>>& cells = cells_of != nullptr ? *cells_of : none;
  const auto curve = [&](std::size_t panel, std::size_t series, std::vector<double>& xs,
                         std::vector<double>& vs) {
    for (std::size_t p = 0; p < r.points.size(); ++p) {
      if (r.points[p].panel != panel) continue;
      const std::optional<double> x = number(r.points[p].x);
      const std::optional<double> v = fraction(cells[p][series]);
      if (!x || !v) continue;
      xs.push_back(*x);
      vs.push_back(*v);
    }
  };
  const auto series_index = [&](const std::string& name) {
    for (std::size_t s = 0; s < m.series.size(); ++s) {
      if (m.series[s].name == name) return s;
    }
    return std::size_t{0};
  };
  for (const Expect& e : m.expects) {
    if (std::find(e.scales.begin(), e.scales.end(), r.scale) == e.scales.end()) {
      result.expects.push_back(fmt::format("SKIP at scale {} (checked at {}): {}", r.scale,
                                           fmt::join(e.scales, ", "), e.quote));
      continue;
    }
    const std::size_t a = series_index(e.series);
    const std::size_t b = series_index(e.over);
    bool pass = true;
    std::string what;
    if (!e.column.empty() || e.kind == ExpectKind::at_most || e.kind == ExpectKind::close ||
        cells_of == nullptr) {
      const ExpectCheck check = check_column_expect(e, csv);
      pass = check.pass;
      what = check.what;
    } else if (e.kind == ExpectKind::breakdown_ratio) {
      std::size_t panel = 0;
      for (std::size_t p = 0; p < m.panels.size(); ++p) {
        if (m.panels[p].name == e.panel) panel = p;
      }
      std::vector<double> xa, va, xb, vb;
      curve(panel, a, xa, va);
      curve(panel, b, xb, vb);
      const double ba = breakdown(xa, va, e.level);
      const double bb = breakdown(xb, vb, e.level);
      pass = !xa.empty() && !xb.empty() && ba >= e.factor * bb;
      what =
          fmt::format("breakdown({}) = {:.2f} >= {} x breakdown({}) = {:.2f} (level {}, panel {})",
                      e.series, ba, e.factor, e.over, bb, e.level, m.panels[panel].name);
    } else {
      int worse = 0;
      int compared = 0;
      for (std::size_t p = 0; p < r.points.size(); ++p) {
        const std::optional<double> va = fraction(cells[p][a]);
        const std::optional<double> vb = fraction(cells[p][b]);
        if (!va || !vb) continue;
        ++compared;
        if (*va < *vb) ++worse;
      }
      pass = compared > 0 && worse == 0;
      what = fmt::format("{} >= {} at every point ({} of {} points below)", e.series, e.over, worse,
                         compared);
    }
    if (!pass) ++result.failed;
    result.expects.push_back(fmt::format("{} {}{}", pass ? "PASS" : "FAIL", what,
                                         e.quote.empty() ? "" : "  — \"" + e.quote + "\""));
  }
  std::string expect_text;
  if (!cov.missing.empty()) {
    expect_text += fmt::format("PARTIAL {} of {} units missing: expectations on partial data\n",
                               cov.missing.size(), r.units());
  }
  for (const std::string& line : result.expects) expect_text += line + "\n";
  write_atomically(dir / "expect.txt", expect_text);
}

}  // namespace

MergeResult merge_study(const fs::path& dir, bool allow_partial, bool mix_machines) {
  const Resolved r = load_study(dir);
  const Manifest& m = r.manifest;
  if (measures(m)) check_machines(dir, mix_machines);
  MergeResult result;
  result.coverage = coverage(r, dir);
  const Coverage& cov = result.coverage;
  if (!cov.duplicated.empty()) {
    throw InputError(
        {(dir / "raw").string(), 0, 0}, "",
        "units computed twice (two runs over the same units?): " + list(cov.duplicated));
  }
  if (!cov.missing.empty() && !allow_partial) {
    throw InputError({(dir / "raw").string(), 0, 0}, "",
                     fmt::format("{} of {} units missing: {} (run the missing shards, or merge "
                                 "with --allow-partial)",
                                 cov.missing.size(), r.units(), list(cov.missing)));
  }
  // Aggregate: cells[point][series]; per-unit generator columns counted once per unit.
  std::vector<std::vector<Cell>> cells(r.points.size(), std::vector<Cell>(m.series.size()));
  std::vector<std::int64_t> units_at(r.points.size(), 0);
  std::vector<double> tasks_at(r.points.size(), 0);
  std::vector<double> util_at(r.points.size(), 0);
  std::vector<std::int64_t> draws_at(r.points.size(), 0);    // admitted_by: Σ draws per point
  std::vector<std::int64_t> unadmitted(r.points.size(), 0);  // units with no admitted draw
  std::vector<RawRow> bench_rows;                            // a bench study's rows, for bench_csv
  for (const fs::path& f : raw_files(dir)) {
    for (RawRow& row : read_raw(f, r)) {
      if (m.bench) {
        bench_rows.push_back(std::move(row));
        continue;
      }
      const std::size_t p = r.unit(row.unit).point;
      Cell& cell = cells[p][row.series];
      if (row.verdict == Verdict::admitted) ++cell.admitted;
      if (row.verdict == Verdict::rejected) ++cell.rejected;
      if (row.verdict == Verdict::not_applicable) ++cell.not_applicable;
      if (row.verdict == Verdict::missed) ++cell.missed;
      if (row.plan_admitted) ++cell.plan_admitted;
      if (row.simulated) {
        ++cell.simulated;
        cell.miss_ratio_micros += std::llround(row.miss_ratio * 1e6);
        if (row.max_rel_response) {
          cell.max_rel_response =
              std::max(cell.max_rel_response.value_or(0), *row.max_rel_response);
        }
        if (row.mean_rel_response) {
          cell.mean_rel_micros += std::llround(*row.mean_rel_response * 1e6);
          ++cell.mean_rel_n;
        }
      }
      if (row.required_searched) {
        ++cell.required_n;
        // More than M cores needed counts as M + 4, as the paper plots 34 on its 30 cores.
        cell.required_sum += row.required_cores ? *row.required_cores : row.required_max + 4;
        if (!row.required_cores) ++cell.required_over;
      }
      if (row.series == 0) {
        draws_at[p] += row.draws;
        if (!row.draw_admitted) ++unadmitted[p];
        ++units_at[p];
        tasks_at[p] += static_cast<double>(row.tasks);
        util_at[p] += row.total_util;
      }
    }
  }
  // A simulation or runtime study adds its columns at the end, so an analysis study's CSV keeps
  // its bytes.
  // A runtime study's `executed` counts the plans that ran on this machine.
  const bool simulation = executes(m);
  if (m.bench) {
    result.csv = dir / (m.name + ".csv");
    const std::string csv = bench_csv(r, bench_rows);
    write_atomically(result.csv, csv);
    write_expects(r, cov, csv, nullptr, result, dir);
    write_plot_spec(r, dir);
    return result;
  }
  std::string csv =
      "experiment,panel,x,series,n,admitted,rejected,not_applicable,value,ci_low,ci_high,"
      "mean_tasks,mean_total_util";
  const bool cores = searches_cores(r);
  if (simulation) {
    csv += m.klass == ManifestClass::runtime
               ? ",missed,plan_admitted,executed,mean_miss_ratio,max_rel_response,mean_rel_response"
               : ",missed,plan_admitted,simulated,mean_miss_ratio,max_rel_response,"
                 "mean_rel_response";
  }
  const bool redraw = m.admitted_by.has_value();
  csv += std::string(cores ? ",mean_required_cores,required_over" : "") +
         (redraw ? ",mean_draws,unadmitted\n" : "\n");
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    for (std::size_t s = 0; s < m.series.size(); ++s) {
      const Cell& c = cells[p][s];
      const std::int64_t n = c.admitted + c.rejected + c.missed;
      std::string value = ",,";
      if (n > 0) {
        const Wilson w = wilson95(c.admitted, n);
        value = fmt::format("{:.6f},{:.6f},{:.6f}", w.value, w.low, w.high);
      }
      const double units = static_cast<double>(std::max<std::int64_t>(1, units_at[p]));
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{:.3f},{:.4f}", m.name, r.panel_of(p).name,
                         r.points[p].x, m.series[s].name, n, c.admitted, c.rejected,
                         c.not_applicable, value, tasks_at[p] / units, util_at[p] / units);
      if (simulation) {
        csv += fmt::format(",{},{},{},", c.missed, c.plan_admitted, c.simulated);
        if (c.simulated > 0) {
          csv += fmt::format("{:.6f}", static_cast<double>(c.miss_ratio_micros) / 1e6 /
                                           static_cast<double>(c.simulated));
        }
        csv += ",";
        if (c.max_rel_response) csv += fmt::format("{:.6f}", *c.max_rel_response);
        csv += ",";
        if (c.mean_rel_n > 0) {
          csv += fmt::format("{:.6f}", static_cast<double>(c.mean_rel_micros) / 1e6 /
                                           static_cast<double>(c.mean_rel_n));
        }
      }
      if (cores) {
        csv += ",";
        if (c.required_n > 0) {
          csv += fmt::format(
              "{:.3f}", static_cast<double>(c.required_sum) / static_cast<double>(c.required_n));
        }
        csv += fmt::format(",{}", c.required_over);
      }
      if (redraw) {
        csv += fmt::format(",{:.3f},{}", static_cast<double>(draws_at[p]) / units, unadmitted[p]);
      }
      csv += "\n";
    }
  }
  result.csv = dir / (m.name + ".csv");
  write_atomically(result.csv, csv);

  write_expects(r, cov, csv, &cells, result, dir);
  write_plot_spec(r, dir);
  return result;
}

}  // namespace rtpar::experiment
