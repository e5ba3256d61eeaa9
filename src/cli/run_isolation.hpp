// run_isolation.hpp — `rtpar run`'s part of isolation: apply a leftover restore record, isolate the
// real-time cores when asked (--isolate or [system] isolate = true), and say so in the plan.
#pragma once

#include <memory>

#include "platform/isolation.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::cli {

// isolate_for_run applies a restore record left by a run that died (and says so on stderr), then,
// when `requested` or set.system.isolate, isolates the set's real-time cores: the returned guard
// restores every setting when destroyed, and `interference` becomes "isolated" with what was done
// (known only when the isolation is complete). Returns null when no isolation was asked for.
// Throws EnvironmentError (exit 3) when isolation is asked for but not permitted.
std::unique_ptr<platform::Isolation> isolate_for_run(const TaskSet& set, bool requested,
                                                     KernelInterference& interference);

}  // namespace rtpar::cli
