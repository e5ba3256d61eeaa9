// chain_rules.hpp — the rules of [[chain]] tables, shared by files and sets built in code.
#pragma once

#include <optional>

#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// chain_link is the channel through which chain task `from` feeds task `to`: a `latest` or
// `double_buffer` channel written by `from` and read by `to` (the first in file order), or
// nullptr when there is none.
const ChannelSpec* chain_link(const TaskSet& set, const std::string& from, const std::string& to);

// check_chains enforces the chain rules: a valid name unique among chains, at least two tasks,
// each a task of the set and none twice, every consecutive pair connected by a chain_link
// (a channel of another kind between them is named in the error), max_age > 0. InputError with
// the field path (`chain[i].tasks[k]`) and the element's location when known.
void check_chains(const TaskSet& set, const FieldLocations* locations);

}  // namespace rtpar::model
