#!/usr/bin/env python3
"""check_layering.py — fails on any #include that crosses the layers of rtpar's source tree.

The layout (docs/internals/layout.md) is a stack of floors: a folder may include only folders on
lower floors (and itself). Folders on the same floor are siblings and may not include each other.
Public headers in include/rtpar/ belong to the folder that implements them (OWNERS), so an
include of "rtpar/team.hpp" from src/model/ is the same backward edge as one of
"runtime/team/signal_word.hpp". Headers in include/rtpar/detail/ may be included only by their
documented owners.

Usage: check_layering.py [--root DIR] [--table] [--self-test]
  --table      print the allowed-edge table and exit
  --self-test  copy the tree, add one backward include, and check that it is reported
Exit status: 0 clean, 1 a violation (each printed as file:line: message), 2 usage or table error.
"""
import argparse
import pathlib
import re
import shutil
import sys
import tempfile

# FLOORS lists the folders from the ground up. Each may include only folders on lower floors.
FLOORS = [
    ["core"],                                              # error, duration, clock, names, tables
    ["platform"],                                          # futex, threads, spin-wait, topology
    ["model"],                                             # task-set types and rules, structure
    ["analysis/bounds", "gen"],                            # RTA, RBF, ...; task-set generators
    ["analysis/planners"],                                 # one file per planner
    ["sim"],                                               # discrete-event simulation of a Plan
    ["runtime/team", "runtime/steal", "runtime/channel"],  # parallel runtimes and channels
    ["runtime/executor"],                                  # release loop, job log, runners
    ["kernels", "omp"],                                    # built-in workloads; OpenMP runtime
    ["load"],                                              # TOML -> TaskSet
    ["report"],                                            # stats output, JSON, CSV, trace
    ["api"],                                               # System, JobContext
    ["experiment"],                                        # manifests, units, shards, merge
    ["cli"],                                               # the rtpar command
    ["bench", "fuzz"],                                     # rtpar-bench; libFuzzer targets
]

# OWNERS maps each public header (below include/) to the folder that owns it.
OWNERS = {
    "rtpar/error.hpp": "core", "rtpar/time.hpp": "core", "rtpar/function_ref.hpp": "core",
    "rtpar/cpu_relax.hpp": "core", "rtpar/wait_policy.hpp": "core",
    "rtpar/channel_kind.hpp": "core", "rtpar/task_kinds.hpp": "core",
    "rtpar/steal_config.hpp": "core", "rtpar/thread_config.hpp": "core",
    "rtpar/tools/sim_kinds.hpp": "core",
    "rtpar/tools/topology.hpp": "platform", "rtpar/topology.hpp": "platform",
    "rtpar/taskset.hpp": "model", "rtpar/kernel_spec.hpp": "model", "rtpar/plan.hpp": "model", "rtpar/report.hpp": "model",
    "rtpar/tools/overhead.hpp": "model",
    "rtpar/tools/planners.hpp": "analysis/planners",
    "rtpar/tools/generate.hpp": "gen",
    "rtpar/tools/simulate.hpp": "sim", "rtpar/simulate.hpp": "sim",
    "rtpar/team.hpp": "runtime/team", "rtpar/tools/calibrate.hpp": "runtime/team",
    "rtpar/overhead.hpp": "runtime/team",
    "rtpar/steal.hpp": "runtime/steal", "rtpar/detail/steal_worker.hpp": "runtime/steal",
    "rtpar/detail/steal_join.hpp": "runtime/steal", "rtpar/detail/chase_lev.hpp": "runtime/steal",
    "rtpar/steal_worker.hpp": "runtime/steal",
    "rtpar/detail/omp_binding.h": "core",
    "rtpar/channel.hpp": "runtime/channel", "rtpar/channel_set.hpp": "runtime/channel",
    "rtpar/executor.hpp": "runtime/executor", "rtpar/ext/kernel.hpp": "runtime/executor",
    "rtpar/kernel.hpp": "runtime/executor",
    "rtpar/rtpar_kernel.h": "kernels",
    "rtpar/tools/report_io.hpp": "report", "rtpar/report_io.hpp": "report",
    "rtpar/system.hpp": "api", "rtpar.hpp": "api",
}

# DETAIL_USERS: who may include a detail header (its documented owner and the owning folder).
DETAIL_USERS = {
    "rtpar/detail/steal_worker.hpp": {"include/rtpar/steal.hpp", "include/rtpar/steal_worker.hpp",
                                      "include/rtpar/detail/steal_join.hpp"},
    "rtpar/detail/steal_join.hpp": {"include/rtpar/steal.hpp"},
    # The one work-stealing deque: the steal runtime's workers and the OpenMP runtime's tasks.
    "rtpar/detail/chase_lev.hpp": {"include/rtpar/detail/steal_worker.hpp", "src/omp/task.hpp"},
    # The C ABI between the executor's OpenMP kernels and the OpenMP runtime (siblings).
    "rtpar/detail/omp_binding.h": {"src/omp/binding.cpp", "src/kernels/omp_library.cpp"},
}

# COMPAT lists the backward edges kept for source compatibility, each with its reason.
COMPAT = {
    ("include/rtpar/plan.hpp", "rtpar/tools/planners.hpp"):
        "plan_taskset was declared in plan.hpp before the header tiers",
}

# TREES are the top-level folders whose includes are checked.
TREES = ("src", "include", "bench", "fuzz")

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


def floor_of(unit):
    for i, floor in enumerate(FLOORS):
        if unit in floor:
            return i
    return None


def allowed(src, dst):
    """allowed tells whether folder src may include folder dst."""
    return src == dst or floor_of(dst) < floor_of(src)


def units():
    return [u for floor in FLOORS for u in floor]


def unit_of_path(rel):
    """unit_of_path is the folder a file (path relative to the root) belongs to, or None."""
    parts = rel.split("/")
    if parts[0] in ("bench", "fuzz"):
        return parts[0]
    if parts[0] == "include":
        return OWNERS.get("/".join(parts[1:]), "?")
    if parts[0] != "src":
        return None
    best = None
    for u in units():
        if "/".join(parts[1:]).startswith(u + "/") and (best is None or len(u) > len(best)):
            best = u
    return best or "?"


def unit_of_include(name):
    """unit_of_include is the folder an include names, None for a system/third-party header."""
    if name.startswith("rtpar/") or name == "rtpar.hpp":
        return OWNERS.get(name, "?")
    if name.startswith(("driver/", "common/", "programs/")):
        return "bench"
    best = None
    for u in units():
        if name.startswith(u + "/") and (best is None or len(u) > len(best)):
            best = u
    return best


def check(root):
    problems = []
    files = [p for d in TREES for p in (root / d).rglob("*")
             if p.suffix in (".cpp", ".hpp", ".h") and p.is_file()]
    for path in sorted(files):
        rel = path.relative_to(root).as_posix()
        src = unit_of_path(rel)
        if src == "?":
            problems.append(f"{rel}:1: no layer for this file: add its folder to FLOORS or OWNERS")
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            name = m.group(1)
            dst = unit_of_include(name)
            if dst is None:
                continue
            if dst == "?":
                problems.append(f"{rel}:{n}: \"{name}\" is a public header with no owner in OWNERS")
                continue
            if name in DETAIL_USERS and rel not in DETAIL_USERS[name] and src != dst:
                problems.append(f"{rel}:{n}: \"{name}\" is not API: include its owner "
                                f"({', '.join(sorted(DETAIL_USERS[name]))})")
                continue
            if (rel, name) in COMPAT:
                continue
            if not allowed(src, dst):
                how = "a sibling on the same floor" if floor_of(src) == floor_of(dst) else "above it"
                problems.append(f"{rel}:{n}: {src} includes \"{name}\" ({dst}, {how}); "
                                f"{src} may include only: {', '.join(lower(src)) or 'nothing'}")
    return problems


def lower(unit):
    return [u for u in units() if u != unit and floor_of(u) < floor_of(unit)]


def print_table():
    print("folder -> may include (besides itself)")
    for i, floor in enumerate(FLOORS):
        for u in floor:
            below = [v for f in FLOORS[:i] for v in f]
            print(f"  {u:<18} -> {', '.join(below) if below else '(nothing)'}")
    for (f, inc), why in COMPAT.items():
        print(f"  exception: {f} includes {inc} ({why})")


def self_test(root):
    """self_test adds a backward include to a copy of the tree and expects it to be reported."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        for d in TREES:
            shutil.copytree(root / d, copy / d)
        if check(copy):
            print("self-test: the tree is not clean to begin with", file=sys.stderr)
            return 1
        victim = copy / "src/model/structure.cpp"
        victim.write_text(victim.read_text() + '\n#include "runtime/team/signal_word.hpp"\n')
        found = check(copy)
        for p in found:
            print(p)
        if not any("src/model/structure.cpp" in p for p in found):
            print("self-test: a backward include was NOT reported", file=sys.stderr)
            return 1
        print("self-test: the backward include was reported")
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    if args.table:
        print_table()
        return 0
    if args.self_test:
        return self_test(root)
    problems = check(root)
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} violation(s)" if problems else "layering: clean")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
