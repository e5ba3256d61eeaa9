// channel_parse.hpp — reading and checking the [[channel]] tables of a task-set file.
#pragma once

#include <cstddef>
#include <string>

#include <toml++/toml.h>

#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// parse_channel reads the [[channel]] at index i (types and defaults; rules are check_channels').
ChannelSpec parse_channel(const toml::table& table, std::size_t i, const std::string& file,
                          FieldLocations& locations);

// check_channels enforces the channel rules: valid unique names, size within limits, a writer and
// at least one reader that are tasks of the set or "nonrt", no endpoint twice, numtries only for
// retry, and no `lock` channel across the real-time / non-real-time boundary (a priority-ceiling
// mutex cannot be shared with a SCHED_OTHER thread, and an RT thread must never wait for one).
void check_channels(const TaskSet& set, const FieldLocations* locations);

}  // namespace rtpar::model
