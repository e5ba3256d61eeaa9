// families.hpp — one entry point per generator family; generate() (families.cpp) dispatches by
// name after checking the parameters against the family's table.
#pragma once

#include <cstdint>

#include "gen/params.hpp"
#include "rtpar/tools/generate.hpp"

namespace rtpar::gen {

// fjos_family describes the FJOS generator (FJOS §VIII; decisions F1–F9).
FamilyInfo fjos_family();
// generate_fjos draws one FJOS fork/join system (fjos.cpp).
Generated generate_fjos(const ParamReader& params, std::uint64_t seed);

// uunifast_family / generate_uunifast: C/L tasks from UUniFast-discard or RandFixedSum.
FamilyInfo uunifast_family();
Generated generate_uunifast(const ParamReader& params, std::uint64_t seed);
// sync_family / generate_sync: parallel-synchronous segment tasks.
FamilyInfo sync_family();
Generated generate_sync(const ParamReader& params, std::uint64_t seed);
// dag_family / generate_dag: explicit DAG tasks (Erdős–Rényi, nested fork/join).
FamilyInfo dag_family();
Generated generate_dag(const ParamReader& params, std::uint64_t seed);
// rtomp_family / generate_rtomp: RT-OpenMP §VI-A sets (RO1–RO4, RO11, Table I).
FamilyInfo rtomp_family();
Generated generate_rtomp(const ParamReader& params, std::uint64_t seed);
// rtws_family / generate_rtws: RTWS §VII-A benchmark sets (WS2–WS5).
FamilyInfo rtws_family();
Generated generate_rtws(const ParamReader& params, std::uint64_t seed);
// omprt_family / generate_omprt: OpenMP-RT §5.2 applications (O1–O4).
FamilyInfo omprt_family();
Generated generate_omprt(const ParamReader& params, std::uint64_t seed);
// rtws_sync_family / generate_rtws_sync: RTWS synthetic synchronous types 1–3 (RTWS §IV-A).
FamilyInfo rtws_sync_family();
Generated generate_rtws_sync(const ParamReader& params, std::uint64_t seed);

}  // namespace rtpar::gen
