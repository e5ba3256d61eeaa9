// test_isolation.cpp — isolating and restoring (src/platform/isolation.hpp) on a fake /sys and
// /proc tree: the restore record, every setting back after the guard, a leftover record of a dead
// process applied once, and a live holder refused.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "platform/isolation.hpp"
#include "rtpar/error.hpp"

namespace fs = std::filesystem;
using rtpar::platform::apply_leftover_record;
using rtpar::platform::Isolation;
using rtpar::platform::IsolationConfig;
using rtpar::platform::restore_record_path;

namespace {

struct FakeMachine {
  fs::path root;
  fs::path state;
  FakeMachine() {
    static int counter = 0;
    root = fs::temp_directory_path() /
           ("rtpar_test_isolation_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(root);
    state = root / "state";
    put("sys/kernel/debug/sched/fair_server/cpu0/runtime", "50000000");
    put("sys/kernel/debug/sched/fair_server/cpu0/period", "1000000000");
    put("sys/kernel/debug/sched/fair_server/cpu1/runtime", "50000000");
    put("proc/sys/kernel/sched_rt_runtime_us", "950000");
    put("proc/irq/24/smp_affinity_list", "0-2");
    put("proc/irq/25/smp_affinity_list", "0-2");
    // A per-CPU IRQ whose affinity cannot be written: a directory where the file would be.
    fs::create_directories(root / "proc/irq/0/smp_affinity_list");
  }
  ~FakeMachine() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
  void put(const std::string& relative, const std::string& text) const {
    fs::create_directories((root / relative).parent_path());
    std::ofstream(root / relative) << text << "\n";
  }
  std::string get(const std::string& relative) const {
    std::ifstream in(root / relative);
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }
  IsolationConfig config() const {
    IsolationConfig c;
    c.root = root.string();
    c.state_dir = state.string();
    c.rt_cpus = {0, 1};
    c.housekeeping_cpus = {2};
    c.mount_debugfs = false;
    return c;
  }
  bool record() const { return fs::exists(restore_record_path(state.string())); }
  void check_restored() const {
    CHECK(get("sys/kernel/debug/sched/fair_server/cpu0/runtime") == "50000000");
    CHECK(get("sys/kernel/debug/sched/fair_server/cpu1/runtime") == "50000000");
    CHECK(get("proc/sys/kernel/sched_rt_runtime_us") == "950000");
    CHECK(get("proc/irq/24/smp_affinity_list") == "0-2");
    CHECK(get("proc/irq/25/smp_affinity_list") == "0-2");
  }
};

}  // namespace

TEST_CASE("isolation: changes under the guard, every setting back after it, record gone") {
  FakeMachine m;
  {
    Isolation guard(m.config());
    CHECK(m.record());
    CHECK(m.get("sys/kernel/debug/sched/fair_server/cpu0/runtime") == "0");
    CHECK(m.get("sys/kernel/debug/sched/fair_server/cpu1/runtime") == "0");
    CHECK(m.get("proc/sys/kernel/sched_rt_runtime_us") == "-1");
    CHECK(m.get("proc/irq/24/smp_affinity_list") == "2");
    const auto& done = guard.outcome();
    CHECK(done.complete());
    CHECK(done.fair_server_zeroed == std::vector<int>{0, 1});
    CHECK(done.irqs_moved == 2);
    CHECK(done.irqs_refused == 1);
    CHECK(done.summary().find("2 IRQs moved") != std::string::npos);
    guard.restore();
    m.check_restored();
    CHECK_FALSE(m.record());
    guard.restore();  // a second restore does nothing
  }
  m.check_restored();
}

TEST_CASE("isolation: a missing fair server is reported, the rest still isolated") {
  FakeMachine m;
  IsolationConfig c = m.config();
  c.rt_cpus = {0, 7};  // cpu7 has no fair-server file
  Isolation guard(c);
  CHECK_FALSE(guard.outcome().complete());
  REQUIRE(guard.outcome().fair_server_error);
  CHECK(guard.outcome().fair_server_error->find("cpu7") != std::string::npos);
  CHECK(guard.outcome().fair_server_zeroed == std::vector<int>{0});
}

TEST_CASE("isolation: a leftover record of a dead process is applied once; a live one refuses") {
  FakeMachine m;
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The "crash": isolate and leave without running any destructor.
    try {
      new Isolation(m.config());
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(m.record());
  CHECK(m.get("proc/sys/kernel/sched_rt_runtime_us") == "-1");

  const std::string msg = apply_leftover_record(m.state.string());
  CHECK(msg.find("left by rtpar run pid " + std::to_string(child)) != std::string::npos);
  m.check_restored();
  CHECK_FALSE(m.record());
  CHECK(apply_leftover_record(m.state.string()).empty());  // idempotent: nothing left
  m.check_restored();

  // A record held by a live process (this one) is neither applied nor overwritten.
  Isolation holder(m.config());
  CHECK(apply_leftover_record(m.state.string()).empty());
  CHECK(m.record());
  CHECK_THROWS_AS(Isolation(m.config()), rtpar::EnvironmentError);
  holder.restore();
  m.check_restored();
}
