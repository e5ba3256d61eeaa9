// taskset_fuzz.cpp — libFuzzer target for the task-set parser (parse_taskset, src/load/).
//
// Property: any byte string either parses into a TaskSet that passed the rules, or is rejected
// with InputError (exit status 2 in the CLI). Any other exception, a crash, a sanitizer report, a
// hang or an allocation beyond libFuzzer's limits is a finding. A parsed set is also given to
// system_topology, which `check` applies to every set it reads.
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A relative name: relative lib: paths resolve against the working directory, which
  // `make fuzz` makes an empty scratch directory (and no_dlopen.cpp refuses every load anyway).
  rtpar::fuzz::expect_input_error([&] {
    const rtpar::TaskSet set = rtpar::parse_taskset(rtpar::fuzz::as_text(data, size), "fuzz.toml");
    const rtpar::Topology machine = rtpar::system_topology(set.system);
    if (machine.size() != set.system.cores.size()) {
      rtpar::fuzz::fail_finding("system_topology lost or invented cores");
    }
  });
  return 0;
}
