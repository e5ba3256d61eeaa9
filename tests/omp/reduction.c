/* reduction: every reduction operator on int, long, double, float, long double (atomic
 * fallback), _Complex double, array sections, user-defined reductions (declare reduction),
 * reductions on parallel, for, sections, nowait loops and nested regions. */
#include <complex.h>
#include <float.h>
#include <limits.h>
#include "omp_check.h"

/* pair_t: a user-defined reduction type. */
typedef struct {
  long sum;
  long max;
} pair_t;
static void pair_combine(pair_t* out, const pair_t* in) {
  out->sum += in->sum;
  if (in->max > out->max) out->max = in->max;
}
#pragma omp declare reduction(pairred:pair_t                     \
                              : pair_combine(&omp_out, &omp_in)) \
    initializer(omp_priv = (pair_t){0, LONG_MIN})
#pragma omp declare reduction(mulmod:long \
                              : omp_out = (omp_out * omp_in) % 1000003) initializer(omp_priv = 1)

int main(void) {
  const int N = 1000;
  PHASE("integer operators");
  {
    long sum = 0, prod = 1, minus = 0;
    int mx = INT_MIN, mn = INT_MAX, band = ~0, bor = 0, bxor = 0, land = 1, lor = 0;
#pragma omp parallel for reduction(+ : sum) reduction(- : minus) reduction(max : mx) \
    reduction(min : mn) reduction(& : band) reduction(| : bor) reduction(^ : bxor) \
    reduction(&& : land) reduction(|| : lor) schedule(dynamic, 7)
    for (int i = 1; i <= N; i++) {
      sum += i;
      minus -= i;
      if (i > mx) mx = i;
      if (-i < mn) mn = -i;
      band &= ~(1 << (i % 8 == 3 ? 4 : 30));
      bor |= 1 << (i % 12);
      bxor ^= i;
      land = land && (i > 0);
      lor = lor || (i == 500);
    }
#pragma omp parallel for reduction(* : prod)
    for (int i = 1; i <= 20; i++) prod *= (i % 3) + 1;
    int ex = 0;
    for (int i = 1; i <= N; i++) ex ^= i;
    CHECK(sum == 500500, "+ %ld", sum);
    CHECK(minus == -500500, "- %ld", minus);
    CHECK(mx == N && mn == -N, "max %d min %d", mx, mn);
    CHECK(band == ~((1 << 4) | (1 << 30)), "& %x", band);
    CHECK(bor == 0xfff, "| %x", bor);
    CHECK(bxor == ex, "^ %d vs %d", bxor, ex);
    CHECK(land == 1 && lor == 1, "&& %d || %d", land, lor);
    long ep = 1;
    for (int i = 1; i <= 20; i++) ep *= (i % 3) + 1;
    CHECK(prod == ep, "* %ld vs %ld", prod, ep);
  }

  PHASE("floating point");
  {
    double d = 0;
    float f = 0;
    double dmax = -DBL_MAX, dmin = DBL_MAX;
#pragma omp parallel for reduction(+ : d, f) reduction(max : dmax) reduction(min : dmin)
    for (int i = 0; i < N; i++) {
      d += 0.5;
      f += 0.25f;
      if (i * 1.5 > dmax) dmax = i * 1.5;
      if (i * 1.5 < dmin) dmin = i * 1.5;
    }
    CHECK(d == 500.0 && f == 250.0f, "double %g float %g", d, (double)f);
    CHECK(dmax == 999 * 1.5 && dmin == 0.0, "dmax %g dmin %g", dmax, dmin);
  }

  PHASE("long double (atomic fallback)");
  {
    long double ld = 0;
    long double ldm = 1;
#pragma omp parallel for reduction(+ : ld) reduction(* : ldm) schedule(guided)
    for (int i = 0; i < N; i++) {
      ld += 0.5L;
      if (i % 100 == 0) ldm *= 2.0L;
    }
    CHECK(ld == 500.0L && ldm == 1024.0L, "long double %Lg %Lg", ld, ldm);
    long double lp = 0;
#pragma omp parallel reduction(+ : lp)
    lp += 1.0L;
    CHECK(lp == (long double)omp_get_max_threads(), "parallel long double %Lg", lp);
  }

  PHASE("complex");
  {
    double _Complex z = 0;
    float _Complex zf = 0;
#pragma omp parallel for reduction(+ : z, zf)
    for (int i = 0; i < N; i++) {
      z += 1.0 + 2.0 * I;
      zf += 0.5f - 1.0f * I;
    }
    CHECK(creal(z) == N && cimag(z) == 2.0 * N, "complex %g%+gi", creal(z), cimag(z));
    CHECK(crealf(zf) == N / 2 && cimagf(zf) == -N, "complex float %g%+gi", (double)crealf(zf),
          (double)cimagf(zf));
    double _Complex zp = 1;
#pragma omp parallel for reduction(* : zp)
    for (int i = 0; i < 8; i++) zp *= I;
    CHECK(creal(zp) == 1.0 && cimag(zp) == 0.0, "complex product %g%+gi", creal(zp), cimag(zp));
  }

  PHASE("array sections");
  {
    long hist[16] = {0};
    long mat[4][4] = {{0}};
#pragma omp parallel for reduction(+ : hist [0:16]) schedule(dynamic)
    for (int i = 0; i < 1600; i++) hist[i % 16]++;
    int ok = 1;
    for (int k = 0; k < 16; k++) ok &= hist[k] == 100;
    CHECK(ok, "array section reduction");
#pragma omp parallel for reduction(+ : mat)
    for (int i = 0; i < 160; i++) mat[i % 4][(i / 4) % 4] += 1;
    ok = 1;
    for (int k = 0; k < 16; k++) ok &= mat[k / 4][k % 4] == 10;
    CHECK(ok, "whole array reduction");
    int* p = calloc(8, sizeof(int));
#pragma omp parallel for reduction(max : p [2:4])
    for (int i = 0; i < 100; i++)
      for (int k = 2; k < 6; k++)
        if (i * k > p[k]) p[k] = i * k;
    CHECK(p[0] == 0 && p[2] == 198 && p[5] == 495 && p[6] == 0, "pointer section %d %d %d", p[2],
          p[5], p[6]);
    free(p);
  }

  PHASE("user-defined reductions");
  {
    pair_t acc = {0, LONG_MIN};
#pragma omp parallel for reduction(pairred : acc) schedule(dynamic, 5)
    for (int i = 0; i < N; i++) {
      acc.sum += i;
      if (i * 3 % 1001 > acc.max) acc.max = i * 3 % 1001;
    }
    long em = 0;
    for (int i = 0; i < N; i++)
      if (i * 3 % 1001 > em) em = i * 3 % 1001;
    CHECK(acc.sum == 499500 && acc.max == em, "UDR pair %ld %ld", acc.sum, acc.max);
    long m = 1;
#pragma omp parallel for reduction(mulmod : m)
    for (int i = 1; i <= 100; i++) m = (m * i) % 1000003;
    long e = 1;
    for (int i = 1; i <= 100; i++) e = (e * i) % 1000003;
    CHECK(m == e, "UDR mulmod %ld vs %ld", m, e);
  }

  PHASE("parallel / sections / nowait / nested");
  {
    int cnt = 0;
#pragma omp parallel reduction(+ : cnt)
    cnt++;
    CHECK(cnt == omp_get_max_threads(), "parallel reduction %d", cnt);
    int s = 0;
#pragma omp parallel sections reduction(+ : s)
    {
#pragma omp section
      s += 1;
#pragma omp section
      s += 10;
#pragma omp section
      s += 100;
    }
    CHECK(s == 111, "sections reduction %d", s);
    long a = 0, b = 0;
#pragma omp parallel
    {
#pragma omp for reduction(+ : a) nowait
      for (int i = 0; i < 100; i++) a += i;
#pragma omp for reduction(+ : b) schedule(dynamic) nowait
      for (int i = 0; i < 100; i++) b += 2 * i;
    }
    CHECK(a == 4950 && b == 9900, "nowait reductions %ld %ld", a, b);
    omp_set_max_active_levels(2);
    long tot = 0;
#pragma omp parallel num_threads(2) reduction(+ : tot)
    {
#pragma omp parallel for num_threads(2) reduction(+ : tot)
      for (int i = 0; i < 100; i++) tot += i;
    }
    CHECK(tot == 9900, "nested reductions %ld", tot);
  }
  return omp_check_result();
}
