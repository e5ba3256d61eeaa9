// write_dir.cpp — `rtpar run --out DIR`: report.json, jobs.csv and trace.json, replaced as a set.
//
// Design (docs/internals/executor.md, "Report directory"): the three files of a run are written,
// complete and synced, into a fresh directory beside DIR, which is then swapped with DIR in one
// renameat2(RENAME_EXCHANGE); the old reports, now under the temporary name, are removed. A
// reader, a crash or a failed write therefore only ever sees DIR with all the files of one run:
// the old set until the exchange, the new set after it. Per-file renames cannot give that (a
// failure or a kill between two renames leaves report.json of one run beside jobs.csv of
// another), and a manifest renamed last would need every reader — Perfetto, scripts, `check
// --measured` — to check it. The price: DIR is replaced as a whole, so it may hold nothing but
// reports, its parent must be writable, and it cannot be a mount point or the current directory;
// prepare_report_dir checks all that before the run. Filesystems without RENAME_EXCHANGE fall
// back to two renames (DIR aside, new into place): DIR is then briefly absent, never mixed.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "rtpar/error.hpp"
#include "rtpar/report.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar {
namespace {

namespace fs = std::filesystem;

// kReportFiles are the files of one run, written here.
constexpr std::array<std::string_view, 3> kReportFiles = {"report.json", "jobs.csv", "trace.json"};

// kPlotFiles are what `rtpar plot DIR` draws beside them (tools/plot_run.py): a report directory
// may hold them too, and they go with the run they were drawn from when the next run replaces it.
constexpr std::array<std::string_view, 3> kPlotFiles = {"histogram.png", "response.png",
                                                        "timeline.png"};

// is_report_file says whether name is one of kReportFiles or kPlotFiles: the only entries a
// report directory may hold.
bool is_report_file(std::string_view name) {
  return std::find(kReportFiles.begin(), kReportFiles.end(), name) != kReportFiles.end() ||
         std::find(kPlotFiles.begin(), kPlotFiles.end(), name) != kPlotFiles.end();
}

InputError bad_dir(const std::string& dir, const std::string& message) {
  return InputError(SourceLocation{dir, 0, 0}, "--out", message);
}

[[noreturn]] void fail_io(int error, const std::string& what) {
  throw std::system_error(error, std::generic_category(), what);
}

// ReportDir is a report directory resolved for the swap: its real path (symbolic links followed,
// so the swap replaces the directory, not a link to it) and its parent.
struct ReportDir {
  fs::path real;
  fs::path parent;
  struct stat info {};
};

// resolve_report_dir creates dir if needed and checks that it can be replaced as a whole.
ReportDir resolve_report_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw bad_dir(dir, "cannot create the report directory: " + ec.message());
  if (!fs::is_directory(dir, ec)) throw bad_dir(dir, "exists and is not a directory");
  ReportDir out;
  out.real = fs::canonical(dir, ec);
  if (ec) throw bad_dir(dir, "cannot resolve the report directory: " + ec.message());
  out.parent = out.real.parent_path();
  if (out.real == out.parent) throw bad_dir(dir, "the root directory cannot be a report directory");
  for (const fs::directory_entry& entry : fs::directory_iterator(out.real, ec)) {
    const std::string name = entry.path().filename().string();
    std::error_code type_error;
    if (!is_report_file(name) || !entry.is_regular_file(type_error) ||
        entry.is_symlink(type_error)) {
      throw bad_dir(dir, "holds '" + name +
                             "', which is not an rtpar report: the reports replace the directory "
                             "as a whole, so --out needs a directory of its own");
    }
  }
  if (ec) throw bad_dir(dir, "cannot list the report directory: " + ec.message());
  struct stat parent_info {};
  struct stat cwd_info {};
  if (::stat(out.real.c_str(), &out.info) != 0 || ::stat(out.parent.c_str(), &parent_info) != 0) {
    throw bad_dir(dir, fmt::format("cannot stat the report directory: {}",
                                   std::generic_category().message(errno)));
  }
  if (out.info.st_dev != parent_info.st_dev) {
    throw bad_dir(dir, "is a mount point: the reports are swapped in by a rename within its "
                       "parent's filesystem; use a directory below it");
  }
  if (::stat(".", &cwd_info) == 0 && cwd_info.st_dev == out.info.st_dev &&
      cwd_info.st_ino == out.info.st_ino) {
    throw bad_dir(dir, "is the current directory, which the reports would replace; name a "
                       "directory below it (e.g. --out results)");
  }
  if (::access(out.parent.c_str(), W_OK) != 0) {
    throw bad_dir(dir, "its parent " + out.parent.string() +
                           " is not writable: the reports are written beside the directory, "
                           "then swapped in");
  }
  return out;
}

// StagingDir owns the directory the new reports are written into, beside the report directory,
// and removes it with the files it created (and nothing else) unless it was swapped in.
class StagingDir {
 public:
  explicit StagingDir(fs::path path) : path_(std::move(path)) {}
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;
  ~StagingDir() {
    if (!owned_) return;
    for (const fs::path& file : files_) ::unlink(file.c_str());
    ::rmdir(path_.c_str());
  }
  [[nodiscard]] const fs::path& path() const { return path_; }
  // created records the directory itself (after mkdir) and each file in it (after open).
  void created() { owned_ = true; }
  void created(fs::path file) { files_.push_back(std::move(file)); }
  // swapped gives up ownership: the directory now is the report directory.
  void swapped() { owned_ = false; }

 private:
  fs::path path_;
  std::vector<fs::path> files_;
  bool owned_ = false;
};

// sibling_name is a name beside the report directory, unique per process and call.
fs::path sibling_name(const ReportDir& dir, std::string_view role) {
  static std::atomic<unsigned> counter{0};
  // relaxed: a unique number per call; it orders nothing.
  const unsigned n = counter.fetch_add(1, std::memory_order_relaxed);
  return dir.parent / fmt::format(".{}.rtpar-{}.{}.{}", dir.real.filename().string(), role,
                                  ::getpid(), n);
}

// write_file creates path (which must not exist), writes text and syncs it. Returns 0 or errno.
// POSIX calls rather than iostreams: only they report why a write failed (EFBIG, ENOSPC, ...).
int write_file(const fs::path& path, std::string_view text, StagingDir& staging) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return errno;
  staging.created(path);
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return error;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  // fsync before the swap: the new set is on disk before it becomes visible, and fsync and close
  // report deferred write errors (delayed allocation, NFS), which must count too.
  const int synced = ::fsync(fd) == 0 ? 0 : errno;
  const int closed = ::close(fd) == 0 ? 0 : errno;
  return synced != 0 ? synced : closed;
}

// sync_dir makes the entries of a directory durable (best effort: a failure loses no data).
void sync_dir(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// remove_old_reports removes the report files of the previous run (now under `old`), its plots,
// and `old` itself; only names of kReportFiles and kPlotFiles are unlinked, so nothing else can
// ever be deleted.
void remove_old_reports(const fs::path& old) {
  for (const std::string_view name : kReportFiles) ::unlink((old / name).c_str());
  for (const std::string_view name : kPlotFiles) ::unlink((old / name).c_str());
  ::rmdir(old.c_str());
}

// swap_in makes staging the report directory (see the file comment). Returns 0 or errno, with
// the report directory unchanged on failure.
int swap_in(const ReportDir& dir, StagingDir& staging) {
  if (::renameat2(AT_FDCWD, staging.path().c_str(), AT_FDCWD, dir.real.c_str(),
                  RENAME_EXCHANGE) == 0) {
    staging.swapped();
    remove_old_reports(staging.path());
    return 0;
  }
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return errno;
  // No RENAME_EXCHANGE here: move the old set aside, then the new one into place.
  const fs::path aside = sibling_name(dir, "old");
  if (::rename(dir.real.c_str(), aside.c_str()) != 0) return errno;
  if (::rename(staging.path().c_str(), dir.real.c_str()) != 0) {
    const int error = errno;
    ::rename(aside.c_str(), dir.real.c_str());  // put the old set back
    return error;
  }
  staging.swapped();
  remove_old_reports(aside);
  return 0;
}

// with_newline ends a text file properly without copying it (a trace can be hundreds of MB).
std::string with_newline(std::string text) {
  text += '\n';
  return text;
}

}  // namespace

void prepare_report_dir(const std::string& dir) { (void)resolve_report_dir(dir); }

void write_report_dir(const RunReport& report, const std::string& dir) {
  const ReportDir target = resolve_report_dir(dir);

  // Everything is rendered before anything is written. The JSON renderers end without a newline
  // (the CLI prints them with one); files get one. Same order as kReportFiles.
  const std::array<std::string, kReportFiles.size()> texts = {
      with_newline(report_json(report)), jobs_csv(report), with_newline(trace_json(report))};

  StagingDir staging(sibling_name(target, "new"));
  if (::mkdir(staging.path().c_str(), 0700) != 0) {
    fail_io(errno, fmt::format("{}: cannot create {}", dir, staging.path().string()));
  }
  staging.created();
  for (std::size_t i = 0; i < kReportFiles.size(); ++i) {
    if (const int error = write_file(staging.path() / kReportFiles[i], texts[i], staging);
        error != 0) {
      fail_io(error, fmt::format("{}: cannot write {}", dir, kReportFiles[i]));
    }
  }
  // The new directory gets the old one's permissions: replacing it changes nothing else.
  ::chmod(staging.path().c_str(), target.info.st_mode & 07777);
  sync_dir(staging.path());
  if (const int error = swap_in(target, staging); error != 0) {
    fail_io(error, fmt::format("{}: cannot swap in the new reports", dir));
  }
  sync_dir(target.parent);
}

}  // namespace rtpar
