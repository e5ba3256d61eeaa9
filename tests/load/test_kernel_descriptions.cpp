// test_kernel_descriptions.cpp — the loader describes kernels and creates no code: built-in args
// in KernelSpec, `lib:` objects resolved from their ELF symbols relative to the file and never
// loaded (RTLD_NOLOAD sees them only after make_kernel); the [task.steal]-on-a-team rule; the
// memory limit of channels.
#include <doctest/doctest.h>

#include <dlfcn.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "kernels/instantiate.hpp"
#include "model/channel_rules.hpp"
#include "rtpar/ext/kernel.hpp"
#include "rtpar/taskset.hpp"

using rtpar::InputError;
using rtpar::KernelSource;
using rtpar::TaskSet;

namespace {

// kDir is where tests/CMakeLists.txt builds libtest_kernel.so (tests/load/kernel_lib.c).
const std::string kDir = RTPAR_TEST_KERNEL_DIR;

// task_doc is a one-task file whose task has `extra` keys (the kernel key on line 6).
std::string task_doc(const std::string& extra) {
  return "[system]\ncores = [0]\n[[task]]\nname = \"k\"\nperiod = \"10ms\"\n" + extra +
         "work = \"1ms\"\n";
}

// error_of returns the InputError text of parsing text as file `source`, or "" when accepted.
std::string error_of(const std::string& text, const std::string& source) {
  try {
    (void)rtpar::parse_taskset(text, source);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("kernel descriptions: built-in kernels keep their args, with defaults, and no code") {
  const TaskSet set = rtpar::parse_taskset(
      task_doc("kernel = \"heat\"\nargs = { n = 64 }\nruntime = \"steal\"\nspan = \"1ms\"\n"),
      "h.toml");
  const rtpar::TaskSpec& t = set.tasks.at(0);
  CHECK(t.code == nullptr);
  CHECK(t.kernel_spec.source == KernelSource::builtin);
  CHECK(t.kernel_spec.name == "heat");
  CHECK(t.kernel_spec.integer("n") == 64);
  CHECK(t.kernel_spec.integer("steps") == 10);  // the default, filled in
  CHECK(t.kernel_spec.integer("grain") == 4);
  CHECK_FALSE(t.kernel_spec.integer("q").has_value());
  CHECK(t.kernel_spec.where.line == 6);
  CHECK(t.kernel_spec.where.column == 10);
  // The description creates the same kernel when a run starts.
  const std::shared_ptr<rtpar::Kernel> code = rtpar::kernels::make_kernel(t);
  REQUIRE(code != nullptr);
}

TEST_CASE("kernel descriptions: a lib: object is resolved from the file's directory, not loaded") {
  const std::string lib = kDir + "/libtest_kernel.so";
  REQUIRE(std::filesystem::exists(lib));
  // The test process has not loaded it yet (nothing else here does).
  REQUIRE(dlopen(lib.c_str(), RTLD_NOW | RTLD_NOLOAD) == nullptr);
  TaskSet set = rtpar::parse_taskset(task_doc("kernel = \"lib:libtest_kernel.so:test_job\"\n"),
                                     kDir + "/tasks.toml");
  const rtpar::TaskSpec& t = set.tasks.at(0);
  CHECK(t.code == nullptr);
  CHECK(t.kernel_spec.source == KernelSource::library);
  CHECK(t.kernel_spec.library == lib);
  CHECK(t.kernel_spec.symbol == "test_job");
  CHECK(dlopen(lib.c_str(), RTLD_NOW | RTLD_NOLOAD) == nullptr);  // still not loaded

  // '..' is taken literally, relative to the file's directory.
  const TaskSet up = rtpar::parse_taskset(
      task_doc("kernel = \"lib:../kernel_lib/libtest_kernel.so:test_job\"\n"),
      kDir + "/tasks.toml");
  CHECK(up.tasks.at(0).kernel_spec.library == lib);

  // Instantiating loads it.
  rtpar::kernels::instantiate_kernels(set);
  CHECK(set.tasks.at(0).code != nullptr);
  void* handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(handle != nullptr);
  // Its constructor ran once, when the kernel was made.
  const auto* loads = static_cast<const int*>(dlsym(handle, "rtpar_test_kernel_loads"));
  REQUIRE(loads != nullptr);
  CHECK(*loads == 1);
  dlclose(handle);  // drops the NOLOAD reference only
}

TEST_CASE("kernel descriptions: lib: errors name the file, line, column and field") {
  const std::string file = kDir + "/tasks.toml";
  CHECK(error_of(task_doc("kernel = \"lib:libtest_kernel.so:no_such\"\n"), file) ==
        file + ":6:10: task[0].kernel: libtest_kernel.so has no symbol \"no_such\"");
  CHECK(error_of(task_doc("kernel = \"lib:libtest_kernel.so:rtpar_test_kernel_loads\"\n"), file)
            .find("symbol \"rtpar_test_kernel_loads\" is not a function") != std::string::npos);
  const std::string missing = error_of(task_doc("kernel = \"lib:./nope.so:f\"\n"), file);
  CHECK(missing.find(file + ":6:10: task[0].kernel: ./nope.so (" + kDir + "/nope.so)") == 0);
  CHECK(missing.find("cannot open") != std::string::npos);
  // The task-set file itself is not an ELF object.
  const std::string text_file = error_of(task_doc("kernel = \"lib:" RTPAR_SOURCE_DIR
                                                  "/tests/data/example.toml:f\"\n"),
                                         file);
  CHECK(text_file.find("not an ELF file") != std::string::npos);
  CHECK(error_of(task_doc("kernel = \"lib:libtest_kernel.so\"\n"), file).find("lib:PATH:SYMBOL") !=
        std::string::npos);
}

TEST_CASE("kernel descriptions: [task.steal] on a team task is an error, not ignored") {
  const std::string err = error_of(task_doc("steal = { max_depth = 64 }\n"), "s.toml");
  CHECK(err == "s.toml:6:9: task[0].steal: only applies to runtime = \"steal\" (this task runs on "
               "a team) (task \"k\")");
}

TEST_CASE("kernel descriptions: channel memory is bounded by [system] memory_limit") {
  const std::string head =
      "[system]\ncores = [0]\nmemory_limit = \"1MiB\"\n"
      "[[task]]\nname = \"w\"\nperiod = \"10ms\"\nwork = \"1ms\"\n"
      "[[task]]\nname = \"r\"\nperiod = \"10ms\"\nwork = \"1ms\"\n";
  const std::string channel = "[[channel]]\nname = \"c\"\nsize = \"600KiB\"\nwriter = \"w\"\n"
                              "readers = [\"r\"]\nkind = \"retry\"\n";
  // One copy of 600 KiB + 64 KiB fits in 1 MiB; two channels do not (the second is named).
  const TaskSet one = rtpar::parse_taskset(head + channel, "m.toml");
  CHECK(one.system.memory_limit == 1024 * 1024);
  CHECK(rtpar::model::channel_memory_estimate(one.channels.at(0)) == 600 * 1024 + 64 * 1024);
  std::string two = channel;
  two.replace(two.find("\"c\""), 3, "\"d\"");
  const std::string err = error_of(head + channel + two, "m.toml");
  CHECK(err.find("m.toml:20:8: channel[1].size: the channels up to this one need about") == 0);
  CHECK(err.find("above the memory limit of 1.0 MiB ([system] memory_limit)") !=
        std::string::npos);
  // latest keeps readers + 2 copies.
  std::string latest = channel;
  latest.replace(latest.find("retry"), 5, "latest");
  CHECK(error_of(head + latest, "m.toml").find("channel[0].size") != std::string::npos);

  // The default is half the physical memory; sums saturate rather than wrap.
  rtpar::TaskSet set = rtpar::parse_taskset(
      "[[task]]\nname = \"w\"\nperiod = \"10ms\"\nwork = \"1ms\"\n"
      "[[task]]\nname = \"r\"\nperiod = \"10ms\"\nwork = \"1ms\"\n",
      "code");
  CHECK(rtpar::model::memory_limit_bytes(set.system) > 0);
  for (int i = 0; i < 20000; ++i) {
    rtpar::ChannelSpec c;
    c.name = "c" + std::to_string(i);
    c.size_bytes = rtpar::kMaxChannelBytes;
    c.writer = "w";
    c.readers = {"r"};
    set.channels.push_back(c);
  }
  CHECK_THROWS_WITH_AS(rtpar::validate_taskset(set),
                       doctest::Contains("above the memory limit"), InputError);
  set.system.memory_limit = UINT64_MAX;  // a limit no sum reaches: 20,000 GiB pass
  CHECK_NOTHROW(rtpar::validate_taskset(set));

  // memory_limit is written like a channel size, > 0.
  CHECK(error_of("[system]\nmemory_limit = 0\n", "z.toml").find("z.toml:2:16: system.memory_limit: "
                                                               "must be > 0 bytes") == 0);
  CHECK(error_of("[system]\nmemory_limit = \"2 parsecs\"\n", "z.toml").find("unknown unit") !=
        std::string::npos);
  CHECK(rtpar::parse_taskset("[system]\nmemory_limit = \"2TiB\"\n[[task]]\nname = \"a\"\n"
                             "period = \"1ms\"\nwork = \"1us\"\n",
                             "t.toml")
            .system.memory_limit == (std::uint64_t{2} << 40));
}
