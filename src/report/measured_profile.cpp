// measured.cpp — load_measured_profile: a run's online work/span read back for admission control.
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "rtpar/error.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar {
namespace {

// line_column turns a byte offset of text into a 1-based line and column, for parse errors.
SourceLocation line_column(const std::string& path, const std::string& text, std::size_t offset) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return SourceLocation{path, line, column};
}

// max_of reads task[key]["max"] as a non-negative integer.
std::int64_t max_of(const nlohmann::json& task, const char* key, const std::string& path,
                    const std::string& field) {
  const nlohmann::json& dist = task.at(key);
  const nlohmann::json& v = dist.at("max");
  if (!v.is_number_integer() || v.get<std::int64_t>() < 0) {
    throw InputError(SourceLocation{path, 0, 0}, field + "." + key + ".max",
                     "expected a non-negative integer (ns)");
  }
  return v.get<std::int64_t>();
}

}  // namespace

MeasuredProfile load_measured_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(SourceLocation{path, 0, 0}, "", "cannot read the run report");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(line_column(path, text, e.byte > 0 ? e.byte - 1 : 0), "",
                     std::string("not valid JSON: ") + e.what());
  }
  MeasuredProfile profile;
  profile.source = path;
  if (!doc.is_object() || !doc.contains("tasks") || !doc["tasks"].is_array()) {
    throw InputError(SourceLocation{path, 0, 0}, "tasks",
                     "expected a run report (rtpar run --out DIR writes DIR/report.json)");
  }
  std::size_t i = 0;
  for (const nlohmann::json& task : doc["tasks"]) {
    const std::string field = "tasks[" + std::to_string(i++) + "]";
    try {
      if (!task.contains("burdened_span_ns")) continue;  // not a work-stealing task
      MeasuredTask m;
      m.name = task.at("name").get<std::string>();
      m.jobs = task.value("profiled_jobs", std::int64_t{0});
      m.work_max_ns = max_of(task, "work_ns", path, field);
      m.burdened_span_max_ns = max_of(task, "burdened_span_ns", path, field);
      if (m.jobs > 0) profile.tasks.push_back(std::move(m));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(SourceLocation{path, 0, 0}, field, std::string("malformed: ") + e.what());
    }
  }
  return profile;
}

}  // namespace rtpar
