// channel_rules.hpp — the rules of a task set's [[channel]] tables, shared by the loader and by
// validate_taskset (sets built in code).
#pragma once

#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// check_channels enforces the channel rules: valid unique names, size within limits, a writer and
// at least one reader that are tasks of the set or "nonrt", no endpoint twice, numtries only for
// retry, and no `lock` channel across the real-time / non-real-time boundary (a priority-ceiling
// mutex cannot be shared with a SCHED_OTHER thread, and an RT thread must never wait for one).
void check_channels(const TaskSet& set, const FieldLocations* locations);

}  // namespace rtpar::model
