// target.cpp — device constructs without devices (OpenMP 5.1 §2.14, §3.8), as libgomp behaves
// when no offload device exists: every target region runs on the host, on the encountering
// thread; data-mapping constructs have nothing to map; the device-memory routines accept only
// the host (device 0 = omp_get_initial_device()) and then use host memory.
//
// A target region runs on the encountering thread in a fresh initial-thread context
// (target_context.cpp), as libgomp's host fallback does. Difference from libgomp: `nowait`
// target regions run at once, after their `depend` predecessors.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "omp/runtime.hpp"

// GOMP_taskwait_depend (tasking module) waits for the sibling tasks a depend list names; weak so
// that this file links before the tasking module provides it.
extern "C" void GOMP_taskwait_depend(void** depend) __attribute__((weak));

namespace rtpar::omp {

namespace {

// kMapFirstprivate is GOMP_MAP_FIRSTPRIVATE (gomp-constants.h): the region gets its own copy.
constexpr unsigned kMapFirstprivate = 12;

// The GOMP_target_ext `args` encoding (gomp-constants.h): each element is an id word, with the
// value in its upper bits or, when kArgSubsequent is set, in the next element.
constexpr std::uintptr_t kArgDeviceMask = 0x7f;      // GOMP_TARGET_ARG_DEVICE_MASK
constexpr std::uintptr_t kArgSubsequent = 1u << 7;   // GOMP_TARGET_ARG_SUBSEQUENT_PARAM
constexpr std::uintptr_t kArgIdMask = 0xffu << 8;    // GOMP_TARGET_ARG_ID_MASK
constexpr std::uintptr_t kArgThreadLimit = 2u << 8;  // GOMP_TARGET_ARG_THREAD_LIMIT
constexpr int kArgValueShift = 16;                   // GOMP_TARGET_ARG_VALUE_SHIFT

// arg_thread_limit is the thread_limit clause value for all devices in `args` (0: none).
int arg_thread_limit(void** args) noexcept {
  if (args == nullptr) return 0;
  while (*args != nullptr) {
    const auto id = reinterpret_cast<std::uintptr_t>(*args++);
    std::intptr_t val;
    if ((id & kArgSubsequent) != 0) {
      val = reinterpret_cast<std::intptr_t>(*args++);
    } else {
      val = static_cast<std::intptr_t>(id) >> kArgValueShift;
    }
    if ((id & kArgDeviceMask) != 0 || (id & kArgIdMask) != kArgThreadLimit) continue;
    return val > INT_MAX ? INT_MAX : val < 0 ? 0 : static_cast<int>(val);
  }
  return 0;
}

// is_host says whether a device number names the host (the initial device, or omp_initial_device
// = -1 of OpenMP 5.2).
bool is_host(int device) noexcept { return device == 0 || device == -1; }

// wait_depend waits for a construct's depend predecessors, when there are any.
void wait_depend(void** depend) {
  if (depend != nullptr && GOMP_taskwait_depend != nullptr) GOMP_taskwait_depend(depend);
}

// FreeDeleter frees aligned_alloc'd firstprivate copies.
struct FreeDeleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

// copy_rect copies a `dims`-dimensional sub-volume (memcpy on the innermost dimension).
void copy_rect(char* dst, const char* src, std::size_t elem, int dims, const std::size_t* volume,
               const std::size_t* dst_off, const std::size_t* src_off, const std::size_t* dst_dim,
               const std::size_t* src_dim) {
  if (dims == 1) {
    std::memcpy(dst + dst_off[0] * elem, src + src_off[0] * elem, volume[0] * elem);
    return;
  }
  std::size_t dst_slice = elem, src_slice = elem;
  for (int d = 1; d < dims; ++d) {
    dst_slice *= dst_dim[d];
    src_slice *= src_dim[d];
  }
  for (std::size_t i = 0; i < volume[0]; ++i) {
    copy_rect(dst + (dst_off[0] + i) * dst_slice, src + (src_off[0] + i) * src_slice, elem,
              dims - 1, volume + 1, dst_off + 1, src_off + 1, dst_dim + 1, src_dim + 1);
  }
}

}  // namespace

// ---- target regions ----

// GOMP_target (GCC 4.9–5) runs a target region on the host.
RTPAR_OMP_EXPORT void GOMP_target(int /*device*/, void (*fn)(void*), const void* /*unused*/,
                                  std::size_t /*mapnum*/, void** hostaddrs, std::size_t* /*sizes*/,
                                  unsigned char* /*kinds*/) {
  run_target_region(fn, hostaddrs, 0);
}

// GOMP_target_ext runs a target region on the host; firstprivate data gets a private copy, as it
// would on a device.
RTPAR_OMP_EXPORT void GOMP_target_ext(int /*device*/, void (*fn)(void*), std::size_t mapnum,
                                      void** hostaddrs, std::size_t* sizes, unsigned short* kinds,
                                      unsigned /*flags*/, void** depend, void** args) {
  wait_depend(depend);
  std::vector<std::unique_ptr<void, FreeDeleter>> copies;
  std::vector<void*> addrs;
  for (std::size_t i = 0; i < mapnum && kinds != nullptr; ++i) {
    if ((kinds[i] & 0xff) != kMapFirstprivate || hostaddrs[i] == nullptr) continue;
    if (addrs.empty()) addrs.assign(hostaddrs, hostaddrs + mapnum);
    const std::size_t align = std::max<std::size_t>(std::size_t{1} << (kinds[i] >> 8), 16);
    const std::size_t bytes = (sizes[i] + align - 1) / align * align;
    void* copy = std::aligned_alloc(align, bytes == 0 ? align : bytes);
    if (copy == nullptr) continue;  // out of memory: the region uses the original
    std::memcpy(copy, hostaddrs[i], sizes[i]);
    copies.emplace_back(copy);
    addrs[i] = copy;
  }
  run_target_region(fn, addrs.empty() ? hostaddrs : addrs.data(), arg_thread_limit(args));
}

// GOMP_target_data / _ext / GOMP_target_end_data: `target data` maps nothing on the host.
RTPAR_OMP_EXPORT void GOMP_target_data(int, const void*, std::size_t, void**, std::size_t*,
                                       unsigned char*) {}
RTPAR_OMP_EXPORT void GOMP_target_data_ext(int, std::size_t, void**, std::size_t*,
                                           unsigned short*) {}
RTPAR_OMP_EXPORT void GOMP_target_end_data() {}

// GOMP_target_update / _ext: `target update` has nothing to copy on the host.
RTPAR_OMP_EXPORT void GOMP_target_update(int, const void*, std::size_t, void**, std::size_t*,
                                         unsigned char*) {}
RTPAR_OMP_EXPORT void GOMP_target_update_ext(int, std::size_t, void**, std::size_t*,
                                             unsigned short*, unsigned, void** depend) {
  wait_depend(depend);
}

// GOMP_target_enter_exit_data: `target enter/exit data` has nothing to map on the host.
RTPAR_OMP_EXPORT void GOMP_target_enter_exit_data(int, std::size_t, void**, std::size_t*,
                                                  unsigned short*, unsigned, void** depend) {
  wait_depend(depend);
}

// GOMP_offload_register / _ver, GOMP_offload_unregister / _ver: images for devices that do not
// exist; nothing to record.
RTPAR_OMP_EXPORT void GOMP_offload_register(const void*, int, const void*) {}
RTPAR_OMP_EXPORT void GOMP_offload_register_ver(unsigned, const void*, int, const void*) {}
RTPAR_OMP_EXPORT void GOMP_offload_unregister(const void*, int, const void*) {}
RTPAR_OMP_EXPORT void GOMP_offload_unregister_ver(unsigned, const void*, int, const void*) {}

// ---- device memory routines ----

// omp_target_alloc allocates device memory: host memory for the host, nothing elsewhere.
RTPAR_OMP_EXPORT void* omp_target_alloc(std::size_t size, int device) {
  return is_host(device) ? std::malloc(size) : nullptr;
}

// omp_target_free frees omp_target_alloc's memory.
RTPAR_OMP_EXPORT void omp_target_free(void* ptr, int device) {
  if (ptr != nullptr && is_host(device)) std::free(ptr);
}

// omp_target_is_present: host memory is always present on the host.
RTPAR_OMP_EXPORT int omp_target_is_present(const void* ptr, int device) {
  return ptr == nullptr || is_host(device) ? 1 : 0;
}

// omp_target_memcpy copies between host buffers; 0 on success, EINVAL for another device.
RTPAR_OMP_EXPORT int omp_target_memcpy(void* dst, const void* src, std::size_t length,
                                       std::size_t dst_offset, std::size_t src_offset,
                                       int dst_device, int src_device) {
  if (!is_host(dst_device) || !is_host(src_device)) return EINVAL;
  std::memmove(static_cast<char*>(dst) + dst_offset, static_cast<const char*>(src) + src_offset,
               length);
  return 0;
}

// omp_target_memcpy_rect copies a sub-volume between host arrays; with both pointers NULL it
// reports the number of dimensions supported.
RTPAR_OMP_EXPORT int omp_target_memcpy_rect(void* dst, const void* src, std::size_t element_size,
                                            int num_dims, const std::size_t* volume,
                                            const std::size_t* dst_offsets,
                                            const std::size_t* src_offsets,
                                            const std::size_t* dst_dimensions,
                                            const std::size_t* src_dimensions, int dst_device,
                                            int src_device) {
  if (dst == nullptr && src == nullptr) return INT_MAX;
  if (!is_host(dst_device) || !is_host(src_device)) return EINVAL;
  if (dst == nullptr || src == nullptr || num_dims < 1) return EINVAL;
  copy_rect(static_cast<char*>(dst), static_cast<const char*>(src), element_size, num_dims, volume,
            dst_offsets, src_offsets, dst_dimensions, src_dimensions);
  return 0;
}

// omp_target_associate_ptr: the host has no device pointers to associate (EINVAL as libgomp).
RTPAR_OMP_EXPORT int omp_target_associate_ptr(const void*, const void*, std::size_t, std::size_t,
                                              int) {
  return EINVAL;
}

// omp_target_disassociate_ptr: nothing was associated (EINVAL as libgomp).
RTPAR_OMP_EXPORT int omp_target_disassociate_ptr(const void*, int) { return EINVAL; }

}  // namespace rtpar::omp
