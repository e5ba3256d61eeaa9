// atomic_file.cpp — see atomic_file.hpp.
#include "cli/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

#include "rtpar/error.hpp"

namespace rtpar::cli {

namespace {

// directory_of is the directory part of path ("." when it has none).
std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

void check_writable_file(const std::string& path, const std::string& option) {
  const SourceLocation cli{"<command line>", 0, 0};
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw InputError(cli, option, "'" + path + "' is a directory (expected a file name)");
  }
  const std::string dir = directory_of(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw InputError(cli, option, "'" + path + "': directory '" + dir + "' does not exist");
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    throw InputError(cli, option, "'" + path + "': directory '" + dir + "' is not writable");
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp.XXXXXX";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot create " + tmp);
  tmp = name.data();
  int err = 0;
  std::size_t done = 0;
  while (err == 0 && done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      err = errno;
    else
      done += static_cast<std::size_t>(n);
  }
  // mkstemp creates 0600; the profile is an ordinary output file, readable like `rtpar run`'s.
  if (err == 0 && ::fchmod(fd, 0644) != 0) err = errno;
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    throw std::system_error(err, std::generic_category(), "cannot write " + path);
  }
}

}  // namespace rtpar::cli
