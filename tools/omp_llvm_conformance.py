#!/usr/bin/env python3
"""omp_llvm_conformance.py: run LLVM's OpenMP runtime tests against rtpar's libomp.so.5 (issue 37).

The sibling of omp_conformance.py (GCC's libgomp testsuite) for LLVM's ABI. Fetches Debian's
llvm-toolchain-14 source (the .orig tarball) into a cache directory under the build tree (once;
or takes an extracted openmp/runtime/test with --suite DIR), extracts only openmp/runtime/test,
and runs each host test's lit RUN lines roughly as lit would: %libomp-compile, -cxx-compile and
-run, %clang, %flags, %t, %s, %S, %T, %not, %sort-threads, %python and FileCheck (LLVM 14's own),
in bash with pipefail. REQUIRES / UNSUPPORTED / XFAIL are judged with the features clang,
clang-14, linux, affinity and multicpu. Compiling is done once per test (clang-14 -fopenmp);
each binary runs first against LLVM's own libomp.so.5 (the program's RUNPATH): a test that fails
there is "invalid here" and excluded. Then it runs against rtpar's libomp.so.5
(LD_LIBRARY_PATH=LIBDIR, checked once with a probe that reads /proc/self/maps) at each thread
count (OMP_NUM_THREADS, unless the RUN line sets its own). LLVM's test files are never copied
into the repository.

  tools/omp_llvm_conformance.py [--suite DIR] [--lib LIBDIR] [--cache DIR] [-j N]
                                [--threads 2,4] [--timeout 60] [--json FILE] [--filter REGEX]
                                [--known-failures FILE]

Tests that need what only LLVM's libomp has are skipped, each with its reason (SKIP_RULES):
OMPT (ompt/, REQUIRES: ompt), libomp.h internals (kmp.h, the kmp_* extension and debug API,
__kmpc_* called by hand, omp_control_tool), affinity display and hwloc.

Exit status: 0 if every valid test passed at every thread count (with --known-failures: if every
non-passing test is listed in FILE, one `dir/test` per line, `#` comments), 1 otherwise (also when
no test ran against rtpar's library), 2 on setup errors, 77 when the suite cannot be fetched (no
network) or clang-14 is missing, so that ctest reports a skip.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import urllib.request

from omp_suite_report import check_library, report_details, tail

ORIG_URL = ("http://deb.debian.org/debian/pool/main/l/llvm-toolchain-14/"
            "llvm-toolchain-14_14.0.6.orig.tar.xz")
TEST_IN_TAR = "llvm-toolchain-14_14.0.6/openmp/runtime/test/"
LLVM_BIN = "/usr/lib/llvm-14/bin"
CC, CXX = "clang-14", "clang++-14"
FEATURES = {"clang", "clang-14", "linux", "affinity", "multicpu"}
EXIT_SKIP = 77

# SKIP_RULES: (reason, regex on the test's path relative to the suite, regex on its source).
# The first rule that matches skips the test.
SKIP_RULES = [
    ("OMPT (the tools interface; rtpar has none)", r"^ompt/", None),
    ("OMPT (the tools interface; rtpar has none)", None, r"REQUIRES:.*\bompt\b|ompt-tool|omp-tools\.h"),
    ("includes libomp's internal headers (kmp.h, src/kmp_*.h)", None,
     r'#\s*include\s*[<"]([./]*src/)?kmp[_a-z]*\.h[>"]'),
    ("omp_control_tool (an OMPT entry point)", None, r"\bomp_control_tool\b"),
    ("depends on libomp's hidden-helper thread numbers (__kmp_hidden_helper_threads_num)",
     None, r"\b__kmp_hidden_helper_threads_num\b"),
    ("libomp's kmp_* extension API (kmp_set_*, kmp_get_*, kmp_*_affinity, kmp_malloc, ...)",
     None, r"\bkmp_(set|get|create|destroy|malloc|calloc|realloc|free|aligned_malloc|unset|"
           r"affinity|test_|init_|destroy_)[a-z_]*\s*\("),
    ("affinity display (OMP_DISPLAY_AFFINITY / omp_*_affinity format, libomp's output format)",
     None, r"DISPLAY_AFFINITY|affinity_format|omp_capture_affinity|omp_display_affinity"),
    ("KMP_AFFINITY / KMP_HW_SUBSET (libomp's topology internals)", None,
     r"KMP_AFFINITY|KMP_HW_SUBSET|KMP_TOPOLOGY"),
    ("libomp-only schedule kinds in OMP_SCHEDULE (trapezoidal, static_steal)", None,
     r"OMP_SCHEDULE=(trapezoidal|static_steal)"),
    ("checks libomp's own messages about a KMP_* variable", None,
     r"KMP_DISP_NUM_BUFFERS=.*FileCheck"),
    ("checks libomp's own message text (OMP: Warning #N, KMP_SETTINGS output)", None,
     r"CHECK.*OMP: (Warning|Info|Error|Hint)|KMP_SETTINGS|Effective settings"),
    ("REQUIRES: hwloc", None, r"REQUIRES:.*\bhwloc\b"),
]


def default_cache():
    """default_cache: build/omp-llvm-suite beside this tool (never in the source tree)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "build", "omp-llvm-suite")


def fetch_suite(cache):
    """fetch_suite: download (once) and extract (once) openmp/runtime/test; return its path, or
    None when the download fails (no network)."""
    suite = os.path.join(cache, "test")
    if os.path.exists(os.path.join(suite, "lit.cfg")):
        return suite
    os.makedirs(cache, exist_ok=True)
    orig = os.path.join(cache, os.path.basename(ORIG_URL))
    if not os.path.exists(orig):
        print(f"downloading {ORIG_URL} ...", file=sys.stderr)
        tmp = orig + ".part"
        try:
            with urllib.request.urlopen(ORIG_URL, timeout=60) as resp, open(tmp, "wb") as out:
                shutil.copyfileobj(resp, out)
        except OSError as e:
            print(f"omp_llvm_conformance: cannot fetch {ORIG_URL}: {e}", file=sys.stderr)
            return None
        os.replace(tmp, orig)
    print("extracting openmp/runtime/test ...", file=sys.stderr)
    part = suite + ".part"
    shutil.rmtree(part, ignore_errors=True)
    with tarfile.open(orig, "r|xz") as tar:
        for member in tar:
            if not member.name.startswith(TEST_IN_TAR):
                continue
            rel = member.name[len(TEST_IN_TAR):]
            if not rel or ".." in rel.split("/"):
                continue
            dest = os.path.join(part, rel)
            if member.isdir():
                os.makedirs(dest, exist_ok=True)
            elif member.isfile():
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with tar.extractfile(member) as src, open(dest, "wb") as out:
                    shutil.copyfileobj(src, out)
    os.replace(part, suite)
    return suite


# ---- lit directives -----------------------------------------------------------------------

def feature_list(text):
    """feature_list: the comma-separated features of a REQUIRES / UNSUPPORTED / XFAIL line."""
    return [f.strip() for f in text.split(",") if f.strip()]


def parse_test(path, rel):
    """parse_test: (skip reason or None, RUN commands, whether XFAIL holds here)."""
    with open(path, errors="replace") as f:
        src = f.read()
    for reason, path_re, src_re in SKIP_RULES:
        if (path_re and re.search(path_re, rel)) or (src_re and re.search(src_re, src)):
            return reason, [], False
    runs, cont, xfail = [], None, False
    for line in src.splitlines():
        m = re.search(r"//\s*(RUN|REQUIRES|UNSUPPORTED|XFAIL):(.*)$", line)
        if not m:
            continue
        key, val = m.group(1), m.group(2).strip()
        if key == "RUN":
            text = val[:-1] if val.endswith("\\") else val
            cont = text if cont is None else cont + " " + text
            if not val.endswith("\\"):
                runs.append(cont)
                cont = None
        elif key == "REQUIRES":
            missing = [f for f in feature_list(val) if f not in FEATURES]
            if missing:
                return f"REQUIRES: {', '.join(missing)}", [], False
        elif key == "UNSUPPORTED":
            if any(f in FEATURES or f == "*" for f in feature_list(val)):
                return "UNSUPPORTED: clang / clang-14 / linux", [], False
        elif key == "XFAIL":
            xfail = xfail or any(f in FEATURES or f == "*" for f in feature_list(val))
    if not runs:
        return "no RUN line", [], False
    if not any("-run" in r or "%t" in r.replace("%libomp-compile", "") for r in runs):
        return "compile-only test (no run)", [], False
    return None, runs, xfail


def substitute(cmd, src, exe, tmpdir, suite):
    """substitute: lit's substitutions (openmp/runtime/test/lit.cfg) with clang-14 and LLVM 14's
    FileCheck / not; compilers go through the caching shell function rtpar_cc."""
    libs = " -lm -latomic"
    flags = f"-I {suite}"
    subs = [
        ("%libomp-compile-and-run", "%libomp-compile && %libomp-run"),
        ("%libomp-c99-compile-and-run", "%libomp-c99-compile && %libomp-run"),
        ("%libomp-cxx-compile-and-run", "%libomp-cxx-compile && %libomp-run"),
        ("%libomp-cxx-compile-c", f"%clangXX -fopenmp {flags} -std=c++14 -x c++ %s -o %t{libs}"),
        ("%libomp-cxx-compile", f"%clangXX -fopenmp {flags} -std=c++14 %s -o %t{libs}"),
        ("%libomp-c99-compile", f"%clang -fopenmp {flags} -std=c99 %s -o %t{libs}"),
        ("%libomp-compile", f"%clang -fopenmp {flags} %s -o %t{libs}"),
        ("%libomp-run", "%t"),
        ("%clangXX", f"rtpar_cc {CXX}"),
        ("%clang", f"rtpar_cc {CC}"),
        ("%openmp_flags", "-fopenmp"),
        ("%flags-use-compiler-omp-h", flags),
        ("%flags", flags),
        ("%python", sys.executable),
        ("%not", os.path.join(LLVM_BIN, "not")),
        ("%sort-threads", "sort -n -s"),
        ("%s", src),
        ("%S", os.path.dirname(src)),
        ("%T", tmpdir),
        ("%t", exe),
    ]
    for key, val in subs:
        cmd = cmd.replace(key, val)
    return re.sub(r"(^|[|;&]\s*)FileCheck\b", r"\1" + os.path.join(LLVM_BIN, "FileCheck"), cmd)


# PRELUDE: rtpar_cc compiles only when the output is missing or was built with other arguments
# (so each thread count's run reuses the binary), and leaves OUT.cerr behind when it fails.
PRELUDE = r"""set -o pipefail
rtpar_cc() {
  local out="" prev=""
  for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
  if [ -n "$out" ] && [ -x "$out" ] && [ "$(cat "$out.args" 2>/dev/null)" = "$*" ]; then
    return 0
  fi
  if "$@" 2>"$out.cerr.tmp"; then
    rm -f "$out.cerr" "$out.cerr.tmp"; printf '%s' "$*" >"$out.args"; return 0
  fi
  mv "$out.cerr.tmp" "$out.cerr"; return 1
}
"""


def run_script(script, libdir, threads, timeout, cwd):
    """run_script: run the substituted RUN lines in bash; (status, detail, seconds). libdir None
    leaves the program's RUNPATH (LLVM's own libomp.so.5) in force."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMP_", "GOMP_", "KMP_")) and k != "LD_LIBRARY_PATH"}
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir
    env["OMP_NUM_THREADS"] = str(threads)
    start = time.monotonic()
    proc = subprocess.Popen(["bash", "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                            start_new_session=True, cwd=cwd)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return "timeout", tail(out), time.monotonic() - start
    secs = time.monotonic() - start
    code = proc.returncode
    if code == 0:
        return "pass", "", secs
    if code > 128 and code - 128 in (signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE):
        return "crash", f"signal {code - 128}\n" + tail(out), secs
    return "fail", f"exit {code}\n" + tail(out), secs


def collect(suite, filt):
    """collect: every test file (relative path), sorted."""
    out = []
    for root, dirs, files in os.walk(suite):
        dirs.sort()
        for fn in sorted(files):
            if not fn.endswith((".c", ".cpp")):
                continue
            rel = os.path.relpath(os.path.join(root, fn), suite)
            if filt and not re.search(filt, rel):
                continue
            out.append(rel)
    return sorted(out)


def read_known(path):
    """read_known: the `dir/test` lines of a known-failures file."""
    if not path:
        return None
    with open(path) as f:
        return {ln.split("#", 1)[0].strip() for ln in f if ln.split("#", 1)[0].strip()}


def main():
    """main: the command line."""
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", help="an extracted openmp/runtime/test (default: fetch into cache)")
    ap.add_argument("--cache", default=default_cache(), help="where the suite and binaries go")
    ap.add_argument("--lib", default=os.path.join(here, "..", "build", "lib", "rtpar", "omp"),
                    help="directory holding rtpar's libomp.so.5")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--threads", default="2,4")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--json", help="write every result to FILE")
    ap.add_argument("--filter", help="only tests whose path matches this regex")
    ap.add_argument("--known-failures", help="exit 0 if every non-passing test is listed here")
    args = ap.parse_args()

    if not shutil.which(CC) or not os.path.exists(os.path.join(LLVM_BIN, "FileCheck")):
        print(f"omp_llvm_conformance: {CC} or LLVM 14's FileCheck not installed", file=sys.stderr)
        return EXIT_SKIP
    cache = os.path.abspath(args.cache)
    suite = os.path.abspath(args.suite) if args.suite else fetch_suite(cache)
    if not suite:
        return EXIT_SKIP
    libdir = os.path.abspath(args.lib)
    if not os.path.exists(os.path.join(libdir, "libomp.so.5")):
        print(f"omp_llvm_conformance: no libomp.so.5 in {libdir} (build first)", file=sys.stderr)
        return 2
    work = os.path.join(cache, "bin")
    os.makedirs(work, exist_ok=True)
    check_library(libdir, work, CC, "libomp.so.5", "omp_llvm_conformance")
    threads = [int(t) for t in args.threads.split(",")]
    tests = collect(suite, args.filter)

    def one(rel):
        r = {"test": rel, "runs": {}}
        skip, runs, xfail = parse_test(os.path.join(suite, rel), rel)
        if skip:
            r["skipped"] = skip
            return r
        base = re.sub(r"[^A-Za-z0-9_.-]", "_", rel)
        tmpdir = os.path.join(work, base + ".d")
        os.makedirs(tmpdir, exist_ok=True)
        exe = os.path.join(work, base + ".exe")
        script = PRELUDE + "\n".join(
            substitute(c, os.path.join(suite, rel), exe, tmpdir, suite) for c in runs) + "\n"
        status, detail, _ = run_script(script, None, threads[-1], args.timeout, tmpdir)
        if os.path.exists(exe + ".cerr"):
            with open(exe + ".cerr", errors="replace") as f:
                r["compile_error"] = f.read().strip()[-2000:] or "compile failed"
            return r
        if (status == "pass") == xfail:
            what = "passes (XFAIL)" if xfail else status
            if status == "timeout":
                what = f"takes longer than --timeout {args.timeout:g} s"
            r["invalid_here"] = f"{what} with LLVM's libomp.so.5: {detail}"
            return r
        for n in threads:
            status, detail, secs = run_script(script, libdir, n, args.timeout, tmpdir)
            if xfail:
                status = "pass" if status != "pass" else "fail"
            r["runs"][str(n)] = {"status": status, "detail": detail, "seconds": round(secs, 2)}
        return r

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for i, r in enumerate(pool.map(one, tests)):
            results.append(r)
            bad = [n for n, x in r["runs"].items() if x["status"] != "pass"]
            if bad:
                print(f"[{i + 1}/{len(tests)}] {r['test']}: "
                      + ", ".join(f"t{n} {r['runs'][n]['status']}" for n in bad),
                      file=sys.stderr, flush=True)
    report(results, threads)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"suite": suite, "lib": libdir, "threads": threads, "results": results},
                      f, indent=1)
    ran = sum(len(r["runs"]) for r in results)
    if ran == 0:
        print(f"omp_llvm_conformance: no test ran against {libdir} ({len(tests)} collected)",
              file=sys.stderr)
        return 1
    failing = {r["test"] for r in results if any(x["status"] != "pass"
                                                 for x in r["runs"].values())}
    known = read_known(args.known_failures)
    if known is None:
        return 0 if not failing else 1
    fixed = sorted(t for t in known if t not in failing and
                   any(r["test"] == t and r["runs"] for r in results))
    if fixed:
        print("\nlisted as known failures but passing now (remove them from the list):")
        for t in fixed:
            print(f"  {t}")
    new = sorted(failing - known)
    if new:
        print("\nfailing and not listed as known failures:")
        for t in new:
            print(f"  {t}")
    return 1 if new else 0


def report(results, threads):
    """report: pass/fail/skip counts per thread count, the skip reasons and every failure."""
    files = len(results)
    skip = sum(1 for r in results if "skipped" in r)
    cerr = sum(1 for r in results if "compile_error" in r)
    inval = sum(1 for r in results if "invalid_here" in r)
    hdr = (f"{'thr':>3} {'files':>5} {'skip':>4} {'cerr':>4} {'inval':>5} {'run':>4} "
           f"{'pass':>4} {'fail':>4} {'crash':>5} {'tmo':>4} {'pass%':>6}")
    print(hdr)
    print("-" * len(hdr))
    for n in threads:
        runs = [r["runs"][str(n)]["status"] for r in results if str(n) in r["runs"]]
        cnt = {s: runs.count(s) for s in ("pass", "fail", "crash", "timeout")}
        pct = 100.0 * cnt["pass"] / len(runs) if runs else 100.0
        print(f"{n:>3} {files:>5} {skip:>4} {cerr:>4} {inval:>5} {len(runs):>4} {cnt['pass']:>4} "
              f"{cnt['fail']:>4} {cnt['crash']:>5} {cnt['timeout']:>4} {pct:>5.1f}%")
    report_details(results, lambda r: r["test"], error_line=-1)

if __name__ == "__main__":
    sys.exit(main())
