// msrp.cpp — msrp_section and msrp_spin (msrp.hpp).
#include "analysis/bounds/msrp.hpp"

#include <stdexcept>

#include "core/checked_math.hpp"

namespace rtpar::analysis {

std::optional<std::int64_t> msrp_section(std::int64_t hold,
                                         const std::optional<PeriodicServer>& server,
                                         std::int64_t limit) {
  if (hold <= 0) throw std::invalid_argument("msrp_section: hold must be positive");
  if (hold > limit) return std::nullopt;
  if (!server) return hold;
  // x ↦ hold + I(x) is monotone non-decreasing (server_interference.hpp), so iterating from
  // hold reaches its least fixed point or passes `limit`.
  // Capped like the RTAs (a server that leaves little makes the iteration crawl): past the cap the
  // section is reported unbounded, which refuses rather than admits.
  std::int64_t x = hold;
  for (int step = 0; step < 100000; ++step) {
    const std::optional<std::int64_t> next = checked_add(hold, server_interference(*server, x));
    if (!next || *next > limit) return std::nullopt;
    if (*next == x) return x;
    x = *next;
  }
  return std::nullopt;
}

std::optional<std::int64_t> msrp_spin(std::int64_t others, std::int64_t section) {
  if (others < 0 || section <= 0) {
    throw std::invalid_argument("msrp_spin: others must be ≥ 0 and section positive");
  }
  return checked_mul(others, section);
}

}  // namespace rtpar::analysis
