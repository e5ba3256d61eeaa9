// test_channel_taskset.cpp — [[channel]] in the task-set file, ceilings from the plan, handles in
// the job context, and a non-real-time thread attached through rtpar::System.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "rtpar/channel_set.hpp"
#include "rtpar/system.hpp"
#include "rtpar/tools/planners.hpp"

using namespace std::chrono_literals;

namespace {

const std::string kTasks =
    "[system]\ncores = [0]\n"                                            // lines 1-2
    "[[task]]\nname = \"cam\"\nperiod = \"5ms\"\nwork = \"100us\"\n"     // lines 3-6
    "[[task]]\nname = \"track\"\nperiod = \"5ms\"\nwork = \"100us\"\n";  // lines 7-10

rtpar::TaskSet parse(const std::string& channels) {
  return rtpar::parse_taskset(kTasks + channels, "c.toml");
}

void check_rejected(const std::string& channels, const std::string& field, int line,
                    const std::string& fragment) {
  CAPTURE(channels);
  try {
    (void)parse(channels);
    FAIL_CHECK("accepted");
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == field);
    CHECK(e.where().line == line);
    CHECK_MESSAGE(e.message().find(fragment) != std::string::npos, e.message());
  }
}

struct Frame {
  std::uint64_t index;
  std::uint64_t check;  // = ~index: a torn value would break it
};

}  // namespace

TEST_CASE("channel taskset: defaults, sizes with units, several readers") {
  const auto set = parse(
      "[[channel]]\nname = \"frames\"\nsize = \"64KiB\"\nwriter = \"cam\"\n"
      "readers = [\"track\", \"nonrt\"]\n"
      "[[channel]]\nname = \"cmd\"\nkind = \"retry\"\nnumtries = 3\nsize = 16\n"
      "writer = \"nonrt\"\nreaders = [\"cam\"]\n");
  REQUIRE(set.channels.size() == 2);
  CHECK(set.channels[0].kind == rtpar::ChannelKind::latest);
  CHECK(set.channels[0].size_bytes == 65536);
  CHECK(set.channels[0].readers == std::vector<std::string>{"track", "nonrt"});
  CHECK(set.channels[1].kind == rtpar::ChannelKind::retry);
  CHECK(set.channels[1].numtries == 3);
  CHECK(set.channels[1].size_bytes == 16);
  CHECK(parse("[[channel]]\nname = \"m\"\nsize = \"1MB\"\nwriter = \"cam\"\nreaders = "
              "[\"track\"]\n")
            .channels[0]
            .size_bytes == 1'000'000);
}

TEST_CASE("channel taskset: static checks name the channel's line and field") {
  const std::string head = "[[channel]]\nname = \"c\"\n";  // lines 11-12
  check_rejected(head + "size = 8\nwriter = \"ghost\"\nreaders = [\"track\"]\n",
                 "channel[0].writer", 14, "no task named \"ghost\"");
  check_rejected(head + "size = 8\nwriter = \"cam\"\nreaders = [\"track\", \"ghost\"]\n",
                 "channel[0].readers", 15, "no task named \"ghost\"");
  check_rejected(head + "size = 8\nwriter = \"cam\"\nreaders = [\"track\", \"track\"]\n",
                 "channel[0].readers", 15, "listed twice");
  check_rejected(head + "size = 8\nwriter = \"cam\"\nreaders = [\"cam\"]\n", "channel[0].readers",
                 15, "is the writer");
  check_rejected(head + "size = 8\nwriter = \"cam\"\nreaders = []\n", "channel[0].readers", 15,
                 "at least one reader");
  check_rejected(head + "size = 0\nwriter = \"cam\"\nreaders = [\"track\"]\n", "channel[0].size",
                 13, "> 0");
  check_rejected(head + "size = \"2GiB\"\nwriter = \"cam\"\nreaders = [\"track\"]\n",
                 "channel[0].size", 13, "at most");
  check_rejected(head + "size = \"12 parsecs\"\nwriter = \"cam\"\nreaders = [\"track\"]\n",
                 "channel[0].size", 13, "unknown unit \"parsecs\"");
  check_rejected(head + "size = \"4KB\"\nwriter = \"cam\"\nreaders = [\"track\"]\n",
                 "channel[0].size", 13, "\"KB\" is ambiguous: write \"KiB\"");
  check_rejected(head + "kind = \"mailbox\"\nsize = 8\nwriter = \"cam\"\nreaders = [\"track\"]\n",
                 "channel[0].kind", 13, "unknown channel kind");
  check_rejected(head + "numtries = 2\nsize = 8\nwriter = \"cam\"\nreaders = [\"track\"]\n",
                 "channel[0].numtries", 13, "only applies to kind = \"retry\"");
  check_rejected(
      head + "kind = \"lock\"\nhold = \"1us\"\nsize = 8\nwriter = \"cam\"\nreaders = [\"nonrt\"]\n",
      "channel[0].kind", 13, "cannot connect real-time tasks with \"nonrt\"");
  check_rejected(head + "size = 8\nwriter = \"cam\"\nreaders = [\"track\"]\ncolour = 1\n",
                 "channel[0].colour", 16, "unknown key");
  check_rejected(head + "size = 8\nwriter = \"cam\"\nreaders = [\"track\"]\n" + head +
                     "size = 8\nwriter = \"cam\"\nreaders = [\"track\"]\n",
                 "channel[1].name", 17, "duplicate channel name");
  try {
    (void)rtpar::parse_taskset("[[task]]\nname = \"nonrt\"\nperiod = \"5ms\"\nwork = \"1ms\"\n",
                               "r.toml");
    FAIL_CHECK("accepted a task named nonrt");
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == "task[0].name");
  }
}

TEST_CASE("channel taskset: lock ceilings come from the plan, lock order from the file") {
  const auto set = parse(
      "[[channel]]\nname = \"a\"\nkind = \"lock\"\nhold = \"10us\"\nsize = 8\n"
      "writer = \"cam\"\nreaders = [\"track\"]\n"
      "[[channel]]\nname = \"b\"\nkind = \"lock\"\nhold = \"10us\"\nsize = 8\n"
      "writer = \"track\"\nreaders = [\"cam\"]\n");
  // federated does not analyse blocking, so it refuses the set; the plan still gives each task
  // its priority, which is all the ceilings need.
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  REQUIRE(plan.tasks.size() == 2);
  const int top = std::max(plan.tasks[0].priority, plan.tasks[1].priority);
  rtpar::ChannelSet rt(set, plan, /*best_effort=*/false);
  CHECK(rt.channel("a")->config().ceiling_priority == top);
  CHECK(rt.channel("b")->config().ceiling_priority == top);
  CHECK(rt.channel("a")->config().lock_rank < rt.channel("b")->config().lock_rank);
  rtpar::ChannelSet be(set, plan, /*best_effort=*/true);
  CHECK(be.channel("a")->config().ceiling_priority == 0);  // SCHED_OTHER users: no ceiling
  CHECK(rt.channel("nope") == nullptr);
  CHECK_THROWS_AS(rt.endpoint("ghost"), std::out_of_range);
  CHECK_THROWS_AS(rt.endpoint("cam").reader("a"), std::out_of_range);  // cam writes a
}

// It runs the set at SCHED_FIFO: in the doctest suite "realtime"
// (tests/support/realtime_lock.cmake).
TEST_CASE("channel taskset: tasks exchange values through job handles; a non-RT thread attaches" *
          doctest::test_suite("realtime")) {
  rtpar::System sys(
      parse("[[channel]]\nname = \"frames\"\nsize = 16\nwriter = \"cam\"\n"
            "readers = [\"track\", \"nonrt\"]\n"
            "[[channel]]\nname = \"cmd\"\nkind = \"retry\"\nsize = 16\nwriter = \"nonrt\"\n"
            "readers = [\"cam\"]\n"));
  std::atomic<int> torn{0}, backwards{0}, reads{0}, commands{0};
  sys.bind("cam", [&](rtpar::JobContext& job) {
    Frame cmd{};
    if (job.channels->read("cmd", cmd).ok && cmd.index != 0) {
      if (cmd.check != ~cmd.index) torn.fetch_add(1);
      commands.fetch_add(1);
    }
    const auto i = static_cast<std::uint64_t>(job.index + 1);
    job.channels->write("frames", Frame{i, ~i});
  });
  std::uint64_t last = 0;  // only the track task's master touches it
  sys.bind("track", [&](rtpar::JobContext& job) {
    Frame f{};
    const rtpar::ReadResult r = job.channels->read("frames", f);
    if (!r.ok) return;
    if (f.index != 0 && f.check != ~f.index) torn.fetch_add(1);
    if (f.index < last) backwards.fetch_add(1);
    last = f.index;
    reads.fetch_add(1);
  });
  rtpar::RunConfig config;
  config.duration = 200ms;
  config.lock_memory = false;
  bool best_effort = false;
  try {
    sys.open_channels(config);
  } catch (const rtpar::EnvironmentError&) {
    best_effort = true;
  }
  if (best_effort) {
    config.best_effort = true;
    sys.open_channels(config);
  }
  rtpar::Endpoint& nonrt = sys.nonrt();
  std::atomic<bool> done{false};
  std::atomic<int> nonrt_reads{0};
  std::thread ui([&] {
    std::uint64_t n = 0;
    while (!done.load()) {
      Frame f{};
      if (nonrt.read("frames", f).ok && f.index != 0 && f.check != ~f.index) torn.fetch_add(1);
      nonrt_reads.fetch_add(1);
      ++n;
      nonrt.write("cmd", Frame{n, ~n});
      std::this_thread::sleep_for(1ms);
    }
  });
  rtpar::RunReport report;
  try {
    report = sys.run(config);
  } catch (...) {
    done.store(true);
    ui.join();
    throw;
  }
  done.store(true);
  ui.join();
  CHECK(report.tasks[0].records.size() == 40);
  CHECK(torn.load() == 0);
  CHECK(backwards.load() == 0);
  CHECK(reads.load() == 40);
  CHECK(nonrt_reads.load() > 0);
  CHECK(commands.load() > 0);
  CHECK_THROWS_AS(nonrt.write("frames", Frame{}), std::out_of_range);  // cam is its writer
  Frame unused{};
  CHECK_THROWS_AS(nonrt.read("cmd", unused), std::out_of_range);  // nonrt writes cmd
  std::uint32_t wrong_size = 0;
  CHECK_THROWS_AS(nonrt.read("frames", wrong_size), std::invalid_argument);
}
