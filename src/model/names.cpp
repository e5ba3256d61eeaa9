// names.cpp — the spellings the task-set file uses for planners, overrun policies and runtimes.
#include "rtpar/taskset.hpp"

namespace rtpar {

// The switches have no default so that -Wswitch flags a new enumerator that lacks a name; the
// trailing return covers values cast from out-of-range integers.

const char* to_string(PlannerKind kind) noexcept {
  switch (kind) {
    case PlannerKind::federated:
      return "federated";
    case PlannerKind::federated_ws:
      return "federated-ws";
    case PlannerKind::decomposition:
      return "decomposition";
    case PlannerKind::fork_join_rta:
      return "fork-join-rta";
    case PlannerKind::partitioned:
      return "partitioned";
  }
  return "unknown";
}

const char* to_string(OverrunPolicy policy) noexcept {
  switch (policy) {
    case OverrunPolicy::queue:
      return "queue";
    case OverrunPolicy::skip:
      return "skip";
  }
  return "unknown";
}

const char* to_string(RuntimeKind kind) noexcept {
  switch (kind) {
    case RuntimeKind::team:
      return "team";
    case RuntimeKind::steal:
      return "steal";
  }
  return "unknown";
}

const char* to_string(FitKind kind) noexcept {
  switch (kind) {
    case FitKind::fbb_ffd:
      return "fbb-ffd";
    case FitKind::first_fit:
      return "first-fit";
    case FitKind::worst_fit:
      return "worst-fit";
  }
  return "unknown";
}

}  // namespace rtpar
