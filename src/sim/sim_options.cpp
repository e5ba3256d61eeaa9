// sim_options.cpp — see sim_options.hpp.
#include "sim/sim_options.hpp"

#include <exception>
#include <stdexcept>

#include "core/names.hpp"
#include "rtpar/time.hpp"

namespace rtpar::sim {

namespace {

// kSimSettings is the table: one row per SimOptions setting. Its order is the order settings are
// read and checked, so the team model comes before the costs that need it.
constexpr SimSetting kSimSettings[] = {
    {"horizon", SettingValue::horizon, std::nullopt, false, nullptr,
     "Release jobs for this long, e.g. 100ms (default: one hyperperiod, at most 10s)"},
    {"overhead_statistic", SettingValue::statistic, std::nullopt, false, nullptr,
     "Value of each injected overhead: p50, p99, p99.9 (default), max, or sampled (drawn per "
     "instance from the injected profile)"},
    {"seed", SettingValue::seed, std::nullopt, false, nullptr,
     "Seed of the sampled overheads (default 0)"},
    {"context_switch", SettingValue::duration, std::nullopt, false, &SimOptions::context_switch_ns,
     "Execution added to a preempted thread when it resumes, e.g. 5us (default 0)"},
    {"execution", SettingValue::factor_range, std::nullopt, false, nullptr,
     "Stochastic execution: each node's work per job drawn uniformly in LO..HI times the "
     "declared work, e.g. 0.5..1 (default 1..1; uses the seed)"},
    {"team_model", SettingValue::team_model, std::nullopt, false, nullptr,
     "How team threads share eligible nodes: greedy (default), centralized (one FIFO queue "
     "behind one lock, see queue lock) or steal (randomized work stealing, see steal cost, "
     "steal attempt, spawn cost)"},
    {"steal_cost", SettingValue::duration, TeamModel::steal, false, &SimOptions::steal_cost_ns,
     "Steal model: time a successful steal adds to the thief's piece, e.g. 1us"},
    {"steal_attempt", SettingValue::duration, TeamModel::steal, true, &SimOptions::steal_attempt_ns,
     "Steal model: length of a failed steal attempt before the next (> 0, required)"},
    {"spawn_cost", SettingValue::duration, TeamModel::steal, false, &SimOptions::spawn_cost_ns,
     "Steal model: time per node a completion makes eligible, on the thread that completes it"},
    {"queue_lock", SettingValue::duration, TeamModel::centralized, false,
     &SimOptions::queue_lock_ns,
     "Centralized model: the queue lock's hold time per enqueue and dequeue, e.g. 2us"},
    {"queue_contention", SettingValue::duration, TeamModel::centralized, false,
     &SimOptions::queue_contention_ns,
     "Centralized model: added to a hold per other worker holding or waiting for the lock, e.g. "
     "2ns (the lock line's handoff; fitted to RTWS Table I by tools/fit_queue_contention.py)"},
    {"queue_grain", SettingValue::duration, TeamModel::centralized, false,
     &SimOptions::queue_grain_ns,
     "Centralized model: the real tasks' grain; a node of length L pays ceil(L / grain) holds "
     "per enqueue and dequeue (default 0: one)"},
};

// invalid is the SimOptionError of a text or range problem.
SimOptionError invalid(std::string_view key, std::string message) {
  return SimOptionError{std::string(key), std::move(message), SimOptionProblem::invalid};
}

// parse_factor_ppm reads one factor of `execution`: a decimal number in [0, 10] with at most 6
// fraction digits, exactly in parts per million ("0.5" → 500000); -1 for anything else.
std::int64_t parse_factor_ppm(const std::string& text) {
  const std::size_t dot = text.find('.');
  const std::string whole = text.substr(0, dot);
  const std::string frac = dot == std::string::npos ? std::string() : text.substr(dot + 1);
  const auto digits = [](const std::string& d) {
    return d.find_first_not_of("0123456789") == std::string::npos;
  };
  if (whole.empty() || whole.size() > 2 || !digits(whole) || frac.size() > 6 || !digits(frac) ||
      (dot != std::string::npos && frac.empty())) {
    return -1;
  }
  std::int64_t ppm = std::stoll(whole) * kExecutionPpm;
  std::int64_t scale = kExecutionPpm / 10;
  for (const char c : frac) {
    ppm += (c - '0') * scale;
    scale /= 10;
  }
  return ppm;
}

// parse_seed reads a seed: a decimal integer in [0, 2^64); nullopt for anything else.
std::optional<std::uint64_t> parse_seed(const std::string& text) {
  std::size_t used = 0;
  try {
    if (text.empty() || text.front() == '-' || text.front() == '+') return std::nullopt;
    const unsigned long long v = std::stoull(text, &used, 10);
    if (used != text.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// model_name is how the simulator names a team model in its messages.
std::string model_name(TeamModel model) {
  return std::string("the ") + to_string(model) + " team model";
}

}  // namespace

std::span<const SimSetting> sim_settings() { return kSimSettings; }

const SimSetting* find_sim_setting(std::string_view key) {
  for (const SimSetting& s : kSimSettings) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

std::optional<SimOptionError> read_sim_option(SimOptions& options, const SimSetting& setting,
                                              const std::string& text) {
  switch (setting.value) {
    case SettingValue::horizon:
    case SettingValue::duration: {
      const bool horizon = setting.value == SettingValue::horizon;
      if (!horizon && !text.empty() && text.front() == '-') {
        return invalid(setting.key, "must be >= 0");
      }
      try {
        const Duration d = parse_duration(text);
        if (horizon) {
          if (d.count() <= 0) return invalid(setting.key, "must be > 0");
          options.horizon_ns = d.count();
        } else {
          options.*setting.field = d.count();
        }
      } catch (const std::invalid_argument& e) {
        return invalid(setting.key, e.what());
      }
      return std::nullopt;
    }
    case SettingValue::seed: {
      const std::optional<std::uint64_t> seed = parse_seed(text);
      if (!seed) return invalid(setting.key, "expected an integer in [0, 2^64)");
      options.seed = *seed;
      return std::nullopt;
    }
    case SettingValue::statistic: {
      const auto statistic = names::value_of(names::kOverheadStatistics, text);
      if (!statistic) return invalid(setting.key, "expected p50, p99, p99.9, max or sampled");
      options.overhead_statistic = *statistic;
      return std::nullopt;
    }
    case SettingValue::team_model: {
      const auto model = names::value_of(names::kTeamModels, text);
      if (!model) return invalid(setting.key, "expected greedy, centralized or steal");
      options.team_model = *model;
      return std::nullopt;
    }
    case SettingValue::factor_range: {
      const std::size_t dots = text.find("..");
      const std::int64_t lo =
          dots == std::string::npos ? -1 : parse_factor_ppm(text.substr(0, dots));
      const std::int64_t hi =
          dots == std::string::npos ? -1 : parse_factor_ppm(text.substr(dots + 2));
      if (lo < 0 || hi < 0 || lo > hi || hi > kMaxExecutionPpm) {
        return invalid(setting.key,
                       "expected LO..HI, factors of the declared work with 0 <= LO <= HI <= 10 "
                       "(e.g. 0.5..1)");
      }
      options.execution_min_ppm = lo;
      options.execution_max_ppm = hi;
      return std::nullopt;
    }
  }
  return invalid(setting.key, "unknown kind of setting");
}

std::vector<SimOptionError> check_sim_options(const SimOptions& options) {
  std::vector<SimOptionError> errors;
  for (const SimSetting& s : kSimSettings) {
    switch (s.value) {
      case SettingValue::horizon:
        if (options.horizon_ns && *options.horizon_ns <= 0) {
          errors.push_back(invalid(s.key, "must be > 0"));
        }
        break;
      case SettingValue::factor_range:
        if (options.execution_min_ppm < 0 ||
            options.execution_min_ppm > options.execution_max_ppm ||
            options.execution_max_ppm > kMaxExecutionPpm) {
          errors.push_back(
              invalid(s.key, "needs 0 <= LO <= HI <= 10 (factors of the declared work)"));
        }
        break;
      case SettingValue::duration: {
        const std::int64_t v = options.*s.field;
        if (v < 0) {
          errors.push_back(invalid(s.key, "must be >= 0"));
        } else if (s.needs && v > 0 && options.team_model != *s.needs) {
          errors.push_back(SimOptionError{std::string(s.key), "needs " + model_name(*s.needs),
                                          SimOptionProblem::needs_model});
        } else if (s.needs && s.required && v == 0 && options.team_model == *s.needs) {
          errors.push_back(SimOptionError{std::string(s.key),
                                          "must be > 0 with " + model_name(*s.needs),
                                          SimOptionProblem::zero_under_model});
        }
        break;
      }
      case SettingValue::seed:
      case SettingValue::statistic:
      case SettingValue::team_model:
        break;
    }
  }
  return errors;
}

std::optional<SimOptionError> check_sim_jobs(const SimOptions& options, const TaskSet& set) {
  if (!options.horizon_ns || *options.horizon_ns <= 0) return std::nullopt;
  const std::int64_t jobs = released_jobs(set, *options.horizon_ns);
  if (jobs <= options.max_jobs) return std::nullopt;
  return invalid("horizon", "releases " + std::to_string(jobs) +
                                " jobs, more than the simulator's " +
                                std::to_string(options.max_jobs) + "; give a shorter horizon");
}

}  // namespace rtpar::sim
