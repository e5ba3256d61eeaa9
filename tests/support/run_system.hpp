// run_system.hpp — running a System in tests with or without real-time privileges.
#pragma once

#include <string>

#include "rtpar/system.hpp"
#include "support/skip.hpp"

namespace rtpar::test {

// run_system runs with real-time scheduling when permitted, else best effort (unprivileged CI),
// without mlockall (tests run many short systems in one process).
inline RunReport run_system(System& sys, RunConfig config) {
  config.lock_memory = false;
  try {
    return sys.run(config);
  } catch (const EnvironmentError& e) {
    // The run's checks still apply (a failure fails the case), but not at real-time priority:
    // a passing case is reported skipped, with the reason.
    mark_skipped(std::string("real-time scheduling refused (") + e.what() +
                 "); ran best effort");
    config.best_effort = true;
    return sys.run(config);
  }
}

}  // namespace rtpar::test
