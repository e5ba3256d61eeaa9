// heat_grid.hpp — the initial grid of the `heat` kernel (shared with `rtpar bench steal`).
#pragma once

#include <cstddef>
#include <vector>

namespace rtpar::kernels {

// heat_initial_grid is the n×n starting grid, row-major: the boundary has a fixed profile (top edge
// hot, left edge warm, the others cold) and the interior a pattern, so every sweep changes every
// interior point.
inline std::vector<double> heat_initial_grid(int n) {
  std::vector<double> grid(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double v = static_cast<double>((i * 13 + j * 7) % 29) / 29.0;
      if (i == 0) v = 100.0;
      if (j == 0) v = 50.0;
      if (i == n - 1 || j == n - 1) v = 0.0;
      grid[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
           static_cast<std::size_t>(j)] = v;
    }
  }
  return grid;
}

}  // namespace rtpar::kernels
