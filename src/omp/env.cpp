// env.cpp — the OpenMP environment variables (OpenMP 5.1 §6) and rtpar's own (RTPAR_OMP_*),
// parsed once into Globals. A malformed value is ignored with a one-line warning, as libgomp
// does: the variable keeps its default and the program runs on.
#include <link.h>
#include <sched.h>
#include <strings.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "omp/env.hpp"

namespace rtpar::omp::env {

namespace {

// skip_space returns s past leading white space.
const char* skip_space(const char* s) {
  while (std::isspace(static_cast<unsigned char>(*s))) ++s;
  return s;
}

// only_space says whether s holds nothing but white space.
bool only_space(const char* s) { return *skip_space(s) == '\0'; }

// word_is says whether s, trimmed of surrounding white space, equals `word` (case-insensitive).
bool word_is(const char* s, const char* word) {
  s = skip_space(s);
  const std::size_t n = std::strlen(word);
  return strncasecmp(s, word, n) == 0 && only_space(s + n);
}

// parse_long reads a decimal integer in [lo, hi] at *s, advancing *s past it and any white space.
bool parse_long(const char** s, long lo, long hi, long* out) {
  const char* p = skip_space(*s);
  if (!std::isdigit(static_cast<unsigned char>(*p)) && *p != '-' && *p != '+') return false;
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(p, &end, 10);
  if (end == p || errno == ERANGE || v < lo || v > hi) return false;
  *s = skip_space(end);
  *out = v;
  return true;
}

// parse_int_var reads a whole variable holding one integer in [lo, hi].
bool parse_int_var(const char* name, long lo, long hi, long* out) {
  const char* s = std::getenv(name);
  if (s == nullptr) return false;
  long v = 0;
  const char* p = s;
  if (!parse_long(&p, lo, hi, &v) || *p != '\0') {
    warn_invalid(name, s);
    return false;
  }
  *out = v;
  return true;
}

// parse_bool_var reads a variable holding true or false; returns -1 when unset or invalid.
int parse_bool_var(const char* name) {
  const char* s = std::getenv(name);
  if (s == nullptr) return -1;
  if (word_is(s, "true")) return 1;
  if (word_is(s, "false")) return 0;
  warn_invalid(name, s);
  return -1;
}

// parse_size reads "N[B|K|M|G]" (white space allowed around the suffix); a bare number is in
// units of `unit` bytes.
bool parse_size(const char* s, std::size_t unit, std::size_t* out) {
  const char* p = s;
  long v = 0;
  if (!parse_long(&p, 0, LONG_MAX, &v)) return false;
  std::size_t mult = unit;
  switch (std::tolower(static_cast<unsigned char>(*p))) {
    case '\0':
      break;
    case 'b':
      mult = 1;
      ++p;
      break;
    case 'k':
      mult = std::size_t{1} << 10;
      ++p;
      break;
    case 'm':
      mult = std::size_t{1} << 20;
      ++p;
      break;
    case 'g':
      mult = std::size_t{1} << 30;
      ++p;
      break;
    default:
      return false;
  }
  if (!only_space(p)) return false;
  if (v != 0 && static_cast<std::size_t>(v) > SIZE_MAX / mult) return false;
  *out = static_cast<std::size_t>(v) * mult;
  return true;
}

// parse_int_list reads "a,b,c" of integers in [lo, hi].
bool parse_int_list(const char* s, long lo, long hi, std::vector<int>* out) {
  std::vector<int> v;
  const char* p = s;
  for (;;) {
    long x = 0;
    if (!parse_long(&p, lo, hi, &x)) return false;
    v.push_back(static_cast<int>(x));
    if (*p == '\0') break;
    if (*p != ',') return false;
    ++p;
  }
  *out = std::move(v);
  return true;
}

// libomp_mapped says whether a libomp.so.5 (rtpar's LLVM-ABI library) is mapped: the program,
// or a library it was linked with, was built with `clang -fopenmp`. Asked at load time, when the
// loader has mapped every needed library (a library dlopen'ed later does not count).
bool libomp_mapped() {
  bool found = false;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        const char* name = info->dlpi_name != nullptr ? info->dlpi_name : "";
        const char* base = std::strrchr(name, '/');
        base = base != nullptr ? base + 1 : name;
        if (std::strcmp(base, "libomp.so.5") != 0 && std::strcmp(base, "libomp.so") != 0) return 0;
        *static_cast<bool*>(data) = true;
        return 1;
      },
      &found);
  return found;
}

// parse_schedule reads OMP_SCHEDULE: "[monotonic:|nonmonotonic:]kind[,chunk]". Unset, the
// initial run-sched-var is implementation defined: libgomp's `dynamic,1` (Icvs' default) for a
// program of GCC's ABI, LLVM's `static` (no chunk, no modifier) for one of LLVM's, which may
// rely on it as it would with LLVM's runtime.
void parse_schedule(Icvs& icv) {
  const char* s = std::getenv("OMP_SCHEDULE");
  if (s == nullptr) {
    if (libomp_mapped()) {
      icv.run_sched = kSchedStatic;
      icv.run_chunk = 0;
    }
    return;
  }
  const char* p = skip_space(s);
  unsigned modifier = 0;
  bool nonmonotonic = false;
  if (strncasecmp(p, "monotonic", 9) == 0 && skip_space(p + 9)[0] == ':') {
    modifier = kMonotonic;
    p = skip_space(skip_space(p + 9) + 1);
  } else if (strncasecmp(p, "nonmonotonic", 12) == 0 && skip_space(p + 12)[0] == ':') {
    nonmonotonic = true;
    p = skip_space(skip_space(p + 12) + 1);
  }
  static const struct {
    const char* name;
    SchedKind kind;
  } kinds[] = {{"static", kSchedStatic},
               {"dynamic", kSchedDynamic},
               {"guided", kSchedGuided},
               {"auto", kSchedAuto}};
  int kind = 0;
  for (const auto& k : kinds) {
    const std::size_t n = std::strlen(k.name);
    if (strncasecmp(p, k.name, n) == 0) {
      kind = k.kind;
      p = skip_space(p + n);
      break;
    }
  }
  if (kind == 0) {
    std::fprintf(stderr, "rtpar-omp: Unknown value for environment variable OMP_SCHEDULE: '%s'\n",
                 s);
    return;
  }
  long chunk = kind == kSchedStatic ? 0 : 1;
  if (*p == ',') {
    ++p;
    if (!parse_long(&p, 0, INT_MAX, &chunk) || *p != '\0') {
      warn_invalid("OMP_SCHEDULE", s);
      return;
    }
  } else if (*p != '\0') {
    warn_invalid("OMP_SCHEDULE", s);
    return;
  }
  // As libgomp: a chunk of 0 means the kind's default (1) except for static, and static is
  // monotonic unless `nonmonotonic:` says otherwise.
  if (chunk == 0 && kind != kSchedStatic) chunk = 1;
  if (kind == kSchedStatic && !nonmonotonic) modifier = kMonotonic;
  icv.run_sched = static_cast<unsigned>(kind) | modifier;
  icv.run_chunk = chunk;
}

// parse_proc_bind reads OMP_PROC_BIND: true, false, or a list of primary/master/close/spread.
void parse_proc_bind(Globals& g) {
  const char* s = std::getenv("OMP_PROC_BIND");
  if (s == nullptr) return;
  if (word_is(s, "false") || word_is(s, "true")) {
    g.initial.bind = word_is(s, "true") ? 1 : 0;
    g.bind_list = {g.initial.bind};
    g.bind_set = true;
    return;
  }
  static const struct {
    const char* name;
    int value;
  } kinds[] = {{"master", 2}, {"primary", 2}, {"close", 3}, {"spread", 4}};
  std::vector<int> list;
  const char* p = skip_space(s);
  for (;;) {
    int value = 0;
    for (const auto& k : kinds) {
      const std::size_t n = std::strlen(k.name);
      if (strncasecmp(p, k.name, n) == 0) {
        value = k.value;
        p = skip_space(p + n);
        break;
      }
    }
    if (value == 0) {
      warn_invalid("OMP_PROC_BIND", s);
      return;
    }
    list.push_back(value);
    if (*p == '\0') break;
    if (*p != ',') {
      warn_invalid("OMP_PROC_BIND", s);
      return;
    }
    p = skip_space(p + 1);
  }
  g.bind_list = std::move(list);
  g.initial.bind = g.bind_list[0];
  g.bind_set = true;
}

// parse_wait reads OMP_WAIT_POLICY, then RTPAR_OMP_WAIT (rtpar omp --wait), which overrides it.
void parse_wait(Globals& g) {
  if (const char* s = std::getenv("OMP_WAIT_POLICY")) {
    if (word_is(s, "active")) {
      g.wait = WaitKind::spin;
      g.wait_policy = 1;
    } else if (word_is(s, "passive")) {
      g.wait = WaitKind::block;
      g.wait_policy = 0;
    } else {
      warn_invalid("OMP_WAIT_POLICY", s);
    }
  }
  if (const char* s = std::getenv("RTPAR_OMP_WAIT")) {
    if (word_is(s, "spin")) {
      g.wait = WaitKind::spin;
    } else if (word_is(s, "block")) {
      g.wait = WaitKind::block;
    } else if (word_is(s, "hybrid")) {
      g.wait = WaitKind::hybrid;
    } else {
      warn_invalid("RTPAR_OMP_WAIT", s);
    }
  }
  // KMP_BLOCKTIME is LLVM's runtime's spin time before a waiting thread sleeps (milliseconds, or
  // `infinite`): the hybrid spin time here (`infinite`: spin), for programs tuned for libomp.
  // RTPAR_OMP_WAIT above and RTPAR_OMP_SPIN_NS below take precedence.
  if (const char* s = std::getenv("KMP_BLOCKTIME")) {
    char* end = nullptr;
    const long ms = std::strtol(s, &end, 10);
    if (word_is(s, "infinite")) {
      if (std::getenv("RTPAR_OMP_WAIT") == nullptr) g.wait = WaitKind::spin;
    } else if (end != s && *skip_space(end) == '\0' && ms >= 0 && ms <= LONG_MAX / 1000000) {
      g.spin_ns = ms * 1000000;
    } else {
      warn_invalid("KMP_BLOCKTIME", s);
    }
  }
  long ns = 0;
  if (parse_int_var("RTPAR_OMP_SPIN_NS", 0, LONG_MAX, &ns)) g.spin_ns = ns;
  // LLVM's runtime's placement variables are not read: say so rather than ignore them silently.
  for (const char* name : {"KMP_AFFINITY", "KMP_HW_SUBSET", "KMP_PLACE_THREADS"}) {
    if (const char* s = std::getenv(name)) {
      std::fprintf(stderr,
                   "rtpar-omp: %s='%s' is LLVM's libomp setting and is not read here; use "
                   "OMP_PLACES and OMP_PROC_BIND (or rtpar omp --cores)\n",
                   name, s);
    }
  }
}

// parse_places_var reads OMP_PLACES; without it (or when invalid) every CPU of the affinity mask
// is a place of its own. Globals::cpus is the first CPU of each place.
void parse_places_var(Globals& g, const std::vector<int>& allowed) {
  g.places.clear();
  if (const char* s = std::getenv("OMP_PLACES")) {
    if (parse_places(s, allowed, g.places)) {
      g.places_given = true;
    } else {
      warn_invalid("OMP_PLACES", s);
    }
  }
  if (g.places.empty()) {
    for (int c : allowed) g.places.push_back({c});
  }
  g.cpus.clear();
  for (const auto& place : g.places) g.cpus.push_back(place.front());
}

// parse_allocator reads OMP_ALLOCATOR: a predefined allocator's name or number.
void parse_allocator(Globals& g) {
  const char* s = std::getenv("OMP_ALLOCATOR");
  if (s == nullptr) return;
  static const char* const names[] = {"omp_default_mem_alloc", "omp_large_cap_mem_alloc",
                                      "omp_const_mem_alloc",   "omp_high_bw_mem_alloc",
                                      "omp_low_lat_mem_alloc", "omp_cgroup_mem_alloc",
                                      "omp_pteam_mem_alloc",   "omp_thread_mem_alloc"};
  for (int i = 0; i < 8; ++i) {
    if (word_is(s, names[i])) {
      g.default_allocator = i + 1;
      return;
    }
  }
  const char* p = s;
  long v = 0;
  if (parse_long(&p, 1, 8, &v) && *p == '\0') {
    g.default_allocator = static_cast<int>(v);
    return;
  }
  warn_invalid("OMP_ALLOCATOR", s);
}

}  // namespace

void warn_invalid(const char* name, const char* value) noexcept {
  std::fprintf(stderr, "rtpar-omp: Invalid value for environment variable %s: '%s'\n", name, value);
}

Globals read_environment() {
  Globals g;
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> allowed;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) allowed.push_back(c);
    }
  }
  if (allowed.empty()) allowed.push_back(0);
  g.num_procs = static_cast<int>(allowed.size());
  parse_places_var(g, allowed);
  Icvs& icv = g.initial;
  icv.nthreads = g.num_procs;

  if (const char* s = std::getenv("OMP_NUM_THREADS")) {
    if (parse_int_list(s, 1, INT_MAX, &g.nthreads_list)) {
      icv.nthreads = g.nthreads_list[0];
    } else {
      warn_invalid("OMP_NUM_THREADS", s);
    }
  }
  parse_schedule(icv);
  if (const int v = parse_bool_var("OMP_DYNAMIC"); v >= 0) icv.dyn = v != 0;
  parse_proc_bind(g);
  // OMP_PLACES without OMP_PROC_BIND binds (libgomp: bind-var true once places are given).
  if (g.places_given && !g.bind_set) icv.bind = 1;

  long v = 0;
  const int nested = parse_bool_var("OMP_NESTED");
  if (parse_int_var("OMP_MAX_ACTIVE_LEVELS", 0, INT_MAX, &v)) {
    icv.max_active_levels =
        static_cast<int>(v < kSupportedActiveLevels ? v : kSupportedActiveLevels);
  } else if (nested >= 0) {
    icv.max_active_levels = nested != 0 ? kSupportedActiveLevels : 1;
  } else if (g.nthreads_list.size() > 1 || g.bind_list.size() > 1) {
    icv.max_active_levels = kSupportedActiveLevels;
  }
  g.nested = icv.max_active_levels > 1;
  if (parse_int_var("OMP_THREAD_LIMIT", 1, INT_MAX, &v)) icv.thread_limit = static_cast<int>(v);
  if (parse_int_var("OMP_DEFAULT_DEVICE", 0, INT_MAX, &v)) icv.default_device = static_cast<int>(v);
  if (parse_int_var("OMP_MAX_TASK_PRIORITY", 0, INT_MAX, &v))
    g.max_task_priority = static_cast<int>(v);
  if (parse_int_var("OMP_NUM_TEAMS", 1, INT_MAX, &v)) g.nteams = static_cast<int>(v);
  if (parse_int_var("OMP_TEAMS_THREAD_LIMIT", 1, INT_MAX, &v))
    g.teams_thread_limit = static_cast<int>(v);
  if (const int b = parse_bool_var("OMP_CANCELLATION"); b >= 0) g.cancellation = b != 0;
  if (const int b = parse_bool_var("OMP_DISPLAY_AFFINITY"); b >= 0) g.display_affinity = b != 0;
  if (const char* s = std::getenv("OMP_AFFINITY_FORMAT")) g.affinity_format = s;
  parse_allocator(g);
  if (const char* s = std::getenv("OMP_TARGET_OFFLOAD")) {
    if (word_is(s, "default")) {
      g.target_offload = 0;
    } else if (word_is(s, "mandatory")) {
      g.target_offload = 1;
    } else if (word_is(s, "disabled")) {
      g.target_offload = 2;
    } else {
      warn_invalid("OMP_TARGET_OFFLOAD", s);
    }
  }
  if (const char* s = std::getenv("OMP_STACKSIZE")) {
    if (!parse_size(s, 1024, &g.stack_bytes)) warn_invalid("OMP_STACKSIZE", s);
  }
  if (const char* s = std::getenv("RTPAR_OMP_TASK_ARENA")) {
    std::size_t bytes = 0;
    if (parse_size(s, 1, &bytes) && bytes > 0) {
      g.task_arena_bytes = bytes;
    } else {
      warn_invalid("RTPAR_OMP_TASK_ARENA", s);
    }
  }
  parse_wait(g);
  if (const char* s = std::getenv("OMP_DISPLAY_ENV")) {
    if (word_is(s, "true")) {
      g.display_env = 1;
    } else if (word_is(s, "verbose")) {
      g.display_env = 2;
    } else if (!word_is(s, "false")) {
      warn_invalid("OMP_DISPLAY_ENV", s);
    }
  }
  return g;
}

}  // namespace rtpar::omp::env
