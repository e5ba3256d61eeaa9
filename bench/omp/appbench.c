/* appbench.c — the application studies of FJOS Fig. 5 (FJOS §IV, "Application studies"):
 * OmpSCR-style FFT, Jacobi and LU written against the OpenMP API, run unchanged on every runtime
 * by `rtpar bench omp --bench apps` (docs/bench-omp.md, "apps").
 *
 * OmpSCR itself is not packaged (Debian), so these are written here with OmpSCR's parallel
 * structure, which is what the figure measures: how much of a parallel stage's time the fork,
 * barrier and join of the runtime take as the stage shrinks.
 *   FFT     iterative radix-2 Cooley-Tukey on n complex doubles: the bit reversal and each of the
 *           log2(n) stages is one `parallel for` (a fork/join per stage).
 *   JACOBI  OmpSCR c_jacobi01: the Helmholtz equation on an n×n grid, one `parallel` region per
 *           sweep holding an `omp for` copy and an `omp for reduction(+:error)`; a fixed number
 *           of sweeps (kJacobiSweeps) so every runtime does the same work.
 *   LU      OmpSCR c_lu: LU decomposition without pivoting (the matrix is diagonally dominant),
 *           one `parallel for` over the rows below the pivot per pivot (n - 1 fork/joins).
 * Each runs at its default size (work 1) and at 1/4 and 1/16 of that work (decision F19), the
 * construct names FFT, FFT/4, FFT/16 and so on. `--size-div D` divides every work by D more
 * (`--quick`). FFT sizes are powers of two, so its work fractions are n/4 and n/16 (work
 * n·log2 n: about 1/4.5 and 1/20).
 *
 * Speedup is against a serial twin run in the same process before any runtime thread exists.
 * The serial and the parallel code call the same noinline row functions, so every element is
 * computed by the same instructions in both and the results must agree bit for bit: each
 * parallel run is compared with the serial one (memcmp), and a difference is a wrong result
 * ("ok": false, exit 1). */
#include <math.h>

#include "omp_bench.h"

static const char kBench[] = "apps";

enum { kJacobiSweeps = 20, kFftChunk = 1024 };

/* Grid is one problem: its input, its work array, and the serial result. */
typedef struct {
  const char* app;  /* FFT, JACOBI, LU */
  int n;            /* FFT points, grid side or matrix side */
  long elems;       /* doubles per array */
  double* input;    /* the problem, restored before every run (untimed) */
  double* work;     /* the array a run transforms */
  double* aux;      /* FFT: twiddles (n); JACOBI: uold; LU: unused */
  double* rhs;      /* JACOBI: f */
  double* expected; /* the serial result */
} Problem;

/* ---- FFT --------------------------------------------------------------------------------- */

/* fft_bitrev_range swaps x[i] and x[rev(i)] for i in [i0, i1) with i < rev(i): every pair once. */
__attribute__((noinline)) static void fft_bitrev_range(double* x, int log2n, long i0, long i1) {
  for (long i = i0; i < i1; ++i) {
    long r = 0;
    for (int b = 0; b < log2n; ++b) r |= ((i >> b) & 1) << (log2n - 1 - b);
    if (i < r) {
      const double re = x[2 * i], im = x[2 * i + 1];
      x[2 * i] = x[2 * r];
      x[2 * i + 1] = x[2 * r + 1];
      x[2 * r] = re;
      x[2 * r + 1] = im;
    }
  }
}

/* fft_stage_range does butterflies [b0, b1) of the stage whose blocks are 2·half long; w holds
 * exp(-2πi t/n) for t < n/2 as (re, im) pairs. */
__attribute__((noinline)) static void fft_stage_range(double* x, const double* w, int n, long half,
                                                      long b0, long b1) {
  const long stride = n / (2 * half);
  for (long b = b0; b < b1; ++b) {
    const long j = b % half, i = (b / half) * 2 * half + j, k = i + half;
    const double wr = w[2 * j * stride], wi = w[2 * j * stride + 1];
    const double tr = wr * x[2 * k] - wi * x[2 * k + 1];
    const double ti = wr * x[2 * k + 1] + wi * x[2 * k];
    x[2 * k] = x[2 * i] - tr;
    x[2 * k + 1] = x[2 * i + 1] - ti;
    x[2 * i] += tr;
    x[2 * i + 1] += ti;
  }
}

static int log2_of(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

static long min_long(long a, long b) { return a < b ? a : b; }

static void fft_serial(Problem* p) {
  const int lg = log2_of(p->n);
  fft_bitrev_range(p->work, lg, 0, p->n);
  for (long half = 1; half < p->n; half *= 2)
    fft_stage_range(p->work, p->aux, p->n, half, 0, p->n / 2);
}

static void fft_parallel(Problem* p) {
  const int lg = log2_of(p->n);
  const long n = p->n, chunks = (n + kFftChunk - 1) / kFftChunk;
  double* x = p->work;
#pragma omp parallel for schedule(static)
  for (long c = 0; c < chunks; ++c)
    fft_bitrev_range(x, lg, c * kFftChunk, min_long(n, (c + 1) * kFftChunk));
  const long bchunks = (n / 2 + kFftChunk - 1) / kFftChunk;
  for (long half = 1; half < n; half *= 2) {
#pragma omp parallel for schedule(static)
    for (long c = 0; c < bchunks; ++c) {
      fft_stage_range(x, p->aux, (int)n, half, c * kFftChunk, min_long(n / 2, (c + 1) * kFftChunk));
    }
  }
}

/* ---- JACOBI (OmpSCR c_jacobi01: Helmholtz, alpha = 0.0543, relax = 1) -------------------- */

/* jacobi_row updates row i of u from uold and returns the row's sum of squared residuals. */
__attribute__((noinline)) static double jacobi_row(double* u, const double* uold, const double* f,
                                                   int n, long i) {
  const double dx = 2.0 / (n - 1), dy = 2.0 / (n - 1), alpha = 0.0543, omega = 1.0;
  const double ax = 1.0 / (dx * dx), ay = 1.0 / (dy * dy),
               b = -2.0 / (dx * dx) - 2.0 / (dy * dy) - alpha;
  double err = 0.0;
  for (long j = 1; j < n - 1; ++j) {
    const long c = i * n + j;
    const double resid =
        (ax * (uold[c - n] + uold[c + n]) + ay * (uold[c - 1] + uold[c + 1]) + b * uold[c] - f[c]) /
        b;
    u[c] = uold[c] - omega * resid;
    err += resid * resid;
  }
  return err;
}

/* jacobi_copy_row copies row i of u into uold. */
__attribute__((noinline)) static void jacobi_copy_row(double* uold, const double* u, int n,
                                                      long i) {
  memcpy(uold + i * n, u + i * n, sizeof(double) * (size_t)n);
}

static void jacobi_serial(Problem* p) {
  const int n = p->n;
  for (int k = 0; k < kJacobiSweeps; ++k) {
    double error = 0.0;
    for (long i = 0; i < n; ++i) jacobi_copy_row(p->aux, p->work, n, i);
    for (long i = 1; i < n - 1; ++i) error += jacobi_row(p->work, p->aux, p->rhs, n, i);
    if (error < 0) printf("%f", error); /* keep it */
  }
}

static void jacobi_parallel(Problem* p) {
  const int n = p->n;
  double *u = p->work, *uold = p->aux;
  const double* f = p->rhs;
  for (int k = 0; k < kJacobiSweeps; ++k) {
    double error = 0.0;
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (long i = 0; i < n; ++i) jacobi_copy_row(uold, u, n, i);
#pragma omp for schedule(static) reduction(+ : error)
      for (long i = 1; i < n - 1; ++i) error += jacobi_row(u, uold, f, n, i);
    }
    if (error < 0) printf("%f", error);
  }
}

/* ---- LU (OmpSCR c_lu) ------------------------------------------------------------------- */

/* lu_row eliminates column k from row i of the n×n matrix a (the multiplier stays in a[i][k]). */
__attribute__((noinline)) static void lu_row(double* a, int n, long k, long i) {
  const double l = a[i * n + k] / a[k * n + k];
  a[i * n + k] = l;
  for (long j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
}

static void lu_serial(Problem* p) {
  const int n = p->n;
  for (long k = 0; k < n - 1; ++k) {
    for (long i = k + 1; i < n; ++i) lu_row(p->work, n, k, i);
  }
}

static void lu_parallel(Problem* p) {
  const int n = p->n;
  double* a = p->work;
  for (long k = 0; k < n - 1; ++k) {
#pragma omp parallel for schedule(static)
    for (long i = k + 1; i < n; ++i) lu_row(a, n, k, i);
  }
}

/* ---- problems ---------------------------------------------------------------------------- */

static double* alloc_doubles(long n) { return ob_alloc_samples(n); }

/* make_problem builds app at work fraction 1/frac (and 1/div more) with deterministic input. */
static Problem make_problem(const char* app, int frac, int div) {
  Problem p = {.app = app};
  const double w = 1.0 / ((double)frac * (double)div);
  if (strcmp(app, "FFT") == 0) {
    int n = 1 << 18;
    for (int f = frac * div; f > 1 && n > 64; f /= 2) n /= 2;
    p.n = n;
    p.elems = 2L * n;
    p.input = alloc_doubles(p.elems);
    for (long i = 0; i < n; ++i) {
      p.input[2 * i] = (double)(i % 17) - 8.0;
      p.input[2 * i + 1] = (double)(i % 5) - 2.0;
    }
    p.aux = alloc_doubles(n);
    for (long t = 0; t < n / 2; ++t) {
      p.aux[2 * t] = cos(-2.0 * M_PI * (double)t / n);
      p.aux[2 * t + 1] = sin(-2.0 * M_PI * (double)t / n);
    }
  } else if (strcmp(app, "JACOBI") == 0) {
    p.n = (int)lround(512.0 * sqrt(w));
    if (p.n < 8) p.n = 8;
    p.elems = (long)p.n * p.n;
    p.input = alloc_doubles(p.elems); /* u = 0 */
    p.aux = alloc_doubles(p.elems);
    p.rhs = alloc_doubles(p.elems);
    const double alpha = 0.0543, dx = 2.0 / (p.n - 1);
    for (long i = 0; i < p.n; ++i) {
      for (long j = 0; j < p.n; ++j) {
        const double x = -1.0 + dx * (double)i, y = -1.0 + dx * (double)j;
        p.rhs[i * p.n + j] =
            -alpha * (1.0 - x * x) * (1.0 - y * y) - 2.0 * (1.0 - x * x) - 2.0 * (1.0 - y * y);
      }
    }
  } else {
    p.n = (int)lround(512.0 * cbrt(w));
    if (p.n < 8) p.n = 8;
    p.elems = (long)p.n * p.n;
    p.input = alloc_doubles(p.elems);
    for (long i = 0; i < p.n; ++i) {
      for (long j = 0; j < p.n; ++j) {
        p.input[i * p.n + j] = i == j ? (double)p.n : 1.0 / (1.0 + (double)labs(i - j));
      }
    }
  }
  p.work = alloc_doubles(p.elems);
  p.expected = alloc_doubles(p.elems);
  return p;
}

static void free_problem(Problem* p) {
  free(p->input);
  free(p->work);
  free(p->aux);
  free(p->rhs);
  free(p->expected);
}

/* restore puts the input back (and Jacobi's uold to zero): untimed, before every run. */
static void restore(Problem* p) {
  memcpy(p->work, p->input, sizeof(double) * (size_t)p->elems);
  if (strcmp(p->app, "JACOBI") == 0) memset(p->aux, 0, sizeof(double) * (size_t)p->elems);
}

/* timed runs one (serial or parallel) solve from the input and returns its ns. */
static double timed(Problem* p, int parallel) {
  restore(p);
  const int64_t t0 = ob_now_ns();
  if (strcmp(p->app, "FFT") == 0) {
    parallel ? fft_parallel(p) : fft_serial(p);
  } else if (strcmp(p->app, "JACOBI") == 0) {
    parallel ? jacobi_parallel(p) : jacobi_serial(p);
  } else {
    parallel ? lu_parallel(p) : lu_serial(p);
  }
  return (double)(ob_now_ns() - t0);
}

/* checksum is the sum of the result in index order (reported; the check itself is memcmp). */
static double checksum(const double* v, long n) {
  double s = 0.0;
  for (long i = 0; i < n; ++i) s += v[i];
  return s;
}

int main(int argc, char** argv) {
  ObOptions o = {.reps = 10, .inner = 1, .delay_iters = 1, .size_div = 1};
  ob_parse(argc, argv, &o);
  if (o.size_div < 1 || o.size_div > 4096) {
    fprintf(stderr, "%s: --size-div must be in 1..4096\n", argv[0]);
    return 2;
  }
  static const char* const kApps[] = {"FFT", "JACOBI", "LU"};
  static const int kFracs[] = {1, 4, 16};
  enum { kProblems = 9 };
  Problem problems[kProblems];
  char names[kProblems][32];
  double serial[kProblems][512];
  const long reps = o.reps;
  if (reps > 512) {
    fprintf(stderr, "%s: --reps must be <= 512\n", argv[0]);
    return 2;
  }
  /* Serial twins first, before any runtime thread exists to disturb them; they also give the
   * result every parallel run must reproduce. */
  for (int a = 0; a < 3; ++a) {
    for (int f = 0; f < 3; ++f) {
      const int k = a * 3 + f;
      if (kFracs[f] == 1) {
        snprintf(names[k], sizeof names[k], "%s", kApps[a]);
      } else {
        snprintf(names[k], sizeof names[k], "%s/%d", kApps[a], kFracs[f]);
      }
      problems[k] = (Problem){0};
      if (!ob_selected(&o, names[k]) && !ob_selected(&o, kApps[a])) continue;
      problems[k] = make_problem(kApps[a], kFracs[f], (int)o.size_div);
      for (long r = 0; r < reps; ++r) serial[k][r] = timed(&problems[k], 0);
      memcpy(problems[k].expected, problems[k].work, sizeof(double) * (size_t)problems[k].elems);
    }
  }
#pragma omp parallel
  { ob_delay(1); } /* starts the runtime's threads */
  ob_print_info(kBench, &o);
  double* samples = ob_alloc_samples(reps);
  char* extra = malloc(64 + 24 * (size_t)reps + 256);
  if (extra == NULL) return 1;
  int failed = 0;
  for (int k = 0; k < kProblems; ++k) {
    Problem* p = &problems[k];
    if (p->input == NULL) continue;
    timed(p, 1); /* warm-up: the team exists and the data is in cache as for the serial runs */
    int ok = 1;
    for (long r = 0; r < reps; ++r) {
      samples[r] = timed(p, 1);
      ok = ok && memcmp(p->work, p->expected, sizeof(double) * (size_t)p->elems) == 0;
    }
    const double got = checksum(p->work, p->elems), want = checksum(p->expected, p->elems);
    int at =
        snprintf(extra, 320,
                 "\"app\":\"%s\",\"work\":\"1/%d\",\"n\":%d,\"result\":%.17g,"
                 "\"expected\":%.17g,\"ok\":%s,\"serial_samples\":[",
                 p->app, kFracs[k % 3] * (int)o.size_div, p->n, got, want, ok ? "true" : "false");
    for (long r = 0; r < reps; ++r)
      at += sprintf(extra + at, r == 0 ? "%.1f" : ",%.1f", serial[k][r]);
    sprintf(extra + at, "]");
    ob_print_row(kBench, names[k], samples, reps, extra);
    if (!ok) {
      fprintf(stderr, "%s: %s (n = %d) differs from its serial run\n", argv[0], names[k], p->n);
      failed = 1;
    }
    free_problem(p);
  }
  free(extra);
  free(samples);
  return failed;
}
