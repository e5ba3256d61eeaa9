// isolation.cpp — see isolation.hpp.
#include "platform/isolation.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "platform/interference.hpp"
#include "rtpar/error.hpp"

namespace rtpar::platform {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Setting is one file and the value it had before the isolation.
struct Setting {
  std::string path;
  std::string value;
};

// Record is a restore record's content.
struct Record {
  long pid = 0;
  std::string unmount;  // a debugfs mount point this isolation made, "" when none
  std::vector<Setting> settings;
};

// read_text reads a whole small file with trailing blanks removed; nullopt when unreadable.
std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// write_value writes `value` to a kernel setting file with one write(2), as the kernel expects;
// "" on success, else the error.
std::string write_value(const std::string& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);  // as `echo >` does
  if (fd < 0) return fmt::format("{}: {}", path, std::strerror(errno));
  const std::string line = value + "\n";
  const ssize_t n = ::write(fd, line.data(), line.size());
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(line.size())) {
    return fmt::format("{}: {}", path, n < 0 ? std::strerror(err) : "short write");
  }
  return {};
}

// write_record stores the record durably: a temp file, fsync, rename over the old one.
void write_record(const std::string& dir, const Record& record) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  Json doc = {{"pid", record.pid}, {"unmount", record.unmount}, {"settings", Json::array()}};
  for (const Setting& s : record.settings) {
    doc["settings"].push_back({{"path", s.path}, {"value", s.value}});
  }
  const std::string path = restore_record_path(dir);
  const std::string tmp = path + ".tmp";
  const std::string text = doc.dump(2) + "\n";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  bool ok = fd >= 0;
  if (ok) {
    ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ok = ::fsync(fd) == 0 && ok;
    ok = ::close(fd) == 0 && ok;
  }
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw EnvironmentError(fmt::format("cannot write the restore record {}: {}", path, why),
                           "make the directory writable, or set RTPAR_STATE_DIR to one that is");
  }
}

// read_record parses a record; nullopt when there is none or it is unreadable (then it is left).
std::optional<Record> read_record(const std::string& path) {
  const auto text = read_text(path);
  if (!text) return std::nullopt;
  try {
    const Json doc = Json::parse(*text);
    Record r;
    r.pid = doc.at("pid").get<long>();
    r.unmount = doc.value("unmount", std::string());
    for (const Json& s : doc.at("settings")) {
      r.settings.push_back({s.at("path").get<std::string>(), s.at("value").get<std::string>()});
    }
    return r;
  } catch (const Json::exception& e) {
    std::fprintf(stderr, "rtpar: warning: restore record %s is unreadable (%s); left in place\n",
                 path.c_str(), e.what());
    return std::nullopt;
  }
}

// apply_record writes every old value back (the last change first), unmounts what was mounted,
// and deletes the record; returns the errors, one per line.
std::string apply_record(const Record& record, const std::string& path) {
  std::string errors;
  for (auto it = record.settings.rbegin(); it != record.settings.rend(); ++it) {
    const auto now = read_text(it->path);
    if (now && *now == it->value) continue;  // unchanged (or refused when changed): nothing to do
    const std::string err = write_value(it->path, it->value);
    if (!err.empty()) errors += err + "\n";
  }
  if (!record.unmount.empty() && ::umount2(record.unmount.c_str(), MNT_DETACH) != 0) {
    errors += fmt::format("umount {}: {}\n", record.unmount, std::strerror(errno));
  }
  ::unlink(path.c_str());
  return errors;
}

// process_alive says whether pid still runs (EPERM: it runs under another user).
bool process_alive(long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (const int c : cpus) out += (out.empty() ? "" : ",") + std::to_string(c);
  return out;
}

}  // namespace

std::string state_dir() {
  const char* env = std::getenv("RTPAR_STATE_DIR");
  return env != nullptr && *env != '\0' ? std::string(env) : std::string(kDefaultStateDir);
}

std::string restore_record_path(const std::string& dir) { return join_path(dir, "restore.json"); }

std::string IsolationOutcome::summary() const {
  std::string out = fair_server_zeroed.empty() ? "fair server not changed"
                                               : fmt::format("fair server runtime 0 on CPUs {}",
                                                             cpu_list(fair_server_zeroed));
  if (fair_server_error) out += fmt::format(" (failed: {})", *fair_server_error);
  out += rt_throttling_off ? "; RT throttling off" : "; RT throttling on";
  if (rt_throttling_error) out += fmt::format(" (failed: {})", *rt_throttling_error);
  if (!irq_note.empty()) {
    out += "; IRQs not moved: " + irq_note;
  } else {
    out +=
        fmt::format("; {} IRQs moved off the real-time CPUs, {} refused", irqs_moved, irqs_refused);
  }
  return out;
}

Isolation::Isolation(IsolationConfig config) : config_(std::move(config)) {
  const bool real = config_.root == "/";
  if (real && ::geteuid() != 0) {
    throw EnvironmentError("isolating the real-time cores needs root",
                           "run as root, or drop --isolate / [system] isolate (the plan then "
                           "states the kernel's interference)");
  }
  const std::string record_path = restore_record_path(config_.state_dir);
  if (const auto held = read_record(record_path); held && process_alive(held->pid)) {
    throw EnvironmentError(
        fmt::format("another process (pid {}) holds the isolation record {}", held->pid,
                    record_path),
        "wait for that run to end; a record of a dead process is applied by the next run");
  }
  Record record;
  record.pid = static_cast<long>(::getpid());

  // Where the fair server lives; mount debugfs if it is not there (recorded first, to undo).
  const std::string fair_dir = join_path(config_.root, kFairServerDir);
  const std::string debugfs = join_path(config_.root, "sys/kernel/debug");
  if (real && config_.mount_debugfs && !fs::exists(fair_dir) && fs::is_directory(debugfs) &&
      fs::is_empty(debugfs)) {
    record.unmount = debugfs;
    write_record(config_.state_dir, record);
    if (::mount("none", debugfs.c_str(), "debugfs", 0, nullptr) != 0) record.unmount.clear();
  }

  // Every old value, before any change.
  std::vector<std::string> fair_files;
  for (const int cpu : config_.rt_cpus) {
    fair_files.push_back(fmt::format("{}/cpu{}/runtime", fair_dir, cpu));
  }
  const std::string rt_file = join_path(config_.root, kRtRuntimeFile);
  std::vector<std::string> irq_files;
  if (config_.housekeeping_cpus.empty()) {
    outcome_.irq_note = "no non-real-time CPU to move them to";
  } else {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(join_path(config_.root, "proc/irq"), ec)) {
      const std::string file = entry.path().string() + "/smp_affinity_list";
      if (entry.is_directory() && fs::exists(file)) irq_files.push_back(file);
    }
    if (ec) outcome_.irq_note = "/proc/irq unreadable: " + ec.message();
  }
  std::vector<std::string> all = fair_files;
  all.push_back(rt_file);
  all.insert(all.end(), irq_files.begin(), irq_files.end());
  for (const std::string& path : all) {
    if (const auto value = read_text(path)) record.settings.push_back({path, *value});
  }
  write_record(config_.state_dir, record);

  // The changes, each where permitted.
  for (std::size_t k = 0; k < fair_files.size(); ++k) {
    const std::string err = write_value(fair_files[k], "0");
    if (err.empty()) {
      outcome_.fair_server_zeroed.push_back(config_.rt_cpus[k]);
    } else if (!outcome_.fair_server_error) {
      outcome_.fair_server_error = err;
    }
  }
  if (const auto now = read_text(rt_file); now && *now == "-1") {
    outcome_.rt_throttling_off = true;
  } else if (const std::string err = write_value(rt_file, "-1"); err.empty()) {
    outcome_.rt_throttling_off = true;
  } else {
    outcome_.rt_throttling_error = err;
  }
  const std::string target = cpu_list(config_.housekeeping_cpus);
  for (const std::string& file : irq_files) {
    if (write_value(file, target).empty()) {
      ++outcome_.irqs_moved;
    } else {
      ++outcome_.irqs_refused;
    }
  }
  if (outcome_.fair_server_zeroed.empty() && !outcome_.rt_throttling_off &&
      outcome_.irqs_moved == 0) {
    const std::string summary = outcome_.summary();
    restore();
    throw EnvironmentError("could not isolate the real-time cores: " + summary,
                           "run as root on a kernel that lets root write debugfs and "
                           "/proc/sys/kernel/sched_rt_runtime_us, or drop --isolate");
  }
}

Isolation::~Isolation() { restore(); }

void Isolation::restore() noexcept {
  if (restored_) return;
  restored_ = true;
  try {
    const std::string path = restore_record_path(config_.state_dir);
    if (const auto record = read_record(path)) {
      const std::string errors = apply_record(*record, path);
      if (!errors.empty()) {
        std::fprintf(stderr, "rtpar: warning: could not restore every setting:\n%s",
                     errors.c_str());
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rtpar: warning: restoring the isolation failed: %s\n", e.what());
  }
}

std::string apply_leftover_record(const std::string& dir) {
  const std::string path = restore_record_path(dir);
  const auto record = read_record(path);
  if (!record || process_alive(record->pid)) return {};
  const std::string errors = apply_record(*record, path);
  std::string out = fmt::format(
      "restored {} setting(s) from {}: left by rtpar run pid {}, which ended without restoring "
      "them",
      record->settings.size(), path, record->pid);
  if (!errors.empty()) out += "; errors:\n" + errors;
  return out;
}

}  // namespace rtpar::platform
