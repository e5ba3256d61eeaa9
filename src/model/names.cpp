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
  }
  return "unknown";
}

}  // namespace rtpar
