// topology.cpp — see rtpar/tools/topology.hpp.
#include "rtpar/tools/topology.hpp"

#include <hwloc.h>

#include <algorithm>
#include <charconv>
#include <string>

#include <sched.h>
#include "rtpar/error.hpp"

#include <vector>

namespace rtpar {

std::vector<int> online_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

std::vector<int> Topology::cpus() const {
  std::vector<int> all;
  for (const auto& socket : sockets) all.insert(all.end(), socket.begin(), socket.end());
  std::sort(all.begin(), all.end());
  return all;
}

int Topology::socket_of(int cpu) const {
  for (std::size_t s = 0; s < sockets.size(); ++s) {
    if (std::binary_search(sockets[s].begin(), sockets[s].end(), cpu)) return static_cast<int>(s);
  }
  return -1;
}

std::size_t Topology::size() const {
  std::size_t n = 0;
  for (const auto& socket : sockets) n += socket.size();
  return n;
}

Topology detect_topology() {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
    if (topo != nullptr) hwloc_topology_destroy(topo);
    throw EnvironmentError("hwloc could not read this machine's topology",
                           "check that /sys is mounted, or pass --target (e.g. 8c2s)");
  }
  const std::vector<int> allowed = online_cpus();
  Topology result;
  const int packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
  for (int p = 0; p < packages; ++p) {
    hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, static_cast<unsigned>(p));
    std::vector<int> cpus;
    unsigned id = 0;
    hwloc_bitmap_foreach_begin(id, pkg->cpuset) {
      if (std::binary_search(allowed.begin(), allowed.end(), static_cast<int>(id))) {
        cpus.push_back(static_cast<int>(id));
      }
    }
    hwloc_bitmap_foreach_end();
    if (!cpus.empty()) result.sockets.push_back(std::move(cpus));
  }
  hwloc_topology_destroy(topo);
  if (result.sockets.empty() && !allowed.empty()) {
    result.sockets.push_back(allowed);  // hwloc without package info (some VMs): one socket
  }
  std::sort(result.sockets.begin(), result.sockets.end());
  return result;
}

Topology parse_target(std::string_view spec) {
  auto fail = [&spec](const std::string& why) -> Topology {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--target",
                     "bad target \"" + std::string(spec) + "\": " + why +
                         " (expected e.g. \"40c4s\" = 40 cores on 4 sockets, or \"8c\")");
  };
  int cores = 0;
  int sockets = 1;
  const char* p = spec.data();
  const char* end = spec.data() + spec.size();
  auto [after_cores, ec] = std::from_chars(p, end, cores);
  if (ec != std::errc() || after_cores == end || *after_cores != 'c') {
    return fail("it must start with a core count followed by 'c'");
  }
  p = after_cores + 1;
  if (p != end) {
    auto [after_sockets, ec2] = std::from_chars(p, end, sockets);
    if (ec2 != std::errc() || after_sockets + 1 != end || *after_sockets != 's') {
      return fail("after the cores, only a socket count followed by 's' may follow");
    }
  }
  if (cores < 1 || cores > 8192) return fail("the core count must be between 1 and 8192");
  if (sockets < 1 || sockets > cores) return fail("the socket count must be between 1 and cores");
  if (cores % sockets != 0) return fail("the cores must split evenly over the sockets");
  Topology t;
  const int per = cores / sockets;
  for (int s = 0; s < sockets; ++s) {
    std::vector<int> ids;
    for (int c = 0; c < per; ++c) ids.push_back(s * per + c);
    t.sockets.push_back(std::move(ids));
  }
  return t;
}

}  // namespace rtpar
