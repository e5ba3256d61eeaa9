// plot_spec.hpp — reading a manifest's [plot] table (PlotSpec, manifest.hpp; docs/experiments.md
// "Manifest format").
#pragma once

#include "experiment/manifest.hpp"
#include "load/toml_fields.hpp"

namespace rtpar::experiment {

// read_plot_spec reads [plot] of manifest m, whose name, x and series are already read (they give
// the defaults, and `required_cores` needs a series that searches them). Errors name file, line,
// column and field.
PlotSpec read_plot_spec(const model::TableReader& t, const Manifest& m);

}  // namespace rtpar::experiment
