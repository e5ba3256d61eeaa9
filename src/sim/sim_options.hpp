// sim_options.hpp — one table of every simulator setting (SimOptions): its key, how its text
// reads, its range and the team model it needs, and the checks of a whole SimOptions, in the
// simulator's own terms. The front ends only map a key to their spelling: `rtpar simulate` to a
// flag (key steal_attempt: --steal-attempt), a simulation manifest to a field of the same name;
// each turns a SimOptionError into its own error. A new setting is one SimOptions field and one
// row of sim_settings() (and the engine code that uses it).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rtpar/taskset.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar::sim {

// SettingValue is how a setting's text reads.
enum class SettingValue {
  horizon,       // a duration > 0 (SimOptions::horizon_ns; absent: the default horizon)
  duration,      // a duration ≥ 0, e.g. "5us", stored in ns in SimSetting::field
  seed,          // a decimal integer in [0, 2^64)
  statistic,     // an OverheadStatistic spelling (core/names.hpp)
  team_model,    // a TeamModel spelling (core/names.hpp)
  factor_range,  // "LO..HI": factors of the declared work, 0 ≤ LO ≤ HI ≤ 10, stored in ppm
};

// SimSetting is one row of sim_settings(): one simulator setting.
struct SimSetting {
  std::string_view key;  // its name in the simulator's terms, e.g. "steal_attempt"
  SettingValue value;    // how its text reads
  // needs: the team model a nonzero value needs (nullopt: any); required: the value must be > 0
  // under that model (a failed steal attempt takes time, else the thief's loop never advances).
  std::optional<TeamModel> needs;
  bool required = false;
  // field: where a `duration` setting is stored (null for the other kinds).
  std::int64_t SimOptions::*field = nullptr;
  std::string_view help;  // one line for people (the command's --help)
};

// sim_settings lists every setting, in the order they are read and checked.
std::span<const SimSetting> sim_settings();

// find_sim_setting is the row of `key`, or null.
const SimSetting* find_sim_setting(std::string_view key);

// SimOptionProblem is what is wrong with a setting, so that a front end can phrase it in its
// own terms: `invalid` (text or range; SimOptionError::message says how), `needs_model` (a
// nonzero value without SimSetting::needs' team model), `zero_under_model` (a `required` setting
// is 0 under its model).
enum class SimOptionProblem { invalid, needs_model, zero_under_model };

// SimOptionError is one refused setting: its key, why in the simulator's terms, and the problem.
struct SimOptionError {
  std::string key;
  std::string message;
  SimOptionProblem problem = SimOptionProblem::invalid;
};

// read_sim_option reads `text` as `setting` into `options` (a duration's sign is refused as
// "must be >= 0", before its syntax). Returns the error, or nullopt when it was stored.
std::optional<SimOptionError> read_sim_option(SimOptions& options, const SimSetting& setting,
                                              const std::string& text);

// check_sim_options returns every setting of `options` out of its range or missing its team
// model, in table order (empty: valid). simulate_plan throws the first as InputError at
// "<simulation>" with the key as the field.
std::vector<SimOptionError> check_sim_options(const SimOptions& options);

// check_sim_jobs refuses an explicit horizon that releases more than options.max_jobs jobs of
// `set` (key "horizon"): the simulation would not end in reasonable time.
std::optional<SimOptionError> check_sim_jobs(const SimOptions& options, const TaskSet& set);

}  // namespace rtpar::sim
