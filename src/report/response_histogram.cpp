// response_histogram.cpp — bucket_edges, response_histogram, histogram_json, histogram_table.
#include "report/response_histogram.hpp"

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "core/table.hpp"
#include "rtpar/time.hpp"

namespace rtpar::report {

namespace {

// kMaxColumns: beyond this many 1-2-5 buckets the summary's table uses decades.
constexpr std::size_t kMaxColumns = 12;

// bucket_of is the index of the bucket of edges holding response r (edges from bucket_edges).
std::size_t bucket_of(const std::vector<std::int64_t>& edges, std::int64_t r) {
  return static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), r) - edges.begin());
}

// max_response is the longest recorded response of any task of report (0 without jobs).
std::int64_t max_response(const RunReport& report) {
  std::int64_t m = 0;
  for (const TaskRun& run : report.tasks) {
    for (const JobRecord& j : run.records) m = std::max(m, j.finish_ns - j.release_ns);
  }
  return m;
}

// counts_of counts run's jobs in every bucket of edges (one more bucket than edges: the last
// one, above every edge, stays empty by construction of bucket_edges).
std::vector<std::int64_t> counts_of(const TaskRun& run, const std::vector<std::int64_t>& edges) {
  std::vector<std::int64_t> counts(edges.size() + 1, 0);
  for (const JobRecord& j : run.records) ++counts[bucket_of(edges, j.finish_ns - j.release_ns)];
  return counts;
}

}  // namespace

std::vector<std::int64_t> bucket_edges(std::int64_t max_ns, int per_decade) {
  static constexpr std::int64_t kSteps125[] = {1, 2, 5};
  std::vector<std::int64_t> edges;
  for (std::int64_t decade = 1000; /* 1 µs */; decade *= 10) {
    for (int s = 0; s < 3; ++s) {
      if (per_decade == 1 && s > 0) break;
      edges.push_back(decade * kSteps125[s]);
      if (edges.back() > max_ns) return edges;
    }
    if (decade > std::numeric_limits<std::int64_t>::max() / 100) return edges;
  }
}

std::vector<HistogramBucket> response_histogram(const TaskRun& run, int per_decade) {
  std::int64_t max_ns = 0;
  for (const JobRecord& j : run.records) max_ns = std::max(max_ns, j.finish_ns - j.release_ns);
  const std::vector<std::int64_t> edges = bucket_edges(max_ns, per_decade);
  const std::vector<std::int64_t> counts = counts_of(run, edges);
  std::vector<HistogramBucket> out;
  for (std::size_t b = 0; b < edges.size(); ++b) {
    if (counts[b] == 0 && out.empty()) continue;
    out.push_back({b == 0 ? 0 : edges[b - 1], edges[b], counts[b]});
  }
  while (!out.empty() && out.back().jobs == 0) out.pop_back();
  return out;
}

nlohmann::ordered_json histogram_json(const TaskRun& run) {
  nlohmann::ordered_json buckets = nlohmann::ordered_json::array();
  for (const HistogramBucket& b : response_histogram(run)) {
    buckets.push_back({{"lo_ns", b.lo_ns}, {"hi_ns", b.hi_ns}, {"jobs", b.jobs}});
  }
  return {{"buckets", std::move(buckets)}};
}

std::string histogram_table(const RunReport& report) {
  const std::int64_t max_ns = max_response(report);
  std::vector<std::int64_t> edges = bucket_edges(max_ns, 3);
  // The columns: from the first bucket any task fills to the last.
  auto span_of = [&](const std::vector<std::int64_t>& e) {
    std::size_t first = e.size() + 1;
    std::size_t last = 0;
    for (const TaskRun& run : report.tasks) {
      const std::vector<std::int64_t> c = counts_of(run, e);
      for (std::size_t b = 0; b < c.size(); ++b) {
        if (c[b] == 0) continue;
        first = std::min(first, b);
        last = std::max(last, b);
      }
    }
    return std::pair{first, last};
  };
  auto [first, last] = span_of(edges);
  if (first > last) return {};
  int per_decade = 3;
  if (last - first + 1 > kMaxColumns) {
    per_decade = 1;
    edges = bucket_edges(max_ns, 1);
    std::tie(first, last) = span_of(edges);
  }
  std::vector<std::vector<std::string>> rows(1, {"task"});
  for (std::size_t b = first; b <= last; ++b) {
    rows[0].push_back(fmt::format("<{}", format_duration(Duration(edges[b]), 0)));
  }
  for (const TaskRun& run : report.tasks) {
    if (run.records.empty()) continue;
    const std::vector<std::int64_t> c = counts_of(run, edges);
    std::vector<std::string> row = {run.name};
    for (std::size_t b = first; b <= last; ++b) {
      row.push_back(c[b] > 0 ? fmt::format("{}", c[b]) : std::string("."));
    }
    rows.push_back(std::move(row));
  }
  std::vector<bool> right(rows[0].size(), true);
  right[0] = false;
  return fmt::format("\nresponse times (jobs per bucket, {} buckets; R = finish - release)\n",
                     per_decade == 3 ? "1-2-5" : "decade") +
         render_table(rows, right);
}

}  // namespace rtpar::report
