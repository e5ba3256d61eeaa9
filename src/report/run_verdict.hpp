// run_verdict.hpp — the last line of `rtpar run`: did the run keep the plan's promise (no miss,
// every response within its bound, every lock hold within its declared hold, every chain within
// its bounds), and when it did not, the likely cause the run can tell (docs/cli.md, "Verdict").
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "rtpar/report.hpp"

namespace rtpar::report {

// RunVerdict is what run_verdict found.
struct RunVerdict {
  bool promised = true;               // false for --best-effort runs: no bound was promised
  bool broken = false;                // a promise broke: `run` exits 1 unless --allow-misses
  std::int64_t jobs = 0;              // recorded jobs
  std::int64_t misses = 0;            // deadline misses
  std::int64_t over_bound = 0;        // jobs whose response exceeded the plan's bound
  std::int64_t hold_overruns = 0;     // lock holds longer than declared
  std::int64_t chains_exceeding = 0;  // chains measured above a bound
  std::string cause;                  // the likely causes, "; "-separated ("" when kept)
  std::string line;                   // the one-line verdict, ending in '\n'
};

// run_verdict judges a finished run. A --best-effort run promised nothing (never broken). Likely
// causes, each named only when the run shows it:
// a task that overran its budget (TaskRun::overruns), release latency (a late job started more
// than the excess of its response over the bound after its release) that the plan did not charge
// (no overhead profile), and a host stall (RunReport::host_steal_ns > 0).
RunVerdict run_verdict(const RunReport& report);

// run_verdict_json is the verdict as report.json and `run --json` carry it (docs/cli.md).
nlohmann::ordered_json run_verdict_json(const RunVerdict& verdict);

}  // namespace rtpar::report
