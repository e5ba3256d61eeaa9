// taskset_validate.cpp — the semantic rules of a task set (see taskset_check.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "model/chain_rules.hpp"
#include "model/channel_rules.hpp"
#include "model/structure.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar {

namespace model {

namespace {

// Checker walks one task set and throws InputError at the first rule it breaks.
class Checker {
 public:
  Checker(const TaskSet& set, const FieldLocations* locations) : set_(set), locations_(locations) {}

  // system checks [system]: cores, nonrt_cores and delta.
  void system() const;
  // tasks checks that there is at least one task and each one on its own and against the others.
  void tasks() const;
  // task checks task i; names maps each valid name seen so far to its task index.
  void task(std::size_t i, std::map<std::string, std::size_t, std::less<>>& names) const;
  // structure checks task i's segments or DAG, places, threads and work-stealing budget.
  void structure(std::size_t i) const;

 private:
  // locate prefers the recorded location of key, then of field, then fallback.
  [[nodiscard]] SourceLocation locate(const std::string& key, const std::string& field,
                                      const SourceLocation& fallback) const;
  // system_where is [system]'s location, or the file's when the set was built in code.
  [[nodiscard]] SourceLocation system_where() const;
  // task_where is the [[task]] table's location, or the file's when the task was built in code.
  [[nodiscard]] SourceLocation task_where(const TaskSpec& task) const;

  // fail_system throws for system.<key> (element `index` of it when index ≥ 0).
  [[noreturn]] void fail_system(const std::string& key, int index,
                                const std::string& message) const;
  // fail_task throws for task[i].<key>, naming the task in the message when it has a valid name.
  [[noreturn]] void fail_task(std::size_t i, const std::string& key,
                              const std::string& message) const;

  const TaskSet& set_;
  const FieldLocations* locations_;
};

SourceLocation Checker::locate(const std::string& key, const std::string& field,
                               const SourceLocation& fallback) const {
  if (locations_ != nullptr) {
    if (const SourceLocation* at = locations_->find(key)) return *at;
    if (const SourceLocation* at = locations_->find(field)) return *at;
  }
  return fallback;
}

SourceLocation Checker::system_where() const {
  const SourceLocation& where = set_.system.where;
  return where.file.empty() ? SourceLocation{set_.source, 0, 0} : where;
}

SourceLocation Checker::task_where(const TaskSpec& task) const {
  return task.where.file.empty() ? SourceLocation{set_.source, 0, 0} : task.where;
}

void Checker::fail_system(const std::string& key, int index, const std::string& message) const {
  const std::string field = "system." + key;
  const std::string element = index < 0 ? field : field + "[" + std::to_string(index) + "]";
  throw InputError(locate(element, field, system_where()), field, message);
}

void Checker::fail_task(std::size_t i, const std::string& key, const std::string& message) const {
  const TaskSpec& task = set_.tasks[i];
  const std::string field = "task[" + std::to_string(i) + "]." + key;
  throw InputError(locate(field, field, task_where(task)), field, message + task_label(task.name));
}

void Checker::system() const {
  const SystemSpec& sys = set_.system;
  if (sys.cores.empty()) fail_system("cores", -1, "must name at least one CPU");
  for (std::size_t k = 0; k < sys.cores.size(); ++k) {
    const int cpu = sys.cores[k];
    const int index = static_cast<int>(k);
    if (cpu < 0 || cpu >= kMaxCpus) {
      fail_system(
          "cores", index,
          "CPU id " + std::to_string(cpu) + " is out of range 0.." + std::to_string(kMaxCpus - 1));
    }
    // Ascending order makes "distinct" a neighbour comparison and is what the planner and the
    // executor rely on when they hand out cores (SystemSpec documents it).
    if (k > 0 && cpu == sys.cores[k - 1]) {
      fail_system("cores", index, "CPU " + std::to_string(cpu) + " is listed twice");
    }
    if (k > 0 && cpu < sys.cores[k - 1]) {
      fail_system("cores", index, "CPU ids must be in ascending order");
    }
  }

  std::vector<bool> reserved(static_cast<std::size_t>(kMaxCpus), false);
  for (std::size_t k = 0; k < sys.nonrt_cores.size(); ++k) {
    const int cpu = sys.nonrt_cores[k];
    const int index = static_cast<int>(k);
    if (!std::binary_search(sys.cores.begin(), sys.cores.end(), cpu)) {
      fail_system("nonrt_cores", index,
                  "CPU " + std::to_string(cpu) + " is not one of system.cores");
    }
    if (reserved[static_cast<std::size_t>(cpu)]) {
      fail_system("nonrt_cores", index, "CPU " + std::to_string(cpu) + " is listed twice");
    }
    reserved[static_cast<std::size_t>(cpu)] = true;
  }
  if (!sys.nonrt_cores.empty() && sys.nonrt_cores.size() >= sys.cores.size()) {
    fail_system("nonrt_cores", -1,
                "reserves every core; at least one must remain for real-time tasks");
  }

  // The margin is a tolerance for the budget mechanism's own cost, not a second budget: above a
  // millisecond it would hide real overruns of the shortest tasks.
  if (sys.budget_margin.count() < 0 || sys.budget_margin > std::chrono::milliseconds(1)) {
    fail_system("budget_margin", -1, "must be between 0 and 1ms");
  }
  if (!std::isfinite(sys.delta) || sys.delta <= 0.0) {
    fail_system("delta", -1, "must be a finite number > 0");
  }
  if (sys.sockets < 1 || static_cast<std::size_t>(sys.sockets) > sys.cores.size()) {
    fail_system(
        "sockets", -1,
        "must be between 1 and the number of cores (" + std::to_string(sys.cores.size()) + ")");
  }
  if (sys.fork_join_overhead < Duration::zero()) {
    fail_system("fork_join_overhead", -1, "must not be negative");
  }
}

void Checker::structure(std::size_t i) const {
  const TaskSpec& t = set_.tasks[i];
  if (!t.segments.empty() && t.dag) {
    fail_task(i, "node", "a task is either parallel-synchronous or a DAG, not both");
  }
  for (std::size_t k = 0; k < t.segments.size(); ++k) {
    const SegmentSpec& s = t.segments[k];
    const std::string key = "segment[" + std::to_string(k) + "]";
    if (s.strands < 1) fail_task(i, key + ".strands", "must be ≥ 1");
    if (s.length <= Duration::zero()) fail_task(i, key + ".length", "must be > 0");
  }
  Duration work{0};
  Duration span{0};
  const char* what = nullptr;
  if (!t.segments.empty()) {
    work = segments_work(t.segments);
    span = segments_span(t.segments);
    what = "segments";
  } else if (t.dag) {
    if (t.dag->nodes.empty()) fail_task(i, "node", "a DAG task needs at least one node");
    for (std::size_t k = 0; k < t.dag->nodes.size(); ++k) {
      const DagNode& node = t.dag->nodes[k];
      const std::string key = "node[" + std::to_string(k) + "]";
      if (node.length <= Duration::zero()) fail_task(i, key + ".length", "must be > 0");
      for (const int p : node.after) {
        if (p < 0 || static_cast<std::size_t>(p) >= t.dag->nodes.size() ||
            static_cast<std::size_t>(p) == k) {
          fail_task(i, key + ".after",
                    "refers to node index " + std::to_string(p) +
                        ", which is not another node of this task");
        }
      }
    }
    if (const int bad = dag_cycle(*t.dag); bad >= 0) {
      fail_task(i, "node[" + std::to_string(bad) + "].after", "is on a cycle");
    }
    work = dag_work(*t.dag);
    span = dag_span(*t.dag);
    what = "nodes";
  }
  if (what != nullptr) {
    // The sums saturate at 2^63 − 1 ns (structure.hpp): a structure that reaches it does not fit
    // a Duration, and analysing the clamped value would understate C or L (unsound), so refuse.
    if (work == Duration::max() || span == Duration::max()) {
      fail_task(i, work == Duration::max() ? "work" : "span",
                std::string("the ") + what + "' " +
                    (work == Duration::max() ? "total work" : "longest path") +
                    " reaches 2^63 − 1 ns (292 years), the largest duration: too large to "
                    "analyse");
    }
    // The structure and the declared C and L describe one job: they must agree exactly, or the
    // planners that read the structure and those that read C and L would analyse different tasks.
    if (work != t.work) {
      fail_task(i, "work",
                "work (C = " + format_duration(t.work) + ") disagrees with the " + what +
                    " (total " + format_duration(work) + ")");
    }
    if (span != t.span) {
      fail_task(i, "span",
                "span (L = " + format_duration(t.span) + ") disagrees with the " + what +
                    " (longest path " + format_duration(span) + ")");
    }
  }
  for (std::size_t k = 0; k < t.places.size(); ++k) {
    const int cpu = t.places[k];
    const std::string key = "places[" + std::to_string(k) + "]";
    if (cpu < 0 || cpu >= kMaxCpus) {
      fail_task(
          i, key,
          "CPU id " + std::to_string(cpu) + " is out of range 0.." + std::to_string(kMaxCpus - 1));
    }
    if (k > 0 && cpu <= t.places[k - 1]) {
      fail_task(i, key,
                cpu == t.places[k - 1] ? "CPU " + std::to_string(cpu) + " is listed twice"
                                       : std::string("CPU ids must be in ascending order"));
    }
  }
  if (t.threads < 0 || t.threads > 1024) fail_task(i, "threads", "must be between 1 and 1024");
  if (t.steal.max_depth < 1) fail_task(i, "steal.max_depth", "must be ≥ 1");
  if (t.steal.frames_per_worker < 1) fail_task(i, "steal.frames_per_worker", "must be ≥ 1");
  if (t.steal.stack_bytes < 64 * 1024) fail_task(i, "steal.stack_bytes", "must be ≥ 65536");
  if (t.steal.profile_depth < 0) fail_task(i, "steal.profile_depth", "must be ≥ 0");
}

void Checker::tasks() const {
  if (set_.tasks.empty()) {
    throw InputError(SourceLocation{set_.source, 0, 0}, "task",
                     "no tasks (a task set needs at least one [[task]] table)");
  }
  std::map<std::string, std::size_t, std::less<>> names;
  for (std::size_t i = 0; i < set_.tasks.size(); ++i) task(i, names);
}

void Checker::task(std::size_t i, std::map<std::string, std::size_t, std::less<>>& names) const {
  const TaskSpec& t = set_.tasks[i];
  const std::string field_prefix = "task[" + std::to_string(i) + "]";

  if (t.name.empty()) fail_task(i, "name", "must not be empty");
  if (!is_valid_task_name(t.name)) {
    fail_task(i, "name",
              "invalid task name \"" + t.name + "\": use only letters, digits, '_', '.' and '-'");
  }
  if (t.name == kNonRtEndpoint) {
    fail_task(i, "name", "\"nonrt\" is reserved: channels use it for non-real-time threads");
  }
  if (const auto [it, inserted] = names.emplace(t.name, i); !inserted) {
    const std::string first = "task[" + std::to_string(it->second) + "]";
    const SourceLocation at =
        locate(first + ".name", first + ".name", task_where(set_.tasks[it->second]));
    const std::string line = at.line > 0 ? " at line " + std::to_string(at.line) : "";
    // The task name is in this message already, so it bypasses fail_task's label.
    const std::string field = field_prefix + ".name";
    throw InputError(locate(field, field, task_where(t)), field,
                     "duplicate task name \"" + t.name + "\" (first used by " + first + line + ")");
  }

  if (t.period <= Duration::zero()) fail_task(i, "period", "must be > 0");
  if (t.deadline <= Duration::zero()) fail_task(i, "deadline", "must be > 0");
  if (t.deadline > t.period) {
    fail_task(i, "deadline",
              "deadline (D = " + format_duration(t.deadline) +
                  ") must not exceed period (T = " + format_duration(t.period) + ")");
  }
  if (t.phase < Duration::zero()) fail_task(i, "phase", "must not be negative");
  if (t.work <= Duration::zero()) fail_task(i, "work", "must be > 0");
  if (t.span <= Duration::zero()) fail_task(i, "span", "must be > 0");
  if (t.wait.spin_ns < Duration::zero()) fail_task(i, "wait_spin", "must not be negative");
  // span > deadline is deliberately accepted: it is valid input that no planner can schedule,
  // and the planner's rejection explains that better than a parse error would.
  if (t.span > t.work) {
    fail_task(i, "span",
              "span (L = " + format_duration(t.span) +
                  ") must not exceed work (C = " + format_duration(t.work) + ")");
  }
  if (t.priority && (*t.priority < 1 || *t.priority > 99)) {
    fail_task(i, "priority", "must be between 1 and 99 (SCHED_FIFO priorities)");
  }
  structure(i);
}

}  // namespace

bool is_valid_task_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string task_label(std::string_view name) {
  return is_valid_task_name(name) ? " (task \"" + std::string(name) + "\")" : std::string();
}

void check_taskset(const TaskSet& set, const FieldLocations* locations) {
  const Checker checker(set, locations);
  checker.system();
  checker.tasks();
  check_channels(set, locations);
  check_chains(set, locations);
}

void check_task_parameters(const TaskSet& set) {
  const Checker checker(set, nullptr);
  std::map<std::string, std::size_t, std::less<>> names;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) checker.task(i, names);
}

}  // namespace model

void validate_taskset(const TaskSet& set) { model::check_taskset(set, nullptr); }

}  // namespace rtpar
