// job_context.cpp — JobContext::run_parallel: one work-stealing run inside a job, and its profile.
#include "rtpar/ext/kernel.hpp"
#include "rtpar/steal.hpp"

namespace rtpar {

void JobContext::run_parallel(FunctionRef<void()> root) {
  if (steal == nullptr) {
    root();
    return;
  }
  steal->run(root);
  // Runs within one job are sequential, so their work and spans add up.
  const steal::JobProfile p = steal->last_profile();
  work_ns += p.work_ns;
  span_ns += p.span_ns;
  burdened_span_ns += p.burdened_span_ns;
  ++steal_runs;
}

}  // namespace rtpar
