// places.cpp — OMP_PLACES (OpenMP 5.1 §6.5): abstract names (threads, cores, sockets, ll_caches,
// numa_domains, each optionally "(count)") read from the kernel's topology in /sys, and explicit
// lists ("{0,1},{2:2}", "{0}:4:1", with "!" exclusions), restricted to the process's CPUs.
#include <sched.h>
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "omp/env.hpp"

namespace rtpar::omp::env {

namespace {

using Place = std::vector<int>;

// read_cpu_list reads a kernel CPU list file ("0-3,8,10-11"); empty when missing or malformed.
std::vector<int> read_cpu_list(const std::string& path) {
  std::vector<int> cpus;
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return cpus;
  char buf[4096];
  const bool ok = std::fgets(buf, sizeof buf, f) != nullptr;
  std::fclose(f);
  if (!ok) return cpus;
  const char* p = buf;
  while (std::isdigit(static_cast<unsigned char>(*p))) {
    char* end = nullptr;
    const long a = std::strtol(p, &end, 10);
    long b = a;
    p = end;
    if (*p == '-') {
      b = std::strtol(p + 1, &end, 10);
      p = end;
    }
    for (long c = a; c <= b && c < CPU_SETSIZE; ++c) cpus.push_back(static_cast<int>(c));
    if (*p == ',') ++p;
  }
  return cpus;
}

// group_by places each allowed CPU with the CPUs `siblings(cpu)` lists (the CPU alone when the
// kernel says nothing), in order of each group's first allowed CPU.
template <class Siblings>
std::vector<Place> group_by(const std::vector<int>& allowed, Siblings siblings) {
  std::vector<Place> places;
  std::map<std::vector<int>, std::size_t> index;  // sibling list → its place
  for (int cpu : allowed) {
    std::vector<int> key = siblings(cpu);
    if (key.empty()) key = {cpu};
    auto [it, fresh] = index.emplace(key, places.size());
    if (fresh) places.emplace_back();
    places[it->second].push_back(cpu);
  }
  return places;
}

// cpu_dir is the sysfs directory of one CPU.
std::string cpu_dir(int cpu) { return "/sys/devices/system/cpu/cpu" + std::to_string(cpu); }

// last_level_cache lists the CPUs sharing cpu's highest-numbered cache index.
std::vector<int> last_level_cache(int cpu) {
  std::vector<int> best;
  for (int i = 0; i < 16; ++i) {
    std::vector<int> l =
        read_cpu_list(cpu_dir(cpu) + "/cache/index" + std::to_string(i) + "/shared_cpu_list");
    if (l.empty()) break;
    best = std::move(l);
  }
  return best;
}

// numa_node lists the CPUs of cpu's NUMA node.
std::vector<int> numa_node(int cpu) {
  for (int n = 0; n < 1024; ++n) {
    const std::vector<int> l =
        read_cpu_list("/sys/devices/system/node/node" + std::to_string(n) + "/cpulist");
    if (std::find(l.begin(), l.end(), cpu) != l.end()) return l;
    if (l.empty() && n > 64) break;
  }
  return {};
}

// abstract_places builds the places an abstract name stands for; false if `name` is not one.
bool abstract_places(const std::string& name, const std::vector<int>& allowed,
                     std::vector<Place>& out) {
  auto sockets = [](int c) {
    std::vector<int> l = read_cpu_list(cpu_dir(c) + "/topology/package_cpus_list");
    return l.empty() ? read_cpu_list(cpu_dir(c) + "/topology/core_siblings_list") : l;
  };
  if (strcasecmp(name.c_str(), "threads") == 0) {
    out = group_by(allowed, [](int c) { return std::vector<int>{c}; });
  } else if (strcasecmp(name.c_str(), "cores") == 0) {
    out = group_by(allowed, [](int c) {
      std::vector<int> l = read_cpu_list(cpu_dir(c) + "/topology/core_cpus_list");
      return l.empty() ? read_cpu_list(cpu_dir(c) + "/topology/thread_siblings_list") : l;
    });
  } else if (strcasecmp(name.c_str(), "sockets") == 0) {
    out = group_by(allowed, sockets);
  } else if (strcasecmp(name.c_str(), "ll_caches") == 0) {
    out = group_by(allowed, [&](int c) {
      std::vector<int> l = last_level_cache(c);
      return l.empty() ? sockets(c) : l;
    });
  } else if (strcasecmp(name.c_str(), "numa_domains") == 0) {
    out = group_by(allowed, [&](int c) {
      std::vector<int> l = numa_node(c);
      return l.empty() ? sockets(c) : l;
    });
  } else {
    return false;
  }
  return true;
}

// Parser reads an explicit place list.
struct Parser {
  const char* p;

  void space() {
    while (std::isspace(static_cast<unsigned char>(*p))) ++p;
  }
  bool eat(char c) {
    space();
    if (*p != c) return false;
    ++p;
    return true;
  }
  // number reads an integer in [lo, hi].
  bool number(long lo, long hi, long* out) {
    space();
    if (!std::isdigit(static_cast<unsigned char>(*p)) && *p != '-' && *p != '+') return false;
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (end == p || errno == ERANGE || v < lo || v > hi) return false;
    p = end;
    *out = v;
    return true;
  }
  // interval reads the optional ":len[:stride]" after an item (len 1, stride 1 when absent).
  bool interval(long* len, long* stride) {
    *len = 1;
    *stride = 1;
    if (!eat(':')) return true;
    if (!number(1, CPU_SETSIZE, len)) return false;
    if (eat(':') && !number(-CPU_SETSIZE, CPU_SETSIZE, stride)) return false;
    return true;
  }
  // place reads "{res,...}": the CPUs listed, minus the "!n" exclusions.
  bool place(Place& out) {
    if (!eat('{')) return false;
    std::vector<int> excluded;
    do {
      const bool exclude = eat('!');
      long first = 0, len = 1, stride = 1;
      if (!number(0, CPU_SETSIZE - 1, &first)) return false;
      if (!exclude && !interval(&len, &stride)) return false;
      for (long i = 0; i < len; ++i) {
        const long c = first + i * stride;
        if (c < 0 || c >= CPU_SETSIZE) return false;
        (exclude ? excluded : out).push_back(static_cast<int>(c));
      }
    } while (eat(','));
    if (!eat('}')) return false;
    std::erase_if(out, [&](int c) {
      return std::find(excluded.begin(), excluded.end(), c) != excluded.end();
    });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return true;
  }
  // list reads "item,item,...", each item a place with an optional interval or "!place".
  bool list(std::vector<Place>& out) {
    std::vector<Place> excluded;
    do {
      const bool exclude = eat('!');
      Place base;
      if (!place(base)) return false;
      if (exclude) {
        excluded.push_back(std::move(base));
        continue;
      }
      long len = 1, stride = 1;
      if (!interval(&len, &stride)) return false;
      for (long i = 0; i < len; ++i) {
        Place shifted;
        for (int c : base) {
          const long s = c + i * stride;
          if (s < 0 || s >= CPU_SETSIZE) return false;
          shifted.push_back(static_cast<int>(s));
        }
        out.push_back(std::move(shifted));
      }
    } while (eat(','));
    space();
    if (*p != '\0') return false;
    for (const Place& ex : excluded) {
      const std::size_t before = out.size();
      std::erase(out, ex);
      if (out.size() == before) return false;  // removing a place that is not in the list
    }
    return true;
  }
};

}  // namespace

bool parse_places(const char* text, const std::vector<int>& allowed, std::vector<Place>& out) {
  std::vector<Place> places;
  Parser in{text};
  in.space();
  if (std::isalpha(static_cast<unsigned char>(*in.p))) {
    const char* start = in.p;
    while (std::isalnum(static_cast<unsigned char>(*in.p)) || *in.p == '_') ++in.p;
    const std::string name(start, in.p);
    long count = -1;
    if (in.eat('(')) {
      if (!in.number(1, INT32_MAX, &count) || !in.eat(')')) return false;
    }
    in.space();
    if (*in.p != '\0' || !abstract_places(name, allowed, places)) return false;
    if (count > 0 && static_cast<std::size_t>(count) < places.size()) places.resize(count);
  } else if (!in.list(places)) {
    return false;
  }
  // Restrict to the CPUs the process may run on, dropping places left empty.
  for (Place& pl : places) {
    std::erase_if(pl,
                  [&](int c) { return !std::binary_search(allowed.begin(), allowed.end(), c); });
  }
  const std::size_t given = places.size();
  std::erase_if(places, [](const Place& pl) { return pl.empty(); });
  if (places.empty()) return false;
  if (places.size() < given) {
    std::fprintf(stderr,
                 "rtpar-omp: Number of places reduced from %zu to %zu because some places "
                 "didn't contain any usable logical CPUs\n",
                 given, places.size());
  }
  out = std::move(places);
  return true;
}

bool binding_requested(const Globals& g) noexcept {
  return g.bind_set ? g.initial.bind != 0 : g.places_given;
}

void bind_initial_thread(const Globals& g) noexcept {
  if (!binding_requested(g) || g.places.empty()) return;
  // The first place, as libgomp: the initial thread's place must not depend on the CPU it
  // happened to start on, so that the members' places (placement.cpp) are reproducible.
  const Place& target = g.places.front();
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : target) CPU_SET(c, &set);
  sched_setaffinity(0, sizeof set, &set);  // failure: the thread stays unbound (place -1)
}

std::string format_place(const Place& place) {
  std::string s = "{";
  for (std::size_t i = 0; i < place.size();) {
    std::size_t j = i + 1;
    while (j < place.size() && place[j] == place[j - 1] + 1) ++j;
    if (i != 0) s += ',';
    s += std::to_string(place[i]);
    if (j - i > 1) s += ':' + std::to_string(j - i);
    i = j;
  }
  return s + '}';
}

}  // namespace rtpar::omp::env
