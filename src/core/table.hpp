// table.hpp — aligned text tables for the human-readable outputs.
#pragma once

#include <string>
#include <vector>

namespace rtpar::report {

// render_table pads every column to its widest cell (two spaces between columns); columns whose
// right_align entry is true (numbers) align right, the others left. Trailing blanks are trimmed.
std::string render_table(const std::vector<std::vector<std::string>>& rows,
                         const std::vector<bool>& right_align);

}  // namespace rtpar::report
