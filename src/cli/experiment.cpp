// experiment.cpp — `rtpar experiment list|show|points|run|merge|plot|status|estimate|emit|slurm`
// (docs/experiments.md): reproducible studies over generated task sets, split any way (threads,
// shards, points, Slurm array tasks) with identical merged results.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.hpp"
#include "cli/study_options.hpp"
#include "cli/tool_path.hpp"
#include "core/exit_status.hpp"
#include "experiment/merge.hpp"
#include "experiment/runner.hpp"
#include "experiment/trial.hpp"
#include "rtpar/tools/generate.hpp"

namespace rtpar::cli {

namespace {

namespace fs = std::filesystem;
using namespace rtpar::experiment;

// parse_shard reads "K/N" (0 ≤ K < N).
Shard parse_shard(const std::string& s) {
  const std::size_t slash = s.find('/');
  try {
    if (slash != std::string::npos) {
      std::size_t used = 0;
      const std::uint64_t k = std::stoull(s.substr(0, slash), &used);
      if (used == slash) {
        const std::string rest = s.substr(slash + 1);
        const std::uint64_t n = std::stoull(rest, &used);
        if (used == rest.size() && n > 0 && k < n && s[0] != '-' && rest[0] != '-') {
          return Shard{k, n};
        }
      }
    }
  } catch (const std::exception&) {
  }
  throw InputError({}, "--shard", "expected K/N with 0 ≤ K < N, e.g. 3/200; got \"" + s + "\"");
}

// plot runs tools/plot_experiment.py on DIR; returns its exit status (or 2 when not found).
int plot(const fs::path& dir) {
  const std::optional<fs::path> script = tool_path("plot_experiment.py");
  if (!script) {
    fmt::print(stderr, "rtpar experiment plot: tools/plot_experiment.py not found beside rtpar\n");
    return kExitBadInput;
  }
  const char* python = python_program();
  const std::string cmd = fmt::format("{} '{}' '{}'", python, script->string(), dir.string());
  const int status = std::system(cmd.c_str());
  return status == 0 ? kExitOk : kExitFail;
}

// print_merge prints what a merge wrote and its expectations; 1 when one failed.
int print_merge(const MergeResult& m) {
  fmt::print("merged {} units into {}\n", m.coverage.present, m.csv.string());
  for (const std::string& line : m.expects) fmt::print("  {}\n", line);
  return m.failed > 0 ? kExitFail : kExitOk;
}

// units_text is "N units (P points × T trials)".
std::string units_text(const Resolved& r) {
  return fmt::format("{} units ({} points x {} trials)", r.units(), r.points.size(), r.trials);
}

// ExperimentOptions are the options of every subcommand of `rtpar experiment` (a command line
// runs one subcommand, so they share one set).
struct ExperimentOptions {
  StudyOptions study;
  std::string out;
  int jobs = 0;
  std::string shard;
  std::optional<std::size_t> point;
  bool resume = false;
  bool allow_partial = false;
  bool mix_machines = false;
  bool no_plot = false;
  std::string dir;
  std::size_t trial = 0;
  int sample = 2;
  int shards = 0;
  int cpus = 2;
  std::string time = "01:00:00";
  std::string partition;
  int max_parallel = 0;
  std::string rtpar;
};

// ExperimentCommands are the subcommands of `rtpar experiment`, to tell which one was parsed.
struct ExperimentCommands {
  CLI::App* list;
  CLI::App* show;
  CLI::App* points;
  CLI::App* run;
  CLI::App* merge;
  CLI::App* plot;
  CLI::App* status;
  CLI::App* estimate;
  CLI::App* emit;
  CLI::App* slurm;
};

// add_subcommands registers every subcommand of `rtpar experiment` and its options, parsed into o.
ExperimentCommands add_subcommands(CLI::App& app, ExperimentOptions& o) {
  CLI::App* list = app.add_subcommand("list", "Manifests found, with their units per scale");
  CLI::App* show = app.add_subcommand("show", "A manifest as resolved at a scale");
  add_study_options(*show, o.study);
  CLI::App* points = app.add_subcommand("points", "The numbered points (for --point and arrays)");
  add_study_options(*points, o.study);
  CLI::App* run = app.add_subcommand("run", "Compute a study (or a shard or point of it)");
  add_study_options(*run, o.study);
  run->add_option("--out", o.out, "Study directory (default results/NAME-SCALE-SEED)");
  run->add_option("--jobs", o.jobs, "Worker threads (default: online CPUs)")
      ->check(CLI::Range(1, 4096));
  run->add_option("--shard", o.shard, "Only units with index ≡ K (mod N): K/N");
  run->add_option("--point", o.point, "Only the trials of point I (`points` numbers them)");
  run->add_flag("--resume", o.resume, "Keep complete units already in this run's raw file");
  run->add_flag("--no-plot", o.no_plot, "Do not draw the PNG after a whole-study run");
  CLI::App* merge = app.add_subcommand("merge", "Aggregate a study's raw rows into NAME.csv");
  merge->add_option("dir", o.dir, "Study directory")->required();
  merge->add_flag("--allow-partial", o.allow_partial, "Merge even with units missing");
  merge->add_flag("--mix-machines", o.mix_machines,
                  "Runtime studies: merge rows measured on different machines (raw/*.env)");
  CLI::App* plotc = app.add_subcommand("plot", "Draw NAME.png from a merged study");
  plotc->add_option("dir", o.dir, "Study directory")->required();
  CLI::App* status = app.add_subcommand("status", "Units present and missing in a study dir");
  status->add_option("dir", o.dir, "Study directory")->required();
  CLI::App* estimate = app.add_subcommand("estimate", "Time a sample, project the whole study");
  add_study_options(*estimate, o.study);
  estimate->add_option("--sample", o.sample, "Trials timed per point (default 2)")
      ->check(CLI::Range(1, 1000));
  estimate->add_option("--jobs", o.jobs, "Project the wall time for this many workers")
      ->check(CLI::Range(1, 4096));
  CLI::App* emit = app.add_subcommand("emit", "Write the exact task set of one unit (TOML)");
  add_study_options(*emit, o.study);
  emit->add_option("--point", o.point, "Point index")->required();
  emit->add_option("--trial", o.trial, "Trial index")->required();
  emit->add_option("--out", o.out, "Output file (default: stdout)");
  CLI::App* slurm = app.add_subcommand("slurm", "Print a Slurm array-job submit script");
  add_study_options(*slurm, o.study);
  slurm->add_option("--shards", o.shards, "Array tasks (shards)")
      ->required()
      ->check(CLI::Range(1, 100000));
  slurm->add_option("--out", o.out, "Study directory (shared by the nodes)")->required();
  slurm->add_option("--cpus", o.cpus, "CPUs per array task (--jobs of each shard)")
      ->check(CLI::Range(1, 4096));
  slurm->add_option("--time", o.time, "Time limit per array task (HH:MM:SS)");
  slurm->add_option("--partition", o.partition, "Slurm partition");
  slurm->add_option("--max-parallel", o.max_parallel, "Array tasks running at once (%M)")
      ->check(CLI::Range(1, 100000));
  slurm->add_option("--rtpar", o.rtpar, "rtpar binary on the nodes (default: this one)");
  return {list, show, points, run, merge, plotc, status, estimate, emit, slurm};
}

// list_manifests prints the manifests found (manifest_dirs) with their units per scale.
int list_manifests() {
  std::vector<fs::path> files;
  for (const fs::path& d : manifest_dirs()) {
    if (!fs::is_directory(d)) continue;
    for (const fs::directory_entry& e : fs::directory_iterator(d)) {
      if (e.path().extension() == ".toml") files.push_back(e.path());
    }
    if (!files.empty()) break;  // the first directory that has manifests
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    const Manifest m = load_manifest(f.string());
    std::string scales;
    for (const auto& [name, s] : m.scales) {
      const Resolved r = resolve(m, name, std::nullopt);
      scales += fmt::format("  {}={}", name, r.units());
    }
    fmt::print("{:<22} {:<10} {:<10} units:{}\n", m.name, m.item, to_string(m.klass), scales);
  }
  return kExitOk;
}

// show_study prints a manifest as resolved at a scale (`rtpar experiment show`).
int show_study(const ExperimentOptions& o) {
  const Resolved r = resolve_study(o.study);
  const Manifest& m = r.manifest;
  fmt::print("experiment  {} ({})\npaper       {} {}\nclass       {}\n", m.name, m.source, m.paper,
             m.item, to_string(m.klass));
  if (!m.decisions.empty()) {
    std::string d;
    for (const std::string& s : m.decisions) d += (d.empty() ? "" : " ") + s;
    fmt::print("decisions   {}\n", d);
  }
  if (m.bench) {
    fmt::print("bench       {}", describe(*m.bench));
  } else {
    fmt::print("generator   {}", m.family);
  }
  for (const auto& [k, v] : m.params) fmt::print(" {}={}", k, v.value);
  fmt::print("\nsweep       {} over", m.x_name);
  for (const Point& p : r.points) {
    if (p.panel == 0) fmt::print(" {}", p.x);
  }
  fmt::print("\npanels     ");
  for (const Panel& p : m.panels) {
    fmt::print(" {}{}", p.name, p.family.empty() ? "" : " (" + p.family + ")");
    for (const auto& [k, v] : p.params) fmt::print(" {}={}", k, v.value);
    for (const std::string& a : p.args) fmt::print(" {}", a);
    for (const auto& [field, value] : p.match) fmt::print(" {}={}", field, value);
    fmt::print(";");
  }
  fmt::print("\nseries\n");
  for (const Series& s : m.series) {
    if (m.bench) {
      std::string match;
      for (const auto& [field, value] : s.match) match += " " + field + "=" + value;
      fmt::print("  {:<12} record{}\n", s.name, match);
    } else if (s.kind == SeriesKind::bound) {
      fmt::print("  {:<12} bound b = {}\n", s.name, s.bound);
    } else {
      fmt::print("  {:<12} planner {}{}{}{}{}{}{}{}{}{}\n", s.name, to_string(s.planner),
                 s.target ? " target " + s.target_spec : "",
                 s.fit ? std::string(" fit ") + to_string(*s.fit) : "",
                 s.assign ? std::string(" assign ") + to_string(*s.assign) : "",
                 s.wait ? std::string(" wait ") + to_string(*s.wait) : "",
                 s.shared_wait ? std::string(" shared_wait ") + to_string(*s.shared_wait) : "",
                 s.overhead ? " overhead " + s.overhead_path : "",
                 s.back_to_back ? " (back-to-back entries)" : "",
                 s.charged_statistic.empty() ? "" : " charged at " + s.charged_statistic,
                 s.force_place ? " force-place (refused strands placed anyway)" : "");
    }
    if (s.sim) fmt::print("  {:<12} {}\n", "", describe(*s.sim));
    if (s.run) fmt::print("  {:<12} {}\n", "", describe(*s.run));
  }
  fmt::print("scale       {}, seed {}: {}\n", r.scale, r.seed, units_text(r));
  return kExitOk;
}

// print_points prints the numbered points of a study (`rtpar experiment points`).
int print_points(const ExperimentOptions& o) {
  const Resolved r = resolve_study(o.study);
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    fmt::print("{:>5}  panel {:<16} {} = {:<8} {} trials\n", p, r.panel_of(p).name,
               r.manifest.x_name, r.points[p].x, r.trials);
  }
  return kExitOk;
}

// run_study computes a study, or a shard or a point of it, and merges and plots a whole study
// (`rtpar experiment run`).
int run_study(const ExperimentOptions& o) {
  const Resolved r = resolve_study(o.study);
  RunConfig config;
  config.out = o.out.empty()
                   ? fs::path("results") / fmt::format("{}-{}-{}", r.manifest.name, r.scale, r.seed)
                   : fs::path(o.out);
  config.jobs =
      o.jobs > 0 ? o.jobs : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (!o.shard.empty()) config.shard = parse_shard(o.shard);
  if (o.point) {
    if (*o.point >= r.points.size()) {
      throw InputError({}, "--point",
                       fmt::format("this study has points 0..{}", r.points.size() - 1));
    }
    if (config.shard) throw InputError({}, "--point", "give --shard or --point, not both");
    config.point = o.point;
  }
  if (measures(r.manifest) && config.jobs > 1) {
    // Two real-time runs (or benchmarks) on one machine would disturb each other's
    // measurements.
    fmt::print("{} study: units run one at a time (--jobs {} ignored)\n",
               to_string(r.manifest.klass), config.jobs);
    config.jobs = 1;
  }
  config.resume = o.resume;
  config.progress = isatty(STDERR_FILENO) != 0;
  prepare_study_dir(r, config.out);
  fmt::print("{} at scale {}: {}\n", r.manifest.name, r.scale, units_text(r));
  const RunSummary s = run_units(r, config);
  fmt::print("computed {} units ({} resumed) of {} in {:.2f} s with {} jobs -> {}\n", s.computed,
             s.resumed, s.selected, s.seconds, config.jobs, s.raw.string());
  if (config.shard || config.point) return kExitOk;  // merge once every shard is in
  const int verdict = print_merge(merge_study(config.out, false));
  if (!o.no_plot && plot(config.out) != kExitOk) {
    fmt::print(stderr, "rtpar experiment: the plot failed (see above); the CSV is complete\n");
  }
  return verdict;
}

// print_status prints the units present and missing in a study directory (`rtpar experiment
// status`); 1 when some are missing or duplicated.
int print_status(const ExperimentOptions& o) {
  const Resolved r = load_study(o.dir);
  const Coverage c = coverage(r, o.dir);
  fmt::print("{} at scale {}, seed {}: {} of {} units present, {} missing, {} duplicated\n",
             r.manifest.name, r.scale, r.seed, c.present, r.units(), c.missing.size(),
             c.duplicated.size());
  return c.missing.empty() && c.duplicated.empty() ? kExitOk : kExitFail;
}

// estimate_study times a sample of each point and projects the whole study; a runtime or bench
// study, which sampling would run, gets a bound instead (`rtpar experiment estimate`).
int estimate_study(const ExperimentOptions& o) {
  const Resolved r = resolve_study(o.study);
  if (r.manifest.bench) {
    // Sampling would run the benchmarks: there is no cheap way to time a driver run.
    fmt::print(
        "{}: one `rtpar bench {}` run per unit, one at a time; no estimate without "
        "running one (each run is killed after {} s)\n",
        units_text(r), r.manifest.bench->driver, r.manifest.bench->timeout_s);
    return kExitOk;
  }
  if (r.manifest.klass == ManifestClass::runtime) {
    // Sampling would run the sets; a unit runs at most every series for its duration, plus
    // the executor's start delay (RunConfig::start_delay, 50 ms) and set-up.
    double per_unit = 0;
    for (const Series& s : r.manifest.series) {
      per_unit += static_cast<double>(s.run->duration_ns) / 1e9 + 0.1;
    }
    fmt::print(
        "{}: at most {:.1f} s wall ({:.2f} s per unit; units run one at a time; a refused "
        "set runs only with admission = false)\n",
        units_text(r), per_unit * static_cast<double>(r.units()), per_unit);
    return kExitOk;
  }
  const int jobs =
      o.jobs > 0 ? o.jobs : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const auto sample = static_cast<std::int64_t>(std::min<std::int64_t>(o.sample, r.trials));
  double total = 0;
  fmt::print("{:>5}  {:<16} {:>10}  {:>12}\n", "point", "panel", r.manifest.x_name, "ms/unit");
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t t = 0; t < sample; ++t) {
      (void)run_unit(r,
                     r.unit(static_cast<std::uint64_t>(p) * static_cast<std::uint64_t>(r.trials) +
                            static_cast<std::uint64_t>(t)));
    }
    const double per =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
        static_cast<double>(sample);
    total += per * static_cast<double>(r.trials);
    fmt::print("{:>5}  {:<16} {:>10}  {:>12.3f}\n", p, r.panel_of(p).name, r.points[p].x,
               per * 1e3);
  }
  fmt::print("{}: {:.1f} CPU s; about {:.1f} s wall with --jobs {} (from {} trials per point)\n",
             units_text(r), total, total / jobs, jobs, sample);
  return kExitOk;
}

// emit_unit writes the exact task set of one unit as TOML (`rtpar experiment emit`).
int emit_unit(const ExperimentOptions& o) {
  const Resolved r = resolve_study(o.study);
  if (r.manifest.bench) throw InputError({}, "STUDY", "a bench study draws no task set to emit");
  if (*o.point >= r.points.size()) {
    throw InputError({}, "--point",
                     fmt::format("this study has points 0..{}", r.points.size() - 1));
  }
  if (o.trial >= static_cast<std::size_t>(r.trials)) {
    throw InputError({}, "--trial", fmt::format("this scale has trials 0..{}", r.trials - 1));
  }
  const Unit u = r.unit(*o.point * static_cast<std::uint64_t>(r.trials) + o.trial);
  const gen::Generated g = generate_unit(r, u);
  const std::string text = gen::to_toml(
      g.set, fmt::format("{} scale {} seed {}: point {} ({} = {}, panel {}), trial {}, unit "
                         "seed {}",
                         r.manifest.name, r.scale, r.seed, u.point, r.manifest.x_name,
                         r.points[u.point].x, r.panel_of(u.point).name, u.trial, unit_seed(r, u)));
  if (o.out.empty()) {
    fmt::print("{}", text);
  } else {
    std::ofstream out(o.out, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw InputError({o.out, 0, 0}, "--out", "cannot write");
  }
  return kExitOk;
}

// print_slurm prints a Slurm array-job submit script for a study and its dependent merge
// (`rtpar experiment slurm`).
int print_slurm(const ExperimentOptions& o) {
  const Resolved r = resolve_study(o.study);
  const fs::path manifest = find_manifest(o.study.name);
  std::string rtpar = o.rtpar;
  if (rtpar.empty()) {
    std::error_code ec;
    rtpar = fs::read_symlink("/proc/self/exe", ec).string();
  }
  const fs::path out = fs::absolute(o.out).lexically_normal();
  const std::string seed = std::to_string(r.seed);
  const std::string array = o.max_parallel > 0
                                ? fmt::format("0-{}%{}", o.shards - 1, o.max_parallel)
                                : fmt::format("0-{}", o.shards - 1);
  const std::string partition = o.partition.empty() ? "" : " --partition=" + o.partition;
  fmt::print(
      "#!/bin/bash\n"
      "# Submit {name} (scale {scale}, seed {seed}) as {shards} Slurm array tasks and a\n"
      "# dependent merge. Generated by `rtpar experiment slurm`; the merged CSV equals a "
      "local\n"
      "# `rtpar experiment run` of the same study byte for byte.\n"
      "set -euo pipefail\n"
      "RTPAR='{rtpar}'\n"
      "OUT='{out}'\n"
      "mkdir -p \"$OUT/slurm\"\n"
      "array=$(sbatch --parsable --job-name=rtpar-{name} --array={array} "
      "--cpus-per-task={cpus} --time={time}{partition}{exclusive} "
      "--output=\"$OUT/slurm/shard-%a.out\" "
      "--wrap \"'$RTPAR' experiment run '{manifest}' --scale {scale} --seed {seed} "
      "--shard \\${{SLURM_ARRAY_TASK_ID}}/{shards} --jobs {cpus} --out '$OUT'\")\n"
      "array=${{array%%;*}}\n"
      "merge=$(sbatch --parsable --job-name=rtpar-{name}-merge --dependency=afterok:$array "
      "--time=00:30:00{partition} --output=\"$OUT/slurm/merge.out\" "
      "--wrap \"'$RTPAR' experiment merge '$OUT'\")\n"
      "merge=${{merge%%;*}}\n"
      "echo \"array_job=$array\"\n"
      "echo \"merge_job=$merge\"\n",
      fmt::arg("name", r.manifest.name), fmt::arg("scale", r.scale), fmt::arg("seed", seed),
      fmt::arg("shards", o.shards), fmt::arg("rtpar", rtpar), fmt::arg("out", out.string()),
      fmt::arg("array", array), fmt::arg("cpus", o.cpus), fmt::arg("time", o.time),
      fmt::arg("partition", partition), fmt::arg("manifest", manifest.string()),
      // A runtime study's shard owns its node: real-time runs must not share a machine.
      fmt::arg("exclusive", measures(r.manifest) ? " --exclusive" : ""));
  return kExitOk;
}

}  // namespace

Command add_experiment(CLI::App& app) {
  app.require_subcommand(1);
  auto o = std::make_shared<ExperimentOptions>();
  const ExperimentCommands c = add_subcommands(app, *o);
  return [o, c]() -> int {
    if (c.list->parsed()) return list_manifests();
    if (c.show->parsed()) return show_study(*o);
    if (c.points->parsed()) return print_points(*o);
    if (c.run->parsed()) return run_study(*o);
    if (c.merge->parsed()) {
      return print_merge(merge_study(o->dir, o->allow_partial, o->mix_machines));
    }
    if (c.plot->parsed()) return plot(o->dir);
    if (c.status->parsed()) return print_status(*o);
    if (c.estimate->parsed()) return estimate_study(*o);
    if (c.emit->parsed()) return emit_unit(*o);
    if (c.slurm->parsed()) return print_slurm(*o);
    return kExitBadInput;
  };
}

}  // namespace rtpar::cli
