// target_spec_fuzz.cpp — libFuzzer target for the target-machine spec (parse_target,
// src/platform/topology.cpp: `rtpar check --target 40c4s`).
//
// Properties: any string is either a machine or an InputError, and a machine it returns has
// CPU ids 0..N-1, each in exactly one socket, the sockets all of one size.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_input.hpp"
#include "rtpar/tools/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rtpar::Topology machine;
  if (!rtpar::fuzz::expect_input_error(
          [&] { machine = rtpar::parse_target(rtpar::fuzz::as_text(data, size)); })) {
    return 0;
  }
  const std::vector<int> cpus = machine.cpus();
  if (cpus.empty() || cpus.size() != machine.size()) rtpar::fuzz::fail_finding("no CPUs or a lost CPU");
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    if (cpus[i] != static_cast<int>(i)) rtpar::fuzz::fail_finding("CPU ids are not 0..N-1");
  }
  for (const std::vector<int>& socket : machine.sockets) {
    if (socket.size() != machine.sockets.front().size()) {
      rtpar::fuzz::fail_finding("sockets of different sizes");
    }
  }
  return 0;
}
