"""omp_suite_report: what the two OpenMP conformance tools share (tools/omp_conformance.py for
GCC's libgomp testsuite, tools/omp_llvm_conformance.py for LLVM's runtime tests): the loader
probe that proves which runtime a program maps, and the parts of the report after the counts."""
import os
import subprocess
import sys


def tail(out, lines=6):
    """tail: the last lines of a run's output."""
    text = out.decode(errors="replace") if isinstance(out, bytes) else (out or "")
    return "\n".join(text.rstrip().splitlines()[-lines:])


def check_library(libdir, work, compiler, soname, tool):
    """check_library: prove that LD_LIBRARY_PATH=libdir makes a program built by `compiler`
    -fopenmp map libdir's `soname` (and not the system's, or one from the program's RUNPATH);
    exits naming `tool` otherwise."""
    stem = soname.split(".so")[0]
    probe_c = os.path.join(work, "probe.c")
    with open(probe_c, "w") as f:
        f.write('#include <omp.h>\n#include <stdio.h>\n#include <string.h>\n'
                'int main(void){char l[4096];FILE*m=fopen("/proc/self/maps","r");'
                'int n=omp_get_max_threads();(void)n;'
                f'while(fgets(l,sizeof l,m))if(strstr(l,"{stem}")){{fputs(strchr(l,\'/\'),stdout);'
                'break;}return 0;}\n')
    exe = os.path.join(work, "probe")
    subprocess.run([compiler, "-fopenmp", probe_c, "-o", exe], check=True)
    env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    mapped = subprocess.run([exe], env=env, capture_output=True, text=True).stdout.strip()
    want = os.path.realpath(os.path.join(libdir, soname))
    if os.path.realpath(mapped) != want:
        sys.exit(f"{tool}: the loader mapped {mapped!r}, not {want}")


def report_details(results, name, skip_key=lambda reason: reason, error_line=0):
    """report_details: after the count table, the skip reasons (grouped by skip_key), the compile
    errors and invalid tests (line `error_line` of each message) and every non-passing run, each
    test named by name(result)."""
    reasons = {}
    for r in results:
        if "skipped" in r:
            key = skip_key(r["skipped"])
            reasons[key] = reasons.get(key, 0) + 1
    if reasons:
        print("\nskipped (not run here):")
    for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {v:4}  {k}")
    for label, key in (("compile errors", "compile_error"), ("invalid here", "invalid_here")):
        items = [r for r in results if key in r]
        if items:
            print(f"\n{label}:")
            for r in items:
                print(f"  {name(r)}: {r[key].splitlines()[error_line][:150]}")
    bad = [r for r in results if any(x["status"] != "pass" for x in r["runs"].values())]
    if bad:
        print("\nnon-passing runs against rtpar:")
        for r in bad:
            for n, x in r["runs"].items():
                if x["status"] != "pass":
                    print(f"  {name(r)} t{n}: {x['status']} ({x['seconds']} s)")
                    for line in x["detail"].splitlines():
                        print(f"      {line[:200]}")
