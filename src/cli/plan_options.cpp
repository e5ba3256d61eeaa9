// plan_options.cpp — see plan_options.hpp.
#include "cli/plan_options.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "analysis/bounds/light_first_fit.hpp"
#include "cli/machine_profile.hpp"
#include "core/names.hpp"
#include "model/overhead_statistic.hpp"
#include "platform/elf_symbols.hpp"
#include "platform/interference.hpp"
#include "rtpar/error.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar::cli {

namespace {

// kAllPlanners lists every planner in enum order: the order of `--planner all` outputs.
constexpr PlannerKind kAllPlanners[] = {PlannerKind::federated, PlannerKind::federated_ws,
                                        PlannerKind::decomposition, PlannerKind::fork_join_rta,
                                        PlannerKind::partitioned};

std::string planner_names() {
  std::string names;
  for (const PlannerKind k : kAllPlanners)
    names += (names.empty() ? "" : ", ") + std::string(to_string(k));
  return names;
}

// kLinuxDefaultServer is Linux's default fair server (and RT throttling's non-RT share): 50 ms of
// every 1 s per CPU (kernel/sched/deadline.c, fair_server_init; sched_rt_runtime_us = 950000).
constexpr std::int64_t kLinuxDefaultBudgetNs = 50'000'000;
constexpr std::int64_t kLinuxDefaultPeriodNs = 1'000'000'000;

// kChargeByDefault: whether an absent --interference charges what is read (true) or only states
// it (false). It states: charging Linux's default server (a 50 ms burst) fails every task with
// D ≤ 50 ms, which would reject the examples; see docs/analysis.md "Kernel interference".
constexpr bool kChargeByDefault = false;

InputError interference_error(const std::string& mode, const std::string& why) {
  return InputError(SourceLocation{"<command line>", 0, 0}, "--interference",
                    "'" + mode + "': " + why +
                        " (expected machine, default, none, or BUDGET/PERIOD such as 50ms/1s)");
}

}  // namespace

void add_interference_flag(CLI::App& app, std::string& mode) {
  app.add_option("--interference", mode,
                 "Kernel interference to charge per core: machine (read here), default (Linux: "
                 "50ms/1s), none, or BUDGET/PERIOD; without it, it is read and stated only")
      ->type_name("MODE")
      ->check(non_empty());
}

KernelInterference resolve_interference(const std::string& mode, const TaskSet& set,
                                        const Topology* target) {
  KernelInterference k;
  k.known = true;
  const std::string flag = mode.empty() ? std::string() : " (--interference " + mode + ")";
  if (mode == "none") {
    k.state = "none";
    k.source = "assumed none" + flag;
    return k;
  }
  if (!mode.empty() && mode != "machine" && mode != "default") {
    const auto slash = mode.find('/');
    if (slash == std::string::npos) throw interference_error(mode, "unknown mode");
    Duration q{0}, p{0};
    try {
      q = parse_duration(mode.substr(0, slash));
      p = parse_duration(mode.substr(slash + 1));
    } catch (const std::invalid_argument& e) {
      throw interference_error(mode, e.what());
    }
    if (q.count() <= 0 || p < q) throw interference_error(mode, "needs 0 < BUDGET <= PERIOD");
    k.state = "charged";
    k.budget_ns = q.count();
    k.period_ns = p.count();
    k.source = "given" + flag;
    return k;
  }
  if (mode == "default" || (mode.empty() && target != nullptr)) {
    k.budget_ns = kLinuxDefaultBudgetNs;
    k.period_ns = kLinuxDefaultPeriodNs;
    k.source = "Linux's default fair server / RT throttling, assumed for " +
               std::string(target != nullptr ? "the --target machine" : "any machine") + flag;
  } else {
    // This machine, for the cores the set will run on.
    const platform::SchedInterference read =
        platform::read_sched_interference("/", analysis::realtime_cores(set.system));
    k.known = read.known;
    k.budget_ns = read.budget_ns;
    k.period_ns = read.period_ns;
    k.source = "read here: " + read.source + flag;
  }
  const bool charge = !mode.empty() || kChargeByDefault;
  if (set.system.isolate && mode.empty()) {
    k.state = "isolated";
    k.source += "; [system] isolate = true: `rtpar run` removes it from the real-time cores";
  } else if (k.budget_ns == 0) {
    k.state = "none";
  } else {
    k.state = charge ? "charged" : "stated";
    if (!charge) k.source += "; not charged (--interference machine charges it)";
  }
  return k;
}

const CLI::Validator& non_empty() {
  static const CLI::Validator validator(
      [](const std::string& value) {
        return value.empty() ? std::string("an empty value is not allowed") : std::string();
      },
      "", "NONEMPTY");
  return validator;
}

namespace {

// kOpenMpRuntimes are the sonames of the OpenMP runtimes a `lib:` object may be linked against
// (GCC's, LLVM's and Intel's).
constexpr std::string_view kOpenMpRuntimes[] = {"libgomp.so.1", "libomp.so", "libomp.so.5",
                                                "libiomp5.so"};

// openmp_lib_warning is a warning for a `lib:` kernel whose object needs an OpenMP runtime: its
// parallel regions would make teams of the runtime's own, neither planned nor pinned (the plan
// gives the task one thread), where `omp:` makes the team the plan's (docs/openmp.md). Empty
// otherwise, and when the object's dynamic section cannot be read (its symbol was found).
std::string openmp_lib_warning(const TaskSpec& t) {
  std::vector<std::string> needed;
  try {
    needed = platform::needed_libraries_in_file(t.kernel_spec.library);
  } catch (const platform::ElfError&) {
    return {};
  }
  for (const std::string& lib : needed) {
    if (std::find(std::begin(kOpenMpRuntimes), std::end(kOpenMpRuntimes), lib) ==
        std::end(kOpenMpRuntimes)) {
      continue;
    }
    return fmt::format(
        "warning: task \"{}\": {} needs {} (OpenMP): as `lib:` its parallel regions run on the "
        "runtime's own threads, which the plan neither counts nor pins; declare it "
        "`kernel = \"omp:{}:{}\"` so its team is the plan's (docs/openmp.md)\n",
        t.name, t.kernel_spec.library, lib, t.kernel_spec.library, t.kernel_spec.symbol);
  }
  return {};
}

}  // namespace

std::string resolved_kernels_text(const TaskSet& set) {
  std::string text;
  for (const TaskSpec& t : set.tasks) {
    if (t.kernel_spec.source != KernelSource::library &&
        t.kernel_spec.source != KernelSource::openmp) {
      continue;
    }
    text += "kernel of task \"" + t.name + "\": " + t.kernel +
            " resolved: " + t.kernel_spec.library + " exports " + t.kernel_spec.symbol +
            " (read from its ELF symbol table; not loaded)\n";
    if (t.kernel_spec.source == KernelSource::library) text += openmp_lib_warning(t);
  }
  return text;
}

void add_planning_flags(CLI::App& app, PlanningFlags& flags, bool allow_all) {
  app.add_option("--planner", flags.planner,
                 allow_all ? "Planner to run instead of the file's: a planner name, or 'all' to "
                             "compare every planner"
                           : "Planner to run instead of the file's")
      ->type_name("NAME")
      ->check(non_empty());
  app.add_option("--target", flags.target,
                 "Analyse for this machine instead of the file's cores, e.g. 40c4s (40 cores, 4 "
                 "sockets)")
      ->type_name("SPEC")
      ->check(non_empty());
  app.add_option("--overhead", flags.overhead,
                 "Overhead profile to charge (`rtpar calibrate --out`); default: this machine's "
                 "profile when `rtpar calibrate` wrote one; `none`: charge nothing")
      ->type_name("FILE")
      ->check(non_empty());
  app.add_option("--charged-statistic", flags.charged_statistic,
                 "Which statistic of every --overhead entry the planners charge: p50, p99, p99.9 "
                 "(default: the profile's bound) or max (FJOS charges worst-case overheads, "
                 "FJOS §VI)")
      ->type_name("STAT")
      ->check(non_empty());
  app.add_option("--measured", flags.measured,
                 "Run report (report.json of `rtpar run --out`) or profile (`rtpar profile --out`) "
                 "whose measured work and span every planner uses where larger than declared")
      ->type_name("REPORT")
      ->check(non_empty());
  app.add_option("--assign", flags.assign,
                 "fork-join-rta's strand assignment: greedy (FJOS §VII, default) or worst-fit "
                 "(each strand on the least-utilized core, then one RTA: FJOS's Naive)")
      ->type_name("KIND")
      ->check(non_empty());
  app.add_flag("--force-place", flags.force_place,
               "decomposition: place the strands its test refuses anyway (first core; worst-fit: "
               "least-loaded); "
               "the plan stays NOT SCHEDULABLE, and `simulate` executes it (RT-OpenMP §VI ran "
               "every set)");
  add_interference_flag(app, flags.interference);
}

std::unique_ptr<Planning> resolve_planning(const PlanningFlags& flags, const TaskSet& set) {
  auto planning = std::make_unique<Planning>();
  if (flags.planner.empty()) {
    planning->planners = {set.system.planner};
  } else if (flags.planner == "all") {
    planning->all = true;
    planning->planners.assign(std::begin(kAllPlanners), std::end(kAllPlanners));
  } else {
    for (const PlannerKind k : kAllPlanners) {
      if (flags.planner == to_string(k)) planning->planners = {k};
    }
    if (planning->planners.empty()) {
      throw InputError(SourceLocation{"<command line>", 0, 0}, "--planner",
                       "unknown planner '" + flags.planner + "' (expected one of " +
                           planner_names() + ", or all)");
    }
  }
  if (!flags.target.empty()) {
    planning->target = parse_target(flags.target);
    planning->options.target = &*planning->target;
  }
  OverheadChoice overhead = choose_overhead(flags.overhead, !flags.target.empty());
  planning->overhead_note = std::move(overhead.note);
  if (overhead.profile) {
    planning->overhead = std::move(overhead.profile);
    if (!flags.charged_statistic.empty()) {
      planning->overhead =
          model::charged_at(*planning->overhead, flags.charged_statistic,
                            SourceLocation{"<command line>", 0, 0}, "--charged-statistic");
    }
    planning->options.overhead = &*planning->overhead;
  } else if (!flags.charged_statistic.empty()) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--charged-statistic",
                     "needs an overhead profile (--overhead FILE, or this machine's profile from "
                     "`rtpar calibrate`)");
  }
  if (!flags.measured.empty()) {
    planning->measured = load_measured_profile(flags.measured);
    planning->options.measured = &*planning->measured;
  }
  if (!flags.assign.empty()) {
    const auto assign = names::value_of(names::kAssigns, flags.assign);
    if (!assign) {
      throw InputError(SourceLocation{"<command line>", 0, 0}, "--assign",
                       "unknown assignment '" + flags.assign + "' (expected greedy or worst-fit)");
    }
    planning->options.assign = *assign;
  }
  planning->options.force_place = flags.force_place;
  planning->options.interference =
      resolve_interference(flags.interference, set, planning->options.target);
  return planning;
}

}  // namespace rtpar::cli
