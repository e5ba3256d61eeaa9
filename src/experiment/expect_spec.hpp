// expect_spec.hpp — reading a manifest's [[expect]] tables (Expect, manifest.hpp;
// docs/experiments.md "Manifest format").
#pragma once

#include "experiment/manifest.hpp"
#include "load/toml_fields.hpp"

namespace rtpar::experiment {

// read_expect_spec reads one [[expect]] table of manifest m, whose series, panels and scales are
// already read (an expectation names them; a bench study has none). Errors name file, line,
// column and field.
Expect read_expect_spec(const model::TableReader& t, const Manifest& m);

}  // namespace rtpar::experiment
