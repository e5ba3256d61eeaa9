// channel_parse.hpp — reading and checking the [[channel]] tables of a task-set file.
#pragma once

#include <cstddef>
#include <string>

#include <toml++/toml.h>

#include "model/channel_rules.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// parse_channel reads the [[channel]] at index i (types and defaults; rules are check_channels').
ChannelSpec parse_channel(const toml::table& table, std::size_t i, const std::string& file,
                          FieldLocations& locations);

}  // namespace rtpar::model
