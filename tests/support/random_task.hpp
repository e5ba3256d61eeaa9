// random_task.hpp — the random task drawing the planner-against-simulator tests share
// (tests/sim/test_planner_locks_sim.cpp, test_chain_replay.cpp): one task from an Rng stream
// (sequential, (C, L), segments or a small DAG; pinned or not) and a set rendered as a task-set
// file for `rtpar check` / `rtpar simulate`, to reproduce a failure.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "rtpar/channel_kind.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::testing {

// kLockUnit scales the random integers to nanoseconds (1 µs).
inline constexpr std::int64_t kLockUnit = 1000;

// kLockPeriods keeps hyperperiods small (lcm = 48 units).
inline constexpr std::int64_t kLockPeriods[] = {8, 12, 16, 24, 48};

// lock_units is n units as a Duration.
inline Duration lock_units(std::int64_t n) { return Duration(n * kLockUnit); }

// locked_task draws one task: sequential, or (parallel) (C, L) only, segments or a small DAG.
// Placed tasks (`core` ≥ 0) are pinned to that core with one thread and a static priority.
inline TaskSpec locked_task(rtpar::Rng& rng, int index, bool parallel, int core) {
  TaskSpec t;
  t.name = fmt::format("t{}", index);
  const std::int64_t period = kLockPeriods[rng.uniform_int(0, 4)];
  const std::int64_t deadline =
      rng.below(2) == 0 ? period : rng.uniform_int((period + 1) / 2, period);
  t.period = lock_units(period);
  t.deadline = lock_units(deadline);
  if (rng.below(4) == 0) t.phase = lock_units(rng.uniform_int(0, period - 1));
  std::int64_t work = 0;
  std::int64_t span = 0;
  switch (parallel ? rng.uniform_int(1, 3) : 0) {
    case 0:  // sequential
      work = span = rng.uniform_int(2, std::max<std::int64_t>(2, deadline / 2));
      break;
    case 1:  // (C, L) only, possibly heavy
      span = rng.uniform_int(2, std::max<std::int64_t>(2, deadline / 2));
      work = span + rng.uniform_int(0, 2 * deadline);
      break;
    case 2: {  // parallel-synchronous segments
      const std::int64_t n = rng.uniform_int(1, 3);
      for (std::int64_t s = 0; s < n; ++s) {
        const std::int64_t strands = rng.uniform_int(1, 4);
        const std::int64_t length = rng.uniform_int(2, std::max<std::int64_t>(2, deadline / 6));
        t.segments.push_back(rtpar::SegmentSpec{strands, lock_units(length), {}});
        work += strands * length;
        span += length;
      }
      break;
    }
    default: {  // a small DAG: each node after a random subset of the earlier ones
      rtpar::DagSpec dag;
      const int n = static_cast<int>(rng.uniform_int(2, 5));
      std::vector<std::int64_t> finish(static_cast<std::size_t>(n), 0);
      for (int k = 0; k < n; ++k) {
        rtpar::DagNode node;
        node.name = fmt::format("n{}", k);
        const std::int64_t length = rng.uniform_int(2, std::max<std::int64_t>(2, deadline / 6));
        node.length = lock_units(length);
        std::int64_t start = 0;
        for (int before = 0; before < k; ++before) {
          if (rng.below(3) == 0) {
            node.after.push_back(before);
            start = std::max(start, finish[static_cast<std::size_t>(before)]);
          }
        }
        finish[static_cast<std::size_t>(k)] = start + length;
        span = std::max(span, start + length);
        work += length;
        dag.nodes.push_back(std::move(node));
      }
      t.dag = std::move(dag);
      break;
    }
  }
  t.work = lock_units(work);
  t.span = lock_units(span);
  if (core >= 0) {
    t.places = {core};
    t.threads = 1;
    t.priority = static_cast<int>(rng.uniform_int(1, 20));
  }
  return t;
}

// locked_toml renders a set (with its channels and chains) as a task-set file, to reproduce a
// failure.
inline std::string locked_toml(const TaskSet& set) {
  auto ns = [](Duration d) { return fmt::format("\"{}ns\"", d.count()); };
  std::string out = fmt::format("[system]\ncores = [{}]\n\n", fmt::join(set.system.cores, ", "));
  for (const TaskSpec& t : set.tasks) {
    out += fmt::format("[[task]]\nname = \"{}\"\nperiod = {}\ndeadline = {}\nphase = {}\n", t.name,
                       ns(t.period), ns(t.deadline), ns(t.phase));
    if (t.segments.empty()) out += fmt::format("work = {}\nspan = {}\n", ns(t.work), ns(t.span));
    if (t.priority) out += fmt::format("priority = {}\n", *t.priority);
    if (!t.places.empty()) out += fmt::format("places = [{}]\n", fmt::join(t.places, ", "));
    if (t.threads > 0) out += fmt::format("threads = {}\n", t.threads);
    for (const rtpar::SegmentSpec& s : t.segments) {
      out += fmt::format("[[task.segment]]\nstrands = {}\nlength = {}\n", s.strands, ns(s.length));
    }
    if (t.dag) {
      for (const rtpar::DagNode& n : t.dag->nodes) {
        std::vector<std::string> after;
        for (const int a : n.after) {
          after.push_back("\"" + t.dag->nodes[static_cast<std::size_t>(a)].name + "\"");
        }
        out += fmt::format("[[task.node]]\nname = \"{}\"\nlength = {}\nafter = [{}]\n", n.name,
                           ns(n.length), fmt::join(after, ", "));
      }
    }
    out += '\n';
  }
  for (const rtpar::ChannelSpec& c : set.channels) {
    std::vector<std::string> readers;
    for (const std::string& r : c.readers) readers.push_back("\"" + r + "\"");
    out += fmt::format(
        "[[channel]]\nname = \"{}\"\nkind = \"{}\"\nsize = 8\nwriter = \"{}\"\nreaders = [{}]\n",
        c.name, rtpar::to_string(c.kind), c.writer, fmt::join(readers, ", "));
    if (c.kind == rtpar::ChannelKind::lock) {
      out += fmt::format("hold = {}\naccesses = {}\n", ns(c.hold), c.accesses);
    }
    out += '\n';
  }
  for (const rtpar::ChainSpec& c : set.chains) {
    std::vector<std::string> names;
    for (const std::string& t : c.tasks) names.push_back("\"" + t + "\"");
    out +=
        fmt::format("[[chain]]\nname = \"{}\"\ntasks = [{}]\n\n", c.name, fmt::join(names, ", "));
  }
  return out;
}

}  // namespace rtpar::testing
