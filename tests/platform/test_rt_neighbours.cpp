// test_rt_neighbours.cpp — rt_neighbours finds another process's SCHED_FIFO thread, names it, and
// never lists the calling process itself.
#include <doctest/doctest.h>

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "platform/rt_neighbours.hpp"
#include "support/skip.hpp"

using rtpar::detail::rt_neighbours;

TEST_CASE("rt neighbours: a child at SCHED_FIFO is listed, the caller is not") {
  int ready[2];
  int release[2];
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(release) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child raises itself to SCHED_FIFO 1, says whether it could, and waits to be released.
    sched_param p{};
    p.sched_priority = 1;
    const char ok = sched_setscheduler(0, SCHED_FIFO, &p) == 0 ? 'y' : 'n';
    (void)!write(ready[1], &ok, 1);
    char c = 0;
    (void)!read(release[0], &c, 1);
    _exit(0);
  }
  char ok = 0;
  REQUIRE(read(ready[0], &ok, 1) == 1);
  const auto list = rt_neighbours();
  const char go = 'x';
  (void)!write(release[1], &go, 1);
  int status = 0;
  waitpid(child, &status, 0);
  for (int fd : {ready[0], ready[1], release[0], release[1]}) close(fd);

  CHECK(std::none_of(list.begin(), list.end(),
                     [](const auto& n) { return n.pid == static_cast<int>(getpid()); }));
  if (ok != 'y') {
    RTPAR_SKIP("SCHED_FIFO refused here (no privilege): only the negative half was checked");
  }
  const auto it = std::find_if(list.begin(), list.end(),
                               [&](const auto& n) { return n.pid == static_cast<int>(child); });
  REQUIRE(it != list.end());
  CHECK(it->threads == 1);
  CHECK(!it->command.empty());
}
