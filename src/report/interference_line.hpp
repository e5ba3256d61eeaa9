// interference_line.hpp — the kernel's interference (Plan::interference) in the human-readable
// tables: one short plain line by default, the sources read with -v (docs/cli.md, "Kernel
// interference"); `--json` always carries every field.
#pragma once

#include <string>

#include "rtpar/plan.hpp"

namespace rtpar::report {

// interference_summary is the plain phrase for k without its sources: "none found", "charged:
// 1ms every 1s per core", "not charged: up to 50ms every 1s per core may preempt the tasks", ...;
// it ends with "(-v: details)" when there are sources or unreadable parts to show.
std::string interference_summary(const KernelInterference& k);

// interference_detail is the full text: state, budget, "(partly unknown)" and every source read.
std::string interference_detail(const KernelInterference& k);

}  // namespace rtpar::report
