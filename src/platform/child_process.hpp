// child_process.hpp — running one program as a child: stdout captured, stderr shared,
// environment overridden, killed after a timeout. Used by rtpar-bench for its bench programs and
// by `rtpar experiment` for a bench study's driver runs (experiment/bench_trial.cpp).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace rtpar::platform {

// ChildOutcome is what a child left: its stdout and wait status, or why it never ran.
struct ChildOutcome {
  std::string out;
  int status = 0;
  bool timed_out = false;
  std::string spawn_error;

  // failure says why the child produced no usable output, or "" if it exited 0.
  [[nodiscard]] std::string failure(int timeout_s) const {
    if (!spawn_error.empty()) return "cannot start: " + spawn_error;
    if (timed_out) return "killed after " + std::to_string(timeout_s) + " s (timeout)";
    if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
    if (WEXITSTATUS(status) != 0) return "exit status " + std::to_string(WEXITSTATUS(status));
    return {};
  }
};

// child_environment is our environment with every NAME of `overrides` (NAME=VALUE) replaced.
inline std::vector<std::string> child_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv = *e;
    bool replaced = false;
    for (const std::string& o : overrides) {
      const std::string name = o.substr(0, o.find('=') + 1);
      replaced = replaced || kv.compare(0, name.size(), name) == 0;
    }
    if (!replaced) env.push_back(kv);
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

// run_child runs path with args and the environment overrides; it is killed (SIGKILL) if it has
// not closed its stdout after timeout_s.
inline ChildOutcome run_child(const std::string& path, const std::vector<std::string>& args,
                              const std::vector<std::string>& env_overrides, int timeout_s) {
  ChildOutcome res;
  std::vector<std::string> argv_s{path};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<std::string> env_s = child_environment(env_overrides);
  std::vector<char*> argv, envp;
  for (std::string& s : argv_s) argv.push_back(s.data());
  for (std::string& s : env_s) envp.push_back(s.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    res.spawn_error = std::strerror(errno);
    return res;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);  // dup2 clears CLOEXEC
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    res.spawn_error = std::strerror(rc);
    return res;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  char buf[1 << 14];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    pollfd p{fds[0], POLLIN, 0};
    const int ready = left > 0 ? poll(&p, 1, static_cast<int>(left)) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      kill(pid, SIGKILL);
      res.timed_out = true;
      break;
    }
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    res.out.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  while (waitpid(pid, &res.status, 0) < 0 && errno == EINTR) {
  }
  return res;
}

}  // namespace rtpar::platform
