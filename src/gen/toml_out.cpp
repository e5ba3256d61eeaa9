// toml_out.cpp — to_toml: a TaskSet as a task-set file (docs/taskset.md) that parse_taskset reads
// back to the same system, tasks and channels. Durations are written with format_duration, which
// is exact ("12.020867ms" parses back to the same nanoseconds); keys equal to their file default
// are left out so generated files stay short.
#include <string>

#include <fmt/core.h>

#include "core/names.hpp"
#include "rtpar/tools/generate.hpp"

namespace rtpar::gen {

namespace {

// quoted is s as a TOML basic string.
std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// dur is a duration as an exact string with a unit.
std::string dur(Duration d) { return quoted(format_duration(d)); }

// int_list is [a, b, c].
std::string int_list(const std::vector<int>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

// write_system writes [system], leaving out the defaults.
void write_system(std::string& out, const SystemSpec& s) {
  out += "[system]\n";
  if (s.cores_from_count) {
    out += fmt::format("cores = {}\n", s.cores.size());
  } else {
    out += "cores = " + int_list(s.cores) + "\n";
  }
  out += fmt::format("planner = {}\n", quoted(to_string(s.planner)));
  if (s.sockets != 1) out += fmt::format("sockets = {}\n", s.sockets);
  if (s.fit != FitKind::fbb_ffd) out += fmt::format("fit = {}\n", quoted(to_string(s.fit)));
  // fmt's shortest round-trip form; an integral value prints as an integer, which the format
  // also accepts for delta.
  if (s.delta != 1.5) out += fmt::format("delta = {}\n", s.delta);
  if (!s.nonrt_cores.empty()) out += "nonrt_cores = " + int_list(s.nonrt_cores) + "\n";
  if (s.fork_join_overhead != Duration::zero()) {
    out += "fork_join_overhead = " + dur(s.fork_join_overhead) + "\n";
  }
  if (s.isolate) out += "isolate = true\n";
  if (s.memory_limit != 0) out += fmt::format("memory_limit = {}\n", s.memory_limit);
  if (s.shared_wait) {
    out += fmt::format("shared_wait = {}\n", quoted(names::name_of(names::kWaits, *s.shared_wait)));
  }
}

// implied_kernel says whether the loader would pick t's kernel by itself: "segments" for a task
// with [[task.segment]], none for a DAG, "spin" otherwise.
bool implied_kernel(const TaskSpec& t) {
  if (!t.kernel_spec.args.empty()) return false;
  if (!t.segments.empty()) return t.kernel == "segments";
  if (t.dag) return t.kernel.empty();
  return t.kernel == "spin" || t.kernel.empty();
}

// write_steal writes the non-default fields of a task's work-stealing budget as `steal = {...}`.
void write_steal(std::string& out, const StealConfig& s) {
  const StealConfig d;
  std::string fields;
  auto add = [&](const std::string& f) { fields += (fields.empty() ? "" : ", ") + f; };
  if (s.max_depth != d.max_depth) add(fmt::format("max_depth = {}", s.max_depth));
  if (s.stack_bytes != d.stack_bytes) add(fmt::format("stack_bytes = {}", s.stack_bytes));
  if (s.frames_per_worker != d.frames_per_worker) {
    add(fmt::format("frames_per_worker = {}", s.frames_per_worker));
  }
  if (s.profile_depth != d.profile_depth) add(fmt::format("profile_depth = {}", s.profile_depth));
  if (s.idle_spin_ns != d.idle_spin_ns) add("idle_spin = " + dur(Duration(s.idle_spin_ns)));
  if (!fields.empty()) out += "steal = { " + fields + " }\n";
}

// write_task writes one [[task]] with its segments or nodes.
void write_task(std::string& out, const TaskSpec& t) {
  out += "\n[[task]]\n";
  out += "name = " + quoted(t.name) + "\n";
  out += "period = " + dur(t.period) + "\n";
  if (t.deadline != t.period) out += "deadline = " + dur(t.deadline) + "\n";
  if (t.phase != Duration::zero()) out += "phase = " + dur(t.phase) + "\n";
  if (t.segments.empty() && !t.dag) {
    out += "work = " + dur(t.work) + "\n";
    if (t.span != t.work) out += "span = " + dur(t.span) + "\n";
  }
  if (t.priority) out += fmt::format("priority = {}\n", *t.priority);
  if (!implied_kernel(t)) {
    out += "kernel = " + quoted(t.kernel) + "\n";
    if (!t.kernel_spec.args.empty()) {
      std::string args;
      for (const KernelArg& a : t.kernel_spec.args) {
        const std::string v = std::holds_alternative<std::int64_t>(a.value)
                                  ? std::to_string(std::get<std::int64_t>(a.value))
                                  : fmt::format("{}", std::get<double>(a.value));
        args += (args.empty() ? "" : ", ") + a.name + " = " + v;
      }
      out += "args = { " + args + " }\n";
    }
  }
  if (t.runtime != RuntimeKind::team) out += "runtime = " + quoted(to_string(t.runtime)) + "\n";
  write_steal(out, t.steal);
  if (!t.places.empty()) out += "places = " + int_list(t.places) + "\n";
  if (t.threads != 0) out += fmt::format("threads = {}\n", t.threads);
  if (t.overrun != OverrunPolicy::queue) out += "overrun = " + quoted(to_string(t.overrun)) + "\n";
  if (t.wait.kind != WaitKind::hybrid) {
    out += fmt::format("wait = {}\n", quoted(names::name_of(names::kWaits, t.wait.kind)));
  } else if (t.wait.spin_ns != WaitPolicy{}.spin_ns) {
    out += "wait_spin = " + dur(t.wait.spin_ns) + "\n";
  }
  for (const SegmentSpec& s : t.segments) {
    out += fmt::format("[[task.segment]]\nstrands = {}\nlength = {}\n", s.strands, dur(s.length));
  }
  if (t.dag) {
    for (const DagNode& n : t.dag->nodes) {
      out += "[[task.node]]\nname = " + quoted(n.name) + "\nlength = " + dur(n.length) + "\n";
      if (!n.after.empty()) {
        std::string after;
        for (int p : n.after) {
          after +=
              (after.empty() ? "" : ", ") + quoted(t.dag->nodes[static_cast<std::size_t>(p)].name);
        }
        out += "after = [" + after + "]\n";
      }
    }
  }
}

// write_channel writes one [[channel]].
void write_channel(std::string& out, const ChannelSpec& c) {
  out += "\n[[channel]]\nname = " + quoted(c.name) + "\n";
  out += fmt::format("kind = {}\nsize = {}\n", quoted(names::name_of(names::kChannels, c.kind)),
                     c.size_bytes);
  if (c.kind == ChannelKind::retry) out += fmt::format("numtries = {}\n", c.numtries);
  if (c.kind == ChannelKind::lock) {
    out += "hold = " + dur(c.hold) + "\n";
    if (c.accesses != 1) out += fmt::format("accesses = {}\n", c.accesses);
  }
  out += "writer = " + quoted(c.writer) + "\nreaders = [";
  for (std::size_t i = 0; i < c.readers.size(); ++i) out += (i ? ", " : "") + quoted(c.readers[i]);
  out += "]\n";
}

}  // namespace

std::string to_toml(const TaskSet& set, std::string_view header_comment) {
  std::string out;
  std::size_t start = 0;
  while (start < header_comment.size()) {
    std::size_t end = header_comment.find('\n', start);
    if (end == std::string_view::npos) end = header_comment.size();
    const std::string_view line = header_comment.substr(start, end - start);
    out += line.empty() ? "#\n" : "# " + std::string(line) + "\n";
    start = end + 1;
  }
  if (!out.empty()) out += "\n";
  write_system(out, set.system);
  for (const TaskSpec& t : set.tasks) write_task(out, t);
  for (const ChannelSpec& c : set.channels) write_channel(out, c);
  return out;
}

}  // namespace rtpar::gen
