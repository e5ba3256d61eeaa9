// plan_options.hpp — the planning options `rtpar check` and `rtpar simulate` share:
// --planner NAME|all, --target SPEC, --overhead FILE [--charged-statistic STAT], --measured REPORT,
// --assign KIND and --force-place.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar::cli {

// PlanningFlags are the raw option values as CLI11 stores them.
struct PlanningFlags {
  std::string planner;   // empty: the file's system.planner; "all": every planner
  std::string target;    // e.g. "40c4s"; empty: the file's machine
  std::string overhead;  // overhead profile file, or "none"; empty: the machine's profile, if any
  // charged_statistic: which statistic of each --overhead entry the planners charge (p50, p99,
  // p99.9, max); empty: p99.9, the profile as written.
  std::string charged_statistic;
  std::string measured;  // run report or profile (rtpar run/profile --out); empty: none
  std::string assign;    // fork-join-rta's strand assignment: greedy | worst-fit; empty: greedy
  // interference: machine | default | none | Q/P (e.g. 50ms/1s); empty: read and state, not charge
  std::string interference;
  // force_place: --force-place, decomposition places strands its test refuses (no admission)
  bool force_place = false;
};

// non_empty refuses an empty option value (`--planner ""`, `--target=`): an empty value would
// otherwise read as "not given" and be silently ignored. A usage error: exit status 2.
const CLI::Validator& non_empty();

// add_planning_flags registers the planning options on a subcommand (all refuse empty values).
void add_planning_flags(CLI::App& app, PlanningFlags& flags, bool allow_all);

// Planning is the resolved form: which planners to run and the PlanOptions they get. It owns the
// target and profile that `options` points to, so it must outlive the planning calls.
struct Planning {
  std::vector<PlannerKind> planners;  // one, or all in enum order for "all"
  bool all = false;
  std::optional<Topology> target;
  std::optional<OverheadProfile> overhead;
  std::string overhead_note;  // which overheads are charged, and if none why (machine_profile.hpp)
  std::optional<MeasuredProfile> measured;
  PlanOptions options;

  Planning() = default;
  Planning(const Planning&) = delete;
  Planning& operator=(const Planning&) = delete;
};

// add_interference_flag registers --interference (on check and simulate via add_planning_flags,
// and on run).
void add_interference_flag(CLI::App& app, std::string& mode);

// resolve_interference is what the planners get for --interference `mode` (docs/cli.md): this
// machine's fair server and RT throttling for the set's real-time cores, Linux's defaults for a
// target, or the given server; charged only when `mode` asks for it. With `set.system.isolate`
// (and no mode) the state is "isolated": the run removes it, so nothing is charged. Throws
// InputError (field "--interference") for a malformed mode.
KernelInterference resolve_interference(const std::string& mode, const TaskSet& set,
                                        const Topology* target);
// resolved_kernels_text lists the set's `lib:` kernels as check and simulate resolved them (the
// shared object's absolute path and the symbol found in its ELF symbol table, not loaded), one
// line each; empty when the set has none.
std::string resolved_kernels_text(const TaskSet& set);

// resolve_planning checks and loads the flags against a loaded set. Throws InputError for an
// unknown planner, a bad target or an unreadable profile (exit status 2).
std::unique_ptr<Planning> resolve_planning(const PlanningFlags& flags, const TaskSet& set);

}  // namespace rtpar::cli
