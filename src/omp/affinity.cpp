// affinity.cpp — the place queries (OpenMP 5.1 §3.3) and the affinity-format routines (§3.4).
//
// Places are OMP_PLACES, or one place per CPU of the process's affinity mask when OMP_PROC_BIND
// asks for binding without OMP_PLACES; without binding requested there are none (as libgomp).
// A thread's place is the one its CPU affinity lies in; a thread allowed on CPUs of several
// places is in none (-1).
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "omp/env.hpp"
#include "omp/mutex.hpp"
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// format_lock guards format_var (a mutex word, mutex.hpp).
std::uint32_t format_lock = 0;

// format_var is affinity-format-var once a program set it (empty: the environment's).
std::string* format_var = nullptr;

// current_format copies affinity-format-var.
std::string current_format() {
  word_lock(&format_lock);
  std::string f = format_var != nullptr ? *format_var : globals().affinity_format;
  word_unlock(&format_lock);
  return f;
}

// places is the place list the queries report: none unless binding was asked for (as libgomp;
// rtpar still pins team members to one CPU each by default, see parallel.cpp).
const std::vector<std::vector<int>>& places() {
  static const std::vector<std::vector<int>> none;
  const Globals& g = globals();
  return env::binding_requested(g) ? g.places : none;
}

// thread_cpus lists the CPUs the calling thread may run on.
std::vector<int> thread_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

// cpu_list_text prints CPUs as ranges ("0-3,6").
std::string cpu_list_text(const std::vector<int>& cpus) {
  std::string s;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i + 1;
    while (j < cpus.size() && cpus[j] == cpus[j - 1] + 1) ++j;
    if (!s.empty()) s += ',';
    s += std::to_string(cpus[i]);
    if (j - i > 1) s += '-' + std::to_string(cpus[j - 1]);
    i = j;
  }
  return s;
}

// field_value is the text of one affinity-format field (short or long name); false if unknown.
bool field_value(const std::string& name, std::string* out) {
  const ThreadState& ts = self();
  auto is = [&](char c, const char* long_name) {
    return (name.size() == 1 && name[0] == c) || name == long_name;
  };
  if (is('t', "team_num")) {
    *out = std::to_string(ts.task->icv.team_num);
  } else if (is('T', "num_teams")) {
    *out = std::to_string(ts.task->icv.num_teams);
  } else if (is('L', "nesting_level")) {
    *out = std::to_string(ts.team->level);
  } else if (is('n', "thread_num")) {
    *out = std::to_string(ts.tid);
  } else if (is('N', "num_threads")) {
    *out = std::to_string(ts.team->nthreads);
  } else if (is('a', "ancestor_tnum")) {
    *out = std::to_string(ts.team->level > 0 ? ts.team->parent_tid : -1);
  } else if (is('H', "host")) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    *out = host;
  } else if (is('P', "process_id")) {
    *out = std::to_string(getpid());
  } else if (is('i', "native_thread_id")) {
    *out = std::to_string(syscall(SYS_gettid));
  } else if (is('A', "thread_affinity")) {
    *out = cpu_list_text(thread_cpus());
  } else {
    return false;
  }
  return true;
}

// expand fills an affinity format: %[0][.][width]F or %[0][.][width]{name}; %% is '%'.
std::string expand(const std::string& format) {
  std::string out;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    const std::size_t start = i++;
    if (i < format.size() && format[i] == '%') {
      out += '%';
      continue;
    }
    bool zero = false, right = false;
    if (i < format.size() && format[i] == '0') zero = right = true, ++i;
    if (i < format.size() && format[i] == '.') right = true, ++i;
    std::size_t width = 0;
    while (i < format.size() && format[i] >= '0' && format[i] <= '9')
      width = width * 10 + (format[i++] - '0');
    std::string name;
    if (i < format.size() && format[i] == '{') {
      const std::size_t close = format.find('}', i);
      if (close != std::string::npos) name = format.substr(i + 1, close - i - 1), i = close;
    } else if (i < format.size()) {
      name = format.substr(i, 1);
    }
    std::string value;
    if (name.empty() || !field_value(name, &value)) {
      out += format.substr(start, i + 1 - start);  // unknown: kept as written
      continue;
    }
    if (value.size() < width) {
      const std::string pad(width - value.size(), zero ? '0' : ' ');
      // Zero padding goes after a minus sign, as printf's %0*d does (ancestor_tnum -1 at %0.7:
      // "-000001", libgomp's output).
      const bool negative = zero && right && value.size() > 1 && value[0] == '-';
      value = negative ? "-" + pad + value.substr(1) : right ? pad + value : value + pad;
    }
    out += value;
  }
  return out;
}

// copy_out writes s into buf (size bytes, NUL-terminated, truncated) and returns s's length.
std::size_t copy_out(const std::string& s, char* buf, std::size_t size) {
  if (buf != nullptr && size > 0) {
    const std::size_t n = std::min(s.size(), size - 1);
    std::memcpy(buf, s.data(), n);
    buf[n] = '\0';
  }
  return s.size();
}

}  // namespace

// ---- places (§3.3) ----

// omp_get_num_places is the number of places.
RTPAR_OMP_EXPORT int omp_get_num_places() { return static_cast<int>(places().size()); }

// omp_get_place_num_procs is the number of CPUs of place p (0 for no such place).
RTPAR_OMP_EXPORT int omp_get_place_num_procs(int p) {
  const auto& all = places();
  return p >= 0 && static_cast<std::size_t>(p) < all.size()
             ? static_cast<int>(all[static_cast<std::size_t>(p)].size())
             : 0;
}

// omp_get_place_proc_ids writes the CPUs of place p into ids.
RTPAR_OMP_EXPORT void omp_get_place_proc_ids(int p, int* ids) {
  const auto& all = places();
  if (p < 0 || static_cast<std::size_t>(p) >= all.size() || ids == nullptr) return;
  for (int c : all[static_cast<std::size_t>(p)]) *ids++ = c;
}

// omp_get_place_num is the place the calling thread is bound to, or -1.
RTPAR_OMP_EXPORT int omp_get_place_num() {
  const std::vector<int> mine = thread_cpus();
  if (mine.empty()) return -1;
  const auto& all = places();
  for (std::size_t p = 0; p < all.size(); ++p) {
    const auto& pl = all[p];
    const bool inside = std::all_of(mine.begin(), mine.end(), [&](int c) {
      return std::find(pl.begin(), pl.end(), c) != pl.end();
    });
    if (inside) return static_cast<int>(p);
  }
  return -1;
}

// omp_get_partition_num_places is the size of the calling task's place partition
// (place-partition-var; placement.cpp divides it for spread binding).
RTPAR_OMP_EXPORT int omp_get_partition_num_places() {
  const int all = omp_get_num_places();
  const int count = self().task->icv.place_count;
  return all == 0 ? 0 : (count > 0 ? count : all);
}

// omp_get_partition_place_nums writes the partition's place numbers.
RTPAR_OMP_EXPORT void omp_get_partition_place_nums(int* nums) {
  if (nums == nullptr) return;
  const int all = omp_get_num_places();
  const int n = omp_get_partition_num_places();
  const int first = self().task->icv.place_count > 0 ? self().task->icv.place_first : 0;
  for (int k = 0; k < n; ++k) nums[k] = (first + k) % all;
}

// ---- affinity format (§3.4) ----

// omp_set_affinity_format sets affinity-format-var.
RTPAR_OMP_EXPORT void omp_set_affinity_format(const char* format) {
  std::string f = format != nullptr ? format : "";
  word_lock(&format_lock);
  if (format_var == nullptr) format_var = new std::string;
  format_var->swap(f);
  word_unlock(&format_lock);
}

// omp_get_affinity_format copies affinity-format-var into buf; returns its length.
RTPAR_OMP_EXPORT std::size_t omp_get_affinity_format(char* buf, std::size_t size) {
  return copy_out(current_format(), buf, size);
}

void display_affinity_if_changed(ThreadState& ts) {
  // OpenMP 5.0 §6.14: a thread's line is shown on entering its first region and whenever the
  // information its format's fields show changes — i.e. when the expanded line differs from the
  // last one shown (kept as an FNV-1a hash, not as text).
  const std::string line = expand(current_format());
  std::uint64_t sig = 1469598103934665603ULL;
  for (const char c : line) {
    sig ^= static_cast<unsigned char>(c);
    sig *= 1099511628211ULL;
  }
  if (sig == ts.affinity_shown) return;
  ts.affinity_shown = sig;
  const std::string out = line + '\n';
  std::fwrite(out.data(), 1, out.size(), stderr);
}

// omp_display_affinity prints the calling thread's affinity line (format NULL or empty:
// affinity-format-var) to stderr, as libgomp does.
RTPAR_OMP_EXPORT void omp_display_affinity(const char* format) {
  const std::string line =
      expand(format != nullptr && *format != '\0' ? std::string(format) : current_format()) + '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
}

// omp_capture_affinity writes the affinity line into buf; returns its full length.
RTPAR_OMP_EXPORT std::size_t omp_capture_affinity(char* buf, std::size_t size, const char* format) {
  return copy_out(
      expand(format != nullptr && *format != '\0' ? std::string(format) : current_format()), buf,
      size);
}

}  // namespace rtpar::omp
