/* output_format: text the runtime prints in libgomp's words — the `error` directive's warning
 * line ("\nlibgomp: error directive encountered: MSG\n", which test harnesses match) — and the
 * affinity format's zero padding of a negative field (sign first, as printf's %0*d). */
#include "omp_check.h"

int main(void) {
  PHASE("error directive warning text");
  {
    fflush(stderr);
    FILE* tmp = tmpfile();
    CHECK(tmp != NULL, "tmpfile");
    int saved = dup(2);
    dup2(fileno(tmp), 2);
#pragma omp error at(execution) severity(warning) message("note 7")
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char buf[256] = {0};
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    fclose(tmp);
    CHECK(n > 0 && strcmp(buf, "\nlibgomp: error directive encountered: note 7\n") == 0,
          "warning printed as \"%s\"", buf);
  }

  PHASE("zero-padded negative affinity field");
  {
    char buf[64];
    size_t n = omp_capture_affinity(buf, sizeof buf, "%0.6{ancestor_tnum}|%.4{ancestor_tnum}|");
    CHECK(n == 12 && strcmp(buf, "-00001|  -1|") == 0, "captured \"%s\" (%zu)", buf, n);
  }
  return omp_check_result();
}
