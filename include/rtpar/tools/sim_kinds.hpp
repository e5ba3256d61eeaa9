// rtpar/tools/sim_kinds.hpp — the enumerations of reading an overhead profile and of simulating a
// plan (OverheadStatistic, TeamModel) and their spellings. They are vocabulary, like
// task_kinds.hpp: the name tables live in src/core/names.hpp, so the planners' options, the
// simulator and the readers of manifests and flags spell them from one place. Included by
// tools/simulate.hpp, where they were declared first.
#pragma once

#include <string>

namespace rtpar {

// OverheadStatistic is which value of an overhead profile's distribution each injected overhead
// instance takes (docs/internals/simulation.md, "Overheads"): one of its stated quantiles, the
// largest measured value, or a value drawn per instance from the distribution (`sampled`).
enum class OverheadStatistic { p50, p99, p999, max, sampled };

// to_string is the statistic's CLI spelling: "p50", "p99", "p99.9", "max", "sampled".
const char* to_string(OverheadStatistic statistic);

// parse_overhead_statistic reads that spelling; throws InputError (field "--overhead-statistic")
// for anything else.
OverheadStatistic parse_overhead_statistic(const std::string& text);

// TeamModel is how a team's threads share the eligible nodes of its job (the nodes not pinned to
// one thread; docs/internals/simulation.md, "Team models"): `greedy`, any idle thread takes the
// lowest-indexed eligible node at once (list scheduling, the planners' assumption); `centralized`,
// one FIFO queue behind one lock (RTWS's centralized greedy comparator, RTWS §VII): every enqueue
// and dequeue holds the lock for SimOptions::queue_lock_ns, and a thread waits (on its core) for
// the lock to be free; `steal`, randomized work stealing (RTWS's runtime, RTWS §III): per-thread
// deques, owners pop their own newest node, idle threads steal the oldest node of a uniformly
// random teammate, with SimOptions' steal, attempt and spawn costs.
enum class TeamModel { greedy, centralized, steal };

// to_string is the model's CLI spelling: "greedy", "centralized", "steal".
const char* to_string(TeamModel model);

}  // namespace rtpar
