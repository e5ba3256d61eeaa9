// overhead_profile.cpp — overhead profiles: the bound an analysis charges per fork, and the JSON
// file `rtpar calibrate --out` writes (measuring is runtime/team/fork_join_cost.cpp).
#include "rtpar/tools/overhead.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/names.hpp"
#include "rtpar/error.hpp"

namespace rtpar {

std::int64_t OverheadProfile::fork_join_bound(int threads, WaitKind wait) const {
  int best_size = -1;
  for (const ForkJoinCost& c : fork_join) {
    if (c.wait == wait && c.threads >= threads && (best_size < 0 || c.threads < best_size)) {
      best_size = c.threads;
    }
  }
  std::int64_t bound = -1;
  for (const ForkJoinCost& c : fork_join) {
    if (c.wait == wait && c.threads == best_size) bound = std::max(bound, c.p999_ns);
  }
  return bound;
}

std::string overhead_profile_json(const OverheadProfile& profile) {
  nlohmann::json entries = nlohmann::json::array();
  for (const ForkJoinCost& c : profile.fork_join) {
    entries.push_back({{"threads", c.threads},
                       {"wait", to_string(c.wait)},
                       {"parked", c.parked},
                       {"samples", c.samples},
                       {"mean_ns", c.mean_ns},
                       {"p50_ns", c.p50_ns},
                       {"p99_ns", c.p99_ns},
                       {"p999_ns", c.p999_ns},
                       {"max_ns", c.max_ns}});
  }
  return nlohmann::json{{"machine", profile.machine}, {"fork_join", entries}}.dump(2);
}

OverheadProfile load_overhead_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(SourceLocation{path, 0, 0}, "", "cannot read overhead profile");
  std::stringstream text;
  text << in.rdbuf();
  OverheadProfile profile;
  try {
    const nlohmann::json doc = nlohmann::json::parse(text.str());
    profile.machine = doc.value("machine", "");
    std::size_t i = 0;
    for (const nlohmann::json& e : doc.at("fork_join")) {
      ForkJoinCost c;
      const std::string wait = e.at("wait").get<std::string>();
      if (const auto kind = names::value_of(names::kWaits, wait)) {
        c.wait = *kind;
      } else {
        throw InputError(SourceLocation{path, 0, 0}, "fork_join[" + std::to_string(i) + "].wait",
                         "unknown wait policy '" + wait + "'");
      }
      c.threads = e.at("threads").get<int>();
      c.parked = e.value("parked", false);
      c.samples = e.value("samples", 0);
      c.mean_ns = e.value("mean_ns", 0.0);
      c.p50_ns = e.value("p50_ns", 0);
      c.p99_ns = e.value("p99_ns", 0);
      c.p999_ns = e.at("p999_ns").get<std::int64_t>();
      c.max_ns = e.value("max_ns", 0);
      profile.fork_join.push_back(c);
      ++i;
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(SourceLocation{path, 0, 0}, "",
                     std::string("malformed overhead profile: ") + e.what());
  }
  return profile;
}

}  // namespace rtpar
