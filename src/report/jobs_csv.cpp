// jobs_csv.cpp — jobs.csv: one row per recorded job, for spreadsheets and plotting scripts.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "rtpar/report.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar {
namespace {

// csv_field quotes a field per RFC 4180 when it holds a separator, quote or line break. Validated
// task names never do, but a RunReport built in code is not validated.
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace

std::string jobs_csv(const RunReport& report) {
  std::size_t rows = 0;
  for (const TaskRun& run : report.tasks) rows += run.records.size();

  fmt::memory_buffer out;
  out.reserve(96 + rows * 100);  // ~100 bytes a row: one allocation for the usual report
  fmt::format_to(
      std::back_inserter(out),
      "task,job,release_ns,start_ns,finish_ns,response_ns,deadline_ns,missed,work_ns,span_ns,"
      "burdened_span_ns,overrun_ns\n");
  for (const TaskRun& run : report.tasks) {
    const std::string name = csv_field(run.name);
    for (const JobRecord& r : run.records) {
      const std::int64_t response = r.finish_ns - r.release_ns;  // a miss is response > D
      fmt::format_to(std::back_inserter(out), "{},{},{},{},{},{},{},{}", name, r.index,
                     r.release_ns, r.start_ns, r.finish_ns, response, run.deadline_ns,
                     response > run.deadline_ns ? 1 : 0);
      // Work and span are measured only by runtime = "steal": empty fields elsewhere, so a
      // spreadsheet never reads a missing measurement as 0 ns.
      if (run.profiled && r.work_ns > 0) {
        fmt::format_to(std::back_inserter(out), ",{},{},{}", r.work_ns, r.span_ns,
                       r.burdened_span_ns);
      } else {
        fmt::format_to(std::back_inserter(out), ",,,");
      }
      // CPU time beyond the job's budget: empty when the task has no budget, 0 within it.
      if (run.budget != BudgetMode::none) {
        fmt::format_to(std::back_inserter(out), ",{}\n", r.overrun_ns);
      } else {
        fmt::format_to(std::back_inserter(out), ",\n");
      }
    }
  }
  return fmt::to_string(out);
}

}  // namespace rtpar
