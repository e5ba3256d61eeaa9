// manifest.hpp — an experiment manifest (experiments/NAME.toml, docs/experiments.md): the complete,
// reviewable description of one study — generator, sweep, series, scales, plot and expectations.
//
// The format is strict like the task-set format: unknown keys, wrong types and out-of-range values
// are errors naming file, line, column and field, so a misspelt `trails = 1000` can never run a
// study at the default size.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/manifest_class.hpp"
#include "experiment/bench_spec.hpp"
#include "experiment/run_spec.hpp"
#include "experiment/sim_spec.hpp"
#include "rtpar/error.hpp"
#include "rtpar/task_kinds.hpp"
#include "rtpar/tools/generate.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar::experiment {

// Panel is one sub-figure: its generator parameters override the manifest's [generator] table
// (a panel may also name another generator family, e.g. DAG tasks beside synchronous ones).
struct Panel {
  std::string name;
  std::string family;  // empty: the manifest's family
  gen::Params params;  // overrides, as written
  // args (bench manifests): driver arguments of this panel's runs, after [bench] args.
  std::vector<std::string> args;
  // match (bench manifests): record fields every series of this panel also matches (a series'
  // own match wins on a common field), e.g. { construct = "periodic-region" }.
  BenchMatch match;
  SourceLocation where;
};

// SeriesKind says how a series judges a trial's task set.
enum class SeriesKind {
  planner,  // admission control by one rtpar planner: schedulable iff the Plan says so
  bound,    // a resource-augmentation bound test (FJOS Fig. 6: PST b = 5, PSCPS b = 3.73)
};

// Series is one curve: the same task set of every trial is judged by each series (paired).
struct Series {
  std::string name;
  SeriesKind kind = SeriesKind::planner;
  PlannerKind planner = PlannerKind::fork_join_rta;  // kind planner
  std::optional<Topology> target;                    // analyse for this machine (e.g. 40c4s)
  std::string target_spec;                           // as written, for `show`
  std::optional<FitKind> fit;                        // decomposition: overrides system.fit
  std::optional<AssignKind> assign;                  // fork-join-rta: greedy or worst-fit
  std::string bound;                                 // kind bound: b as written ("3.73")
  // overhead: a measured profile (`rtpar calibrate --out`) charged by the planner, read once when
  // the manifest is loaded (path relative to the manifest's directory).
  std::shared_ptr<const OverheadProfile> overhead;
  std::string overhead_path;
  std::optional<WaitKind> wait;  // every task's wait policy for this series (selects the profile)
  // shared_wait: every set's [system] shared_wait (fork-join-rta: the policy of a task sharing a
  // core with one placed before it; FJOS §VIII, decision F15)
  std::optional<WaitKind> shared_wait;
  // back_to_back: charge only the profile's back-to-back entries (workers awake, as in FJOS's
  // Fig. 4 microbenchmark of consecutive empty regions) and not the parked ones (a job's first
  // fork after its workers slept). The paper's methodology, optimistic for a first fork.
  bool back_to_back = false;
  // charged_statistic: the statistic of each profile entry the planner charges (F14), as
  // written; empty: p99.9 (the profile as measured). Applied to `overhead` when it is loaded.
  std::string charged_statistic;
  // sim: how a simulation manifest executes the plan (always set there, never in an analysis
  // manifest).
  std::optional<SimSpec> sim;
  // run: how a runtime manifest executes the plan on this machine (always set there, never in
  // another class).
  std::optional<RunSpec> run;
  // force_place (simulation and runtime manifests, decomposition only): the planner places the
  // strands its test refuses anyway (PlanOptions::force_place) and the refused plan is executed
  // (admission false): the set fails only if it misses; plan_admitted keeps the refusal.
  bool force_place = false;
  // match (bench manifests): which record of a driver run is this series' (bench_spec.hpp).
  BenchMatch match;
  SourceLocation where;
};

// ExpectKind is the shape of one expectation check on the aggregated curves.
enum class ExpectKind {
  breakdown_ratio,  // breakdown(series) ≥ factor × breakdown(over) in a panel
  dominates,        // value(series) ≥ value(over) at every x of every panel (with a column:
                    // column(series) ≥ factor × column(over))
  at_most,          // column(series) ≤ factor × column(over) at every x (of `panel`, or all)
  close,  // |column(series) − column(over)| ≤ tolerance at every x (of `panel`, or all)
};

// Expect is one expectation: the paper's claim, checked on the merged result (expect.txt). A
// failed expectation is reported (exit status 1), never hidden and never hiding the results.
struct Expect {
  ExpectKind kind = ExpectKind::dominates;
  std::string series;
  std::string over;
  double factor = 1.0;  // breakdown_ratio; dominates and at_most with a column: the tolerance
  double level = 0.5;   // breakdown_ratio: the fraction whose crossing defines breakdown
  // tolerance: close's bound on the difference, in the column's own units (a percentage of reads,
  // a miss ratio): a claim of "little variation" between two series of noisy measured values.
  double tolerance = 0.0;
  std::string panel;  // breakdown_ratio: which panel (empty: the first); column: only it
  // column: the merged CSV column compared (expect_column.hpp), e.g. "median_p99_ns" of a bench
  // study or "mean_miss_ratio"; empty: the schedulable fraction (at_most: "value").
  std::string column;
  // over_column: the column of `over` the bound is taken from (empty: `column`). With series ==
  // over it compares two columns of one series, e.g. median_p99_ns ≤ 1.05 × median_mean_ns
  // (RTWS §IV-B: "the 99th percentile ... less than 5% [above] the mean").
  std::string over_column;
  std::string quote;  // the paper's words, printed beside PASS/FAIL
  // scales at which the claim is checked (default paper and quick): a smoke run's handful of
  // trials cannot show a paper's trend, and says SKIP instead of a meaningless FAIL.
  std::vector<std::string> scales{"paper", "quick"};
  SourceLocation where;
};

// Scale is one named size of the study (paper, quick, smoke): how many trials per point, and
// optionally a coarser x sweep.
struct Scale {
  std::int64_t trials = 0;
  std::optional<std::vector<std::string>> x;
  // duration_ns (runtime manifests): every series runs this long at this scale instead of its own
  // `duration`, so a smoke run of a study of 20 s runs takes seconds.
  std::optional<std::int64_t> duration_ns;
  // args (bench manifests): driver arguments at this scale, last (e.g. fewer iterations in smoke).
  std::vector<std::string> args;
};

// PlotSpec is the [plot] table, passed to tools/plot_experiment.py.
struct PlotSpec {
  std::string title;
  std::string x_label;
  std::string y_label = "schedulable fraction";
  bool log_x = false;
  // failure_rate: plot 1 − value (RT-OpenMP Figs. 4–9 plot the failure rate, not the success).
  bool failure_rate = false;
  // y: what is plotted, one column of subplots each — "fraction" (value, the default), or a
  // merged column of an executing study: "mean_miss_ratio", "mean_rel_response" (RTWS Fig. 8 a,
  // b), "required_cores" (its mean_required_cores: Fig. 8 c; needs a series with
  // required_cores = true). A string or an array in the manifest.
  std::vector<std::string> y{"fraction"};
  // box: a bench study also draws, per panel, one box per (x, series) from the merged medians of
  // p25_ns..p75_ns (box), p50_ns (line), p5_ns/p95_ns (whiskers) and min_ns/max_ns (fliers):
  // P3LS3 Figs. 4b/5b's execution-time distributions. Needs those metrics in [bench].
  bool box = false;
};

// Manifest is a loaded, validated experiment manifest.
struct Manifest {
  std::string name;  // [experiment] name: also the output file name
  std::string
      paper;         // the paper it reproduces (the paper's short name (docs/papers.md), or "none")
  std::string item;  // figure or table ("Fig. 6")
  // klass: analysis (planners judge each set), simulation (admitted plans are simulated) or
  // runtime (admitted plans are run on this machine, one unit at a time) or bench (a unit runs an
  // rtpar-bench driver on this machine; no generator, no planner).
  ManifestClass klass = ManifestClass::analysis;
  std::vector<std::string> decisions;  // the design decisions it relies on (F1, RO2, ...)
  std::uint64_t seed = 1;              // default base seed
  // admitted_by (decision WS4): keep only sets this planner admits. A unit draws its set again —
  // draw k ≥ 1 from derive_seed(unit seed, k), draw 0 from the unit seed — until the planner
  // (default options, the set as generated) admits one, at most redraw_limit draws; a unit with
  // none admitted keeps its last draw, is judged on it, and is counted `unadmitted`.
  std::optional<PlannerKind> admitted_by;
  std::int64_t redraw_limit = 1000;
  std::optional<BenchSpec> bench;     // [bench]: bench manifests only
  std::string family;                 // [generator] family
  gen::Params params;                 // [generator] parameters besides family
  std::vector<Panel> panels;          // at least one
  std::string x_name;                 // the generator parameter the sweep varies
  std::vector<std::string> x_values;  // the paper-scale sweep, as generator values
  // x_percent_of: when set, x is a percentage of this (integer) generator parameter, e.g. total
  // utilization in % of `cores`, so panels of 8 and 64 cores share one x axis; the generator gets
  // x × value / 100 (written exactly, as a decimal).
  std::string x_percent_of;
  std::vector<Series> series;
  std::map<std::string, Scale, std::less<>> scales;  // must hold "paper" and "smoke"
  PlotSpec plot;
  std::vector<Expect> expects;
  std::string source;  // the file it was read from
  std::string text;    // the file's text: copied into results so any shard can re-read it
  // inputs_hash identifies everything the results depend on besides the code: the manifest's
  // text and every overhead profile it reads (FNV-1a 64), so shards of a study whose profile
  // changed in between are never merged.
  std::uint64_t inputs_hash = 0;
};

// executes says whether the study executes its plans (simulation or runtime): its rows then
// carry the execution columns (jobs, misses, relative response) besides the verdict.
inline bool executes(const Manifest& m) {
  return m.klass == ManifestClass::simulation || m.klass == ManifestClass::runtime;
}

// measures says whether the study's rows are measurements of this machine (runtime and bench
// studies): units run one at a time, and every raw file carries its machine record.
inline bool measures(const Manifest& m) {
  return m.klass == ManifestClass::runtime || m.klass == ManifestClass::bench;
}

// load_manifest reads and validates a manifest file. Throws InputError.
Manifest load_manifest(const std::string& path);

// parse_manifest is load_manifest on text in memory; `source` names it in errors.
Manifest parse_manifest(std::string_view text, const std::string& source);

// x_range expands a sweep spec "START:STOP:STEP" (non-negative integers, STOP inclusive) into its
// values; nullopt when spec is not of that form or describes no value. STOP may be the word
// `cores`, which stands for `cores` (a --threads sweep up to the machine's cores, issue 36 item 9).
std::optional<std::vector<std::string>> x_range(std::string_view spec, std::int64_t cores);

// machine_cores is what `cores` in a sweep stands for here: the CPUs this process may run on (its
// affinity mask: inside a Slurm allocation, the allocation's CPUs), at least 1.
std::int64_t machine_cores();

}  // namespace rtpar::experiment
