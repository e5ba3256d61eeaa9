// raw_rows.cpp — writing and reading the raw rows of a run.
#include "experiment/raw_rows.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace rtpar::experiment {

namespace {

constexpr const char* kColumns =
    "experiment,scale,seed,panel,x,trial,unit,unit_seed,series,verdict,gen_tasks,gen_total_util,"
    "gen_redraws,elapsed_us";
constexpr std::size_t kColumnCount = 14;
// kSimColumns follow kColumns in a simulation manifest's rows (empty cells when the series did
// not simulate the trial's plan); kRunColumns, the same cells, in a runtime manifest's (what the
// real run measured).
constexpr const char* kSimColumns =
    ",plan_admitted,sim_jobs,sim_misses,miss_ratio,max_rel_response,mean_rel_response";
constexpr const char* kRunColumns =
    ",plan_admitted,run_jobs,run_misses,miss_ratio,max_rel_response,mean_rel_response";
constexpr std::size_t kSimColumnCount = 6;

// simulation says whether study r's rows carry the execution columns (simulation or runtime).
bool simulation(const Resolved& r) { return executes(r.manifest); }

// columns is the CSV header of study r's raw rows.
std::string columns(const Resolved& r) {
  if (r.manifest.bench) {
    // A bench study's rows: the common columns (no generated set: zeros), then its metrics.
    std::string out = kColumns;
    for (const std::string& metric : r.manifest.bench->metrics) out += "," + metric;
    return out;
  }
  if (!simulation(r)) return kColumns;
  return std::string(kColumns) +
         (r.manifest.klass == ManifestClass::runtime ? kRunColumns : kSimColumns) +
         (searches_cores(r) ? ",required_cores" : "") +
         (r.manifest.admitted_by ? ",draws,draw_admitted" : "");
}

// split_csv splits a row at commas (raw cells are CSV-safe names and numbers: never quoted).
std::vector<std::string_view> split_csv(std::string_view line) {
  std::vector<std::string_view> cells;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == ',') {
      cells.push_back(line.substr(start, i - start));
      start = i + 1;
    }
  }
  return cells;
}

// integer parses a whole cell as an integer of type T.
template <typename T>
bool integer(std::string_view cell, T& out) {
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), out);
  return ec == std::errc() && end == cell.data() + cell.size();
}

}  // namespace

bool searches_cores(const Resolved& r) {
  const auto& series = r.manifest.series;
  return std::any_of(series.begin(), series.end(),
                     [](const Series& s) { return s.sim && s.sim->core_increase; });
}

std::string raw_signature(const Resolved& r) {
  return fmt::format("# rtpar-experiment v1 name={} scale={} seed={} trials={} manifest={:016x}",
                     r.manifest.name, r.scale, r.seed, r.trials, r.manifest.inputs_hash);
}

std::string raw_header(const Resolved& r) { return raw_signature(r) + "\n" + columns(r) + "\n"; }

std::string raw_lines(const Resolved& r, const UnitResult& result) {
  std::string out;
  const Point& p = r.points[result.unit.point];
  for (std::size_t s = 0; s < result.series.size(); ++s) {
    const SeriesResult& sr = result.series[s];
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{:.6f},{},{}", r.manifest.name, r.scale, r.seed,
        r.manifest.panels[p.panel].name, p.x, result.unit.trial, result.unit.index, result.seed,
        r.manifest.series[s].name,
        r.manifest.bench && sr.verdict == Verdict::admitted ? "measured" : verdict_name(sr.verdict),
        result.tasks, result.total_util, result.redraws, sr.elapsed_us);
    if (r.manifest.bench) {
      // Shortest round-trip form: a merge of any split reads back exactly what was measured.
      for (const std::optional<double>& v : sr.metrics) out += v ? fmt::format(",{}", *v) : ",";
    }
    if (simulation(r)) {
      out += fmt::format(",{}", sr.plan_admitted ? 1 : 0);
      if (sr.simulated) {
        const double ratio =
            sr.jobs > 0 ? static_cast<double>(sr.misses) / static_cast<double>(sr.jobs) : 0.0;
        out += fmt::format(",{},{},{:.6f},", sr.jobs, sr.misses, ratio);
        if (sr.max_relative_response) out += fmt::format("{:.6f}", *sr.max_relative_response);
        out += ",";
        if (sr.mean_relative_response) out += fmt::format("{:.6f}", *sr.mean_relative_response);
      } else {
        out += ",,,,,";
      }
    }
    if (searches_cores(r)) {
      out += ",";
      if (sr.required_searched) {
        out += sr.required_cores ? std::to_string(*sr.required_cores)
                                 : ">" + std::to_string(sr.required_max);
      }
    }
    if (r.manifest.admitted_by) {
      out += fmt::format(",{},{}", result.draws, result.draw_admitted ? 1 : 0);
    }
    out += "\n";
  }
  return out;
}

std::vector<RawRow> read_raw(const std::filesystem::path& file, const Resolved& r) {
  std::ifstream in(file, std::ios::binary);
  const std::string name = file.string();
  if (!in) throw InputError({name, 0, 0}, "", "cannot read this raw file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  // Lines are the complete ones only: a last line without its newline was cut by a kill, and its
  // unit is then incomplete (dropped below with the rest of that unit).
  std::vector<std::string_view> lines;
  for (std::size_t start = 0, nl; (nl = text.find('\n', start)) != std::string::npos;
       start = nl + 1) {
    lines.emplace_back(text.data() + start, nl - start);
  }
  if (lines.empty() || lines[0] != raw_signature(r)) {
    throw InputError({name, 1, 1}, "",
                     "written for another study (or another manifest version): expected \"" +
                         raw_signature(r) + "\"");
  }
  if (lines.size() < 2 || lines[1] != columns(r)) {
    throw InputError({name, 2, 1}, "", "expected the raw CSV header");
  }
  std::map<std::string_view, std::size_t> series_index;
  for (std::size_t s = 0; s < r.manifest.series.size(); ++s) {
    series_index[r.manifest.series[s].name] = s;
  }
  std::vector<RawRow> rows;
  std::map<std::uint64_t, std::size_t> per_unit;
  for (std::size_t i = 2; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const int number = static_cast<int>(i) + 1;
    const std::vector<std::string_view> c = split_csv(line);
    RawRow row;
    const auto bad = [&](const std::string& why) {
      throw InputError({name, number, 1}, "", "malformed raw row: " + why);
    };
    const std::size_t metrics = r.manifest.bench ? r.manifest.bench->metrics.size() : 0;
    const std::size_t expected = kColumnCount + (simulation(r) ? kSimColumnCount : 0) +
                                 (searches_cores(r) ? 1 : 0) + (r.manifest.admitted_by ? 2 : 0) +
                                 metrics;
    if (c.size() != expected) bad(fmt::format("{} cells, expected {}", c.size(), expected));
    if (!integer(c[6], row.unit) || row.unit >= r.units()) bad("unit");
    const auto s = series_index.find(c[8]);
    if (s == series_index.end()) bad("unknown series \"" + std::string(c[8]) + "\"");
    row.series = s->second;
    if (r.manifest.bench) {
      if (c[9] != "measured" && c[9] != "n/a") bad("verdict (measured or n/a)");
      row.verdict = c[9] == "measured" ? Verdict::admitted : Verdict::not_applicable;
      for (std::size_t k = 0; k < metrics; ++k) {
        const std::string cell(c[kColumnCount + k]);
        if (cell.empty()) {
          row.metrics.emplace_back();
          continue;
        }
        char* end = nullptr;
        const double v = std::strtod(cell.c_str(), &end);
        if (end != cell.c_str() + cell.size()) bad("metric " + r.manifest.bench->metrics[k]);
        row.metrics.emplace_back(v);
      }
    } else if (c[9] == "admitted") {
      row.verdict = Verdict::admitted;
    } else if (c[9] == "rejected") {
      row.verdict = Verdict::rejected;
    } else if (c[9] == "n/a") {
      row.verdict = Verdict::not_applicable;
    } else if (c[9] == "missed" && simulation(r)) {
      row.verdict = Verdict::missed;
    } else {
      bad("verdict");
    }
    if (!integer(c[10], row.tasks) || !integer(c[12], row.redraws)) bad("generator columns");
    row.total_util = std::strtod(std::string(c[11]).c_str(), nullptr);
    if (simulation(r)) {
      row.plan_admitted = c[14] == "1";
      row.simulated = !c[15].empty();
      if (row.simulated) {
        row.miss_ratio = std::strtod(std::string(c[17]).c_str(), nullptr);
        if (!c[18].empty()) row.max_rel_response = std::strtod(std::string(c[18]).c_str(), nullptr);
        if (!c[19].empty()) {
          row.mean_rel_response = std::strtod(std::string(c[19]).c_str(), nullptr);
        }
      }
    }
    // The optional cells at the end: required_cores, then draws and draw_admitted.
    const std::size_t required_at = kColumnCount + (simulation(r) ? kSimColumnCount : 0);
    const std::size_t draws_at = required_at + (searches_cores(r) ? 1 : 0);
    if (r.manifest.admitted_by) {
      if (!integer(c[draws_at], row.draws) || row.draws < 1 ||
          (c[draws_at + 1] != "0" && c[draws_at + 1] != "1")) {
        bad("draws");
      }
      row.draw_admitted = c[draws_at + 1] == "1";
    }
    if (searches_cores(r) && !c[required_at].empty()) {
      const std::string_view cell = c[required_at];
      row.required_searched = true;
      int cores = 0;
      if (cell.front() == '>') {
        if (!integer(cell.substr(1), row.required_max) || row.required_max < 1) {
          bad("required_cores");
        }
      } else if (integer(cell, cores) && cores >= 1) {
        row.required_cores = cores;
      } else {
        bad("required_cores");
      }
    }
    row.line = std::string(line);
    ++per_unit[row.unit];
    rows.push_back(std::move(row));
  }
  std::vector<RawRow> complete;
  for (RawRow& row : rows) {
    if (per_unit[row.unit] == r.manifest.series.size()) complete.push_back(std::move(row));
  }
  return complete;
}

}  // namespace rtpar::experiment
