// structure_parse.cpp — see structure_parse.hpp.
#include "load/structure_parse.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>

namespace rtpar::model {

namespace {

constexpr std::int64_t kMaxStrands = 1'000'000;
constexpr std::int64_t kMaxNodes = 100'000;

// element_reader gives element k of an array of tables its own field prefix ("task[0].segment[2]").
TableReader element_reader(const TableReader& task, std::string_view key, std::size_t k,
                           const toml::node& element, FieldLocations& locations) {
  const std::string prefix = task.field(key) + "[" + std::to_string(k) + "]";
  if (!element.is_table()) {
    throw InputError(location(task.file(), element.source()), prefix, "expected a table");
  }
  return TableReader(*element.as_table(), task.file(), prefix, locations);
}

// array_of_tables checks that value is [[task.<key>]] (or an inline array of tables).
const toml::array& array_of_tables(const TableReader& task, std::string_view key,
                                   const toml::node& value) {
  const toml::array* array = value.as_array();
  if (array == nullptr) {
    task.fail(&value, key,
              "expected an array of tables: write each entry as [[task." + std::string(key) + "]]");
  }
  if (array->empty()) task.fail(&value, key, "must not be empty");
  return *array;
}

}  // namespace

std::vector<int> cpu_list(const TableReader& reader, std::string_view key, const toml::node& value,
                          FieldLocations& locations) {
  const toml::array* array = value.as_array();
  if (array == nullptr) reader.fail(&value, key, "expected an array of CPU ids like [0, 1, 2]");
  std::vector<std::pair<int, SourceLocation>> ids;
  for (const toml::node& element : *array) {
    if (!element.is_integer()) reader.fail(&element, key, "expected an integer CPU id");
    const std::int64_t id = element.as_integer()->get();
    // Out-of-range ids saturate so that check_taskset reports them with its single message.
    const int clamped = static_cast<int>(std::clamp<std::int64_t>(
        id, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
    ids.emplace_back(clamped, location(reader.file(), element.source()));
  }
  std::stable_sort(ids.begin(), ids.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<int> cpus;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    cpus.push_back(ids[k].first);
    locations.add(reader.field(key) + "[" + std::to_string(k) + "]", ids[k].second);
  }
  return cpus;
}

std::vector<SegmentSpec> parse_segments(const TableReader& task, const toml::node& value,
                                        FieldLocations& locations) {
  const toml::array& array = array_of_tables(task, "segment", value);
  std::vector<SegmentSpec> segments;
  for (std::size_t k = 0; k < array.size(); ++k) {
    const TableReader r = element_reader(task, "segment", k, array[k], locations);
    r.allow_only({"strands", "length"});
    SegmentSpec s;
    s.where = r.where();
    const auto strands = r.integer("strands");
    if (!strands) r.fail(nullptr, "strands", "required integer is missing");
    if (*strands < 1 || *strands > kMaxStrands) {
      r.fail(r.node("strands"), "strands",
             "expected an integer between 1 and " + std::to_string(kMaxStrands));
    }
    s.strands = *strands;
    const auto length = r.duration("length");
    if (!length) r.fail(nullptr, "length", "required duration is missing");
    if (*length <= Duration::zero()) r.fail(r.node("length"), "length", "must be > 0");
    s.length = *length;
    segments.push_back(s);
  }
  return segments;
}

DagSpec parse_dag(const TableReader& task, const toml::node& value, FieldLocations& locations) {
  const toml::array& array = array_of_tables(task, "node", value);
  if (static_cast<std::int64_t>(array.size()) > kMaxNodes) {
    task.fail(&value, "node", "at most " + std::to_string(kMaxNodes) + " nodes");
  }
  DagSpec dag;
  std::map<std::string, int, std::less<>> index;
  std::vector<const toml::node*> after_nodes;
  // First pass: names and lengths, so that `after` may name a node written later.
  for (std::size_t k = 0; k < array.size(); ++k) {
    const TableReader r = element_reader(task, "node", k, array[k], locations);
    r.allow_only({"name", "length", "after"});
    DagNode node;
    node.where = r.where();
    const auto name = r.string("name");
    if (!name) r.fail(nullptr, "name", "required string is missing");
    if (!is_valid_task_name(*name)) {
      r.fail(r.node("name"), "name",
             "invalid node name \"" + *name + "\": use only letters, digits, '_', '.' and '-'");
    }
    if (!index.emplace(*name, static_cast<int>(k)).second) {
      r.fail(r.node("name"), "name", "duplicate node name \"" + *name + "\"");
    }
    node.name = *name;
    const auto length = r.duration("length");
    if (!length) r.fail(nullptr, "length", "required duration is missing");
    if (*length <= Duration::zero()) r.fail(r.node("length"), "length", "must be > 0");
    node.length = *length;
    dag.nodes.push_back(std::move(node));
    after_nodes.push_back(r.node("after"));
  }
  for (std::size_t k = 0; k < array.size(); ++k) {
    const toml::node* after = after_nodes[k];
    if (after == nullptr) continue;
    const TableReader r = element_reader(task, "node", k, array[k], locations);
    const toml::array* names = after->as_array();
    if (names == nullptr) r.fail(after, "after", "expected an array of node names");
    for (const toml::node& n : *names) {
      if (!n.is_string()) r.fail(&n, "after", "expected a node name (string)");
      const auto it = index.find(n.as_string()->get());
      if (it == index.end()) {
        r.fail(&n, "after", "no node named \"" + n.as_string()->get() + "\" in this task");
      }
      if (it->second == static_cast<int>(k)) r.fail(&n, "after", "a node cannot follow itself");
      std::vector<int>& preds = dag.nodes[k].after;
      if (std::find(preds.begin(), preds.end(), it->second) != preds.end()) {
        r.fail(&n, "after", "\"" + it->first + "\" is listed twice");
      }
      preds.push_back(it->second);
    }
  }
  if (const int bad = dag_cycle(dag); bad >= 0) {
    const TableReader r =
        element_reader(task, "node", static_cast<std::size_t>(bad), array[bad], locations);
    r.fail(r.node("after"), "after",
           "node \"" + dag.nodes[static_cast<std::size_t>(bad)].name +
               "\" is on a cycle (a DAG task's edges must not loop)");
  }
  return dag;
}

StealConfig parse_steal(const TableReader& task, const toml::node& value,
                        FieldLocations& locations) {
  if (!value.is_table()) {
    task.fail(&value, "steal", "expected a table, e.g. steal = { max_depth = 256 }");
  }
  const TableReader r(*value.as_table(), task.file(), task.field("steal"), locations);
  r.allow_only({"max_depth", "stack_bytes", "frames_per_worker", "profile_depth", "idle_spin"});
  StealConfig config;
  auto bounded = [&r](std::string_view key, std::int64_t low, std::int64_t high,
                      std::int64_t fallback) {
    const auto v = r.integer(key);
    if (!v) return fallback;
    if (*v < low || *v > high) {
      r.fail(r.node(key), key,
             "expected an integer between " + std::to_string(low) + " and " + std::to_string(high));
    }
    return *v;
  };
  config.max_depth = static_cast<int>(bounded("max_depth", 1, 1'000'000, config.max_depth));
  config.stack_bytes =
      static_cast<std::size_t>(bounded("stack_bytes", 64 * 1024, std::int64_t{1} << 34,
                                       static_cast<std::int64_t>(config.stack_bytes)));
  config.frames_per_worker =
      static_cast<int>(bounded("frames_per_worker", 1, 100'000'000, config.frames_per_worker));
  config.profile_depth =
      static_cast<int>(bounded("profile_depth", 0, 1'000'000, config.profile_depth));
  if (const auto spin = r.duration("idle_spin")) {
    if (*spin > std::chrono::milliseconds(1)) {
      r.fail(
          r.node("idle_spin"), "idle_spin",
          "at most 1ms: a longer spin at real-time priority after every job only burns the core");
    }
    config.idle_spin_ns = spin->count();
  }
  return config;
}

}  // namespace rtpar::model
