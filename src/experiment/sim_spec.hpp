// sim_spec.hpp — the simulation settings of a series of a `class = "simulation"` manifest
// (docs/experiments.md "Simulation manifests"): how each trial's plan is executed by the
// discrete-event simulator (src/sim/, docs/internals/simulation.md) after it is planned.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/toml_fields.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar::experiment {

// manifest_sim_options are the simulator's defaults with a manifest's horizon cap: 10 min of
// simulated time per trial (a study's horizons are longer than a command's 10 s).
inline SimOptions manifest_sim_options() {
  SimOptions o;
  o.max_horizon_ns = 600'000'000'000;
  return o;
}

// SimSpec is one series' simulation settings. A series of a simulation manifest always has one
// (all defaults when it states no simulation key).
struct SimSpec {
  // admission: simulate only the plans the planner admits (a refused set counts as `rejected`
  // and is not run); false: also simulate a refused plan when it places every task (RT-OpenMP's
  // sets ran whatever the analysis said, RT-OpenMP §VI, decision RO5), so its verdict is
  // decided by execution alone.
  bool admission = true;
  // options: the simulator's settings, each key of sim/sim_options.hpp read from the field of
  // the same name (but `seed`, each trial's, and `execution`, not a manifest key), the durations
  // in [0, 1s]. Its horizon_ns: jobs are released in [0, horizon); absent: `hyperperiods` × the
  // set's hyperperiod (default_sim_horizon), capped at its max_horizon_ns, 10 min of simulated
  // time here. Its overhead stays null: a trial takes `overhead` (sim_options, below).
  SimOptions options = manifest_sim_options();
  std::int64_t hyperperiods = 1;
  // overhead: the profile whose overheads the simulator injects (path relative to the manifest);
  // null: none. Independent of the series' `overhead`, which the planner charges.
  std::shared_ptr<const OverheadProfile> overhead;
  std::string overhead_path;
  // barrier_team_m: charge every barrier as a team of all m cores (RT-OpenMP's runtime: a team of
  // exactly m threads per task, RT-OpenMP §IV-B, decision RO10) instead of the simulator's
  // min(Σ strands, m). Done by dropping the profile's barrier entries below m, so the simulator's
  // nearest-measured-team-at-or-above rule picks the row of m; a profile with no entry ≥ m is
  // left as it is (its extrapolation already grows with the team).
  bool barrier_team_m = false;
  // core_increase: also run RTWS's required-cores search on the admitted plan (keys
  // `required_cores = true`, `miss_threshold` in [0, 1], default 0.25 (WS1), `max_cores`,
  // default the set's core count; core_increase in rtpar/tools/simulate.hpp). max_cores 0 here
  // stands for that default.
  std::optional<CoreIncreaseOptions> core_increase;
};

// sim_spec_keys lists every key of a simulation series that read_sim_spec reads, for the
// manifest's unknown-key check.
std::vector<std::string_view> sim_spec_keys();

// read_sim_spec reads a series' simulation keys; errors name file, line, column and field.
SimSpec read_sim_spec(const model::TableReader& t);

// barrier_profile is the profile a trial of a set on `cores` cores injects: spec.overhead, or a
// copy without the barrier entries below `cores` when barrier_team_m (null without a profile).
std::shared_ptr<const OverheadProfile> barrier_profile(const SimSpec& spec, int cores);

// sim_options are the SimOptions of one trial: the spec's, with the trial's own seed (used by
// `overhead_statistic = "sampled"`) and the horizon resolved against the trial's set.
SimOptions sim_options(const SimSpec& spec, const TaskSet& set, std::uint64_t seed);

// describe is one line of a simulation series' settings (`rtpar experiment show`).
std::string describe(const SimSpec& sim);

}  // namespace rtpar::experiment
