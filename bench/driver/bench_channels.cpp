// bench_channels.cpp — `rtpar bench channels`: OpenMP-RT Fig. 3 (consumer response time vs
// utilization per channel kind and RT/nRT configuration) and Fig. 4 (failed first reads of a
// retry channel vs period ratio), measured by channels_fig3.cpp / channels_fig4.cpp and printed
// as tables or JSON (tools/plot_channels.py draws the figures from the JSON).
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "core/table.hpp"
#include "driver/channels_fig3.hpp"
#include "driver/channels_fig4.hpp"
#include "driver/commands.hpp"
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

namespace rtpar::bench {

namespace {

// ChannelsOptions are the command-line options.
struct ChannelsOptions {
  std::string fig = "all";
  std::string duration = "1s";
  std::vector<double> utilizations{0.2, 0.6, 1.0, 1.4, 1.8};
  std::vector<double> ratios{0.25, 0.5, 1.0, 2.0, 4.0};
  std::vector<std::string> kinds{"retry", "double_buffer", "latest", "lock"};
  std::string period = "10ms";
  std::string consumer_period = "5ms";
  bool split = false;
  bool json = false;
  bool best_effort = false;
};

InputError bad_option(const std::string& option, const std::string& message) {
  return InputError(SourceLocation{"<command line>", 0, 0}, option, message);
}

Duration positive_duration(const std::string& option, const std::string& text) {
  try {
    const Duration d = parse_duration(text);
    if (d.count() > 0) return d;
  } catch (const std::invalid_argument& e) {
    throw bad_option(option, e.what());
  }
  throw bad_option(option, "must be greater than zero");
}

std::vector<ChannelKind> parse_kinds(const std::vector<std::string>& names) {
  std::vector<ChannelKind> kinds;
  for (const auto& n : names) {
    const auto k = parse_channel_kind(n);
    if (!k) throw bad_option("--kinds", "unknown channel kind '" + n + "'");
    kinds.push_back(*k);
  }
  return kinds;
}

std::string micros(std::int64_t ns) { return fmt::format("{:.1f}", static_cast<double>(ns) / 1e3); }

std::string fig3_table(const std::vector<Fig3Cell>& cells) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"kind", "config", "U(total)", "mean us", "p99 us", "max us", "jobs", "misses",
                  "reads", "failed", "torn"});
  for (const auto& c : cells) {
    std::vector<std::string> row{to_string(c.kind), to_string(c.config),
                                 fmt::format("{:.2f}", c.utilization)};
    if (c.refused) {
      row.push_back("n/a (refused*)");
    } else {
      for (std::int64_t v : {c.mean_ns, c.p99_ns, c.max_ns}) row.push_back(micros(v));
      for (std::int64_t v : {c.jobs, c.misses, c.reads, c.failed, c.torn}) {
        row.push_back(std::to_string(v));
      }
    }
    rows.push_back(std::move(row));
  }
  std::string text = report::render_table(
      rows, {false, false, true, true, true, true, true, true, true, true, true});
  for (const auto& c : cells) {
    if (!c.refused) continue;
    text += "* refused by the task-set loader: " + *c.refused + "\n";
    break;
  }
  return text;
}

std::string fig4_table(const std::vector<Fig4Cell>& cells) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"kind", "config", "Pp/Pc", "as run", "reads", "first failed %", "failed %",
                  "torn", "read us", "writes"});
  for (const auto& c : cells) {
    const bool retry = c.kind == ChannelKind::retry;
    rows.push_back({to_string(c.kind), to_string(c.config), fmt::format("{:g}", c.ratio),
                    fmt::format("{:.3f}", c.effective_ratio), std::to_string(c.reads),
                    retry ? fmt::format("{:.2f}", c.first_failed_pct()) : "-",
                    retry ? fmt::format("{:.2f}", c.failed_pct()) : "-", std::to_string(c.torn),
                    micros(c.read_mean_ns), std::to_string(c.writes)});
  }
  return report::render_table(rows, {false, false, true, true, true, true, true, true, true, true});
}

nlohmann::json to_json(const std::vector<Fig3Cell>& fig3, const std::vector<Fig4Cell>& fig4,
                       const ChannelsOptions& o) {
  nlohmann::json doc;
  doc["best_effort"] = o.best_effort;
  doc["duration_per_point"] = o.duration;
  doc["fig3_period"] = o.period;
  doc["fig3_placement"] = o.split ? "split" : "pair";
  doc["fig4_consumer_period"] = o.consumer_period;
  doc["fig3"] = nlohmann::json::array();
  for (const auto& c : fig3) {
    nlohmann::json r{{"kind", to_string(c.kind)},
                     {"config", to_string(c.config)},
                     {"utilization", c.utilization}};
    if (c.refused) {
      r["refused"] = *c.refused;
      for (const char* k : {"mean_ns", "p99_ns", "max_ns", "reads", "failed", "torn"})
        r[k] = nullptr;
    } else {
      r["mean_ns"] = c.mean_ns;
      r["p99_ns"] = c.p99_ns;
      r["max_ns"] = c.max_ns;
      r["jobs"] = c.jobs;
      r["misses"] = c.misses;
      r["reads"] = c.reads;
      r["failed"] = c.failed;
      r["torn"] = c.torn;
    }
    doc["fig3"].push_back(std::move(r));
  }
  doc["fig4"] = nlohmann::json::array();
  for (const auto& c : fig4) {
    const bool retry = c.kind == ChannelKind::retry;
    doc["fig4"].push_back(
        {{"kind", to_string(c.kind)},
         {"config", to_string(c.config)},
         {"ratio", c.ratio},
         {"effective_ratio", c.effective_ratio},
         {"first_failed_pct",
          retry ? nlohmann::json(c.first_failed_pct()) : nlohmann::json(nullptr)},
         {"failed_pct", retry ? nlohmann::json(c.failed_pct()) : nlohmann::json(nullptr)},
         {"torn", c.torn},
         {"reads", c.reads},
         {"read_mean_ns", c.read_mean_ns},
         {"writes", c.writes}});
  }
  return doc;
}

}  // namespace

Command add_bench_channels(CLI::App& app) {
  auto opts = std::make_shared<ChannelsOptions>();
  app.add_option("--fig", opts->fig, "Which figure to measure")
      ->check(CLI::IsMember({"3", "4", "all"}))
      ->capture_default_str();
  app.add_option("--duration-per-point", opts->duration, "Run length of each measured point")
      ->capture_default_str();
  app.add_option("--utilizations", opts->utilizations,
                 "Fig. 3: total utilizations over both cores (0 < U < 2)")
      ->check(CLI::Range(0.001, 1.99))
      ->capture_default_str();
  app.add_option("--ratios", opts->ratios, "Fig. 4: producer/consumer period ratios P_p/P_c")
      ->check(CLI::Range(0.01, 100.0))
      ->capture_default_str();
  app.add_option("--kinds", opts->kinds,
                 "Channel kinds (Fig. 4 always skips lock: it has no failed or torn reads)")
      ->capture_default_str();
  app.add_option("--period", opts->period, "Fig. 3: period of every task")->capture_default_str();
  app.add_option("--consumer-period", opts->consumer_period, "Fig. 4: the consumer's period")
      ->capture_default_str();
  app.add_flag("--split", opts->split,
               "Fig. 3: consumer i on core 1-i (default: pair i on core i)");
  app.add_flag("--best-effort", opts->best_effort,
               "Use SCHED_OTHER instead of SCHED_FIFO (no privilege needed); said in the output");
  app.add_flag("--json", opts->json, "Print the results as JSON on stdout");
  return [opts]() {
    const Duration duration = positive_duration("--duration-per-point", opts->duration);
    const std::vector<ChannelKind> kinds = parse_kinds(opts->kinds);
    const bool live = isatty(STDERR_FILENO) != 0;
    const auto progress = [live](const std::string& what) {
      if (live) fmt::print(stderr, "\r\033[K{}", what);
    };

    std::vector<Fig3Cell> fig3;
    if (opts->fig != "4") {
      Fig3Options o;
      o.kinds = kinds;
      o.configs = {PairConfig::rt_rt, PairConfig::rt_nrt, PairConfig::nrt_rt};
      o.utilizations = opts->utilizations;
      o.period = positive_duration("--period", opts->period);
      o.duration = duration;
      o.split = opts->split;
      o.best_effort = opts->best_effort;
      o.progress = progress;
      fig3 = run_fig3(o);
    }
    std::vector<Fig4Cell> fig4;
    if (opts->fig != "3") {
      Fig4Options o;
      for (ChannelKind k : kinds) {
        if (k != ChannelKind::lock) o.kinds.push_back(k);
      }
      o.configs = {PairConfig::rt_rt, PairConfig::rt_nrt, PairConfig::nrt_rt};
      o.ratios = opts->ratios;
      o.consumer_period = positive_duration("--consumer-period", opts->consumer_period);
      o.duration = duration;
      o.best_effort = opts->best_effort;
      o.progress = progress;
      fig4 = run_fig4(o);
    }
    if (live) fmt::print(stderr, "\r\033[K");

    if (opts->json) {
      fmt::print("{}\n", to_json(fig3, fig4, *opts).dump(2));
      return kExitOk;
    }
    if (opts->best_effort) fmt::print("*** BEST EFFORT (no real-time scheduling) ***\n");
    if (!fig3.empty()) {
      fmt::print(
          "Fig. 3: consumer response time, 2 producer/consumer pairs on CPUs 0,1 ({}), "
          "period {}, 64x64 int32 matrix, retry numtries = 2, {} per point\n",
          opts->split ? "consumer i on CPU 1-i" : "pair i on CPU i", opts->period, opts->duration);
      fmt::print("{}\n", fig3_table(fig3));
    }
    if (!fig4.empty()) {
      fmt::print(
          "Fig. 4: 1 MiB payload, producer CPU 0, consumer CPU 1 (period {}; nRT: SCHED_OTHER), "
          "numtries = 2, "
          "{} per point; first failed = first attempt failed (tries > 1 or !ok)\n",
          opts->consumer_period, opts->duration);
      fmt::print("{}", fig4_table(fig4));
    }
    return kExitOk;
  };
}

}  // namespace rtpar::bench
