// plan_output.cpp — the Plan for programs (`rtpar check --json`) and for people (the check table).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include "core/table.hpp"
#include "model/channel_rules.hpp"
#include "model/lock_placement.hpp"
#include "report/interference_line.hpp"
#include "report/note_lines.hpp"

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar {
namespace {

// Json keeps keys in insertion order so documents read in the order docs/cli.md lists them.
using Json = nlohmann::ordered_json;

// find_spec returns the TaskSpec for plan task i. Plans keep TaskSet order, so index i is tried
// first; the name lookup only guards against a plan and set that drifted apart. Null if absent.
const TaskSpec* find_spec(const TaskSet& set, std::size_t i, const std::string& name) {
  if (i < set.tasks.size() && set.tasks[i].name == name) return &set.tasks[i];
  for (const TaskSpec& spec : set.tasks) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

// optional_json maps an absent analysis result to JSON null, as the schema promises.
template <typename T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// compact_cores renders CPU ids as ranges ("0-3,6") so wide heavy tasks fit in a table column.
std::string compact_cores(const std::vector<int>& cores) {
  if (cores.empty()) return "-";
  std::string out;
  std::size_t i = 0;
  while (i < cores.size()) {
    std::size_t j = i;
    while (j + 1 < cores.size() && cores[j + 1] == cores[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", cores[i]) : fmt::format("{}-{}", cores[i], cores[j]);
    i = j + 1;
  }
  return out;
}

// scheduling_name spells CoreScheduling as the JSON schema does.
const char* scheduling_name(CoreScheduling s) {
  return s == CoreScheduling::edf ? "edf" : "fixed_priority";
}

// segments_json renders the strand-level placement (decomposition, fork-join-rta).
Json segments_json(const std::vector<SegmentPlan>& segments) {
  Json out = Json::array();
  for (const SegmentPlan& seg : segments) {
    Json strands = Json::array();
    for (const StrandPlan& st : seg.strands) {
      strands.push_back(Json{{"core", st.core}, {"priority", st.priority}});
    }
    out.push_back(Json{{"length_ns", seg.length_ns},
                       {"offset_ns", seg.offset_ns},
                       {"deadline_ns", seg.deadline_ns},
                       {"strands", std::move(strands)}});
  }
  return out;
}

// strands_cell summarizes a segment's strands as "core/priority" groups with their counts in
// strand order ("0/90×4, 1/90×4"), so a 1000-strand segment stays one short line.
std::string strands_cell(const SegmentPlan& seg) {
  std::string out;
  std::size_t i = 0;
  while (i < seg.strands.size()) {
    std::size_t j = i;
    while (j + 1 < seg.strands.size() && seg.strands[j + 1].core == seg.strands[i].core &&
           seg.strands[j + 1].priority == seg.strands[i].priority) {
      ++j;
    }
    if (!out.empty()) out += ", ";
    out += fmt::format("{}/{}", seg.strands[i].core, seg.strands[i].priority);
    if (j > i) out += fmt::format("×{}", j - i + 1);
    i = j + 1;
  }
  return out.empty() ? std::string("-") : out;
}

// join_cores lists CPU ids in order, repeats included (a partitioned team may put several
// threads on one CPU).
std::string join_cores(const std::vector<int>& cores) {
  std::string out;
  for (const int c : cores) out += (out.empty() ? "" : ",") + std::to_string(c);
  return out.empty() ? std::string("-") : out;
}

// duration_cell formats a nanosecond count, or "-" for a missing value.
std::string duration_cell(std::optional<std::int64_t> ns) {
  return ns ? format_duration(Duration(*ns), 3) : std::string("-");
}

// interference_json renders Plan::interference (docs/cli.md, "interference").
Json interference_json(const KernelInterference& k) {
  return Json{{"state", k.state},
              {"known", k.known},
              {"budget_ns", k.budget_ns},
              {"period_ns", k.period_ns},
              {"source", k.source}};
}

// supply_json renders Plan::supply: null when nothing was charged.
Json supply_json(const std::optional<SupplyCharge>& s) {
  if (!s) return Json(nullptr);
  return Json{{"loss_ns", s->loss_ns}, {"window_ns", s->window_ns}, {"source", s->source}};
}

}  // namespace

namespace {

// channel_users is "writer → reader, reader".
std::string channel_users(const ChannelSpec& c) {
  return fmt::format("{} → {}", c.writer, fmt::join(c.readers, ", "));
}

// channels_json lists the set's channels as the plan runs them: kind, endpoints, size, the memory
// a run allocates for each, and for a lock its hold, accesses and protocol
// (model/lock_placement.hpp).
Json channels_json(const Plan& plan, const TaskSet& set) {
  Json out = Json::array();
  for (const ChannelSpec& c : set.channels) {
    Json entry = {
        {"name", c.name},
        {"kind", to_string(c.kind)},
        {"writer", c.writer},
        {"readers", c.readers},
        {"size_bytes", c.size_bytes},
        {"memory_bytes", model::channel_memory_estimate(c)},
    };
    if (c.kind == ChannelKind::lock) {
      entry["hold_ns"] = c.hold.count();
      entry["accesses"] = c.accesses;
      entry["protocol"] = to_string(model::lock_protocol(c, set, plan));
    }
    out.push_back(std::move(entry));
  }
  return out;
}

// chains_json lists the plan's chains: bounds (null when none), max_age and the reason.
Json chains_json(const Plan& plan) {
  Json out = Json::array();
  for (const ChainPlan& c : plan.chains) {
    out.push_back({{"name", c.name},
                   {"data_age_ns", optional_json(c.data_age_ns)},
                   {"reaction_ns", optional_json(c.reaction_ns)},
                   {"max_age_ns", optional_json(c.max_age_ns)},
                   {"reason", optional_json(c.reason)}});
  }
  return out;
}

// chains_table is the plan table's chain section (empty without chains).
std::string chains_table(const Plan& plan, const TaskSet& set) {
  if (plan.chains.empty()) return {};
  std::vector<std::vector<std::string>> rows = {
      {"chain", "tasks", "data age ≤", "reaction ≤", "max_age"}};
  std::string reasons;
  for (std::size_t i = 0; i < plan.chains.size(); ++i) {
    const ChainPlan& c = plan.chains[i];
    const auto cell = [](const std::optional<std::int64_t>& ns) {
      return ns ? format_duration(Duration(*ns), 3) : std::string("-");
    };
    rows.push_back({c.name,
                    i < set.chains.size() ? fmt::format("{}", fmt::join(set.chains[i].tasks, " → "))
                                          : std::string("-"),
                    cell(c.data_age_ns), cell(c.reaction_ns), cell(c.max_age_ns)});
    if (c.reason) reasons += fmt::format("  {}: {}\n", c.name, *c.reason);
  }
  return "\nchains (docs/analysis.md, \"Cause-effect chains\")\n" +
         report::render_table(rows, {false, false, true, true, true}) + reasons;
}

// channels_table is the plan table's channel section (empty without channels).
std::string channels_table(const Plan& plan, const TaskSet& set) {
  if (set.channels.empty()) return {};
  std::vector<std::vector<std::string>> rows = {
      {"channel", "kind", "writer → readers", "size", "memory ≤", "lock"}};
  for (const ChannelSpec& c : set.channels) {
    rows.push_back(
        {c.name, to_string(c.kind), channel_users(c), fmt::format("{} B", c.size_bytes),
         fmt::format("{} B", model::channel_memory_estimate(c)),
         c.kind == ChannelKind::lock
             ? fmt::format("{}, hold {} × {}", to_string(model::lock_protocol(c, set, plan)),
                           format_duration(c.hold), c.accesses)
             : std::string("-")});
  }
  return "\nchannels\n" + report::render_table(rows, {false, false, false, true, true, false});
}

}  // namespace

std::string plan_json(const Plan& plan, const TaskSet& set) {
  Json tasks = Json::array();
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    const TaskPlan& task = plan.tasks[i];
    Json entry = {
        {"name", task.name},
        {"heavy", task.heavy},
        {"cores", task.cores},
        {"priority", task.priority},
        {"utilization", task.utilization},
        {"response_bound_ns", optional_json(task.response_bound_ns)},
        {"reason", optional_json(task.reason)},
        {"cores_needed", task.cores_needed},
        {"expected_response_ns", optional_json(task.expected_response_ns)},
        {"scheduling", scheduling_name(task.scheduling)},
        {"thread_cores", task.thread_cores},
        {"member_budget_ns", task.member_budget_ns},
        {"wait", task.wait ? Json(to_string(*task.wait)) : Json(nullptr)},
        {"segments", segments_json(task.segments)},
    };
    // The task parameters come from the set; they are omitted (not guessed) if it lacks the task.
    if (const TaskSpec* spec = find_spec(set, i, task.name)) {
      entry["period_ns"] = spec->period.count();
      entry["deadline_ns"] = spec->deadline.count();
      entry["work_ns"] = spec->work.count();
      entry["span_ns"] = spec->span.count();
    }
    tasks.push_back(std::move(entry));
  }
  Json doc = {
      {"schedulable", plan.schedulable},
      {"planner", to_string(plan.planner)},
      {"cores", plan.cores},
      {"tasks", std::move(tasks)},
      {"channels", channels_json(plan, set)},
      {"chains", chains_json(plan)},
      {"notes", plan.notes},
      {"interference", interference_json(plan.interference)},
      {"supply", supply_json(plan.supply)},
  };
  // Only when asked for and used (--force-place): earlier outputs keep their bytes.
  if (plan.force_placed) doc["force_placed"] = true;
  return doc.dump(2);
}

namespace {

// segments_summary is the compact form of the segments table: one line per strand-level task
// (segments, strands, the widest segment, the strands' cores and priorities, the longest strand).
std::string segments_summary(const Plan& plan) {
  std::vector<std::vector<std::string>> rows = {
      {"task", "segments", "strands", "widest", "cores", "prio", "longest strand"}};
  for (const TaskPlan& task : plan.tasks) {
    if (task.segments.empty()) continue;
    std::size_t strands = 0;
    std::size_t widest = 0;
    std::int64_t longest = 0;
    std::vector<int> cores;
    int lo = 0;
    int hi = 0;
    for (const SegmentPlan& seg : task.segments) {
      strands += seg.strands.size();
      widest = std::max(widest, seg.strands.size());
      longest = std::max(longest, seg.length_ns);
      for (const StrandPlan& st : seg.strands) {
        cores.push_back(st.core);
        lo = lo == 0 ? st.priority : std::min(lo, st.priority);
        hi = std::max(hi, st.priority);
      }
    }
    std::sort(cores.begin(), cores.end());
    cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
    rows.push_back({task.name, fmt::format("{}", task.segments.size()), fmt::format("{}", strands),
                    fmt::format("{}", widest), compact_cores(cores),
                    lo == hi ? fmt::format("{}", hi) : fmt::format("{}-{}", lo, hi),
                    duration_cell(longest)});
  }
  if (rows.size() == 1) return {};
  return fmt::format("\nsegments (one line per task; -v: every segment)\n{}",
                     report::render_table(rows, {false, true, true, true, false, true, true}));
}

}  // namespace

std::string plan_table(const Plan& plan, const TaskSet& set) {
  return plan_table(plan, set, TableDetail::summary);
}

std::string plan_table(const Plan& plan, const TaskSet& set, TableDetail detail) {
  const bool full = detail == TableDetail::full;
  const bool ws = plan.planner == PlannerKind::federated_ws;
  std::string out;
  out += fmt::format("planner  {}\n", to_string(plan.planner));
  out += fmt::format("cores    {} ({} total)\n", compact_cores(plan.cores), plan.cores.size());
  out += fmt::format("verdict  {}{}\n", plan.schedulable ? "SCHEDULABLE" : "NOT SCHEDULABLE",
                     plan.force_placed ? " (force-placed: refused strands placed anyway)" : "");
  out += fmt::format("kernel   {}\n", full ? report::interference_detail(plan.interference)
                                           : report::interference_summary(plan.interference));
  if (plan.supply) {
    // The charged supply loss (docs/analysis.md "Supply loss"): above every task of every core.
    out += fmt::format("supply   charged: {} lost in any {} per core (from {})\n",
                       format_duration(Duration(plan.supply->loss_ns), 3),
                       format_duration(Duration(plan.supply->window_ns), 3),
                       plan.supply->source.empty() ? "the overhead profile" : plan.supply->source);
  }

  // The threads column appears only when a plan places team threads explicitly (partitioned).
  const bool threads = std::any_of(plan.tasks.begin(), plan.tasks.end(),
                                   [](const TaskPlan& t) { return !t.thread_cores.empty(); });
  if (!plan.tasks.empty()) {
    // federated-ws bounds the expected response, so its column says E[R] rather than R ≤.
    std::vector<std::vector<std::string>> rows = {
        {"task", "kind", "C", "L", "D", "T", "U", "cores", "prio", ws ? "E[R]" : "R bound"}};
    if (threads) rows[0].insert(rows[0].begin() + 8, "threads");
    for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
      const TaskPlan& task = plan.tasks[i];
      const TaskSpec* spec = find_spec(set, i, task.name);
      auto param = [&](Duration TaskSpec::*field) {
        return spec ? format_duration(spec->*field, 3) : std::string("-");
      };
      std::string bound = duration_cell(task.response_bound_ns);
      if (ws) {
        bound = task.expected_response_ns
                    ? format_duration(Duration(std::llround(*task.expected_response_ns)), 3)
                    : std::string("-");
      }
      // An EDF task has no SCHED_FIFO level of its own: its column says so.
      std::string prio = task.priority > 0 ? fmt::format("{}", task.priority) : std::string("-");
      if (task.scheduling == CoreScheduling::edf) prio = "EDF";
      rows.push_back({task.name, task.heavy ? "heavy" : "light", param(&TaskSpec::work),
                      param(&TaskSpec::span), param(&TaskSpec::deadline), param(&TaskSpec::period),
                      fmt::format("{:.3f}", task.utilization), compact_cores(task.cores), prio,
                      bound});
      if (threads) rows.back().insert(rows.back().begin() + 8, join_cores(task.thread_cores));
    }
    std::vector<bool> align = {false, false, true, true, true, true, true, false, true, true};
    if (threads) align.insert(align.begin() + 8, false);
    out += '\n';
    out += report::render_table(rows, align);
  }

  // Strand-level placements (decomposition, fork-join-rta): one row per segment.
  std::vector<std::vector<std::string>> seg_rows = {
      {"task", "seg", "length", "offset", "deadline", "strands (core/prio)"}};
  for (const TaskPlan& task : plan.tasks) {
    for (std::size_t s = 0; s < task.segments.size(); ++s) {
      const SegmentPlan& seg = task.segments[s];
      seg_rows.push_back({task.name, fmt::format("{}", s), duration_cell(seg.length_ns),
                          duration_cell(seg.offset_ns), duration_cell(seg.deadline_ns),
                          strands_cell(seg)});
    }
  }
  if (seg_rows.size() > 1 && full) {
    out += "\nsegments\n";
    out += report::render_table(seg_rows, {false, true, true, true, true, false});
  } else if (seg_rows.size() > 1) {
    out += segments_summary(plan);
  }

  out += channels_table(plan, set);
  out += chains_table(plan, set);

  bool reasons_header = false;
  for (const TaskPlan& task : plan.tasks) {
    if (!task.reason) continue;
    if (!reasons_header) out += "\nreasons\n";
    reasons_header = true;
    out += fmt::format("  {}: {}\n", task.name, *task.reason);
  }
  // A note that is also a task's reason (a lock channel refused by a planner that does not
  // analyse blocking) was printed under reasons: the table prints it once.
  std::vector<const std::string*> notes;
  for (const std::string& note : plan.notes) {
    const bool is_reason = std::any_of(plan.tasks.begin(), plan.tasks.end(), [&](const auto& t) {
      return t.reason && *t.reason == note;
    });
    if (!is_reason) notes.push_back(&note);
  }
  if (!notes.empty()) {
    out += "\nnotes\n";
    for (const std::string* note : notes) {
      for (const std::string& line : report::note_lines(*note, full)) {
        out += fmt::format("  {}\n", line);
      }
    }
  }
  return out;
}

}  // namespace rtpar
