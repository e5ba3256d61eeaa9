// chain_parse.hpp — reading the [[chain]] tables of a task-set file.
#pragma once

#include <cstddef>
#include <string>

#include <toml++/toml.h>

#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// parse_chain reads the [[chain]] at index i: name, tasks (with each element's location, for
// check_chains' errors) and max_age. Types only; the rules are check_chains'.
ChainSpec parse_chain(const toml::table& table, std::size_t i, const std::string& file,
                      FieldLocations& locations);

}  // namespace rtpar::model
