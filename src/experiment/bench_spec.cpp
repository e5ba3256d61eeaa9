// bench_spec.cpp — see bench_spec.hpp.
#include "experiment/bench_spec.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include <nlohmann/json.hpp>

namespace rtpar::experiment {

namespace {

// identifier says whether s is a metric or field name: lower-case letters, digits and '_', so it
// can head a CSV column unquoted.
bool identifier(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// number_of parses text as a whole finite decimal number.
std::optional<double> number_of(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

std::vector<std::string> read_args(const model::TableReader& t, std::string_view key) {
  std::vector<std::string> out;
  const toml::node* n = t.node(key);
  if (n == nullptr) return out;
  const toml::array* a = n->as_array();
  if (a == nullptr) t.fail(n, key, "expected an array of strings (driver arguments)");
  for (const toml::node& e : *a) {
    if (!e.is_string()) t.fail(&e, key, "expected an array of strings (driver arguments)");
    const std::string& arg = e.as_string()->get();
    // The unit adds --json itself and reads stdout: anything else printed there would be lost.
    if (arg == "--json" || arg == "--help" || arg == "-h") {
      t.fail(&e, key, "\"" + arg + "\" is the study's to give (a unit always runs with --json)");
    }
    out.push_back(arg);
  }
  return out;
}

BenchSpec read_bench_spec(const model::TableReader& t) {
  t.allow_only({"driver", "args", "x_option", "metrics", "records", "timeout"});
  BenchSpec b;
  b.where = t.where();
  const std::optional<std::string> driver = t.string("driver");
  if (!driver) t.fail(nullptr, "driver", "missing (required)");
  if (std::find(std::begin(kBenchDrivers), std::end(kBenchDrivers), *driver) ==
      std::end(kBenchDrivers)) {
    t.fail(t.node("driver"), "driver",
           "expected forkjoin, latency, channels, steal, omp or wcet (an `rtpar bench` subcommand)");
  }
  b.driver = *driver;
  b.args = read_args(t, "args");
  b.x_option = t.string("x_option").value_or("");
  if (!b.x_option.empty() && b.x_option.rfind("--", 0) != 0) {
    t.fail(t.node("x_option"), "x_option", "expected a long option, e.g. \"--threads\"");
  }
  const toml::node* m = t.node("metrics");
  const toml::array* a = m != nullptr ? m->as_array() : nullptr;
  if (a == nullptr || a->empty()) {
    t.fail(m, "metrics", "expected a non-empty array of record fields, e.g. [\"p50_ns\"]");
  }
  for (const toml::node& e : *a) {
    if (!e.is_string() || !identifier(e.as_string()->get())) {
      t.fail(&e, "metrics", "expected field names (lower-case letters, digits, _)");
    }
    const std::string& name = e.as_string()->get();
    if (std::find(b.metrics.begin(), b.metrics.end(), name) != b.metrics.end()) {
      t.fail(&e, "metrics", "\"" + name + "\" appears twice");
    }
    b.metrics.push_back(name);
  }
  b.records = t.string("records").value_or(b.records);
  if (!identifier(b.records)) t.fail(t.node("records"), "records", "expected a JSON field name");
  if (const std::optional<std::int64_t> timeout = t.integer("timeout")) {
    if (*timeout < 1 || *timeout > 86'400)
      t.fail(t.node("timeout"), "timeout", "must be in 1..86400 s");
    b.timeout_s = static_cast<int>(*timeout);
  }
  return b;
}

BenchMatch read_bench_match(const model::TableReader& t) {
  const toml::node* n = t.node("match");
  const toml::table* table = n != nullptr ? n->as_table() : nullptr;
  if (table == nullptr || table->empty()) {
    t.fail(n, "match",
           "expected a non-empty table of record fields, e.g. { runtime = \"libgomp\" }");
  }
  BenchMatch m;
  for (const auto& [key, value] : *table) {
    const std::string field(key.str());
    if (!identifier(field)) t.fail(&value, "match", "\"" + field + "\" is not a field name");
    if (const auto* s = value.as_string()) {
      m[field] = s->get();
    } else if (const auto* i = value.as_integer()) {
      m[field] = std::to_string(i->get());
    } else if (const auto* f = value.as_floating_point()) {
      m[field] = fmt::format("{}", f->get());
    } else if (const auto* b = value.as_boolean()) {
      m[field] = b->get() ? "true" : "false";
    } else {
      t.fail(&value, "match", "\"" + field + "\": expected a string, number or boolean");
    }
  }
  return m;
}

bool record_matches(const nlohmann::json& record, const BenchMatch& m) {
  if (!record.is_object()) return false;
  for (const auto& [field, want] : m) {
    const auto it = record.find(field);
    if (it == record.end()) return false;
    if (it->is_string()) {
      if (it->get<std::string>() != want) return false;
    } else if (it->is_number()) {
      const std::optional<double> w = number_of(want);
      if (!w || it->get<double>() != *w) return false;
    } else if (it->is_boolean()) {
      if ((it->get<bool>() ? "true" : "false") != want) return false;
    } else {
      return false;
    }
  }
  return true;
}

std::string describe(const BenchSpec& b) {
  std::string out = "rtpar bench " + b.driver;
  for (const std::string& a : b.args) out += " " + a;
  if (!b.x_option.empty()) out += " " + b.x_option + " X";
  out += " --json; records " + b.records + "; metrics";
  for (const std::string& metric : b.metrics) out += " " + metric;
  return out;
}

}  // namespace rtpar::experiment
