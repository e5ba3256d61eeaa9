// test_topology.cpp — the machine a plan is made for (rtpar/tools/topology.hpp): `--target` specs, the
// task set's cores and sockets, and hwloc on this machine.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/topology.hpp"

TEST_CASE("topology: --target 40c4s is 4 sockets of 10 consecutive CPU ids") {
  const rtpar::Topology t = rtpar::parse_target("40c4s");
  REQUIRE(t.sockets.size() == 4);
  CHECK(t.size() == 40);
  for (int s = 0; s < 4; ++s) {
    std::vector<int> expected;
    for (int c = 0; c < 10; ++c) expected.push_back(10 * s + c);
    CHECK(t.sockets[static_cast<std::size_t>(s)] == expected);
  }
  CHECK(t.socket_of(0) == 0);
  CHECK(t.socket_of(9) == 0);
  CHECK(t.socket_of(10) == 1);
  CHECK(t.socket_of(39) == 3);
  CHECK(t.socket_of(40) == -1);
  CHECK(t.socket_of(-1) == -1);
  const std::vector<int> all = t.cpus();
  REQUIRE(all.size() == 40);
  CHECK(all.front() == 0);
  CHECK(all.back() == 39);
  CHECK(std::is_sorted(all.begin(), all.end()));
}

TEST_CASE("topology: --target boundaries") {
  // "8c" is one socket; "1c" the smallest machine; "8c8s" one core per socket (S = N).
  const rtpar::Topology eight = rtpar::parse_target("8c");
  REQUIRE(eight.sockets.size() == 1);
  CHECK(eight.sockets[0].size() == 8);
  CHECK(rtpar::parse_target("1c").size() == 1);
  const rtpar::Topology spread = rtpar::parse_target("8c8s");
  REQUIRE(spread.sockets.size() == 8);
  CHECK(spread.sockets[7] == std::vector<int>{7});
  CHECK(rtpar::parse_target("8c1s").sockets.size() == 1);
  // Malformed, zero, uneven (40/3) and too many sockets are InputErrors naming --target.
  for (const char* bad : {"", "40", "40c3s", "0c", "4c0s", "4c8s", "c4s", "40c4", "40c4sx", "-4c",
                          "4 c", "4c-2s", "99999999999999999999c", "8193c"}) {
    CAPTURE(bad);
    try {
      (void)rtpar::parse_target(bad);
      FAIL("accepted");
    } catch (const rtpar::InputError& e) {
      CHECK(e.field() == "--target");
      CHECK(std::string(e.what()).find(bad) != std::string::npos);
    }
  }
}

TEST_CASE("topology: the task set's cores split over its sockets") {
  rtpar::SystemSpec sys;
  sys.cores = {0, 1, 2, 3, 4};
  sys.sockets = 2;
  // 5 cores over 2 sockets: the first socket gets the extra core.
  rtpar::Topology s = rtpar::system_topology(sys);
  REQUIRE(s.sockets.size() == 2);
  CHECK(s.sockets[0] == std::vector<int>{0, 1, 2});
  CHECK(s.sockets[1] == std::vector<int>{3, 4});
  // `cores = 40, sockets = 4` in a file: ids 0..39, 10 per socket, as parse_target("40c4s").
  sys.cores.clear();
  for (int c = 0; c < 40; ++c) sys.cores.push_back(c);
  sys.sockets = 4;
  CHECK(rtpar::system_topology(sys).sockets == rtpar::parse_target("40c4s").sockets);
  // One socket by default; more sockets than cores is clamped to one core per socket.
  sys.cores = {2, 3};
  sys.sockets = 1;
  s = rtpar::system_topology(sys);
  REQUIRE(s.sockets.size() == 1);
  CHECK(s.sockets[0] == std::vector<int>{2, 3});
  sys.sockets = 5;
  CHECK(rtpar::system_topology(sys).sockets.size() == 2);
  sys.cores.clear();
  CHECK(rtpar::system_topology(sys).size() == 0);
}

TEST_CASE("topology: hwloc on this machine, restricted to the CPUs this process may use") {
  const rtpar::Topology here = rtpar::detect_topology();
  CHECK(here.size() >= 1);
  const std::vector<int> allowed = rtpar::online_cpus();
  std::set<int> seen;
  for (const auto& socket : here.sockets) {
    CHECK_FALSE(socket.empty());
    CHECK(std::is_sorted(socket.begin(), socket.end()));
    for (const int cpu : socket) {
      CHECK(seen.insert(cpu).second);  // no CPU twice
      CHECK(std::binary_search(allowed.begin(), allowed.end(), cpu));
      CHECK(here.socket_of(cpu) >= 0);
    }
  }
  CHECK(here.cpus().size() == here.size());
}
