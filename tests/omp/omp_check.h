/* omp_check.h: the checking helpers shared by the OpenMP conformance programs of tests/omp/.
 *
 * Each program is self-verifying: CHECK prints the failed condition with its location and a
 * message, counts the failure, and the program returns omp_check_result() (0 when nothing
 * failed). A watchdog (SIGALRM after OMP_CHECK_WATCHDOG_S seconds) turns a hang into a printed
 * failure before the runner's timeout kills the process, so the report says where it hung. */
#ifndef OMP_CHECK_H
#define OMP_CHECK_H

#include <omp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef OMP_CHECK_WATCHDOG_S
#define OMP_CHECK_WATCHDOG_S 15
#endif

/* omp_check_failures: number of failed checks so far (updated atomically from any thread). */
static int omp_check_failures;
/* omp_check_phase: the name of the part being run, printed by the watchdog on a hang. */
static const char* volatile omp_check_phase = "start";

/* CHECK: print and count a failure when COND is false; the message is printf-style. */
#define CHECK(cond, ...)                                                                          \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      flockfile(stderr);                                                                          \
      fprintf(stderr, "FAIL %s:%d [%s] CHECK(%s): ", __FILE__, __LINE__, omp_check_phase, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                               \
      fputc('\n', stderr);                                                                        \
      funlockfile(stderr);                                                                        \
      __atomic_add_fetch(&omp_check_failures, 1, __ATOMIC_RELAXED);                               \
    }                                                                                             \
  } while (0)

/* omp_check_phase_start: when the current phase began (for CHECK_TIMES). */
static double omp_check_phase_start;

/* omp_check_set_phase: switch to phase NAME; with CHECK_TIMES set in the environment, print
 * how long the previous phase took (to keep every program well under a second). */
static inline void omp_check_set_phase(const char* name) {
  if (getenv("CHECK_TIMES")) {
    double now = omp_get_wtime();
    if (omp_check_phase_start > 0)
      fprintf(stderr, "time %-40s %.3f s\n", omp_check_phase, now - omp_check_phase_start);
    omp_check_phase_start = now;
  }
  omp_check_phase = name;
}

/* PHASE: name the part of the program that runs next (for failure and hang messages). */
#define PHASE(name) omp_check_set_phase(name)

/* omp_check_alarm: the watchdog's handler; async-signal-safe output only. */
static void omp_check_alarm(int sig) {
  (void)sig;
  const char* p = omp_check_phase;
  static const char head[] = "FAIL watchdog: hung in phase ";
  if (write(2, head, sizeof head - 1) < 0 || write(2, p, strlen(p)) < 0 || write(2, "\n", 1) < 0)
    _exit(3);
  _exit(3);
}

/* omp_check_crash: on SIGSEGV/SIGBUS/SIGFPE/SIGILL/SIGABRT, print the phase, then die of the
 * same signal (default action restored), so the report says where the crash happened. */
__attribute__((unused)) static void omp_check_crash(int sig) {
  const char* p = omp_check_phase;
  static const char head[] = "FAIL crashed (signal ";
  char num[4] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10), ')', ' '};
  static const char mid[] = "in phase ";
  if (write(2, head, sizeof head - 1) < 0 || write(2, num, 4) < 0 ||
      write(2, mid, sizeof mid - 1) < 0 || write(2, p, strlen(p)) < 0 || write(2, "\n", 1) < 0) {
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

/* omp_check_arm_watchdog: runs before main (and so before any OpenMP call of the program). */
__attribute__((constructor)) static void omp_check_arm_watchdog(void) {
  signal(SIGALRM, omp_check_alarm);
  alarm(OMP_CHECK_WATCHDOG_S);
  /* Not under the sanitizers, which report crashes better themselves. */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  signal(SIGSEGV, omp_check_crash);
  signal(SIGBUS, omp_check_crash);
  signal(SIGFPE, omp_check_crash);
  signal(SIGILL, omp_check_crash);
  signal(SIGABRT, omp_check_crash);
#endif
}

/* omp_check_result: exit status of the program: 0 when every check passed. */
static inline int omp_check_result(void) {
  omp_check_set_phase("end");
  int n = __atomic_load_n(&omp_check_failures, __ATOMIC_RELAXED);
  if (n) fprintf(stderr, "%d check(s) failed\n", n);
  return n ? 1 : 0;
}

/* env_threads: the OMP_NUM_THREADS the runner set (first list element), or 0 when unset. */
static inline int env_threads(void) {
  const char* s = getenv("OMP_NUM_THREADS");
  return s ? atoi(s) : 0;
}

/* spin_until: wait for *flag != 0 with a bound (returns 0 when the bound passed first); used
 * where a test needs another thread to get somewhere first, never to measure time. */
static inline int spin_until(const int* flag, double seconds) {
  double end = omp_get_wtime() + seconds;
  while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
    if (omp_get_wtime() > end) return 0;
    sched_yield();
  }
  return 1;
}

#endif
