// sim_spec.cpp — reading a series' simulation keys and turning them into one trial's SimOptions.
#include "experiment/sim_spec.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "core/checked_math.hpp"

namespace rtpar::experiment {

namespace {

// read_cost reads one team-model cost key: a duration in [0, 1s], and only with `model`.
std::int64_t read_cost(const model::TableReader& t, const char* key, bool allowed,
                       const char* model) {
  const std::optional<Duration> d = t.duration(key);
  if (!d) return 0;
  if (d->count() < 0 || d->count() > 1'000'000'000) t.fail(t.node(key), key, "must be in [0, 1s]");
  if (!allowed) t.fail(t.node(key), key, std::string("needs team_model = \"") + model + "\"");
  return d->count();
}

// read_team_model reads `team_model` and its costs into s.
void read_team_model(const model::TableReader& t, SimSpec& s) {
  if (const std::optional<std::string> m = t.string("team_model")) {
    if (*m == "centralized") {
      s.team_model = TeamModel::centralized;
    } else if (*m == "steal") {
      s.team_model = TeamModel::steal;
    } else if (*m != "greedy") {
      t.fail(t.node("team_model"), "team_model", "expected greedy, centralized or steal");
    }
  }
  const bool steal = s.team_model == TeamModel::steal;
  s.queue_lock_ns =
      read_cost(t, "queue_lock", s.team_model == TeamModel::centralized, "centralized");
  s.steal_cost_ns = read_cost(t, "steal_cost", steal, "steal");
  s.steal_attempt_ns = read_cost(t, "steal_attempt", steal, "steal");
  s.spawn_cost_ns = read_cost(t, "spawn_cost", steal, "steal");
  if (steal && s.steal_attempt_ns == 0) {
    t.fail(t.node("team_model"), "steal_attempt", "must be > 0 with team_model = \"steal\"");
  }
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
    if (h->count() > s.max_horizon_ns) {
      t.fail(t.node("horizon"), "horizon", "at most 10min of simulated time per trial");
    }
    s.horizon_ns = h->count();
  }
  if (const std::optional<std::int64_t> k = t.integer("hyperperiods")) {
    if (s.horizon_ns) t.fail(t.node("hyperperiods"), "hyperperiods", "give `horizon` or this");
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
  if (const std::optional<std::string> stat = t.string("overhead_statistic")) {
    if (!s.overhead) {
      t.fail(t.node("overhead_statistic"), "overhead_statistic", "needs a `sim_overhead` profile");
    }
    try {
      s.statistic = parse_overhead_statistic(*stat);
    } catch (const InputError&) {
      t.fail(t.node("overhead_statistic"), "overhead_statistic",
             "expected p50, p99, p99.9, max or sampled");
    }
  }
  if (const std::optional<std::string> team = t.string("barrier_team")) {
    if (*team != "m" && *team != "strands") {
      t.fail(t.node("barrier_team"), "barrier_team", "expected \"m\" or \"strands\"");
    }
    if (!s.overhead)
      t.fail(t.node("barrier_team"), "barrier_team", "needs a `sim_overhead` profile");
    s.barrier_team_m = *team == "m";
  }
  if (const std::optional<Duration> c = t.duration("context_switch")) {
    if (c->count() < 0 || c->count() > 1'000'000'000) {
      t.fail(t.node("context_switch"), "context_switch", "must be in [0, 1s]");
    }
    s.context_switch_ns = c->count();
  }
  read_team_model(t, s);
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

SimOptions sim_options(const SimSpec& spec, const TaskSet& set, std::uint64_t seed) {
  SimOptions o;
  o.overhead = spec.overhead.get();
  o.overhead_statistic = spec.statistic;
  o.seed = seed;
  o.context_switch_ns = spec.context_switch_ns;
  o.max_horizon_ns = spec.max_horizon_ns;
  o.team_model = spec.team_model;
  o.queue_lock_ns = spec.queue_lock_ns;
  o.steal_cost_ns = spec.steal_cost_ns;
  o.steal_attempt_ns = spec.steal_attempt_ns;
  o.spawn_cost_ns = spec.spawn_cost_ns;
  if (spec.horizon_ns) {
    o.horizon_ns = spec.horizon_ns;
  } else {
    // k hyperperiods: with synchronous release and deterministic overheads the schedule repeats
    // every hyperperiod, so k > 1 only matters for sampled overheads (decision RO9).
    const SimHorizon h = default_sim_horizon(set, spec.max_horizon_ns);
    const std::optional<std::int64_t> k = checked_mul(h.horizon_ns, spec.hyperperiods);
    o.horizon_ns = k && *k <= spec.max_horizon_ns ? *k : spec.max_horizon_ns;
  }
  return o;
}

std::string describe(const SimSpec& sim) {
  std::string out = sim.admission ? "simulated if admitted" : "simulated whatever the planner says";
  out += sim.horizon_ns ? ", horizon " + format_duration(Duration(*sim.horizon_ns))
                        : fmt::format(", {} hyperperiod(s)", sim.hyperperiods);
  if (sim.overhead) {
    out += fmt::format(", injects {} at {}{}", sim.overhead_path, to_string(sim.statistic),
                       sim.barrier_team_m ? ", barriers as teams of m" : "");
  } else {
    out += ", no overheads";
  }
  if (sim.context_switch_ns > 0) {
    out += ", context switch " + format_duration(Duration(sim.context_switch_ns));
  }
  return out;
}

}  // namespace rtpar::experiment
