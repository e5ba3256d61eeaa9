// runner.cpp — worker threads over a study's units; raw rows appended and flushed per unit.
#include "experiment/runner.hpp"

#include <fmt/core.h>

#include <unistd.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "experiment/machine_env.hpp"
#include "experiment/raw_rows.hpp"

namespace rtpar::experiment {

namespace fs = std::filesystem;

namespace {

// read_text reads a whole file ("" when it does not exist).
std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  if (in) s << in.rdbuf();
  return s.str();
}

// study_text is DIR/study.txt: the scale and seed of the study the directory holds.
std::string study_text(const Resolved& r) {
  return fmt::format("name = {}\nscale = {}\nseed = {}\nsource = {}\n", r.manifest.name, r.scale,
                     r.seed, r.manifest.source);
}

// field reads `key = value` from study.txt.
std::optional<std::string> field(const std::string& text, std::string_view key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::string prefix = std::string(key) + " = ";
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  }
  return std::nullopt;
}

// format_eta renders seconds as "1h02m", "3m05s" or "42s".
std::string format_eta(double s) {
  const auto t = static_cast<long>(s + 0.5);
  if (t >= 3600) return fmt::format("{}h{:02}m", t / 3600, (t % 3600) / 60);
  if (t >= 60) return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}s", t);
}

}  // namespace

void write_atomically(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + fmt::format(".tmp.{}", static_cast<long>(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, p);
}

void prepare_study_dir(const Resolved& r, const fs::path& dir) {
  fs::create_directories(dir / "raw");
  const fs::path manifest = dir / "experiment.toml";
  const fs::path study = dir / "study.txt";
  if (fs::exists(study)) {
    // Same name, scale, seed and manifest text: the same study (another shard, or a resume).
    const std::string have = read_text(study);
    const bool same = field(have, "name") == r.manifest.name && field(have, "scale") == r.scale &&
                      field(have, "seed") == std::to_string(r.seed) &&
                      read_text(manifest) == r.manifest.text;
    if (!same) {
      throw InputError({study.string(), 1, 1}, "--out",
                       "this directory holds another study (name, scale, seed or manifest "
                       "differ): use another --out");
    }
    return;
  }
  write_atomically(manifest, r.manifest.text);
  write_atomically(study, study_text(r));
}

Resolved load_study(const fs::path& dir) {
  const fs::path study = dir / "study.txt";
  const std::string text = read_text(study);
  const std::optional<std::string> scale = field(text, "scale");
  const std::optional<std::string> seed = field(text, "seed");
  if (!scale || !seed) {
    throw InputError({study.string(), 0, 0}, "",
                     "not a study directory (no study.txt written by `rtpar experiment run`)");
  }
  const std::string source = field(text, "source").value_or((dir / "experiment.toml").string());
  Manifest m = parse_manifest(read_text(dir / "experiment.toml"), source);
  return resolve(std::move(m), *scale, std::stoull(*seed));
}

fs::path raw_file_name(const RunConfig& config) {
  if (config.shard) {
    return fs::path("raw") /
           fmt::format("shard-{:04}-of-{:04}.csv", config.shard->index, config.shard->count);
  }
  if (config.point) return fs::path("raw") / fmt::format("point-{:04}.csv", *config.point);
  return fs::path("raw") / "all.csv";
}

RunSummary run_units(const Resolved& r, const RunConfig& config) {
  const auto start = std::chrono::steady_clock::now();
  RunSummary summary;
  summary.raw = config.out / raw_file_name(config);
  // The units this run owns.
  std::vector<std::uint64_t> mine;
  for (std::uint64_t i = 0; i < r.units(); ++i) {
    if (config.shard && i % config.shard->count != config.shard->index) continue;
    if (config.point && r.unit(i).point != *config.point) continue;
    mine.push_back(i);
  }
  summary.selected = mine.size();
  // --resume keeps the complete units of this run's own raw file, rewritten without any partial
  // unit a kill left behind; without it the file starts afresh.
  std::string kept = raw_header(r);
  std::set<std::uint64_t> done;
  // A runtime study's rows are measurements of this machine: its record goes beside the raw file,
  // and a resume on another machine is refused rather than mixing two machines in one file.
  const bool measured = measures(r.manifest);
  const std::string env = measured ? machine_env() : std::string();
  const fs::path env_path = env_file(summary.raw);
  if (measured && config.resume && fs::exists(summary.raw) && fs::exists(env_path) &&
      read_text(env_path) != env) {
    throw InputError({env_path.string(), 1, 1}, "",
                     "this raw file was begun on another machine (or configuration): resume it "
                     "there, or run without --resume");
  }
  if (config.resume && fs::exists(summary.raw)) {
    for (const RawRow& row : read_raw(summary.raw, r)) {
      done.insert(row.unit);
      kept += row.line + "\n";
    }
  }
  write_atomically(summary.raw, kept);
  if (measured) write_atomically(env_path, env);
  std::vector<std::uint64_t> pending;
  for (const std::uint64_t i : mine) {
    if (done.count(i) == 0) pending.push_back(i);
  }
  summary.resumed = mine.size() - pending.size();

  std::FILE* out = std::fopen(summary.raw.c_str(), "ab");
  if (out == nullptr) throw std::runtime_error("cannot append to " + summary.raw.string());
  std::mutex write_mutex;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> finished{0};
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  const auto worker = [&] {
    for (;;) {
      const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= pending.size() || stop.load(std::memory_order_relaxed)) return;
      try {
        const std::string lines = raw_lines(r, run_unit(r, r.unit(pending[k])));
        const std::lock_guard<std::mutex> lock(write_mutex);
        // One unit's rows in one write, flushed: a kill leaves whole units plus at most one cut.
        if (std::fwrite(lines.data(), 1, lines.size(), out) != lines.size() ||
            std::fflush(out) != 0) {
          throw std::runtime_error("cannot write " + summary.raw.string());
        }
      } catch (...) {
        const std::lock_guard<std::mutex> lock(write_mutex);
        if (!error) error = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
        return;
      }
      finished.fetch_add(1, std::memory_order_relaxed);
    }
  };
  const int jobs = std::max(1, std::min<int>(config.jobs, static_cast<int>(pending.size())));
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  if (config.progress) {
    while (finished.load() < pending.size() && !stop.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const std::size_t f = finished.load();
      const double rate = elapsed > 0 ? static_cast<double>(f) / elapsed : 0;
      const std::string eta =
          rate > 0 ? format_eta(static_cast<double>(pending.size() - f) / rate) : "?";
      std::fprintf(stderr, "\r  %zu/%zu units  %.1f/s  ETA %s   ", f, pending.size(), rate,
                   eta.c_str());
    }
    std::fprintf(stderr, "\n");
  }
  for (std::thread& t : threads) t.join();
  std::fclose(out);
  if (error) std::rethrow_exception(error);
  summary.computed = finished.load();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace rtpar::experiment
