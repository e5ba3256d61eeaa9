#!/usr/bin/env python3
"""readme_test.py SOURCE_DIR BUILD_DIR WORK_DIR [REGEX]: every command of README.md's ```sh blocks, run as
written, ending as the README says.

The commands are read from README.md (never copied here): a README command this file does not
know fails the test, so a new one gets its check. Each runs with bash in WORK_DIR, where `build`
is a link to BUILD_DIR and `examples`, `experiments` links to the source's, so `build/rtpar ...`,
`examples/...` and `out/` resolve as in a checkout while every output stays under the build
directory; a command that writes anywhere but `build/` or `out/` (ignored by git) fails the test. The only edits to a command's text are the substitutions listed per command
below (a shorter --duration or a smaller measurement: the README's 60 s would make the suite
slow); everything else is verbatim. `make` commands run in SOURCE_DIR with BUILD=BUILD_DIR:
`make demo` with DEMO_DURATION=1s and its package step (scripts/setup.sh, which may apt-get)
assumed done; `make test` is the suite itself, so it is checked with `make -n` (the recipe it
runs), never run from inside the suite.

Commands that need real-time scheduling end with exit 3 and a hint when it is refused, as the
README says; then the test still checks everything else and exits 77 (skipped) with the reason.
"""
import json
import os
import re
import shutil
import subprocess
import sys

SRC, BUILD, WORK = (os.path.abspath(p) for p in sys.argv[1:4])
# An optional 4th argument: only the commands matching this regex (for debugging the test).
ONLY = sys.argv[4] if len(sys.argv) > 4 else None
failures = []
skips = []


def fail(cmd, msg, proc=None):
    extra = ""
    if proc is not None:
        extra = (f"\n    exit {proc.returncode}\n    stdout: {proc.stdout[-1500:]}"
                 f"\n    stderr: {proc.stderr[-1500:]}")
    failures.append(f"{cmd}: {msg}{extra}")


def rt_allowed():
    """rt_allowed: whether this process may use SCHED_FIFO (what `rtpar run` needs)."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except (PermissionError, OSError):
        return False
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    return True


RT = rt_allowed()


def json_file(path):
    with open(path) as f:
        return json.load(f)


def expect_rt(proc, cmd):
    """expect_rt: a command that needs SCHED_FIFO: 0, or (refused here) 3 with a hint."""
    if RT:
        if proc.returncode != 0:
            fail(cmd, "expected exit 0", proc)
            return False
        return True
    if proc.returncode != 3 or "hint" not in proc.stderr.lower():
        fail(cmd, "without real-time privilege: expected exit 3 with a hint", proc)
    else:
        skips.append(f"{cmd}: real-time scheduling refused here (exit 3 with a hint, as the "
                     "README says); what it produces was not checked")
    return False


def status(want):
    def check(proc, cmd):
        if proc.returncode != want:
            fail(cmd, f"expected exit {want}", proc)
    return check


def contains(want, text):
    def check(proc, cmd):
        status(want)(proc, cmd)
        if text not in proc.stdout:
            fail(cmd, f"output lacks {text!r}", proc)
    return check


def run_verdict(proc, cmd, verdict):
    """run_verdict: `rtpar run` exits 1 exactly when its verdict says the promise broke (timing,
    which a shared machine cannot promise, so both are accepted), and prints the verdict line."""
    if proc.returncode == 1 and not verdict["promise_kept"]:
        return True
    if proc.returncode == 0 and not verdict["promise_kept"]:
        fail(cmd, f"exit 0 with a broken promise: {verdict}", proc)
    if "verdict: " not in proc.stdout:
        fail(cmd, "no verdict line", proc)
    return proc.returncode in (0, 1)


def check_run_out(proc, cmd):
    path = os.path.join(WORK, "out", "report.json")
    if RT and proc.returncode == 1 and os.path.exists(path):
        if not run_verdict(proc, cmd, json_file(path)["verdict"]):
            return
    elif not expect_rt(proc, cmd):
        return
    for f in ("report.json", "jobs.csv", "trace.json"):
        if not os.path.getsize(os.path.join(WORK, "out", f)):
            fail(cmd, f"out/{f} missing or empty")
    rep = json_file(os.path.join(WORK, "out", "report.json"))
    if not rep["tasks"] or any(t["jobs"] < 1 for t in rep["tasks"]):
        fail(cmd, f"out/report.json: a task without jobs: {rep['tasks']}")


def check_plot(proc, cmd):
    if not os.path.exists(os.path.join(WORK, "out", "report.json")):
        skips.append(f"{cmd}: no out/report.json (the demo run was refused)")
        if proc.returncode != 2:
            fail(cmd, "without out/report.json: expected exit 2", proc)
        return
    if proc.returncode == 3 and "matplotlib" in proc.stderr:
        skips.append(f"{cmd}: matplotlib is not installed here")
        return
    status(0)(proc, cmd)
    for f in ("histogram.png", "response.png", "timeline.png"):
        path = os.path.join(WORK, "out", f)
        if not os.path.exists(path) or os.path.getsize(path) < 5000:
            fail(cmd, f"out/{f} missing or tiny", proc)


def check_steal_run(proc, cmd):
    check_run_out(proc, cmd)
    if not RT:
        return
    t = json_file(os.path.join(WORK, "out", "report.json"))["tasks"][0]
    if not (t.get("profiled_jobs") == t["jobs"] > 0 and t["work_ns"]["max"] > 0
            and t["span_ns"]["max"] > 0):
        fail(cmd, f"work/span per job not reported: {t}")


def check_measured(proc, cmd):
    # The verdict depends on what the previous command measured on this (loaded) machine: 0 or 1,
    # never bad input; the measurement must have been read.
    if not os.path.exists(os.path.join(WORK, "out", "report.json")):
        skips.append(f"{cmd}: no out/report.json (the steal run was refused)")
        if proc.returncode != 2:
            fail(cmd, "without out/report.json: expected exit 2", proc)
        return
    if proc.returncode not in (0, 1) or "measured burdened span" not in proc.stdout:
        fail(cmd, "expected a verdict (0 or 1) using the measured burdened span", proc)


def broken_promise(proc):
    """broken_promise: an `rtpar run` that ran and exited 1 because its verdict says the plan's
    promise broke (timing on a shared machine), naming the likely cause."""
    return (RT and proc.returncode == 1
            and re.search(r"^verdict: PROMISE BROKEN: .*likely cause: ", proc.stdout, re.M))


def check_omp(proc, cmd):
    if not expect_rt(proc, cmd):
        return
    if "threads 2" not in proc.stdout:
        fail(cmd, "the program did not run a team of 2 on cores 0-1", proc)


def check_generate(proc, cmd):
    status(0)(proc, cmd)
    sets_dir = os.path.join(WORK, "out", "sets")
    sets = sorted(os.listdir(sets_dir)) if os.path.isdir(sets_dir) else []
    tomls = [s for s in sets if s.endswith(".toml")]
    if len(tomls) != 10:
        fail(cmd, f"expected 10 task sets in out/sets/, found {sets}")


def check_experiment(proc, cmd):
    status(0)(proc, cmd)
    if "FAIL" in proc.stdout or proc.stdout.count("PASS") < 1:
        fail(cmd, "the figure's claims were not all reproduced", proc)


def check_make_demo(proc, cmd):
    if not RT:
        # make reports rtpar's exit 3 as its own failure (2) naming it: "Error 3".
        if "Error 3" in proc.stderr and "hint" in proc.stderr.lower():
            skips.append(f"{cmd}: real-time scheduling refused here (rtpar run exited 3 with a "
                         "hint); the demo run was not checked")
        else:
            fail(cmd, "without real-time privilege: expected rtpar's exit 3 with a hint", proc)
        return
    if proc.returncode != 0:
        fail(cmd, "expected exit 0", proc)
        return
    if "SCHEDULABLE" not in proc.stdout or "vision" not in proc.stdout:
        fail(cmd, "no plan or run table", proc)
    if not re.search(r"^verdict: (promise kept|PROMISE BROKEN: .*likely cause: )", proc.stdout,
                     re.M):
        fail(cmd, "no verdict line (kept, or broken with its likely cause)", proc)


def check_make_test(proc, cmd):
    status(0)(proc, cmd)
    if not re.search(r"^ctest --test-dir \S+ .*--output-on-failure", proc.stdout, re.M):
        fail(cmd, "`make test` does not run ctest on the build directory", proc)


def check_bench(proc, cmd):
    if proc.returncode == 2 and "rtpar-bench" in proc.stderr:
        skips.append(f"{cmd}: rtpar-bench is not built here (RTPAR_BUILD_BENCH=OFF)")
        return
    # forkjoin and omp measure at SCHED_OTHER by default (0 anywhere); latency and steal at
    # SCHED_FIFO: without it, 3 with a hint.
    if proc.returncode != 0:
        expect_rt(proc, cmd)


def check_calibrate(proc, cmd):
    if not expect_rt(proc, cmd):
        return
    prof = json_file(os.path.join(WORK, "out", "overheads.json"))
    if not prof.get("fork_join"):
        fail(cmd, f"out/overheads.json has no fork_join entries: {list(prof)}")


# COMMANDS: README command (exact text, comment removed) -> (substitutions, check). A
# substitution is (old, new) on the command text; the check gets the finished process.
COMMANDS = {
    "make demo": ([], check_make_demo),
    "make test": ([], check_make_test),
    "build/rtpar check examples/demo.toml": ([], contains(0, "SCHEDULABLE")),
    "build/rtpar check examples/rejected.toml": ([], status(1)),
    "build/rtpar run examples/demo.toml --duration 60s --out out/":
        ([("--duration 60s", "--duration 1s")], check_run_out),
    "build/rtpar plot out/": ([], check_plot),
    "build/rtpar check --planner all examples/shared_cores.toml": ([], status(0)),
    "build/rtpar check --planner fork-join-rta --target 40c4s examples/shared_cores.toml":
        ([], contains(0, "SCHEDULABLE")),
    "build/rtpar simulate examples/shared_cores.toml": ([], contains(0, "0 deadline misses")),
    "build/rtpar run examples/steal.toml --duration 5s --out out/":
        ([("--duration 5s", "--duration 1s")], check_steal_run),
    "build/rtpar check --planner federated-ws --target 8c --measured out/report.json "
    "examples/steal.toml": ([], check_measured),
    "build/rtpar omp --cores 0-1 --fifo 50 -- ./my_openmp_program": ([], check_omp),
    "build/rtpar run build/examples/omp/omp_demo.toml --duration 30s":
        ([("--duration 30s", "--duration 1s")],
         lambda p, c: broken_promise(p) or expect_rt(p, c)),
    "build/rtpar generate fjos --seed 1 --count 10 --out out/sets/": ([], check_generate),
    "build/rtpar experiment run fjos-fig6 --scale quick --out out/fjos-fig6":
        ([], check_experiment),
    "build/rtpar bench forkjoin":
        ([("forkjoin", "forkjoin --iters 2000 --periodic-releases 20")], check_bench),
    "build/rtpar bench latency": ([("latency", "latency --trials 50")], check_bench),
    "build/rtpar bench steal": ([("steal", "steal --quick")], check_bench),
    "build/rtpar bench omp": ([("omp", "omp --quick")], check_bench),
    "build/rtpar calibrate --fifo --out out/overheads.json":
        ([("--fifo", "--fifo --iters 200 --releases 20 --barriers 100 --supply 0s")],
         check_calibrate),
}


def readme_commands():
    """readme_commands: every command line of README.md's ```sh blocks, comments removed."""
    with open(os.path.join(SRC, "README.md")) as f:
        text = f.read()
    out = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
        for line in block.splitlines():
            cmd = re.sub(r"\s+#.*$", "", line).strip()
            if cmd:
                out.append(cmd)
    return out


# CHECKOUT_ENTRIES: what WORK holds besides the commands' outputs under out/ (the links that
# stand in for a checkout, the OpenMP program prepare() builds, and out/ itself).
CHECKOUT_ENTRIES = {"build", "examples", "experiments", "out", "my_openmp_program",
                    "my_openmp_program.c"}


def prepare():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    os.symlink(BUILD, os.path.join(WORK, "build"))
    for d in ("examples", "experiments"):
        os.symlink(os.path.join(SRC, d), os.path.join(WORK, d))
    # ./my_openmp_program: an unchanged OpenMP program that prints its team.
    src = os.path.join(WORK, "my_openmp_program.c")
    with open(src, "w") as f:
        f.write('#include <omp.h>\n#include <stdio.h>\nint main(void) {\n  int n = 0;\n'
                '#pragma omp parallel\n  {\n#pragma omp single\n    n = omp_get_num_threads();\n'
                '  }\n  printf("threads %d\\n", n);\n  return n > 0 ? 0 : 1;\n}\n')
    gcc = shutil.which("gcc")
    if gcc is None or subprocess.run([gcc, "-fopenmp", src, "-o",
                                      os.path.join(WORK, "my_openmp_program")]).returncode:
        return False
    return True


def main():
    have_omp_program = prepare()
    cmds = readme_commands()
    if len(cmds) < 10:
        print(f"FAIL: only {len(cmds)} commands found in README.md")
        return 1
    unknown = [c for c in cmds if c not in COMMANDS]
    for c in unknown:
        fail(c, "a README command this test does not know: add its check to tests/cli/readme_test.py")
    env = dict(os.environ)
    for cmd in cmds:
        if cmd in unknown or (ONLY and not re.search(ONLY, cmd)):
            continue
        subs, check = COMMANDS[cmd]
        run = cmd
        for old, new in subs:
            if old not in run:
                fail(cmd, f"substitution {old!r} no longer applies")
            run = run.replace(old, new, 1)
        if "my_openmp_program" in cmd and not have_omp_program:
            skips.append(f"{cmd}: no gcc -fopenmp to build ./my_openmp_program")
            continue
        if "omp_demo.toml" in cmd and not os.path.exists(
                os.path.join(BUILD, "examples", "omp", "omp_demo.toml")):
            skips.append(f"{cmd}: the OpenMP example is not built here")
            continue
        cwd = WORK
        if cmd.startswith("make "):
            cwd = SRC
            target = cmd.split()[1]
            extra = [f"BUILD={BUILD}", "-o", "setup", "-o", f"{BUILD}/build.ninja"]
            if target == "demo":
                extra.append("DEMO_DURATION=1s")
                run = f"make {target} " + " ".join(extra)
            else:
                run = f"make -n {target} " + " ".join(extra)
        print(f"$ {run}", flush=True)
        try:
            proc = subprocess.run(["bash", "-c", run], cwd=cwd, env=env, capture_output=True,
                                  text=True, timeout=300)
        except subprocess.TimeoutExpired:
            fail(cmd, "timed out after 300 s")
            continue
        check(proc, cmd)
    # The README's commands write only under build/ and out/ (both ignored by git): nothing else
    # appears in the stand-in checkout (issue 35: `sets/`, `results/` left untracked in a clone).
    stray = sorted(set(os.listdir(WORK)) - CHECKOUT_ENTRIES)
    if stray and not ONLY:
        failures.append(f"README commands wrote outside build/ and out/: {stray}")
    for s in skips:
        print(f"SKIPPED: {s}")
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        return 1
    print(f"ok: {len(cmds)} README commands")
    return 77 if skips else 0


if __name__ == "__main__":
    sys.exit(main())
