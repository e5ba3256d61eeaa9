// write_dir.cpp — `rtpar run --out DIR`: report.json, jobs.csv and trace.json, never half-written.
#include <fcntl.h>
#include <unistd.h>

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

// TempFiles owns the temporary files of one write and removes every one not yet renamed into
// place, whichever way the write ends (error, exception or success).
class TempFiles {
 public:
  TempFiles() = default;
  TempFiles(const TempFiles&) = delete;
  TempFiles& operator=(const TempFiles&) = delete;
  ~TempFiles() {
    for (const fs::path& path : paths_) {
      std::error_code ignored;
      fs::remove(path, ignored);
    }
  }
  // add takes ownership of a created temporary file.
  void add(fs::path path) { paths_.push_back(std::move(path)); }
  // release gives up ownership once the file has been renamed (it no longer exists as a temp).
  void release(const fs::path& path) { std::erase(paths_, path); }

 private:
  std::vector<fs::path> paths_;
};

// temp_name is unique per process and call: O_EXCL then guarantees we only ever write (and later
// remove) a file we created, even if another rtpar writes into the same directory.
fs::path temp_name(const fs::path& dir, std::string_view name) {
  static std::atomic<unsigned> counter{0};
  return dir / fmt::format(".{}.tmp.{}.{}", name, ::getpid(), counter.fetch_add(1));
}

// write_new_file creates path (which must not exist) and writes text to it. Returns 0 or errno.
// POSIX calls rather than iostreams: only they report why a write failed (ENOSPC, EACCES, ...).
int write_new_file(const fs::path& path, std::string_view text, TempFiles& temps) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return errno;
  temps.add(path);
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
  // close can report a deferred write error (e.g. on NFS), so its result counts too.
  return ::close(fd) == 0 ? 0 : errno;
}

// with_newline ends a text file properly without copying it (a trace can be hundreds of MB).
std::string with_newline(std::string text) {
  text += '\n';
  return text;
}

}  // namespace

void write_report_dir(const RunReport& report, const std::string& dir) {
  auto fail = [&](const std::string& message) {
    return InputError(SourceLocation{dir, 0, 0}, "--out", message);
  };

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw fail(fmt::format("cannot create report directory: {}", ec.message()));
  if (!fs::is_directory(dir, ec)) throw fail("exists and is not a directory");

  // Everything is rendered before anything is written, and every temporary is complete before the
  // first rename: whatever fails, each of the three files is either its old or its new version,
  // complete, and never a partial one.
  struct Output {
    const char* name;
    std::string text;
    fs::path temp;
  };
  // The JSON renderers end without a newline (the CLI prints them with one); files get one.
  Output outputs[] = {
      {"report.json", with_newline(report_json(report)), {}},
      {"jobs.csv", jobs_csv(report), {}},
      {"trace.json", with_newline(trace_json(report)), {}},
  };

  TempFiles temps;
  for (Output& out : outputs) {
    out.temp = temp_name(dir, out.name);
    if (const int error = write_new_file(out.temp, out.text, temps); error != 0) {
      throw fail(
          fmt::format("cannot write {}: {}", out.name, std::generic_category().message(error)));
    }
  }
  for (Output& out : outputs) {
    fs::rename(out.temp, fs::path(dir) / out.name, ec);
    if (ec) throw fail(fmt::format("cannot replace {}: {}", out.name, ec.message()));
    temps.release(out.temp);
  }
}

}  // namespace rtpar
