/* loaded_lib: the process really runs on the expected OpenMP library. With
 * RTPAR_OMP_EXPECT_LIB set (the runner sets it to rtpar's libgomp.so.1), the one libgomp
 * mapped in /proc/self/maps must be that file (compared by inode and device, so symlinks and
 * relative paths do not matter), and no other libgomp may be mapped; rtpar's libomp.so.5
 * (RTPAR_OMP_EXPECT_SHIM), which forwards to it, may be mapped beside it. */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "omp_check.h"

int main(void) {
  /* Make sure the library is in use (it is mapped at start anyway). */
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n++;
  CHECK(n == omp_get_max_threads(), "team %d", n);

  PHASE("maps");
  FILE* f = fopen("/proc/self/maps", "r");
  CHECK(f != NULL, "cannot open /proc/self/maps");
  if (!f) return omp_check_result();
  const char* expect = getenv("RTPAR_OMP_EXPECT_LIB");
  struct stat want;
  int have_want = expect && *expect && stat(expect, &want) == 0;
  if (expect && *expect) CHECK(have_want, "RTPAR_OMP_EXPECT_LIB=%s does not exist", expect);
  /* RTPAR_OMP_EXPECT_SHIM: rtpar's libomp.so.5 beside it (a clang-built program loads it; it only
   * forwards to the expected library), which is not another runtime. */
  const char* shim = getenv("RTPAR_OMP_EXPECT_SHIM");
  struct stat shim_st;
  int have_shim = shim && *shim && stat(shim, &shim_st) == 0;
  char line[4096];
  int found_expected = 0, others = 0, omp_libs = 0;
  char first_other[4096] = "";
  while (fgets(line, sizeof line, f)) {
    unsigned maj, min;
    unsigned long inode;
    char path[4096] = "";
    if (sscanf(line, "%*s %*s %*s %x:%x %lu %4095[^\n]", &maj, &min, &inode, path) < 3) continue;
    const char* p = path;
    while (*p == ' ') p++;
    const char* base = strrchr(p, '/');
    base = base ? base + 1 : p;
    if (strncmp(base, "libgomp", 7) && strncmp(base, "libomp", 6) && strncmp(base, "libiomp", 7))
      continue;
    omp_libs++;
    if (have_shim && inode == (unsigned long)shim_st.st_ino && makedev(maj, min) == shim_st.st_dev)
      continue;
    if (have_want && inode == (unsigned long)want.st_ino && makedev(maj, min) == want.st_dev)
      found_expected = 1;
    else if (!first_other[0] || strcmp(first_other, p)) {
      if (!first_other[0]) snprintf(first_other, sizeof first_other, "%s", p);
      others++;
    }
  }
  fclose(f);
  CHECK(omp_libs > 0, "no OpenMP runtime mapped at all");
  if (have_want) {
    CHECK(found_expected, "%s is not mapped (mapped: %s)", expect, first_other);
    CHECK(others == 0, "another OpenMP runtime is mapped too: %s", first_other);
  }
  return omp_check_result();
}
