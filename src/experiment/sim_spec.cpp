// sim_spec.cpp — reading a series' simulation keys and turning them into one trial's SimOptions.
#include "experiment/sim_spec.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "core/checked_math.hpp"
#include "sim/sim_options.hpp"

namespace rtpar::experiment {

namespace {

// kOwnKeys are the settings a manifest states its own way or not at all: the horizon (with
// `hyperperiods` and the 10 min cap, read_sim_spec), the seed (each trial's, from the manifest's
// seed) and the stochastic execution range (not a manifest key).
constexpr std::string_view kOwnKeys[] = {"horizon", "seed", "execution"};

// manifest_setting tells whether a manifest reads `key` from the simulator's table.
bool manifest_setting(std::string_view key) {
  return std::find(std::begin(kOwnKeys), std::end(kOwnKeys), key) == std::end(kOwnKeys);
}

// fail_setting turns a SimOptionError into the manifest's error at the key's node (a required
// setting left out: at team_model's), in the manifest's terms.
[[noreturn]] void fail_setting(const model::TableReader& t, const sim::SimOptionError& e) {
  const sim::SimSetting* s = sim::find_sim_setting(e.key);
  const std::string model = s != nullptr && s->needs ? to_string(*s->needs) : "";
  switch (e.problem) {
    case sim::SimOptionProblem::needs_model:
      t.fail(t.node(e.key), e.key, "needs team_model = \"" + model + "\"");
    case sim::SimOptionProblem::zero_under_model:
      t.fail(t.node("team_model"), e.key, "must be > 0 with team_model = \"" + model + "\"");
    case sim::SimOptionProblem::invalid:
      break;
  }
  t.fail(t.node(e.key), e.key, e.message);
}

// read_settings reads the simulator's settings (sim_settings(), but kOwnKeys) into s.options: a
// duration in [0, 1s], a name as the simulator spells it; a setting that needs a team model
// refused without it even at 0, and overhead_statistic without a `sim_overhead` profile.
void read_settings(const model::TableReader& t, SimSpec& s) {
  for (const sim::SimSetting& row : sim::sim_settings()) {
    if (!manifest_setting(row.key) || t.node(row.key) == nullptr) continue;
    const std::string key(row.key);
    if (row.value == sim::SettingValue::duration) {
      const std::int64_t ns = t.duration(key)->count();
      if (ns < 0 || ns > 1'000'000'000) t.fail(t.node(key), key, "must be in [0, 1s]");
      s.options.*row.field = ns;
    } else {
      const std::string text = *t.string(key);
      if (row.value == sim::SettingValue::statistic && !s.overhead) {
        t.fail(t.node(key), key, "needs a `sim_overhead` profile");
      }
      if (const auto e = sim::read_sim_option(s.options, row, text)) fail_setting(t, *e);
    }
    if (row.needs && s.options.team_model != *row.needs) {
      fail_setting(t, {key, "", sim::SimOptionProblem::needs_model});
    }
  }
  for (const sim::SimOptionError& e : sim::check_sim_options(s.options)) fail_setting(t, e);
}

// read_core_increase reads `required_cores` and its `miss_threshold` and `max_cores` into s.
void read_core_increase(const model::TableReader& t, SimSpec& s) {
  bool on = false;
  if (const toml::node* n = t.node("required_cores")) {
    if (!n->is_boolean()) t.fail(n, "required_cores", "expected true or false");
    on = n->as_boolean()->get();
  }
  for (const char* key : {"miss_threshold", "max_cores"}) {
    if (t.node(key) != nullptr && !on) t.fail(t.node(key), key, "needs required_cores = true");
  }
  if (!on) return;
  CoreIncreaseOptions o;
  o.max_cores = 0;  // the trial set's core count
  if (const toml::node* n = t.node("miss_threshold")) {
    const std::optional<double> v =
        n->is_integer() ? std::optional<double>(n->as_integer()->get()) : n->value<double>();
    // Written so that NaN fails too.
    if (!v || !(*v >= 0.0 && *v <= 1.0)) t.fail(n, "miss_threshold", "expected a number in [0, 1]");
    o.miss_threshold = *v;
  }
  if (const std::optional<std::int64_t> m = t.integer("max_cores")) {
    if (*m < 1 || *m > 4096) t.fail(t.node("max_cores"), "max_cores", "must be in 1..4096");
    o.max_cores = static_cast<int>(*m);
  }
  s.core_increase = o;
}

}  // namespace

SimSpec read_sim_spec(const model::TableReader& t) {
  SimSpec s;
  if (const toml::node* n = t.node("admission")) {
    if (!n->is_boolean()) t.fail(n, "admission", "expected true or false");
    s.admission = n->as_boolean()->get();
  }
  if (const std::optional<Duration> h = t.duration("horizon")) {
    if (h->count() <= 0) t.fail(t.node("horizon"), "horizon", "must be > 0");
    if (h->count() > s.options.max_horizon_ns) {
      t.fail(t.node("horizon"), "horizon", "at most 10min of simulated time per trial");
    }
    s.options.horizon_ns = h->count();
  }
  if (const std::optional<std::int64_t> k = t.integer("hyperperiods")) {
    if (s.options.horizon_ns) {
      t.fail(t.node("hyperperiods"), "hyperperiods", "give `horizon` or this");
    }
    if (*k < 1 || *k > 1000) t.fail(t.node("hyperperiods"), "hyperperiods", "must be in 1..1000");
    s.hyperperiods = *k;
  }
  if (const std::optional<std::string> path = t.string("sim_overhead")) {
    // Relative to the manifest's directory, like `overhead`: a study moves with its data.
    const std::filesystem::path file = std::filesystem::path(t.file()).parent_path() / *path;
    s.overhead_path = file.lexically_normal().string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(s.overhead_path, ec)) {
      t.fail(t.node("sim_overhead"), "sim_overhead",
             "cannot read the overhead profile " + s.overhead_path);
    }
    s.overhead = std::make_shared<const OverheadProfile>(load_overhead_profile(s.overhead_path));
  }
  if (const std::optional<std::string> team = t.string("barrier_team")) {
    if (*team != "m" && *team != "strands") {
      t.fail(t.node("barrier_team"), "barrier_team", "expected \"m\" or \"strands\"");
    }
    if (!s.overhead)
      t.fail(t.node("barrier_team"), "barrier_team", "needs a `sim_overhead` profile");
    s.barrier_team_m = *team == "m";
  }
  read_settings(t, s);
  read_core_increase(t, s);
  return s;
}

std::shared_ptr<const OverheadProfile> barrier_profile(const SimSpec& spec, int cores) {
  if (!spec.overhead || !spec.barrier_team_m) return spec.overhead;
  const auto& barrier = spec.overhead->barrier;
  if (std::none_of(barrier.begin(), barrier.end(),
                   [&](const ForkJoinCost& c) { return c.threads >= cores; })) {
    return spec.overhead;
  }
  auto copy = std::make_shared<OverheadProfile>(*spec.overhead);
  std::erase_if(copy->barrier, [&](const ForkJoinCost& c) { return c.threads < cores; });
  return copy;
}

std::vector<std::string_view> sim_spec_keys() {
  std::vector<std::string_view> keys = {"admission", "horizon", "hyperperiods", "sim_overhead",
                                        "barrier_team"};
  for (const sim::SimSetting& row : sim::sim_settings()) {
    if (manifest_setting(row.key)) keys.push_back(row.key);
  }
  for (const std::string_view key : {"required_cores", "miss_threshold", "max_cores"}) {
    keys.push_back(key);
  }
  return keys;
}

SimOptions sim_options(const SimSpec& spec, const TaskSet& set, std::uint64_t seed) {
  SimOptions o = spec.options;
  o.overhead = spec.overhead.get();
  o.seed = seed;
  if (!spec.options.horizon_ns) {
    // k hyperperiods: with synchronous release and deterministic overheads the schedule repeats
    // every hyperperiod, so k > 1 only matters for sampled overheads (decision RO9).
    const std::int64_t max = spec.options.max_horizon_ns;
    const SimHorizon h = default_sim_horizon(set, max);
    const std::optional<std::int64_t> k = checked_mul(h.horizon_ns, spec.hyperperiods);
    o.horizon_ns = k && *k <= max ? *k : max;
  }
  return o;
}

std::string describe(const SimSpec& sim) {
  std::string out = sim.admission ? "simulated if admitted" : "simulated whatever the planner says";
  out += sim.options.horizon_ns ? ", horizon " + format_duration(Duration(*sim.options.horizon_ns))
                                : fmt::format(", {} hyperperiod(s)", sim.hyperperiods);
  if (sim.overhead) {
    out += fmt::format(", injects {} at {}{}", sim.overhead_path,
                       to_string(sim.options.overhead_statistic),
                       sim.barrier_team_m ? ", barriers as teams of m" : "");
  } else {
    out += ", no overheads";
  }
  if (sim.options.context_switch_ns > 0) {
    out += ", context switch " + format_duration(Duration(sim.options.context_switch_ns));
  }
  return out;
}

}  // namespace rtpar::experiment
