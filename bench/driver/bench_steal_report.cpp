// bench_steal_report.cpp — the table and the targets of `rtpar bench steal` (docs/bench_steal.md).
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/core.h>

#include "core/table.hpp"
#include "driver/bench_steal.hpp"

namespace rtpar::bench {

namespace {

using Json = nlohmann::ordered_json;

// Group identifies the rows compared with each other: (variant, benchmark, threads).
using Group = std::tuple<std::string, std::string, std::int64_t>;

// group_of is a row's group.
Group group_of(const Json& r) {
  return {r["variant"].get<std::string>(), r["benchmark"].get<std::string>(),
          r["threads"].get<std::int64_t>()};
}

// is_peer says whether a runtime is one of the peers (everything but rtpar).
bool is_peer(const std::string& runtime) { return runtime != "rtpar"; }

// GroupRows are the rows of one group by runtime, in first-seen order of the groups.
struct Groups {
  std::vector<Group> order;
  std::map<Group, std::vector<const Json*>> rows;
};

// group_rows buckets the rows.
Groups group_rows(const Json& rows) {
  Groups g;
  for (const Json& r : rows) {
    const Group k = group_of(r);
    if (!g.rows.count(k)) g.order.push_back(k);
    g.rows[k].push_back(&r);
  }
  return g;
}

// find is the row of runtime in a group, if present.
const Json* find(const std::vector<const Json*>& rows, const std::string& runtime) {
  for (const Json* r : rows) {
    if ((*r)["runtime"] == runtime) return r;
  }
  return nullptr;
}

// best_peer is the peer row with the smallest p50 in a group, if any.
const Json* best_peer(const std::vector<const Json*>& rows) {
  const Json* best = nullptr;
  for (const Json* r : rows) {
    if (!is_peer((*r)["runtime"])) continue;
    if (best == nullptr ||
        (*r)["p50_ns"].get<std::int64_t>() < (*best)["p50_ns"].get<std::int64_t>()) {
      best = r;
    }
  }
  return best;
}

// spread is p99 / p50 of a row (0 if p50 is 0).
double spread(const Json& r) {
  const auto p50 = r["p50_ns"].get<double>();
  return p50 > 0 ? r["p99_ns"].get<double>() / p50 : 0.0;
}

// ms renders ns as milliseconds with three decimals.
std::string ms(const Json& v) { return fmt::format("{:.3f}", v.get<double>() / 1e6); }

}  // namespace

std::vector<StealTarget> steal_targets(const Json& rows) {
  std::vector<StealTarget> out;
  const Groups g = group_rows(rows);
  for (const Group& k : g.order) {
    const auto& [variant, bench, threads] = k;
    const auto& rs = g.rows.at(k);
    const Json* rt = find(rs, "rtpar");
    if (rt == nullptr) continue;
    const std::string where = fmt::format("{} {} t{}", bench, variant, threads);
    const double rt_p50 = (*rt)["p50_ns"].get<double>();
    if (bench == "fib" || bench == "uts") {
      if (const Json* tbb = find(rs, "tbb"); tbb != nullptr && rt_p50 > 0) {
        const double v = (*tbb)["p50_ns"].get<double>() / rt_p50;
        out.push_back({where + ": tbb p50 / rtpar p50", v, ">= 8.00", v >= 8.0});
      }
    } else if (const Json* best = best_peer(rs); best != nullptr) {
      const double b = (*best)["p50_ns"].get<double>();
      if (b > 0) {
        const double v = rt_p50 / b;
        out.push_back(
            {where + ": rtpar p50 / best peer p50 (" + (*best)["runtime"].get<std::string>() + ")",
             v, "<= 1.05", v <= 1.05});
      }
    }
    if (const Json* tbb = find(rs, "tbb"); tbb != nullptr) {
      const double v = spread(*rt), limit = spread(*tbb);
      out.push_back({where + ": rtpar p99/p50 vs tbb p99/p50", v, fmt::format("<= {:.2f}", limit),
                     v <= limit});
    }
  }
  return out;
}

void render_steal_table(const StealBenchOptions& o, const Json& rows,
                        const std::vector<std::string>& problems) {
  const Groups g = group_rows(rows);
  const bool any_mp = std::any_of(rows.begin(), rows.end(),
                                  [](const Json& r) { return r["variant"] == "multiprogrammed"; });
  std::vector<std::string> head{"benchmark", "variant", "thr",     "runtime", "p50 ms",
                                "p99 ms",    "max ms",  "p99/p50", "speedup", "p50/best-peer",
                                "rss MB",    "reps",    "steal ms"};
  if (any_mp) {
    head.push_back("interf util");
    head.push_back("stalls");
  }
  std::vector<std::vector<std::string>> t{head};
  for (const Group& k : g.order) {
    const auto& rs = g.rows.at(k);
    const Json* best = best_peer(rs);
    for (const Json* rp : rs) {
      const Json& r = *rp;
      const bool cut = r.value("truncated", false);
      std::vector<std::string> line{
          r["benchmark"],
          r["variant"],
          std::to_string(r["threads"].get<std::int64_t>()),
          r["runtime"],
          ms(r["p50_ns"]),
          ms(r["p99_ns"]),
          ms(r["max_ns"]),
          fmt::format("{:.2f}", spread(r)),
          fmt::format("{:.2f}", r["speedup"].get<double>()),
          best != nullptr && (*best)["p50_ns"].get<double>() > 0
              ? fmt::format("{:.2f}x", r["p50_ns"].get<double>() / (*best)["p50_ns"].get<double>())
              : "-",
          fmt::format("{:.1f}", r["peak_rss_kb"].get<double>() / 1024.0),
          std::to_string(r["reps"].get<std::int64_t>()) + (cut ? "*" : ""),
          std::to_string(r.value("host_steal_ns", std::int64_t{0}) / 1'000'000)};
      if (any_mp) {
        line.push_back(r.contains("interference_util")
                           ? fmt::format("{:.2f}", r["interference_util"].get<double>())
                           : "-");
        line.push_back(r.contains("throttle_stalls")
                           ? std::to_string(r["throttle_stalls"].get<std::int64_t>())
                           : "-");
      }
      t.push_back(std::move(line));
    }
  }
  fmt::print(
      "rtpar bench steal: {} repetitions (serial and parallel, alternating), isolated at {}, "
      "multiprogrammed at SCHED_FIFO {} under interference SCHED_FIFO {} ({:.0f}% of every {})\n",
      o.reps, o.fifo ? fmt::format("SCHED_FIFO {}", o.priority) : std::string("SCHED_OTHER"),
      o.priority, o.mp_priority, o.mp_util * 100.0, o.mp_period);
  fmt::print(
      "times per repetition; speedup = serial p50 / parallel p50 (same program); p50/best-peer "
      "against the fastest of libgomp, libomp, tbb; reps* = cut by --time-limit\n\n{}\n",
      report::render_table(t, {false, false, true, false, true, true, true, true, true, true, true,
                               true, true, true, true}));
  const auto goals = steal_targets(rows);
  if (!goals.empty()) {
    std::vector<std::vector<std::string>> gt{{"target", "value", "limit", "met"}};
    for (const StealTarget& s : goals) {
      gt.push_back({s.what, fmt::format("{:.2f}", s.value), s.limit, s.met ? "yes" : "NO"});
    }
    fmt::print("\ntargets (issue 4, part 5; reported, not asserted)\n\n{}\n",
               report::render_table(gt, {false, true, true, false}));
  }
  if (!problems.empty()) {
    fmt::print("\nproblems:\n");
    for (const std::string& p : problems) fmt::print("  {}\n", p);
  }
}

}  // namespace rtpar::bench
