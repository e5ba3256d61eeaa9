#!/usr/bin/env python3
"""conformance_selftest.py LIBDIR WORK: tools/omp_conformance.py judged on a tiny fake testsuite.

Each program below has a known right verdict; the harness must give it:
  shouldfail_exit     dg-shouldfail, exits 1                      -> pass
  shouldfail_abort    dg-shouldfail, abort()                      -> pass
  shouldfail_crash    dg-shouldfail, aborts with the system libgomp but SIGSEGVs under rtpar's
                      (LD_LIBRARY_PATH set) -> crash, never a pass
  skip_o2             dg-skip-if with include-opts { "-O2" }      -> skipped (compiled at -O2)
  skip_os             dg-skip-if with include-opts { "-Os" }      -> runs and passes
  skip_excluded       dg-skip-if { "*" } { "-fopenmp" }           -> runs (excluded)
and a run whose --filter matches nothing must exit non-zero (nothing ran is not a pass).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "omp_conformance.py")

PROGRAMS = {
    "shouldfail_exit.c": """/* { dg-do run } */
/* { dg-shouldfail "exits 1" } */
#include <omp.h>
int main(void) { return omp_get_max_threads() > 0 ? 1 : 0; }
""",
    "shouldfail_abort.c": """/* { dg-do run } */
/* { dg-shouldfail "aborts" } */
#include <omp.h>
#include <stdlib.h>
int main(void) { if (omp_get_max_threads() > 0) abort(); return 0; }
""",
    "shouldfail_crash.c": """/* { dg-do run } */
/* { dg-shouldfail "must fail, not crash" } */
#include <omp.h>
#include <signal.h>
#include <stdlib.h>
int main(void) {
  (void)omp_get_max_threads();
  if (getenv("LD_LIBRARY_PATH") != NULL) raise(SIGSEGV); /* only against rtpar's library */
  abort();
}
""",
    "skip_o2.c": """/* { dg-do run } */
/* { dg-skip-if "not at -O2" { *-*-* } { "-O2" } { "" } } */
int main(void) { return 1; }
""",
    "skip_os.c": """/* { dg-do run } */
/* { dg-skip-if "only at -Os" { *-*-* } { "-Os" } { "" } } */
#include <omp.h>
int main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }
""",
    "skip_excluded.c": """/* { dg-do run } */
/* { dg-skip-if "excluded with -fopenmp" { *-*-* } { "*" } { "-fopenmp" } } */
#include <omp.h>
int main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }
""",
}

EXPECTED = {
    "shouldfail_exit.c": "pass",
    "shouldfail_abort.c": "pass",
    "shouldfail_crash.c": "crash",
    "skip_o2.c": "skipped",
    "skip_os.c": "pass",
    "skip_excluded.c": "pass",
}


def main():
    libdir, work = sys.argv[1], os.path.abspath(sys.argv[2])
    suite = os.path.join(work, "testsuite")
    os.makedirs(os.path.join(suite, "libgomp.c"), exist_ok=True)
    for name, text in PROGRAMS.items():
        with open(os.path.join(suite, "libgomp.c", name), "w") as f:
            f.write(text)
    base = [sys.executable, TOOL, "--suite", suite, "--lib", libdir, "--threads", "2",
            "--work", os.path.join(work, "bin"), "-j", "2", "--timeout", "30"]
    report = os.path.join(work, "results.json")
    proc = subprocess.run(base + ["--filter", r"^libgomp\.c/", "--json", report],
                          capture_output=True, text=True)
    results = {r["test"]: r for r in json.load(open(report))["results"]}
    errors = []
    for name, want in EXPECTED.items():
        r = results.get(name)
        if r is None:
            errors.append(f"{name}: not collected")
            continue
        if want == "skipped":
            got = "skipped" if "skipped" in r else json.dumps(r)
        else:
            got = r["runs"].get("2", {}).get("status") if r["runs"] else json.dumps(r)
        if got != want:
            errors.append(f"{name}: {got}, expected {want}")
    # One crash among the runs: the whole run fails (exit 1).
    if proc.returncode != 1:
        errors.append(f"exit {proc.returncode} with a crash among the runs, expected 1")
    # Nothing ran: a filter that matches no test.
    none = subprocess.run(base + ["--filter", "^no-such-test$"], capture_output=True, text=True)
    if none.returncode == 0:
        errors.append("exit 0 when no test ran")
    if errors:
        print("FAIL:\n  " + "\n  ".join(errors))
        print(proc.stdout[-3000:], proc.stderr[-3000:])
        return 1
    print("ok: every verdict as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
