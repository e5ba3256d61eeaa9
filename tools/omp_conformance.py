#!/usr/bin/env python3
"""omp_conformance.py: run GCC's libgomp testsuite against rtpar's OpenMP runtime (issue 13).

Fetches Debian's gcc-12 source into ${XDG_CACHE_HOME:-~/.cache}/rtpar/ (once; or takes an
extracted testsuite with --suite DIR), extracts only libgomp/testsuite, and for each test that
dejagnu would run ({ dg-do run }, the default) compiles it with gcc/g++ (gfortran if installed)
-fopenmp -O2 plus its dg-options/dg-additional-options/dg-additional-sources, minus the options
about offloading and dumps. Each binary runs first against the system's libgomp (the normal
loader path): a test that fails there is "invalid here" and excluded. Then it runs against
rtpar's libgomp.so.1 (LD_LIBRARY_PATH=LIBDIR; checked once with a probe that reads
/proc/self/maps) at each thread count, honouring dg-set-target-env-var, dg-shouldfail and
dg-output. GCC's test files are never copied into the repository: they live in the cache.

  tools/omp_conformance.py [--suite DIR] [--lib LIBDIR] [-j N] [--threads 2,4] [--timeout 60]
                           [--json FILE] [--filter REGEX]

Exit status: 0 if every valid test passed at every thread count, 1 otherwise (also when no test
ran against rtpar's library at all), 2 on setup errors. For dg-shouldfail a test passes by exiting
non-zero or aborting; a crash (any other signal) is not a pass. dg-skip-if honours its
include-opts / exclude-opts against the options the test is compiled with.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request

from omp_suite_report import check_library, report_details, tail

ORIG_URL = "http://deb.debian.org/debian/pool/main/g/gcc-12/gcc-12_12.2.0.orig.tar.gz"
INNER_TAR = "gcc-12-12.2.0/gcc-12.2.0-dfsg.tar.xz"
TESTSUITE_IN_TAR = "gcc-12.2.0/libgomp/testsuite/"
# HEADERS_IN_TAR: libgomp headers that some tests include (dejagnu adds -I libgomp/).
HEADERS_IN_TAR = ("gcc-12.2.0/libgomp/libgomp_g.h",)
TARGET_TRIPLET = "x86_64-pc-linux-gnu"

# DIRS: (report name, directory, file patterns, compiler, extra flags, language tag).
# libgomp.c-c++-common runs twice, as C and as C++ (like GCC's c.exp and c++.exp).
DIRS = [
    ("libgomp.c", "libgomp.c", ("*.c",), "gcc", [], "c"),
    ("libgomp.c-c++-common(c)", "libgomp.c-c++-common", ("*.c",), "gcc", [], "c"),
    ("libgomp.c++", "libgomp.c++", ("*.C",), "g++", [], "c++"),
    ("libgomp.c-c++-common(c++)", "libgomp.c-c++-common", ("*.c",), "g++", ["-x", "c++"], "c++"),
    ("libgomp.fortran", "libgomp.fortran", ("*.f", "*.f90", "*.F", "*.F90"), "gfortran", [],
     "fortran"),
]


def cache_dir():
    """cache_dir: ${XDG_CACHE_HOME:-~/.cache}/rtpar."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "rtpar")


def fetch_suite():
    """fetch_suite: download (once) and extract (once) libgomp/testsuite; return its path."""
    root = os.path.join(cache_dir(), "gcc-12.2.0-libgomp")
    suite = os.path.join(root, "testsuite")
    if os.path.isdir(os.path.join(suite, "libgomp.c")):
        return suite
    os.makedirs(cache_dir(), exist_ok=True)
    orig = os.path.join(cache_dir(), os.path.basename(ORIG_URL))
    if not os.path.exists(orig):
        print(f"downloading {ORIG_URL} ...", file=sys.stderr)
        tmp = orig + ".part"
        with urllib.request.urlopen(ORIG_URL) as resp, open(tmp, "wb") as out:
            shutil.copyfileobj(resp, out)
        os.replace(tmp, orig)
    print("extracting libgomp/testsuite ...", file=sys.stderr)
    with tarfile.open(orig, "r:gz") as outer:
        inner = outer.extractfile(INNER_TAR)
        with tarfile.open(fileobj=inner, mode="r|xz") as tar:
            for member in tar:
                if member.name in HEADERS_IN_TAR and member.isfile():
                    dest = os.path.join(root, os.path.basename(member.name))
                    os.makedirs(root, exist_ok=True)
                    with tar.extractfile(member) as src, open(dest, "wb") as out:
                        shutil.copyfileobj(src, out)
                    continue
                if not member.name.startswith(TESTSUITE_IN_TAR):
                    continue
                rel = member.name[len(TESTSUITE_IN_TAR):]
                if not rel or ".." in rel.split("/"):
                    continue
                dest = os.path.join(suite, rel)
                if member.isdir():
                    os.makedirs(dest, exist_ok=True)
                elif member.isfile():
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    with tar.extractfile(member) as src, open(dest, "wb") as out:
                        shutil.copyfileobj(src, out)
    return suite


# ---- effective targets -------------------------------------------------------------------

def cpu_flags():
    """cpu_flags: the flags of /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


CPU = cpu_flags()
# EFFECTIVE: what a host without offload devices provides (x86_64 GNU/Linux, GCC 12).
EFFECTIVE = {
    "avx_runtime": "avx" in CPU, "sse2_runtime": "sse2" in CPU, "lp64": True, "ia32": False,
    "vect_simd_clones": True, "lto": True, "tls": True, "tls_runtime": True, "__float128": True,
    "fpic": True, "shared": True, "large_long_double": True, "sync_int_long": True,
    "size32plus": True, "run_expensive_tests": False, "pthread": True,
}
# NO_OFFLOAD: effective targets that need an offload device or compiler.
NO_OFFLOAD_RE = re.compile(r"^offload_")


def target_true(name, lang):
    """target_true: whether dejagnu's target selector word NAME holds here."""
    if name in ("c", "c++", "fortran"):
        return name == lang
    if NO_OFFLOAD_RE.match(name):
        return False
    if "-" in name or "*" in name:
        return fnmatch.fnmatchcase(TARGET_TRIPLET, name)
    return EFFECTIVE.get(name, False)


def tcl_tokens(text):
    """tcl_tokens: split a dejagnu selector into braces, operators and words."""
    return re.findall(r"\{|\}|&&|\|\||!|[^\s{}!&|]+", text)


def eval_selector(text, lang):
    """eval_selector: evaluate a selector expression such as `{ ! offload_device } && lp64`."""
    toks = tcl_tokens(text)
    pos = 0

    def primary():
        nonlocal pos
        tok = toks[pos]
        pos += 1
        if tok == "!":
            return not primary()
        if tok == "{":
            val = expr()
            pos += 1  # "}"
            return val
        return target_true(tok, lang)

    def expr():
        nonlocal pos
        val = primary()
        while pos < len(toks) and toks[pos] in ("&&", "||"):
            op = toks[pos]
            pos += 1
            rhs = primary()
            val = (val and rhs) if op == "&&" else (val or rhs)
        return val

    if not toks:
        return True
    # a bare list of words ("target a b c") is an "or"
    if all(t not in ("&&", "||", "!", "{", "}") for t in toks):
        return any(target_true(t, lang) for t in toks)
    return expr()


# ---- directives ---------------------------------------------------------------------------

DG_RE = re.compile(r"\{\s*(dg-[a-z-]+)(.*)\}")


def split_tcl(text):
    """split_tcl: split a directive's arguments into top-level Tcl words (quotes, braces)."""
    words, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            words.append(text[i + 1:j])
            i = j + 1
        elif c == "{":
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            words.append(text[i + 1:j - 1])
            i = j
        else:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            words.append(text[i:j])
            i = j
    return words


def selector_ok(words, idx, lang):
    """selector_ok: whether the optional `{ target X }` / `{ xfail X }` at words[idx] holds."""
    if len(words) <= idx:
        return True
    sel = words[idx].strip()
    if sel.startswith("target "):
        return eval_selector(sel[len("target "):], lang)
    if sel.startswith("xfail ") or sel.startswith("xfail"):
        return True
    return eval_selector(sel, lang)


def strip_options(opts):
    """strip_options: drop options about offloading and compiler dumps/diagnostics."""
    out = []
    for o in opts:
        if o.startswith(("-foffload", "-fdump-", "-fopt-info", "-fdiagnostics-")):
            continue
        out.append(o)
    return out


def parse_test(path, lang):
    """parse_test: the test's directives: (skip reason or None, info dict)."""
    with open(path, errors="replace") as f:
        src = f.read()
    info = {"options": None, "additional": [], "sources": [], "env": {}, "shouldfail": False,
            "output": "", "do": "run"}
    skip_ifs = []
    for m in DG_RE.finditer(src):
        name, args = m.group(1), split_tcl(m.group(2))
        if name == "dg-do":
            what = args[0].strip('"') if args else "run"
            if not selector_ok(args, 1, lang):
                return f"dg-do {what} only for {args[1].strip()}", info
            info["do"] = what
        elif name == "dg-options":
            if args and selector_ok(args, 1, lang):
                info["options"] = args[0].split()
        elif name == "dg-additional-options":
            if args and selector_ok(args, 1, lang):
                info["additional"] += args[0].split()
        elif name == "dg-additional-sources":
            if args:
                info["sources"] += args[0].split()
        elif name == "dg-require-effective-target":
            if args and not selector_ok(args, 1, lang):
                continue
            if args and not target_true(args[0], lang):
                return f"requires effective target {args[0]}", info
        elif name == "dg-skip-if":
            # { dg-skip-if comment { selector } [{ include-opts } [{ exclude-opts }]] }: judged
            # below, once every dg-options / dg-additional-options line has been read.
            if len(args) >= 2 and eval_selector(args[1], lang):
                skip_ifs.append(args)
        elif name == "dg-set-target-env-var":
            if len(args) >= 2:
                info["env"][args[0]] = args[1]
        elif name == "dg-shouldfail":
            if len(args) < 2 or selector_ok(args, 1, lang):
                info["shouldfail"] = True
        elif name == "dg-output":
            if args and selector_ok(args, 1, lang):
                info["output"] += args[0]
    if info["do"] != "run":
        return f"dg-do {info['do']} (not run)", info
    flags = test_flags(info)
    for args in skip_ifs:
        include = split_tcl(args[2]) if len(args) > 2 else ["*"]
        exclude = split_tcl(args[3]) if len(args) > 3 else [""]
        if options_match(flags, include, exclude):
            return f"dg-skip-if {args[1].strip()} (options {' '.join(flags)})", info
    return None, info


def test_flags(info):
    """test_flags: the options the test is compiled with (compile_test), as dg-skip-if sees them."""
    return ["-fopenmp", "-O2"] + strip_options(info["options"] or []) + \
        strip_options(info["additional"])


def options_match(flags, include, exclude):
    """options_match: GCC's check-flags for dg-skip-if (gccint "Directives"): true when some set
    of include-opts is all present in flags and no set of exclude-opts is. A set is one string of
    space-separated options, each a glob; the defaults { "*" } { "" } match every compilation. An
    empty exclude set excludes nothing."""
    def has_set(opts):
        return all(any(fnmatch.fnmatchcase(f, o) for f in flags + ["toolname"]) for o in opts)

    inc = any(has_set(s.split()) for s in include) if include else True
    exc = any(has_set(s.split()) for s in exclude if s.split())
    return inc and not exc


# ---- compile and run ----------------------------------------------------------------------


def needs_config_h(path):
    """needs_config_h: whether the test (or the test file it includes) includes config.h."""
    with open(path, errors="replace") as f:
        src = f.read()
    if '#include "config.h"' in src:
        return True
    for inc in re.findall(r'#include "([^"]+\.c)"', src):
        full = os.path.join(os.path.dirname(path), inc)
        if os.path.exists(full) and needs_config_h(full):
            return True
    return False


# SUITE: the testsuite directory in use (set by main).
SUITE = [""]


def compile_test(path, lang, compiler, extra, info, outdir):
    """compile_test: build the test (cached by source, flags and compiler); (exe, error)."""
    # -I libgomp/ (the testsuite's parent) as dejagnu does, for libgomp_g.h
    opts = ["-fopenmp", "-O2", "-I" + os.path.dirname(SUITE[0])]
    if needs_config_h(path):
        opts.append("-I" + outdir)
    opts += strip_options(info["options"] or []) + strip_options(info["additional"])
    sources = [path] + [os.path.join(os.path.dirname(path), s) for s in info["sources"]]
    key = hashlib.sha256()
    for s in sources:
        with open(s, "rb") as f:
            key.update(f.read())
    key.update(" ".join([compiler] + extra + opts).encode())
    exe = os.path.join(outdir, key.hexdigest()[:20])
    if os.path.exists(exe):
        return exe, None
    cmd = [compiler] + extra + opts + sources + ["-o", exe + ".tmp", "-lm"]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                             cwd=os.path.dirname(path))
    except subprocess.TimeoutExpired:
        return None, "compile timeout"
    if res.returncode != 0:
        return None, " ".join(cmd) + "\n" + res.stderr[-2000:]
    os.replace(exe + ".tmp", exe)
    return exe, None


def tcl_regex_to_py(pattern):
    """tcl_regex_to_py: dejagnu's dg-output is a Tcl regex; Python's is close enough."""
    return pattern.replace("\\\\", "\\")


def run_test(exe, info, libdir, threads, timeout):
    """run_test: run one binary; returns (status, detail, seconds). libdir None = system."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMP_", "GOMP_", "KMP_")) and k != "LD_LIBRARY_PATH"}
    if libdir:
        env["LD_LIBRARY_PATH"] = libdir
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    env.update(info["env"])
    start = time.monotonic()
    try:
        proc = subprocess.Popen([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, env=env, start_new_session=True,
                                cwd=tempfile.gettempdir())
        out, _ = proc.communicate(timeout=timeout)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return "timeout", tail(out), time.monotonic() - start
    secs = time.monotonic() - start
    text = out.decode(errors="replace")
    if info["shouldfail"]:
        # dg-shouldfail: the program must *fail* — exit non-zero or abort() (a failed assert).
        # Killed by any other signal (SIGSEGV, SIGBUS, ...) is a crash, not the expected failure.
        ok = code > 0 or code == -signal.SIGABRT
        if not ok and code < 0:
            return "crash", f"signal {-code} (dg-shouldfail expects an exit or abort)\n" + \
                tail(out), secs
    else:
        ok = code == 0
    if ok and info["output"]:
        try:
            ok = re.search(tcl_regex_to_py(info["output"]), text) is not None
        except re.error:
            ok = info["output"] in text
        if not ok:
            return "fail", "dg-output not matched\n" + tail(out), secs
    if ok:
        return "pass", "", secs
    if code == -signal.SIGABRT:
        # abort() is how the tests report a failed check: a failure, not a crash
        return "fail", "aborted (SIGABRT)\n" + tail(out), secs
    if code < 0:
        return "crash", f"signal {-code}\n" + tail(out), secs
    return "fail", f"exit {code}\n" + tail(out), secs


def collect(suite, compilers, filt):
    """collect: every (directory report name, path, compiler, extra flags, language)."""
    out = []
    for name, sub, pats, compiler, extra, lang in DIRS:
        base = os.path.join(suite, sub)
        if not os.path.isdir(base):
            continue
        if not compilers.get(compiler):
            print(f"omp_conformance: {compiler} not installed: {name} skipped", file=sys.stderr)
            continue
        for root, _, files in os.walk(base):
            for fn in sorted(files):
                if not any(fnmatch.fnmatch(fn, p) for p in pats):
                    continue
                path = os.path.join(root, fn)
                rel = os.path.relpath(path, base)
                if filt and not re.search(filt, f"{name}/{rel}"):
                    continue
                out.append((name, path, rel, compiler, extra, lang))
    out.sort(key=lambda t: (t[0], t[2]))
    return out


def main():
    """main: the command line."""
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", help="an extracted libgomp/testsuite (default: fetch into cache)")
    ap.add_argument("--lib", default=os.path.join(here, "..", "build", "lib", "rtpar", "omp"),
                    help="directory holding rtpar's libgomp.so.1")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--threads", default="2,4")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--json", help="write every result to FILE")
    ap.add_argument("--filter", help="only tests whose DIR/path matches this regex")
    ap.add_argument("--work", help="where binaries go (default: cache)")
    args = ap.parse_args()

    suite = os.path.abspath(args.suite) if args.suite else fetch_suite()
    SUITE[0] = suite
    libdir = os.path.abspath(args.lib)
    if not os.path.exists(os.path.join(libdir, "libgomp.so.1")):
        sys.exit(f"omp_conformance: no libgomp.so.1 in {libdir} (build first)")
    work = args.work or os.path.join(cache_dir(), "omp-conformance-bin")
    os.makedirs(work, exist_ok=True)
    check_library(libdir, work, "gcc", "libgomp.so.1", "omp_conformance")
    # config.h: what libgomp's configure finds on glibc/Linux, for tests that include it
    # (affinity-1.c) from libgomp's build tree.
    with open(os.path.join(work, "config.h"), "w") as f:
        f.write("#define HAVE_PTHREAD_AFFINITY_NP 1\n")
    threads = [int(t) for t in args.threads.split(",")]
    compilers = {c: shutil.which(c) for c in ("gcc", "g++", "gfortran")}
    tests = collect(suite, compilers, args.filter)

    def one(t):
        name, path, rel, compiler, extra, lang = t
        r = {"dir": name, "test": rel, "runs": {}}
        skip, info = parse_test(path, lang)
        if skip:
            r["skipped"] = skip
            return r
        exe, err = compile_test(path, lang, compiler, extra, info, work)
        if not exe:
            r["compile_error"] = err
            return r
        status, detail, _ = run_test(exe, info, None, None, args.timeout)
        if status != "pass":
            r["invalid_here"] = f"{status} with the system libgomp: {detail}"
            return r
        for n in threads:
            status, detail, secs = run_test(exe, info, libdir, n, args.timeout)
            r["runs"][str(n)] = {"status": status, "detail": detail, "seconds": round(secs, 2)}
        return r

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for i, r in enumerate(pool.map(one, tests)):
            results.append(r)
            bad = [n for n, x in r["runs"].items() if x["status"] != "pass"]
            if bad:
                print(f"[{i + 1}/{len(tests)}] {r['dir']}/{r['test']}: "
                      + ", ".join(f"t{n} {r['runs'][n]['status']}" for n in bad),
                      file=sys.stderr, flush=True)
    report(results, threads)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"suite": suite, "lib": libdir, "threads": threads, "results": results},
                      f, indent=1)
    ok = all(x["status"] == "pass" for r in results for x in r["runs"].values())
    ran = sum(len(r["runs"]) for r in results)
    if ran == 0:
        # Nothing ran against rtpar's library (no test matched, or every one was skipped, failed
        # to compile or was invalid here): that proves nothing, so it is not a pass.
        print(f"omp_conformance: no test ran against {libdir} ({len(tests)} collected)",
              file=sys.stderr)
        return 1
    return 0 if ok else 1


def report(results, threads):
    """report: the summary table, the skip reasons and every non-passing run."""
    dirs = []
    for r in results:
        if r["dir"] not in dirs:
            dirs.append(r["dir"])
    hdr = (f"{'directory':28} {'thr':>3} {'files':>5} {'skip':>4} {'cerr':>4} {'inval':>5} "
           f"{'run':>4} {'pass':>4} {'fail':>4} {'crash':>5} {'tmo':>4} {'pass%':>6}")
    print(hdr)
    print("-" * len(hdr))
    totals = {n: [0] * 8 for n in threads}
    for d in dirs + ["TOTAL"]:
        rs = [r for r in results if d in ("TOTAL", r["dir"])]
        for n in threads:
            files = len(rs)
            skip = sum(1 for r in rs if "skipped" in r)
            cerr = sum(1 for r in rs if "compile_error" in r)
            inval = sum(1 for r in rs if "invalid_here" in r)
            runs = [r["runs"][str(n)]["status"] for r in rs if str(n) in r["runs"]]
            cnt = {s: runs.count(s) for s in ("pass", "fail", "crash", "timeout")}
            pct = 100.0 * cnt["pass"] / len(runs) if runs else 100.0
            print(f"{d:28} {n:>3} {files:>5} {skip:>4} {cerr:>4} {inval:>5} {len(runs):>4} "
                  f"{cnt['pass']:>4} {cnt['fail']:>4} {cnt['crash']:>5} {cnt['timeout']:>4} "
                  f"{pct:>5.1f}%")
    report_details(
        results, lambda r: f"{r['dir']}/{r['test']}",
        skip_key=lambda reason: re.sub(r"^(dg-do \w+) only for .*", r"\1 only for an unmet target",
                                       reason))

if __name__ == "__main__":
    sys.exit(main())
