// taskset_parse.cpp — the TOML task-set format v1 (docs/taskset.md): load_taskset, parse_taskset.
//
// Parsing is two passes over a strict file. The first (this file) checks structure and TOML types,
// fills in defaults and describes each task's kernel; the second (check_taskset) applies the
// semantic rules shared with validate_taskset, using the value locations recorded by the first
// pass. No task code is created or loaded here (TaskSpec::code stays null): a `lib:` object is
// resolved from its ELF symbol table, and `rtpar run` / System::run create the kernels.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "core/names.hpp"
#include "kernels/builtin.hpp"
#include "kernels/registry.hpp"
#include "load/chain_parse.hpp"
#include "load/channel_parse.hpp"
#include "load/structure_parse.hpp"
#include "load/toml_fields.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar {

namespace model {

namespace {

// clamp_to_int narrows a TOML integer. Out-of-range values saturate, which keeps them out of
// range for check_taskset (CPU ids, priorities) so that it reports them with one message.
int clamp_to_int(std::int64_t value) {
  return static_cast<int>(std::clamp<std::int64_t>(value, std::numeric_limits<int>::min(),
                                                   std::numeric_limits<int>::max()));
}

// parse_choice maps the string value of key to one of the enumerators in `choices`.
template <typename Enum, std::size_t N>
std::optional<Enum> parse_choice(const TableReader& reader, std::string_view key,
                                 const std::pair<std::string_view, Enum> (&choices)[N]) {
  const auto text = reader.string(key);
  if (!text) return std::nullopt;
  std::string expected;
  for (const auto& [name, value] : choices) {
    if (*text == name) return value;
    expected += (expected.empty() ? "\"" : ", \"") + std::string(name) + "\"";
  }
  reader.fail(reader.node(key), key, "unknown value \"" + *text + "\" (expected " + expected + ")");
}

// parse_system reads [system] (table may be null when the file has none).
SystemSpec parse_system(const toml::table* table, const std::string& file,
                        FieldLocations& locations) {
  SystemSpec spec;
  if (table == nullptr) {
    spec.where = SourceLocation{file, 0, 0};
    spec.cores = online_cpus();
    return spec;
  }
  const TableReader reader(*table, file, "system", locations);
  reader.allow_only({"cores", "planner", "delta", "nonrt_cores", "fit", "sockets",
                     "fork_join_overhead", "memory_limit", "isolate", "budget", "budget_margin",
                     "shared_wait"});
  spec.where = reader.where();

  if (const toml::node* cores = reader.node("cores"); cores == nullptr) {
    // No cores: run on whatever this process may use (its affinity mask).
    spec.cores = online_cpus();
  } else if (const auto* count = cores->as_integer()) {
    // A count describes a target machine, e.g. for analysing a set on a bigger box.
    if (count->get() < 1 || count->get() > kMaxCpus) {
      reader.fail(cores, "cores", "a core count must be between 1 and " + std::to_string(kMaxCpus));
    }
    for (int cpu = 0; cpu < count->get(); ++cpu) spec.cores.push_back(cpu);
    spec.cores_from_count = true;
  } else if (cores->is_array()) {
    spec.cores = cpu_list(reader, "cores", *cores, locations);
  } else {
    reader.fail(cores, "cores", "expected an array of CPU ids like [0, 1, 2] or a core count");
  }

  spec.planner = parse_choice(reader, "planner", names::kPlanners).value_or(PlannerKind::federated);
  spec.fit = parse_choice(reader, "fit", names::kFits).value_or(FitKind::fbb_ffd);
  if (const auto sockets = reader.integer("sockets")) spec.sockets = clamp_to_int(*sockets);
  spec.fork_join_overhead = reader.duration("fork_join_overhead").value_or(Duration::zero());
  if (const toml::node* limit = reader.node("memory_limit")) {
    spec.memory_limit = reader.byte_size(*limit, "memory_limit", UINT64_MAX);
  }

  if (const toml::node* delta = reader.node("delta")) {
    if (const auto* real = delta->as_floating_point()) {
      spec.delta = real->get();
    } else if (const auto* whole = delta->as_integer()) {
      spec.delta = static_cast<double>(whole->get());
    } else {
      reader.fail(delta, "delta", "expected a number");
    }
  }

  if (const toml::node* nonrt = reader.node("nonrt_cores")) {
    spec.nonrt_cores = cpu_list(reader, "nonrt_cores", *nonrt, locations);
  }
  if (const toml::node* isolate = reader.node("isolate")) {  // docs/taskset.md, [system] isolate
    if (isolate->as_boolean() == nullptr) reader.fail(isolate, "isolate", "expected true or false");
    spec.isolate = isolate->as_boolean()->get();
  }
  spec.budget = parse_choice(reader, "budget", names::kBudgets);  // docs/reliability.md "Budgets"
  if (const auto margin = reader.duration("budget_margin")) spec.budget_margin = *margin;
  // docs/taskset.md, [system] shared_wait (fork-join-rta, FJOS §VIII; decision F15)
  spec.shared_wait = parse_choice(reader, "shared_wait", names::kWaits);
  return spec;
}

// parse_task reads the [[task]] at index i, describes its kernel, and fills in defaults.
// check_steal_needs ties a task's kernel to its runtime: kernels written for work stealing (fib,
// uts, heat) need runtime = "steal" (run serially they would silently lose their parallelism);
// lib: kernels reach parallelism through the C ABI's team parallel_for, so they need "team"; and
// the depth, frames and stack a steal kernel needs (from its args) must fit [task.steal], so a
// budget too small is an error here, before anything runs, rather than a CapacityError in the first
// job.
void check_steal_needs(const TableReader& reader, const TaskSpec& task,
                       const kernels::KernelBuild& built, const toml::node* kernel_node) {
  const bool steal = task.runtime == RuntimeKind::steal;
  const toml::node* runtime_node = reader.node("runtime");
  if (built.needs_steal && !steal) {
    reader.fail(runtime_node != nullptr ? runtime_node : kernel_node, "runtime",
                "kernel '" + task.kernel +
                    "' runs on the work-stealing runtime: set runtime = "
                    "\"steal\"");
  }
  if (steal && task.kernel.rfind("lib:", 0) == 0) {
    reader.fail(runtime_node, "runtime",
                "lib: kernels run their parallel_for on a team (the C ABI): use runtime = "
                "\"team\"");
  }
  if (steal && task.kernel.rfind("omp:", 0) == 0) {
    reader.fail(runtime_node, "runtime",
                "omp: kernels run their parallel regions on the task's OpenMP team: use runtime = "
                "\"team\"");
  }
  if (!steal) return;
  const toml::node* at = reader.node("steal") != nullptr ? reader.node("steal") : kernel_node;
  if (built.steal_depth > task.steal.max_depth) {
    reader.fail(at, "steal.max_depth",
                "kernel '" + task.kernel + "' nests " + std::to_string(built.steal_depth) +
                    " joins/scopes deep with these args; max_depth = " +
                    std::to_string(task.steal.max_depth) + " is too small");
  }
  const std::size_t stack =
      static_cast<std::size_t>(built.steal_depth) * kernels::kStealStackPerLevel +
      kernels::kStealStackBase;
  if (built.needs_steal && stack > task.steal.stack_bytes) {
    // A worker stack overflow is a crash, not an error: refuse the budget here instead.
    reader.fail(at, "steal.stack_bytes",
                "kernel '" + task.kernel + "' nests " + std::to_string(built.steal_depth) +
                    " levels deep with these args and needs about " + std::to_string(stack) +
                    " bytes of stack per worker; stack_bytes = " +
                    std::to_string(task.steal.stack_bytes) + " is too small");
  }
  if (built.steal_frames > task.steal.frames_per_worker) {
    reader.fail(at, "steal.frames_per_worker",
                "kernel '" + task.kernel + "' can hold " + std::to_string(built.steal_frames) +
                    " spawned children open on one worker with these args; frames_per_worker = " +
                    std::to_string(task.steal.frames_per_worker) + " is too small");
  }
}

TaskSpec parse_task(const toml::table& table, std::size_t i, const std::string& file,
                    FieldLocations& locations) {
  const std::string prefix = "task[" + std::to_string(i) + "]";
  TableReader reader(table, file, prefix, locations);
  TaskSpec task;
  task.where = reader.where();
  // The name is read first so that every later message can say which task it is about.
  const auto name = reader.string("name");
  if (name) {
    task.name = *name;
    reader.set_label(task_label(task.name));
  }
  reader.allow_only({"name", "period", "deadline", "phase", "work", "span", "priority", "kernel",
                     "args", "runtime", "overrun", "wait", "wait_spin", "segment", "node", "places",
                     "threads", "steal", "budget"});
  if (!name) reader.fail(nullptr, "name", "required");

  const auto period = reader.duration("period");
  if (!period) reader.fail(nullptr, "period", "required");
  task.period = *period;
  task.deadline = reader.duration("deadline").value_or(task.period);
  task.phase = reader.duration("phase").value_or(Duration::zero());
  const auto work = reader.duration("work");
  const auto span = reader.duration("span");
  if (const auto priority = reader.integer("priority")) task.priority = clamp_to_int(*priority);

  task.runtime = parse_choice(reader, "runtime", names::kRuntimes).value_or(RuntimeKind::team);
  task.overrun = parse_choice(reader, "overrun", names::kOverruns).value_or(OverrunPolicy::queue);
  task.budget = parse_choice(reader, "budget", names::kBudgets);
  task.wait.kind = parse_choice(reader, "wait", names::kWaits).value_or(WaitKind::hybrid);
  if (const auto spin = reader.duration("wait_spin")) {
    if (task.wait.kind != WaitKind::hybrid) {
      reader.fail(reader.node("wait_spin"), "wait_spin", "only applies to wait = \"hybrid\"");
    }
    task.wait.spin_ns = *spin;
  }

  if (const toml::node* steal = reader.node("steal")) {
    task.steal = parse_steal(reader, *steal, locations);
    // A budget for a runtime the task does not use would be silently ignored.
    if (task.runtime != RuntimeKind::steal) {
      reader.fail(steal, "steal", "only applies to runtime = \"steal\" (this task runs on a team)");
    }
  }
  if (const toml::node* places = reader.node("places")) {
    task.places = cpu_list(reader, "places", *places, locations);
    if (task.places.empty()) reader.fail(places, "places", "must name at least one CPU");
  }
  if (const auto threads = reader.integer("threads")) {
    if (*threads < 1 || *threads > 1024) {
      reader.fail(reader.node("threads"), "threads", "expected an integer between 1 and 1024");
    }
    task.threads = static_cast<int>(*threads);
  }
  const toml::node* segment_node = reader.node("segment");
  const toml::node* dag_node = reader.node("node");
  if (segment_node != nullptr && dag_node != nullptr) {
    reader.fail(dag_node, "node",
                "a task is either parallel-synchronous ([[task.segment]]) or a DAG "
                "([[task.node]]), not both");
  }
  if (segment_node != nullptr) task.segments = parse_segments(reader, *segment_node, locations);
  if (dag_node != nullptr) task.dag = parse_dag(reader, *dag_node, locations);

  const toml::node* args = reader.node("args");
  if (args != nullptr && !args->is_table()) {
    reader.fail(args, "args", "expected a table, e.g. args = { n = 256 }");
  }
  const auto kernel_name = reader.string("kernel");
  const toml::node* kernel_node = reader.node("kernel");
  const toml::source_region kernel_where =
      kernel_node != nullptr ? kernel_node->source() : table.source();
  kernels::KernelBuild built;
  if (!kernel_name && !task.segments.empty()) {
    // [[task.segment]] without a kernel: the job burns each strand's length (the segments kernel).
    if (args != nullptr) reader.fail(args, "args", "args need a kernel (none is given)");
    task.kernel = "segments";
    built.spec = kernels::builtin_spec("segments", location(file, table.source()));
    built.work = model::segments_work(task.segments);
    built.span = model::segments_span(task.segments);
  } else if (!kernel_name && task.dag) {
    // An explicit DAG is for analysis: it has no code unless a kernel is named (run refuses it).
    if (args != nullptr) reader.fail(args, "args", "args need a kernel (none is given)");
    built.work = model::dag_work(*task.dag);
    built.span = model::dag_span(*task.dag);
  } else {
    task.kernel = kernel_name.value_or("spin");
    // describe_kernel reports bad args itself (as InputError at the offending arg).
    built = kernels::describe_kernel(kernels::KernelRequest{
        task.kernel, args != nullptr ? args->as_table() : nullptr, file, prefix, kernel_where});
    if (!built.segments.empty()) {
      if (!task.segments.empty()) {
        reader.fail(segment_node, "segment",
                    "the segments kernel's args already give the structure; drop "
                    "[[task.segment]] or the kernel");
      }
      task.segments = std::move(built.segments);
    } else if (!task.segments.empty() || task.dag) {
      // The structure then describes a kernel the planners cannot see into; the sums still
      // have to agree with the task's work and span (checked below and by check_taskset).
      if (!built.work)
        built.work = task.dag ? model::dag_work(*task.dag) : model::segments_work(task.segments);
      if (!built.span)
        built.span = task.dag ? model::dag_span(*task.dag) : model::segments_span(task.segments);
    }
  }
  check_steal_needs(reader, task, built, kernel_node);
  task.kernel_spec = std::move(built.spec);

  // Work and span the kernel derived are reported at the kernel when a rule rejects them.
  if (work) {
    task.work = *work;
  } else if (built.work) {
    task.work = *built.work;
    locations.add(prefix + ".work", location(file, kernel_where));
  } else {
    reader.fail(nullptr, "work", "required (kernel '" + task.kernel + "' cannot derive it)");
  }
  if (span) {
    task.span = *span;
  } else if (built.span) {
    task.span = *built.span;
    locations.add(prefix + ".span", location(file, kernel_where));
  } else {
    task.span = task.work;  // a sequential task: the critical path is the whole job
  }
  return task;
}

// read_file returns the whole file, or throws InputError naming it with the system's reason.
std::string read_file(const std::string& path) {
  auto fail = [&path](const char* what) {
    const std::string reason = std::error_code(errno, std::generic_category()).message();
    throw InputError(SourceLocation{path, 0, 0}, "", std::string(what) + ": " + reason);
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open task-set file");
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int saved = errno;
      ::close(fd);
      errno = saved;
      fail("cannot read task-set file");
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace

}  // namespace model

TaskSet parse_taskset(std::string_view text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(source));
  } catch (const toml::parse_error& e) {
    throw InputError(model::location(source, e.source()), "", std::string(e.description()));
  }

  model::FieldLocations locations;
  TaskSet set;
  set.source = source;
  for (const auto& [key, value] : root) {
    if (key.str() != "system" && key.str() != "task" && key.str() != "channel" &&
        key.str() != "chain") {
      throw InputError(model::location(source, key.source()), std::string(key.str()),
                       "unknown top-level key \"" + std::string(key.str()) +
                           "\" (a task set has a [system] table, [[task]], [[channel]] and "
                           "[[chain]] tables)");
    }
  }

  const toml::node* system = root.get("system");
  if (system != nullptr && !system->is_table()) {
    throw InputError(model::location(source, system->source()), "system",
                     "expected a table ([system])");
  }
  set.system =
      model::parse_system(system != nullptr ? system->as_table() : nullptr, source, locations);

  if (const toml::node* tasks = root.get("task")) {
    const toml::array* array = tasks->as_array();
    if (array == nullptr) {
      throw InputError(model::location(source, tasks->source()), "task",
                       "expected an array of tables: write each task as [[task]], not [task]");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = (*array)[i];
      if (!element.is_table()) {
        throw InputError(model::location(source, element.source()),
                         "task[" + std::to_string(i) + "]", "expected a table");
      }
      set.tasks.push_back(model::parse_task(*element.as_table(), i, source, locations));
    }
  }

  if (const toml::node* channels = root.get("channel")) {
    const toml::array* array = channels->as_array();
    if (array == nullptr || !array->is_array_of_tables()) {
      throw InputError(model::location(source, channels->source()), "channel",
                       "expected an array of tables: write each channel as [[channel]]");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      set.channels.push_back(model::parse_channel(*(*array)[i].as_table(), i, source, locations));
    }
  }

  if (const toml::node* chains = root.get("chain")) {
    const toml::array* array = chains->as_array();
    if (array == nullptr || !array->is_array_of_tables()) {
      throw InputError(model::location(source, chains->source()), "chain",
                       "expected an array of tables: write each chain as [[chain]]");
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      set.chains.push_back(model::parse_chain(*(*array)[i].as_table(), i, source, locations));
    }
  }

  model::check_taskset(set, &locations);
  return set;
}

TaskSet load_taskset(const std::string& path) {
  return parse_taskset(model::read_file(path), path);
}

}  // namespace rtpar
