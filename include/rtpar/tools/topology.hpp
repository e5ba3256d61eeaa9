// rtpar/tools/topology.hpp — the machine a plan is made for: CPU ids grouped by socket.
//
// Planners take the machine from the task set ([system] cores and sockets), from this machine
// (detect_topology, via hwloc) or from a target spec such as "40c4s" (`rtpar check --target`), so
// that a set can be analysed for a machine other than the one rtpar runs on.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace rtpar {

// online_cpus lists the CPU ids this process may run on (its affinity mask), ascending.
std::vector<int> online_cpus();

// Topology is a machine: sockets[s] lists the CPU ids of socket s, ascending; sockets are ordered
// by their first CPU and no CPU appears twice.
struct Topology {
  std::vector<std::vector<int>> sockets;

  // cpus is every CPU id of the machine, ascending.
  [[nodiscard]] std::vector<int> cpus() const;
  // socket_of is the index of the socket holding cpu, or -1.
  [[nodiscard]] int socket_of(int cpu) const;
  // size is the number of CPUs.
  [[nodiscard]] std::size_t size() const;
};

// detect_topology asks hwloc for the packages (sockets) of this machine, restricted to the CPUs
// this process may run on. Throws EnvironmentError if hwloc cannot describe the machine.
Topology detect_topology();

// parse_target reads a target machine spec: "<N>c" (N cores, one socket) or "<N>c<S>s" (N cores
// split evenly over S sockets, N divisible by S), CPU ids 0..N−1 in socket order. Throws
// InputError (field "--target") naming the problem.
Topology parse_target(std::string_view spec);

// system_topology (the machine a task set describes) is declared in rtpar/taskset.hpp, beside
// SystemSpec: model/ implements it.

}  // namespace rtpar
