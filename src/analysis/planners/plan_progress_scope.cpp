// plan_progress_scope.cpp — PlanProgressScope (rtpar/tools/planners.hpp) over core/progress.hpp.
#include <utility>

#include "core/progress.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar {

PlanProgressScope::PlanProgressScope(PlanProgress progress)
    : progress_(std::move(progress)), previous_(detail::installed_progress()) {
  detail::installed_progress() = &progress_;
}

PlanProgressScope::~PlanProgressScope() { detail::installed_progress() = previous_; }

}  // namespace rtpar
