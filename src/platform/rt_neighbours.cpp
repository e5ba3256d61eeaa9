// rt_neighbours.cpp — see rt_neighbours.hpp.
#include "platform/rt_neighbours.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace rtpar::detail {

namespace {

// read_file is the whole file, or "" when it cannot be read (a process that just exited). POSIX
// reads, not an ifstream: a /proc file of a process that exits between open and read fails with
// ESRCH, and libstdc++'s filebuf throws on a read error whatever the stream's exception mask (seen
// as exit 70 of `rtpar experiment run` while other test processes came and went).
std::string read_file(const std::filesystem::path& p) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      if (n < 0) out.clear();  // a partial file is no file (the process is gone)
      break;
    }
  }
  ::close(fd);
  return out;
}

// policy_of is field 41 of a /proc/.../stat line (proc(5): `policy`), or -1. The command name
// (field 2) is parenthesised and may hold spaces and ')' itself, so fields are counted after the
// last ')'; the first field after it is field 3.
int policy_of(const std::string& stat) {
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 41; ++i) {
    if (!(fields >> field)) return -1;
  }
  return std::atoi(field.c_str());
}

}  // namespace

std::vector<RtNeighbour> rt_neighbours() {
  namespace fs = std::filesystem;
  std::vector<RtNeighbour> out;
  const int self = static_cast<int>(getpid());
  std::error_code ec;
  for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int pid = std::atoi(name.c_str());
    if (pid == self) continue;
    const std::string cmdline = read_file(it->path() / "cmdline");
    if (cmdline.empty()) continue;  // a kernel thread (or gone): part of the machine
    int rt = 0;
    std::error_code task_ec;
    for (fs::directory_iterator t(it->path() / "task", task_ec), tend; !task_ec && t != tend;
         t.increment(task_ec)) {
      const int policy = policy_of(read_file(t->path() / "stat"));
      // SCHED_FIFO 1, SCHED_RR 2, SCHED_DEADLINE 6 (sched(7)).
      if (policy == 1 || policy == 2 || policy == 6) ++rt;
    }
    if (rt > 0) out.push_back(RtNeighbour{pid, cmdline.substr(0, cmdline.find('\0')), rt});
  }
  return out;
}

}  // namespace rtpar::detail
