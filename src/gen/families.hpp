// families.hpp — one entry point per generator family; generate() (families.cpp) dispatches by
// name after checking the parameters against the family's table.
#pragma once

#include <cstdint>

#include "gen/params.hpp"
#include "rtpar/tools/generate.hpp"

namespace rtpar::gen {

// fjos_family describes the FJOS generator (fjos.md §VIII; decisions F1–F9).
FamilyInfo fjos_family();
// generate_fjos draws one FJOS fork/join system (fjos.cpp).
Generated generate_fjos(const ParamReader& params, std::uint64_t seed);

}  // namespace rtpar::gen
