/* api5: the OpenMP 5.0 routines GCC 12 programs import from the OMP_5.0, OMP_5.0.1 and
 * OMP_5.0.2 version nodes: affinity format (set/get/capture), memory allocators (omp_alloc,
 * omp_init_allocator with an alignment trait, default allocator), omp_get_device_num. A
 * library missing one of these nodes fails this program at load time. */
#include "omp_check.h"

int main(void) {
  PHASE("device num");
  CHECK(omp_get_device_num() == omp_get_initial_device(), "device num %d, initial device %d",
        omp_get_device_num(), omp_get_initial_device());

  PHASE("affinity format");
  {
    char buf[128];
    omp_set_affinity_format("T%n/%N L%L");
    size_t len = omp_get_affinity_format(buf, sizeof buf);
    CHECK(len == strlen("T%n/%N L%L") && !strcmp(buf, "T%n/%N L%L"), "affinity format '%s' %zu",
          buf, len);
    int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
    {
      char out[64], want[64];
      omp_capture_affinity(out, sizeof out, NULL);
      snprintf(want, sizeof want, "T%d/%d L1", omp_get_thread_num(), omp_get_num_threads());
      bad += strcmp(out, want) != 0;
      size_t l = omp_capture_affinity(out, sizeof out, "%{thread_num}|%{num_threads}");
      snprintf(want, sizeof want, "%d|%d", omp_get_thread_num(), omp_get_num_threads());
      bad += strcmp(out, want) != 0 || l != strlen(want);
    }
    CHECK(bad == 0, "capture_affinity wrong on %d threads", bad);
  }

  PHASE("omp_alloc");
  {
    double* p = omp_alloc(1000 * sizeof(double), omp_default_mem_alloc);
    CHECK(p != NULL, "omp_alloc returned NULL");
    if (p) {
      for (int i = 0; i < 1000; i++) p[i] = i;
      omp_free(p, omp_default_mem_alloc);
    }
    omp_alloctrait_t tr[1] = {{omp_atk_alignment, 256}};
    omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 1, tr);
    CHECK(al != omp_null_allocator, "omp_init_allocator failed");
    void* q = omp_alloc(100, al);
    CHECK(q && ((size_t)q % 256) == 0, "aligned omp_alloc %p", q);
    omp_free(q, al);
    omp_destroy_allocator(al);
    omp_set_default_allocator(omp_default_mem_alloc);
    CHECK(omp_get_default_allocator() == omp_default_mem_alloc, "default allocator");
  }
  return omp_check_result();
}
