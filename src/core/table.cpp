// table.cpp — see table.hpp.
#include "core/table.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace rtpar::report {

std::string render_table(const std::vector<std::vector<std::string>>& rows,
                         const std::vector<bool>& right_align) {
  std::vector<std::size_t> widths(right_align.size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line += "  ";
      line += right_align[c] ? fmt::format("{:>{}}", row[c], widths[c])
                             : fmt::format("{:<{}}", row[c], widths[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  }
  return out;
}

}  // namespace rtpar::report
