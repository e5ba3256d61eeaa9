// rtpar/tools/generate.hpp — deterministic task-set generators (docs/generate.md): one seed and
// the same parameters give the same task set on every platform, so experiments can be rerun and
// split across machines. Implemented in src/gen/.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::gen {

// Param is one generator parameter as written ("60", "2.5", "10ms", "true", "fbb-ffd") and where
// it was written (a manifest line, or no file for the command line).
struct Param {
  std::string value;
  SourceLocation where;
};

// Params maps parameter names (flat snake_case; ranges as `_min`/`_max` pairs) to their values.
using Params = std::map<std::string, Param, std::less<>>;

// Generated is one drawn task set and how many draws were rejected on the way (the FJOS keep
// filter, UUniFast-discard, overshooting tasks, ...).
struct Generated {
  TaskSet set;
  std::int64_t redraws = 0;
};

// generate draws one task set of family `family` from `seed`: the same inputs give the same set on
// every platform. Parameters not given take their defaults (families()). Throws InputError naming
// the field "generator.<key>" (and p.where when it has a file) for an unknown family, an unknown
// key, or a malformed or out-of-range value. Re-entrant: no global state.
Generated generate(std::string_view family, const Params& params, std::uint64_t seed);

// derive_seed is the seed of set `index` of a sequence seeded with `seed`: the index-th output of
// splitmix64 started at `seed`. `rtpar generate --seed N --count K` draws set i from
// derive_seed(N, i), so a sequence's prefix does not depend on K.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) noexcept;

// ParamInfo describes one parameter of a family: its name, default (as written) and meaning.
struct ParamInfo {
  std::string name, default_value, help;
};

// FamilyInfo describes one generator family and its parameters, in documentation order.
struct FamilyInfo {
  std::string name, help;
  std::vector<ParamInfo> params;
};

// families lists every generator family (for `rtpar generate --list` and the docs).
const std::vector<FamilyInfo>& families();

// to_toml writes `set` as a task-set file (docs/taskset.md) that load_taskset reads back to an
// equal set; header_comment is written first, each line prefixed with "# ".
std::string to_toml(const TaskSet& set, std::string_view header_comment);

}  // namespace rtpar::gen
