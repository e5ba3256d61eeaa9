// fortran.cpp — the Fortran entry points of the omp_* routines, as gfortran calls them: the C
// name with a trailing underscore, every argument by reference (integer(4), or integer(8) for
// the *_8_ forms), LOGICAL results as a 4-byte int, and character arguments followed by hidden
// length arguments. omp_lock_kind is 4, so a Fortran lock IS the C lock; omp_nest_lock_kind is
// 8, too small for the 16-byte C nest lock, so a Fortran nest lock holds a pointer to one,
// allocated by omp_init_nest_lock_ and freed by omp_destroy_nest_lock_ (as in libgomp).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "omp/runtime.hpp"

// The C routines this file forwards to (api.cpp, lock.cpp, affinity.cpp, teams.cpp,
// omp_alloc.cpp, display_env.cpp).
extern "C" {
void omp_set_num_threads(int);
int omp_get_num_threads();
int omp_get_max_threads();
int omp_get_thread_num();
int omp_get_num_procs();
int omp_in_parallel();
void omp_set_dynamic(int);
int omp_get_dynamic();
void omp_set_nested(int);
int omp_get_nested();
double omp_get_wtime();
double omp_get_wtick();
void omp_set_schedule(int, int);
void omp_get_schedule(int*, int*);
int omp_get_thread_limit();
void omp_set_max_active_levels(int);
int omp_get_max_active_levels();
int omp_get_supported_active_levels();
int omp_get_level();
int omp_get_active_level();
int omp_get_ancestor_thread_num(int);
int omp_get_team_size(int);
int omp_get_cancellation();
int omp_get_proc_bind();
void omp_set_default_device(int);
int omp_get_default_device();
int omp_get_num_devices();
int omp_get_device_num();
int omp_get_num_teams();
int omp_get_team_num();
int omp_is_initial_device();
int omp_get_initial_device();
int omp_get_num_places();
int omp_get_place_num_procs(int);
void omp_get_place_proc_ids(int, int*);
int omp_get_place_num();
int omp_get_partition_num_places();
void omp_get_partition_place_nums(int*);
int omp_pause_resource(int, int);
int omp_pause_resource_all(int);
void omp_set_affinity_format(const char*);
std::size_t omp_get_affinity_format(char*, std::size_t);
void omp_display_affinity(const char*);
std::size_t omp_capture_affinity(char*, std::size_t, const char*);
void omp_set_num_teams(int);
int omp_get_max_teams();
void omp_set_teams_thread_limit(int);
int omp_get_teams_thread_limit();
std::uintptr_t omp_init_allocator(std::uintptr_t, int, const void*);
void omp_destroy_allocator(std::uintptr_t);
void omp_set_default_allocator(std::uintptr_t);
std::uintptr_t omp_get_default_allocator();
void omp_display_env(int);
void omp_init_lock_30(std::uint32_t*);
void omp_destroy_lock_30(std::uint32_t*);
void omp_set_lock_30(std::uint32_t*);
void omp_unset_lock_30(std::uint32_t*);
int omp_test_lock_30(std::uint32_t*);
void omp_init_nest_lock_30(void*);
void omp_destroy_nest_lock_30(void*);
void omp_set_nest_lock_30(void*);
void omp_unset_nest_lock_30(void*);
int omp_test_nest_lock_30(void*);
// The tasking module's routines, weak so that this file links before that module does.
int omp_in_final() __attribute__((weak));
int omp_get_max_task_priority() __attribute__((weak));
void omp_fulfill_event(std::uintptr_t) __attribute__((weak));
}

namespace rtpar::omp {

namespace {

// narrow clamps a Fortran integer(8) argument to int.
int narrow(std::int64_t v) noexcept {
  return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX));
}

// fstring is a Fortran character argument as a C++ string (all `len` characters, trailing
// blanks included, as libgomp keeps them).
std::string fstring(const char* s, std::size_t len) { return std::string(s, len); }

// blank_fill copies s into a Fortran character buffer, padding with blanks.
void blank_fill(const std::string& s, char* buf, std::size_t len) {
  const std::size_t n = std::min(s.size(), len);
  std::memcpy(buf, s.data(), n);
  std::memset(buf + n, ' ', len - n);
}

}  // namespace

// Each *_ function below is the Fortran form of the C routine of the same name.
RTPAR_OMP_EXPORT void omp_set_num_threads_(const std::int32_t* n) { omp_set_num_threads(*n); }
RTPAR_OMP_EXPORT void omp_set_num_threads_8_(const std::int64_t* n) {
  omp_set_num_threads(narrow(*n));
}
RTPAR_OMP_EXPORT std::int32_t omp_get_num_threads_() { return omp_get_num_threads(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_max_threads_() { return omp_get_max_threads(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_thread_num_() { return omp_get_thread_num(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_num_procs_() { return omp_get_num_procs(); }
RTPAR_OMP_EXPORT std::int32_t omp_in_parallel_() { return omp_in_parallel(); }
RTPAR_OMP_EXPORT void omp_set_dynamic_(const std::int32_t* b) { omp_set_dynamic(*b); }
RTPAR_OMP_EXPORT void omp_set_dynamic_8_(const std::int64_t* b) { omp_set_dynamic(*b != 0); }
RTPAR_OMP_EXPORT std::int32_t omp_get_dynamic_() { return omp_get_dynamic(); }
RTPAR_OMP_EXPORT void omp_set_nested_(const std::int32_t* b) { omp_set_nested(*b); }
RTPAR_OMP_EXPORT void omp_set_nested_8_(const std::int64_t* b) { omp_set_nested(*b != 0); }
RTPAR_OMP_EXPORT std::int32_t omp_get_nested_() { return omp_get_nested(); }
RTPAR_OMP_EXPORT double omp_get_wtime_() { return omp_get_wtime(); }
RTPAR_OMP_EXPORT double omp_get_wtick_() { return omp_get_wtick(); }
RTPAR_OMP_EXPORT void omp_set_schedule_(const std::int32_t* kind, const std::int32_t* chunk) {
  omp_set_schedule(*kind, *chunk);
}
RTPAR_OMP_EXPORT void omp_set_schedule_8_(const std::int32_t* kind, const std::int64_t* chunk) {
  omp_set_schedule(*kind, narrow(*chunk));
}
RTPAR_OMP_EXPORT void omp_get_schedule_(std::int32_t* kind, std::int32_t* chunk) {
  omp_get_schedule(kind, chunk);
}
RTPAR_OMP_EXPORT void omp_get_schedule_8_(std::int32_t* kind, std::int64_t* chunk) {
  int c = 0;
  omp_get_schedule(kind, &c);
  *chunk = c;
}
RTPAR_OMP_EXPORT std::int32_t omp_get_thread_limit_() { return omp_get_thread_limit(); }
RTPAR_OMP_EXPORT void omp_set_max_active_levels_(const std::int32_t* n) {
  omp_set_max_active_levels(*n);
}
RTPAR_OMP_EXPORT void omp_set_max_active_levels_8_(const std::int64_t* n) {
  omp_set_max_active_levels(narrow(*n));
}
RTPAR_OMP_EXPORT std::int32_t omp_get_max_active_levels_() { return omp_get_max_active_levels(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_supported_active_levels_() {
  return omp_get_supported_active_levels();
}
RTPAR_OMP_EXPORT std::int32_t omp_get_level_() { return omp_get_level(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_active_level_() { return omp_get_active_level(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_ancestor_thread_num_(const std::int32_t* level) {
  return omp_get_ancestor_thread_num(*level);
}
RTPAR_OMP_EXPORT std::int32_t omp_get_ancestor_thread_num_8_(const std::int64_t* level) {
  return omp_get_ancestor_thread_num(narrow(*level));
}
RTPAR_OMP_EXPORT std::int32_t omp_get_team_size_(const std::int32_t* level) {
  return omp_get_team_size(*level);
}
RTPAR_OMP_EXPORT std::int32_t omp_get_team_size_8_(const std::int64_t* level) {
  return omp_get_team_size(narrow(*level));
}
RTPAR_OMP_EXPORT std::int32_t omp_get_cancellation_() { return omp_get_cancellation(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_proc_bind_() { return omp_get_proc_bind(); }
RTPAR_OMP_EXPORT void omp_set_default_device_(const std::int32_t* d) { omp_set_default_device(*d); }
RTPAR_OMP_EXPORT void omp_set_default_device_8_(const std::int64_t* d) {
  omp_set_default_device(narrow(*d));
}
RTPAR_OMP_EXPORT std::int32_t omp_get_default_device_() { return omp_get_default_device(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_num_devices_() { return omp_get_num_devices(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_device_num_() { return omp_get_device_num(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_num_teams_() { return omp_get_num_teams(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_team_num_() { return omp_get_team_num(); }
RTPAR_OMP_EXPORT std::int32_t omp_is_initial_device_() { return omp_is_initial_device(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_initial_device_() { return omp_get_initial_device(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_num_places_() { return omp_get_num_places(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_place_num_procs_(const std::int32_t* p) {
  return omp_get_place_num_procs(*p);
}
RTPAR_OMP_EXPORT std::int32_t omp_get_place_num_procs_8_(const std::int64_t* p) {
  return omp_get_place_num_procs(narrow(*p));
}
RTPAR_OMP_EXPORT void omp_get_place_proc_ids_(const std::int32_t* p, std::int32_t* ids) {
  omp_get_place_proc_ids(*p, ids);
}
RTPAR_OMP_EXPORT void omp_get_place_proc_ids_8_(const std::int64_t* p, std::int64_t* ids) {
  const int place = narrow(*p);
  const int n = omp_get_place_num_procs(place);
  std::vector<int> tmp(static_cast<std::size_t>(n));
  omp_get_place_proc_ids(place, tmp.data());
  for (int i = 0; i < n; ++i) ids[i] = tmp[static_cast<std::size_t>(i)];
}
RTPAR_OMP_EXPORT std::int32_t omp_get_place_num_() { return omp_get_place_num(); }
RTPAR_OMP_EXPORT std::int32_t omp_get_partition_num_places_() {
  return omp_get_partition_num_places();
}
RTPAR_OMP_EXPORT void omp_get_partition_place_nums_(std::int32_t* nums) {
  omp_get_partition_place_nums(nums);
}
RTPAR_OMP_EXPORT void omp_get_partition_place_nums_8_(std::int64_t* nums) {
  for (int p = 0, n = omp_get_partition_num_places(); p < n; ++p) nums[p] = p;
}
RTPAR_OMP_EXPORT std::int32_t omp_pause_resource_(const std::int32_t* kind,
                                                  const std::int32_t* device) {
  return omp_pause_resource(*kind, *device);
}
RTPAR_OMP_EXPORT std::int32_t omp_pause_resource_all_(const std::int32_t* kind) {
  return omp_pause_resource_all(*kind);
}
RTPAR_OMP_EXPORT void omp_set_affinity_format_(const char* format, std::size_t len) {
  omp_set_affinity_format(fstring(format, len).c_str());
}
RTPAR_OMP_EXPORT std::int32_t omp_get_affinity_format_(char* buf, std::size_t len) {
  const std::size_t n = omp_get_affinity_format(nullptr, 0);
  std::string s(n + 1, '\0');
  omp_get_affinity_format(s.data(), s.size());
  s.resize(n);
  blank_fill(s, buf, len);
  return static_cast<std::int32_t>(n);
}
RTPAR_OMP_EXPORT void omp_display_affinity_(const char* format, std::size_t len) {
  omp_display_affinity(fstring(format, len).c_str());
}
RTPAR_OMP_EXPORT std::int32_t omp_capture_affinity_(char* buf, const char* format,
                                                    std::size_t buf_len, std::size_t fmt_len) {
  const std::string f = fstring(format, fmt_len);
  const std::size_t n = omp_capture_affinity(nullptr, 0, f.c_str());
  std::string s(n + 1, '\0');
  omp_capture_affinity(s.data(), s.size(), f.c_str());
  s.resize(n);
  blank_fill(s, buf, buf_len);
  return static_cast<std::int32_t>(n);
}
RTPAR_OMP_EXPORT void omp_set_num_teams_(const std::int32_t* n) { omp_set_num_teams(*n); }
RTPAR_OMP_EXPORT void omp_set_num_teams_8_(const std::int64_t* n) { omp_set_num_teams(narrow(*n)); }
RTPAR_OMP_EXPORT std::int32_t omp_get_max_teams_() { return omp_get_max_teams(); }
RTPAR_OMP_EXPORT void omp_set_teams_thread_limit_(const std::int32_t* n) {
  omp_set_teams_thread_limit(*n);
}
RTPAR_OMP_EXPORT void omp_set_teams_thread_limit_8_(const std::int64_t* n) {
  omp_set_teams_thread_limit(narrow(*n));
}
RTPAR_OMP_EXPORT std::int32_t omp_get_teams_thread_limit_() { return omp_get_teams_thread_limit(); }
RTPAR_OMP_EXPORT std::uintptr_t omp_init_allocator_(const std::uintptr_t* memspace,
                                                    const std::int32_t* ntraits,
                                                    const void* traits) {
  return omp_init_allocator(*memspace, *ntraits, traits);
}
RTPAR_OMP_EXPORT std::uintptr_t omp_init_allocator_8_(const std::uintptr_t* memspace,
                                                      const std::int64_t* ntraits,
                                                      const void* traits) {
  return omp_init_allocator(*memspace, narrow(*ntraits), traits);
}
RTPAR_OMP_EXPORT void omp_destroy_allocator_(const std::uintptr_t* a) { omp_destroy_allocator(*a); }
RTPAR_OMP_EXPORT void omp_set_default_allocator_(const std::uintptr_t* a) {
  omp_set_default_allocator(*a);
}
RTPAR_OMP_EXPORT std::uintptr_t omp_get_default_allocator_() { return omp_get_default_allocator(); }
RTPAR_OMP_EXPORT void omp_display_env_(const std::int32_t* verbose) { omp_display_env(*verbose); }
RTPAR_OMP_EXPORT void omp_display_env_8_(const std::int64_t* verbose) {
  omp_display_env(*verbose != 0);
}

// The tasking module's routines (their C forms live there).
RTPAR_OMP_EXPORT std::int32_t omp_in_final_() { return omp_in_final ? omp_in_final() : 0; }
RTPAR_OMP_EXPORT std::int32_t omp_get_max_task_priority_() {
  return omp_get_max_task_priority ? omp_get_max_task_priority() : globals().max_task_priority;
}
// omp_fulfill_event_ takes the handle BY VALUE: omp_lib's interface declares the argument
// `value, intent(in)` (the one routine of the module that is neither by reference nor bind(c)),
// so gfortran passes the handle itself, as libgomp's fortran.c expects.
RTPAR_OMP_EXPORT void omp_fulfill_event_(std::uintptr_t event) {
  if (omp_fulfill_event) omp_fulfill_event(event);
}

// ---- locks: integer(4) simple locks are the C lock; integer(8) nest locks point to one ----
RTPAR_OMP_EXPORT void omp_init_lock_(std::uint32_t* l) { omp_init_lock_30(l); }
RTPAR_OMP_EXPORT void omp_destroy_lock_(std::uint32_t* l) { omp_destroy_lock_30(l); }
RTPAR_OMP_EXPORT void omp_set_lock_(std::uint32_t* l) { omp_set_lock_30(l); }
RTPAR_OMP_EXPORT void omp_unset_lock_(std::uint32_t* l) { omp_unset_lock_30(l); }
RTPAR_OMP_EXPORT std::int32_t omp_test_lock_(std::uint32_t* l) { return omp_test_lock_30(l); }
RTPAR_OMP_EXPORT void omp_init_nest_lock_(void** l) {
  *l = std::malloc(16);  // malloc's alignment (16) covers the nest lock's (8)
  if (*l == nullptr) std::abort();
  omp_init_nest_lock_30(*l);
}
RTPAR_OMP_EXPORT void omp_destroy_nest_lock_(void** l) {
  omp_destroy_nest_lock_30(*l);
  std::free(*l);
  *l = nullptr;
}
RTPAR_OMP_EXPORT void omp_set_nest_lock_(void** l) { omp_set_nest_lock_30(*l); }
RTPAR_OMP_EXPORT void omp_unset_nest_lock_(void** l) { omp_unset_nest_lock_30(*l); }
RTPAR_OMP_EXPORT std::int32_t omp_test_nest_lock_(void** l) { return omp_test_nest_lock_30(*l); }

}  // namespace rtpar::omp
