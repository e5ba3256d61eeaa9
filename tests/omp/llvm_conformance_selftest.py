#!/usr/bin/env python3
"""llvm_conformance_selftest.py LIBDIR WORK: tools/omp_llvm_conformance.py judged on a tiny fake
openmp/runtime/test.

Each test below has a known right verdict; the harness must give it:
  pass.c              %libomp-compile-and-run                          -> pass
  cxx.cpp             %libomp-cxx-compile-and-run                      -> pass
  filecheck.c         ... | FileCheck %s                               -> pass
  env_run.c           %libomp-compile && env OMP_NUM_THREADS=3 %libomp-run (the RUN line's own
                      value wins over the harness's)                   -> pass
  fail_rtpar.c        exits 1 under rtpar's library (LD_LIBRARY_PATH set) -> fail
  xfail.c             XFAIL: clang, always exits 1                     -> pass (expected failure)
  invalid.c           fails with LLVM's own libomp.so.5 only           -> invalid here
  hwloc.c, unsupported.c, ompt/tool.c: REQUIRES: hwloc, UNSUPPORTED: clang, OMPT -> skipped
Exit status: 1 with fail_rtpar.c failing, 0 when --known-failures lists it, and non-zero when a
--filter matches nothing (nothing ran is not a pass).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "omp_llvm_conformance.py")
MAIN = "#include <omp.h>\n#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n"

TESTS = {
    "pass.c": "// RUN: %libomp-compile-and-run\n" + MAIN +
              "  int n = 0;\n#pragma omp parallel reduction(+ : n)\n  n++;\n"
              "  return n == omp_get_max_threads() ? 0 : 1;\n}\n",
    "cxx.cpp": "// RUN: %libomp-cxx-compile-and-run\n#include <omp.h>\n#include <vector>\n"
               "int main() { std::vector<int> v(100, 1); long s = 0;\n"
               "#pragma omp parallel for reduction(+ : s)\n"
               "  for (int i = 0; i < 100; i++) s += v[i];\n  return s == 100 ? 0 : 1; }\n",
    "filecheck.c": "// RUN: %libomp-compile-and-run | FileCheck %s\n// CHECK: threads ok\n" + MAIN +
                   "  if (omp_get_max_threads() > 0) printf(\"threads ok\\n\");\n  return 0;\n}\n",
    "env_run.c": "// RUN: %libomp-compile && env OMP_NUM_THREADS=3 %libomp-run\n" + MAIN +
                 "  return omp_get_max_threads() == 3 ? 0 : 1;\n}\n",
    "fail_rtpar.c": "// RUN: %libomp-compile-and-run\n" + MAIN +
                    "  (void)omp_get_max_threads();\n"
                    "  return getenv(\"LD_LIBRARY_PATH\") != NULL ? 1 : 0;\n}\n",
    "xfail.c": "// RUN: %libomp-compile-and-run\n// XFAIL: clang\n" + MAIN +
               "  return omp_get_max_threads() > 0 ? 1 : 0;\n}\n",
    "invalid.c": "// RUN: %libomp-compile-and-run\n" + MAIN +
                 "  (void)omp_get_max_threads();\n"
                 "  return getenv(\"LD_LIBRARY_PATH\") == NULL ? 1 : 0;\n}\n",
    "hwloc.c": "// RUN: %libomp-compile-and-run\n// REQUIRES: hwloc\n" + MAIN + "  return 1;\n}\n",
    "unsupported.c": "// RUN: %libomp-compile-and-run\n// UNSUPPORTED: clang\n" + MAIN +
                     "  return 1;\n}\n",
    "ompt/tool.c": "// RUN: %libomp-compile-and-run\n" + MAIN + "  return 1;\n}\n",
}

EXPECTED = {
    "pass.c": "pass", "cxx.cpp": "pass", "filecheck.c": "pass", "env_run.c": "pass",
    "fail_rtpar.c": "fail", "xfail.c": "pass", "invalid.c": "invalid_here",
    "hwloc.c": "skipped", "unsupported.c": "skipped", "ompt/tool.c": "skipped",
}


def main():
    libdir, work = sys.argv[1], os.path.abspath(sys.argv[2])
    suite = os.path.join(work, "test")
    for name, text in TESTS.items():
        path = os.path.join(suite, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    base = [sys.executable, TOOL, "--suite", suite, "--lib", libdir, "--cache", work,
            "--threads", "2", "-j", "2", "--timeout", "60"]
    report = os.path.join(work, "results.json")
    proc = subprocess.run(base + ["--json", report], capture_output=True, text=True)
    if proc.returncode == 77:
        print("skipped: clang-14 or LLVM 14's FileCheck is not installed")
        return 77
    results = {r["test"]: r for r in json.load(open(report))["results"]}
    errors = []
    for name, want in EXPECTED.items():
        r = results.get(name)
        if r is None:
            errors.append(f"{name}: not collected")
            continue
        if want in ("skipped", "invalid_here"):
            got = want if want in r else json.dumps(r)
        else:
            got = r["runs"].get("2", {}).get("status") if r["runs"] else json.dumps(r)
        if got != want:
            errors.append(f"{name}: {got}, expected {want}")
    if proc.returncode != 1:
        errors.append(f"exit {proc.returncode} with a failure among the runs, expected 1")
    known = os.path.join(work, "known.txt")
    with open(known, "w") as f:
        f.write("# the one expected failure\nfail_rtpar.c\n")
    listed = subprocess.run(base + ["--known-failures", known], capture_output=True, text=True)
    if listed.returncode != 0:
        errors.append(f"exit {listed.returncode} with every failure listed, expected 0")
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
