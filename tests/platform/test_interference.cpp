// test_interference.cpp — reading the fair server and RT throttling (src/platform/interference.hpp)
// from a fake /sys and /proc tree under a temp directory.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "platform/interference.hpp"

namespace fs = std::filesystem;
using rtpar::platform::read_sched_interference;
using rtpar::platform::SchedInterference;

namespace {

// FakeRoot is a temp directory standing for "/", removed with its contents.
struct FakeRoot {
  fs::path path;
  FakeRoot() {
    static int counter = 0;
    path = fs::temp_directory_path() / ("rtpar_test_interference_" + std::to_string(::getpid()) +
                                        "_" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~FakeRoot() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  void write(const std::string& relative, const std::string& text) const {
    fs::create_directories((path / relative).parent_path());
    std::ofstream(path / relative) << text;
  }
  void fair(int cpu, const std::string& runtime, const std::string& period) const {
    write("sys/kernel/debug/sched/fair_server/cpu" + std::to_string(cpu) + "/runtime", runtime);
    write("sys/kernel/debug/sched/fair_server/cpu" + std::to_string(cpu) + "/period", period);
  }
  void rt(const std::string& runtime, const std::string& period) const {
    write("proc/sys/kernel/sched_rt_runtime_us", runtime);
    write("proc/sys/kernel/sched_rt_period_us", period);
  }
};

}  // namespace

TEST_CASE("interference: Linux defaults read from both sources") {
  FakeRoot root;
  root.fair(0, "50000000\n", "1000000000\n");
  root.fair(1, "50000000\n", "1000000000\n");
  root.rt("950000\n", "1000000\n");
  const SchedInterference s = read_sched_interference(root.path.string(), {0, 1});
  CHECK(s.known);
  CHECK(s.budget_ns == 50'000'000);
  CHECK(s.period_ns == 1'000'000'000);
  REQUIRE(s.fair_server.size() == 2);
  CHECK(s.fair_server[1].cpu == 1);
  REQUIRE(s.rt_throttling);
  CHECK(s.rt_throttling->runtime_us == 950000);
  CHECK(s.source.find("fair server [cpu0 50000000/1000000000 ns") != std::string::npos);
}

TEST_CASE("interference: the largest budget and the shortest period over CPUs and sources") {
  FakeRoot root;
  root.fair(0, "20000000", "500000000");
  root.fair(1, "70000000", "1000000000");
  root.rt("-1", "1000000");  // throttling off: no contribution
  const SchedInterference s = read_sched_interference(root.path.string(), {0, 1});
  CHECK(s.known);
  CHECK(s.budget_ns == 70'000'000);
  CHECK(s.period_ns == 500'000'000);
  CHECK(s.source.find("RT throttling off") != std::string::npos);
}

TEST_CASE("interference: zero runtime and throttling off mean none") {
  FakeRoot root;
  root.fair(0, "0", "1000000000");
  root.rt("-1", "1000000");
  const SchedInterference s = read_sched_interference(root.path.string(), {0});
  CHECK(s.known);
  CHECK(s.budget_ns == 0);
  CHECK(s.period_ns == 0);
}

TEST_CASE("interference: missing or malformed files are unknown, with the reason, not guessed") {
  FakeRoot root;
  root.rt("950000", "1000000");
  const SchedInterference no_debugfs = read_sched_interference(root.path.string(), {0});
  CHECK_FALSE(no_debugfs.known);
  REQUIRE(no_debugfs.fair_server_unknown);
  CHECK(no_debugfs.fair_server_unknown->find("cpu0/runtime") != std::string::npos);
  CHECK(no_debugfs.budget_ns == 50'000'000);  // RT throttling's share is still known
  CHECK(no_debugfs.source.find("fair server unknown") != std::string::npos);

  root.fair(0, "50000000", "fast");
  const SchedInterference bad = read_sched_interference(root.path.string(), {0});
  CHECK_FALSE(bad.known);
  REQUIRE(bad.fair_server_unknown);
  CHECK(bad.fair_server_unknown->find("not an integer: 'fast'") != std::string::npos);

  FakeRoot empty;
  const SchedInterference nothing = read_sched_interference(empty.path.string(), {0});
  CHECK_FALSE(nothing.known);
  CHECK_FALSE(nothing.rt_throttling);
  CHECK(nothing.budget_ns == 0);
  CHECK(nothing.source.find("RT throttling unknown") != std::string::npos);
}
