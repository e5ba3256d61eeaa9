// manifest.cpp — strict reading of experiment manifests (format: docs/experiments.md).
#include "experiment/manifest.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "core/names.hpp"
#include "core/rng.hpp"
#include "experiment/bench_spec.hpp"
#include "experiment/expect_spec.hpp"
#include "experiment/manifest_fields.hpp"
#include "experiment/plot_spec.hpp"
#include "load/toml_fields.hpp"
#include "model/overhead_statistic.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar::experiment {

namespace {

using model::TableReader;

// kMaxTrials bounds trials per point: far above any paper (1000) and small enough that the unit
// count of any sweep fits comfortably in 64 bits.
constexpr std::int64_t kMaxTrials = 10'000'000;

// params_of collects every key of table except those in `skip` as generator parameters.
gen::Params params_of(const toml::table& t, const TableReader& table,
                      std::initializer_list<std::string_view> skip) {
  gen::Params params;
  for (const auto& [key, value] : t) {
    bool skipped = false;
    for (const std::string_view s : skip) skipped = skipped || key.str() == s;
    if (skipped) continue;
    params[std::string(key.str())] = gen::Param{scalar_text(value, table, key.str()),
                                                model::location(table.file(), value.source())};
  }
  return params;
}

// read_series reads one [[series]] table; a simulation manifest's series also take the
// simulation keys (sim_spec.hpp).
Series read_series(const TableReader& t, ManifestClass klass) {
  const bool simulation = klass == ManifestClass::simulation;
  if (klass == ManifestClass::bench) {
    // A bench series is a curve of the driver's records: no planner judges anything.
    t.allow_only({"name", "match"});
    Series s;
    s.where = t.where();
    s.name = name_value(t, "name");
    s.match = read_bench_match(t);
    return s;
  }
  if (klass == ManifestClass::runtime) {
    t.allow_only({"name", "planner", "target", "fit", "assign", "overhead", "wait", "shared_wait",
                  "back_to_back", "admission", "duration", "cpu_latency", "best_effort", "baseline",
                  "force_place"});
  } else if (simulation) {
    std::vector<std::string_view> keys = {
        "name",        "planner",    "bound", "target",       "fit",
        "assign",      "overhead",   "wait",  "back_to_back", "charged_statistic",
        "force_place", "shared_wait"};
    for (const std::string_view key : sim_spec_keys()) keys.push_back(key);
    t.allow_only(keys);
  } else {
    t.allow_only({"name", "planner", "bound", "target", "fit", "assign", "overhead", "wait",
                  "shared_wait", "back_to_back", "charged_statistic"});
  }
  Series s;
  s.where = t.where();
  s.name = name_value(t, "name");
  const std::optional<std::string> planner = t.string("planner");
  const std::optional<std::string> bound = t.string("bound");
  if (planner.has_value() == bound.has_value()) {
    t.fail(nullptr, "planner", "give exactly one of `planner` (a planner name) or `bound` (b)");
  }
  if (planner) {
    const std::optional<PlannerKind> k = names::value_of(names::kPlanners, *planner);
    if (!k) t.fail(t.node("planner"), "planner", "unknown planner \"" + *planner + "\"");
    s.planner = *k;
  } else {
    s.kind = SeriesKind::bound;
    s.bound = *bound;
    double b = 0;
    const auto [end, ec] = std::from_chars(bound->data(), bound->data() + bound->size(), b);
    if (ec != std::errc() || end != bound->data() + bound->size() || !(b >= 1.0) || b > 1000) {
      t.fail(t.node("bound"), "bound", "expected a decimal b in [1, 1000], e.g. \"3.73\"");
    }
  }
  if (const std::optional<std::string> target = t.string("target")) {
    try {
      s.target = parse_target(*target);
    } catch (const std::exception& e) {
      t.fail(t.node("target"), "target", e.what());
    }
    s.target_spec = *target;
  }
  if (const std::optional<std::string> fit = t.string("fit")) {
    s.fit = names::value_of(names::kFits, *fit);
    if (!s.fit) t.fail(t.node("fit"), "fit", "unknown fit \"" + *fit + "\"");
  }
  if (const std::optional<std::string> assign = t.string("assign")) {
    s.assign = names::value_of(names::kAssigns, *assign);
    if (!s.assign) t.fail(t.node("assign"), "assign", "unknown assignment \"" + *assign + "\"");
  }
  if (const std::optional<std::string> path = t.string("overhead")) {
    const std::filesystem::path file = std::filesystem::path(t.file()).parent_path() / *path;
    s.overhead_path = file.lexically_normal().string();
    OverheadProfile profile = load_overhead_profile(s.overhead_path);
    if (const toml::node* n = t.node("back_to_back")) {
      if (!n->is_boolean()) t.fail(n, "back_to_back", "expected true or false");
      s.back_to_back = n->as_boolean()->get();
    }
    if (s.back_to_back) {
      std::erase_if(profile.fork_join, [](const ForkJoinCost& c) { return c.parked; });
      if (profile.fork_join.empty()) {
        t.fail(t.node("back_to_back"), "back_to_back", "the profile has no back-to-back entry");
      }
      // FJOS's method charges fork/join only (FJOS §VI), no release latency: every planner
      // needs a `release` bound, so the series states it as 0 for each measured size and policy.
      profile.release.clear();
      for (const ForkJoinCost& c : profile.fork_join) {
        ForkJoinCost zero;
        zero.threads = c.threads;
        zero.wait = c.wait;
        zero.parked = true;
        profile.release.push_back(zero);
      }
    }
    if (const std::optional<std::string> stat = t.string("charged_statistic")) {
      // F14: FJOS charges the worst case it measured (FJOS §VI), rtpar the p99.9 by default.
      const toml::node* n = t.node("charged_statistic");
      try {
        profile = rtpar::model::charged_at(profile, *stat, t.where(), "charged_statistic");
      } catch (const InputError& e) {
        t.fail(n, "charged_statistic", e.message());
      }
      s.charged_statistic = *stat;
    }
    s.overhead = std::make_shared<const OverheadProfile>(std::move(profile));
  } else if (t.node("back_to_back") != nullptr) {
    t.fail(t.node("back_to_back"), "back_to_back", "needs an `overhead` profile");
  } else if (t.node("charged_statistic") != nullptr) {
    t.fail(t.node("charged_statistic"), "charged_statistic", "needs an `overhead` profile");
  }
  if (const std::optional<std::string> wait = t.string("wait")) {
    s.wait = names::value_of(names::kWaits, *wait);
    if (!s.wait) t.fail(t.node("wait"), "wait", "expected spin, block or hybrid");
  }
  if (const std::optional<std::string> shared = t.string("shared_wait")) {
    // Every set's [system] shared_wait (fork-join-rta; FJOS §VIII, decision F15).
    s.shared_wait = names::value_of(names::kWaits, *shared);
    if (!s.shared_wait)
      t.fail(t.node("shared_wait"), "shared_wait", "expected spin, block or hybrid");
  }
  if (s.kind == SeriesKind::bound &&
      (s.target || s.fit || s.assign || s.overhead || s.wait || s.shared_wait)) {
    t.fail(nullptr, "bound",
           "a bound series takes no target, fit, assign, overhead, wait or shared_wait");
  }
  if (simulation) {
    if (s.kind == SeriesKind::bound)
      t.fail(t.node("bound"), "bound", "a bound cannot be simulated");
    s.sim = read_sim_spec(t);
  }
  if (klass == ManifestClass::runtime) {
    if (s.kind == SeriesKind::bound) t.fail(t.node("bound"), "bound", "a bound cannot be run");
    if (s.target) {
      t.fail(t.node("target"), "target", "a runtime series runs on this machine: no target");
    }
    s.run = read_run_spec(t);
  }
  if (const toml::node* n = t.node("force_place")) {
    // Executed series only (the keys above): an analysis verdict is the planner's either way.
    if (!n->is_boolean()) t.fail(n, "force_place", "expected true or false");
    s.force_place = n->as_boolean()->get();
    if (s.force_place && s.planner != PlannerKind::decomposition) {
      t.fail(n, "force_place", "only the decomposition planner places what its test refuses");
    }
    const toml::node* admission = t.node("admission");
    if (s.force_place && admission != nullptr && admission->value_or(false)) {
      t.fail(admission, "admission", "force_place executes refused plans: leave admission out");
    }
    if (s.force_place && s.sim) s.sim->admission = false;
    if (s.force_place && s.run) s.run->admission = false;
  }
  return s;
}

}  // namespace

std::optional<std::vector<std::string>> x_range(std::string_view spec, std::int64_t cores) {
  std::int64_t v[3] = {0, 0, 0};
  const char* p = spec.data();
  const char* end = spec.data() + spec.size();
  constexpr std::string_view kCores = "cores";
  for (int i = 0; i < 3; ++i) {
    if (i == 1 && std::string_view(p, static_cast<std::size_t>(end - p)).starts_with(kCores)) {
      v[i] = cores;
      p += kCores.size();
    } else {
      const auto [next, ec] = std::from_chars(p, end, v[i]);
      if (ec != std::errc() || next == p) return std::nullopt;
      p = next;
    }
    if (i < 2) {
      if (p == end || *p != ':') return std::nullopt;
      ++p;
    }
  }
  if (p != end || v[0] < 0 || v[2] <= 0 || v[1] < v[0] || (v[1] - v[0]) / v[2] > 100'000) {
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (std::int64_t x = v[0]; x <= v[1]; x += v[2]) out.push_back(std::to_string(x));
  return out;
}

std::int64_t machine_cores() {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(online_cpus().size()));
}

namespace {

// The steps of parse_manifest, in the order it runs them: each reads one table (or array of
// tables) of the manifest into m, after the tables before it. Errors name m.source.

// parse_toml parses text as TOML; a syntax error is an InputError at its line and column.
toml::table parse_toml(std::string_view text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw InputError(model::location(source, e.source()), "", std::string(e.description()));
  }
}

// read_experiment reads the [experiment] table: name, paper, item, class, decisions, seed and
// the admission filter (admitted_by, redraw_limit).
void read_experiment(const toml::table& root, model::FieldLocations& locations, Manifest& m) {
  const std::string& source = m.source;
  const toml::table* exp = table_at(root, "experiment", source);
  if (exp == nullptr) throw InputError({source, 1, 1}, "experiment", "missing [experiment] table");
  const TableReader t(*exp, source, "experiment", locations);
  t.allow_only(
      {"name", "paper", "item", "class", "decisions", "seed", "admitted_by", "redraw_limit"});
  m.name = name_value(t, "name");
  if (m.name.find(' ') != std::string::npos || m.name.find('%') != std::string::npos) {
    t.fail(t.node("name"), "name", "a file name: letters, digits and - _ . + only");
  }
  m.paper = t.string("paper").value_or("none");
  m.item = t.string("item").value_or("");
  const std::string klass = t.string("class").value_or("analysis");
  if (const std::optional<std::string> by = t.string("admitted_by")) {
    m.admitted_by = names::value_of(names::kPlanners, *by);
    if (!m.admitted_by)
      t.fail(t.node("admitted_by"), "admitted_by", "unknown planner \"" + *by + "\"");
  }
  if (const std::optional<std::int64_t> limit = t.integer("redraw_limit")) {
    if (!m.admitted_by) t.fail(t.node("redraw_limit"), "redraw_limit", "needs admitted_by");
    if (*limit < 1 || *limit > 1'000'000) {
      t.fail(t.node("redraw_limit"), "redraw_limit", "must be in 1..1000000");
    }
    m.redraw_limit = *limit;
  }
  // The class is checked after admitted_by and redraw_limit: the order of the errors of a
  // manifest with several.
  const std::optional<ManifestClass> known = names::value_of(names::kManifestClasses, klass);
  if (!known) {
    t.fail(t.node("class"), "class",
           "expected \"analysis\", \"simulation\", \"runtime\" or \"bench\"");
  }
  m.klass = *known;
  if (m.klass == ManifestClass::bench && m.admitted_by) {
    t.fail(t.node("admitted_by"), "admitted_by", "a bench study draws no task set");
  }
  if (const toml::node* d = t.node("decisions")) {
    const toml::array* a = d->as_array();
    if (a == nullptr) t.fail(d, "decisions", "expected an array of strings");
    for (const toml::node& e : *a) {
      if (!e.is_string()) t.fail(&e, "decisions", "expected an array of strings");
      m.decisions.push_back(e.as_string()->get());
    }
  }
  if (const std::optional<std::int64_t> seed = t.integer("seed")) {
    if (*seed < 0) t.fail(t.node("seed"), "seed", "must be ≥ 0");
    m.seed = static_cast<std::uint64_t>(*seed);
  }
}

// read_source reads what a unit's rows come from: the [generator] table (family and
// parameters), or a bench study's [bench] table (the driver), which excludes the other.
void read_source(const toml::table& root, model::FieldLocations& locations, Manifest& m) {
  const std::string& source = m.source;
  const toml::table* g = table_at(root, "generator", source);
  const toml::table* bench = table_at(root, "bench", source);
  if (m.klass == ManifestClass::bench) {
    // A bench study runs a driver instead of drawing task sets.
    if (g != nullptr)
      throw InputError({source, 1, 1}, "generator", "a bench study has no [generator]");
    if (bench == nullptr) throw InputError({source, 1, 1}, "bench", "missing [bench] table");
    m.bench = read_bench_spec(TableReader(*bench, source, "bench", locations));
  } else if (bench != nullptr) {
    throw InputError({source, 1, 1}, "bench", "[bench] needs class = \"bench\"");
  } else if (g == nullptr) {
    throw InputError({source, 1, 1}, "generator", "missing [generator] table");
  }
  if (g != nullptr) {
    const TableReader t(*g, source, "generator", locations);
    m.family = name_value(t, "family");
    m.params = params_of(*g, t, {"family"});
  }
}

// read_panels reads the [[panel]] tables (distinct names), or makes the one default panel.
void read_panels(const toml::table& root, model::FieldLocations& locations, Manifest& m) {
  const std::string& source = m.source;
  for (const toml::table* p : tables_at(root, "panel", source)) {
    const TableReader t(*p, source, fmt::format("panel[{}]", m.panels.size()), locations);
    Panel panel;
    panel.where = t.where();
    panel.name = name_value(t, "name");
    if (m.bench) {
      t.allow_only({"name", "args", "match"});
      panel.args = read_args(t, "args");
      if (t.node("match") != nullptr) panel.match = read_bench_match(t);
    } else {
      panel.family = t.string("family").value_or("");
      panel.params = params_of(*p, t, {"name", "family"});
    }
    for (const Panel& q : m.panels) {
      if (q.name == panel.name) t.fail(t.node("name"), "name", "two panels named " + q.name);
    }
    m.panels.push_back(std::move(panel));
  }
  if (m.panels.empty()) m.panels.push_back(Panel{"default", "", {}, {}, {}, {source, 1, 1}});
}

// read_sweep reads the [sweep] table: the swept parameter and its paper-scale values.
void read_sweep(const toml::table& root, model::FieldLocations& locations, Manifest& m) {
  const std::string& source = m.source;
  const toml::table* sweep = table_at(root, "sweep", source);
  if (sweep == nullptr) throw InputError({source, 1, 1}, "sweep", "missing [sweep] table");
  const TableReader t(*sweep, source, "sweep", locations);
  t.allow_only({"x", "values", "percent_of"});
  m.x_name = name_value(t, "x");
  m.x_values = values_of(t, "values");
  m.x_percent_of = t.string("percent_of").value_or("");
  if (!m.x_percent_of.empty()) {
    for (const std::string& v : m.x_values) {
      std::int64_t pct = 0;
      const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), pct);
      if (ec != std::errc() || end != v.data() + v.size() || pct < 0 || pct > 100000) {
        t.fail(t.node("values"), "values", "with percent_of, x values are integer percentages");
      }
    }
  }
}

// read_all_series reads the [[series]] tables (at least one, distinct names) and folds every
// overhead profile they read into m.inputs_hash.
void read_all_series(const toml::table& root, model::FieldLocations& locations, Manifest& m) {
  const std::string& source = m.source;
  for (const toml::table* s : tables_at(root, "series", source)) {
    const TableReader t(*s, source, fmt::format("series[{}]", m.series.size()), locations);
    Series series = read_series(t, m.klass);
    for (const Series& q : m.series) {
      if (q.name == series.name) t.fail(t.node("name"), "name", "two series named " + q.name);
    }
    const std::string* sim_path = series.sim ? &series.sim->overhead_path : nullptr;
    const std::string* plan_path = &series.overhead_path;
    for (const std::string* path : {plan_path, sim_path}) {
      if (path == nullptr || path->empty()) continue;
      std::ifstream in(*path, std::ios::binary);
      std::ostringstream profile;
      profile << in.rdbuf();
      m.inputs_hash = fnv1a64(fmt::format("{:016x}{}", m.inputs_hash, profile.str()));
    }
    m.series.push_back(std::move(series));
  }
  if (m.series.empty())
    throw InputError({source, 1, 1}, "series", "no [[series]]: nothing to compare");
}

// read_scales reads the [scale.NAME] tables, of which "paper" and "smoke" are required.
void read_scales(const toml::table& root, model::FieldLocations& locations, Manifest& m) {
  const std::string& source = m.source;
  if (const toml::table* scales = table_at(root, "scale", source)) {
    for (const auto& [key, value] : *scales) {
      const std::string name(key.str());
      if (!value.is_table()) {
        throw InputError(model::location(source, value.source()), "scale." + name,
                         "expected a table ([scale." + name + "])");
      }
      const TableReader t(*value.as_table(), source, "scale." + name, locations);
      Scale scale;
      if (m.klass == ManifestClass::runtime) {
        t.allow_only({"trials", "values", "duration"});
      } else if (m.bench) {
        t.allow_only({"trials", "values", "args"});
        scale.args = read_args(t, "args");
      } else {
        t.allow_only({"trials", "values"});
      }
      if (const std::optional<Duration> d = t.duration("duration")) {
        if (d->count() <= 0 || d->count() > kMaxRunDurationNs) {
          t.fail(t.node("duration"), "duration", "must be in (0, 10min]");
        }
        scale.duration_ns = d->count();
      }
      const std::optional<std::int64_t> trials = t.integer("trials");
      if (!trials) t.fail(nullptr, "trials", "missing (required)");
      if (*trials < 1 || *trials > kMaxTrials) {
        t.fail(t.node("trials"), "trials", fmt::format("must be in 1..{}", kMaxTrials));
      }
      scale.trials = *trials;
      if (t.node("values") != nullptr) scale.x = values_of(t, "values");
      m.scales[name] = std::move(scale);
    }
  }
  for (const char* required : {"paper", "smoke"}) {
    if (m.scales.count(required) == 0) {
      throw InputError({source, 1, 1}, std::string("scale.") + required,
                       std::string("missing [scale.") + required +
                           "] (every manifest has a "
                           "paper scale and a smoke scale that CI runs)");
    }
  }
}

// read_plot reads the [plot] table, or sets the default plot: the sweep against the first metric.
void read_plot(const toml::table& root, model::FieldLocations& locations, Manifest& m) {
  if (const toml::table* plot = table_at(root, "plot", m.source)) {
    m.plot = read_plot_spec(TableReader(*plot, m.source, "plot", locations), m);
  } else {
    m.plot.title = m.name;
    m.plot.x_label = m.x_name;
    if (m.bench) {
      m.plot.y = {"median_" + m.bench->metrics.front()};
      m.plot.y_label = m.plot.y.front();
    }
  }
}

// read_expects reads the [[expect]] tables (expect_spec.hpp).
void read_expects(const toml::table& root, model::FieldLocations& locations, Manifest& m) {
  for (const toml::table* e : tables_at(root, "expect", m.source)) {
    const TableReader t(*e, m.source, fmt::format("expect[{}]", m.expects.size()), locations);
    m.expects.push_back(read_expect_spec(t, m));
  }
}

}  // namespace

Manifest parse_manifest(std::string_view text, const std::string& source) {
  const toml::table root = parse_toml(text, source);
  model::FieldLocations locations;
  Manifest m;
  m.source = source;
  m.text = std::string(text);
  m.inputs_hash = fnv1a64(text);
  {
    const TableReader top(root, source, "", locations);
    top.allow_only({"experiment", "generator", "bench", "panel", "sweep", "series", "scale", "plot",
                    "expect"});
  }
  read_experiment(root, locations, m);
  read_source(root, locations, m);
  read_panels(root, locations, m);
  read_sweep(root, locations, m);
  read_all_series(root, locations, m);
  read_scales(root, locations, m);
  read_plot(root, locations, m);
  read_expects(root, locations, m);
  return m;
}

Manifest load_manifest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "", "cannot read the manifest");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_manifest(text.str(), path);
}

}  // namespace rtpar::experiment
