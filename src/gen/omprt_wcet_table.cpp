// omprt_wcet_table.cpp — see omprt_wcet_table.hpp.
#include "gen/omprt_wcet_table.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace rtpar::gen {

std::map<std::string, WcetPair> parse_wcet_table(std::string_view text,
                                                 const std::string& runtime) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) throw std::runtime_error("not JSON (expected `rtpar bench wcet --json`)");
  const auto rows = doc.is_object() ? doc.find("wcet") : doc.end();
  if (rows == doc.end() || !rows->is_array()) throw std::runtime_error("no \"wcet\" array");
  std::map<std::string, WcetPair> out;
  for (const nlohmann::json& row : *rows) {
    if (!row.is_object() || !row.contains("runtime") || !row.contains("kernel") ||
        !row.contains("threads") || !row.contains("max_ns") || !row["runtime"].is_string() ||
        !row["kernel"].is_string() || !row["threads"].is_number_integer()) {
      throw std::runtime_error("a row lacks runtime, kernel, threads or max_ns");
    }
    if (row["runtime"].get<std::string>() != runtime) continue;
    // The WCET must be a whole positive number of ns (the integer rule of every duration).
    if (!row["max_ns"].is_number_integer() || row["max_ns"].get<std::int64_t>() <= 0) {
      throw std::runtime_error("max_ns of " + row["kernel"].get<std::string>() +
                               " is not a positive whole number of ns");
    }
    std::string name = row["kernel"].get<std::string>();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const int threads = row["threads"].get<int>();
    if (threads == 1) out[name].seq_ns = row["max_ns"].get<std::int64_t>();
    if (threads == 2) out[name].two_ns = row["max_ns"].get<std::int64_t>();
  }
  if (out.empty()) throw std::runtime_error("no row of runtime \"" + runtime + "\"");
  for (const auto& [name, pair] : out) {
    if (pair.seq_ns == 0 || pair.two_ns == 0) {
      throw std::runtime_error(name + " lacks its 1- or 2-thread row");
    }
  }
  return out;
}

std::map<std::string, WcetPair> read_wcet_table(const std::string& path,
                                                const std::string& runtime) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw std::runtime_error("cannot read the file");
  return parse_wcet_table(text.str(), runtime);
}

}  // namespace rtpar::gen
