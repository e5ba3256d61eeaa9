#!/usr/bin/env python3
"""check_layering.py — fails on any #include that crosses the layers of rtpar's source tree.

The layout (docs/internals/layout.md) is a graph of folders, not a stack: EDGES lists, for each
folder, the folders it may include directly (besides itself). Anything else is a violation, so a
runtime folder cannot start including the planners or the simulator unnoticed even though both sit
"below" it. Public headers in include/rtpar/ belong to the folder that implements them (OWNERS), so
an include of "rtpar/team.hpp" from src/model/ is the same violation as one of
"runtime/team/signal_word.hpp". Headers in include/rtpar/detail/ may be included only by their
documented owners.

Two more checks keep the table honest:
- declarations: a function declared in a public header must be defined in its owner's folder or
  in one the owner may reach (EDGES, transitively); a declaration whose only definitions sit
  above its header is a hidden backward edge at link time (a reader of the header's floor gets a
  symbol of a higher one).
- the layout page: every folder of EDGES is named in docs/internals/layout.md.

Usage: check_layering.py [--root DIR] [--table] [--self-test]
  --table      print the allowed-edge table and exit
  --self-test  copy the tree, seed one violation of each kind, and check that each is reported
Exit status: 0 clean, 1 a violation (each printed as file:line: message), 2 usage or table error.
"""
import argparse
import pathlib
import re
import shutil
import sys
import tempfile

# EDGES lists the folders from the ground up; each entry names the folders its files may include
# directly (besides their own folder). It is the drawing of docs/internals/layout.md as data: add
# an edge here only with a reason in that page. Every edge must point to a folder listed earlier,
# which keeps the graph acyclic (checked by table_problems).
EDGES = {
    "core": [],                                            # error, duration, clock, names, rng
    "platform": ["core"],                                  # futex, threads, spin-wait, topology
    "model": ["core", "platform"],                         # task-set types and rules, structure
    "analysis/bounds": ["core", "model"],                  # RTA, RBF, EDF demand, FBB-FFD, ...
    "gen": ["core", "model"],                              # task-set generators
    "analysis/planners": ["core", "platform", "model", "analysis/bounds"],
    "sim": ["core", "platform", "model", "analysis/bounds", "analysis/planners"],
    # The runtimes never include the planners, the simulator or the generators: a Plan reaches
    # them as data (model/), so what runs cannot depend on how it was admitted.
    "runtime/team": ["core", "platform", "model"],
    "runtime/steal": ["core", "platform"],
    "runtime/channel": ["core", "model"],
    "runtime/executor": ["core", "platform", "model", "runtime/team", "runtime/steal",
                         "runtime/channel"],
    "kernels": ["core", "platform", "model", "runtime/steal", "runtime/channel",
                "runtime/executor"],
    # The OpenMP runtime (libgomp.so.1) is its own library: the team and the task deque only.
    "omp": ["core", "platform", "runtime/team", "runtime/steal"],
    "load": ["core", "platform", "model", "kernels"],
    "report": ["core", "model", "analysis/planners"],
    "api": ["core", "model", "analysis/planners", "runtime/team", "runtime/steal",
            "runtime/channel", "runtime/executor", "kernels", "load"],
    # The experiment runner is the command's own library (not in librtpar.so).
    "experiment": ["core", "platform", "model", "gen", "analysis/planners", "sim",
                   "runtime/executor", "kernels", "load"],
    "cli": ["core", "platform", "model", "analysis/bounds", "gen", "analysis/planners", "sim",
            "runtime/team", "runtime/executor", "kernels", "load", "report", "experiment"],
    "bench": ["core", "platform", "model", "gen", "analysis/planners", "runtime/team",
              "runtime/steal", "runtime/channel", "runtime/executor", "kernels", "api", "cli"],
    "fuzz": ["core", "platform", "model", "analysis/planners", "load", "report"],
}

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
    "rtpar/team.hpp": "runtime/team", "rtpar/member_job_hooks.hpp": "runtime/team", "rtpar/tools/calibrate.hpp": "runtime/team",
    "rtpar/overhead.hpp": "runtime/team",
    "rtpar/steal.hpp": "runtime/steal", "rtpar/detail/steal_worker.hpp": "runtime/steal",
    "rtpar/detail/steal_join.hpp": "runtime/steal", "rtpar/detail/chase_lev.hpp": "runtime/steal",
    "rtpar/steal_worker.hpp": "runtime/steal",
    "rtpar/detail/omp_binding.h": "core",
    "rtpar/channel.hpp": "runtime/channel", "rtpar/channel_set.hpp": "runtime/channel",
    "rtpar/executor.hpp": "runtime/executor", "rtpar/ext/kernel.hpp": "runtime/executor",
    "rtpar/kernel.hpp": "runtime/executor",
    "rtpar/rtpar_kernel.h": "kernels",
    "rtpar/taskset_file.hpp": "load",
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
    ("include/rtpar/taskset.hpp", "rtpar/taskset_file.hpp"):
        "load_taskset and parse_taskset were declared in taskset.hpp before they moved to load's floor",
}

# TREES are the top-level folders whose includes are checked.
TREES = ("src", "include", "bench", "fuzz")

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


def units():
    return list(EDGES)


def allowed(src, dst):
    """allowed tells whether folder src may include folder dst directly."""
    return src == dst or dst in EDGES.get(src, ())


def reachable(unit):
    """reachable is every folder unit may use, directly or through the folders it includes."""
    seen, todo = {unit}, [unit]
    while todo:
        for v in EDGES.get(todo.pop(), ()):
            if v not in seen:
                seen.add(v)
                todo.append(v)
    return seen


def table_problems():
    """table_problems checks EDGES and OWNERS themselves: known folders, edges only downwards."""
    problems = []
    order = list(EDGES)
    for u, deps in EDGES.items():
        for v in deps:
            if v not in EDGES:
                problems.append(f"EDGES: {u} -> {v}: no such folder")
            elif order.index(v) >= order.index(u):
                problems.append(f"EDGES: {u} -> {v}: an edge must point to a folder listed earlier")
    for header, owner in OWNERS.items():
        if owner not in EDGES:
            problems.append(f"OWNERS: {header} -> {owner}: no such folder")
    return problems


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


def source_files(root):
    return sorted(p for d in TREES for p in (root / d).rglob("*")
                  if p.suffix in (".cpp", ".hpp", ".h") and p.is_file())


def include_problems(root):
    problems = []
    for path in source_files(root):
        rel = path.relative_to(root).as_posix()
        src = unit_of_path(rel)
        if src == "?":
            problems.append(f"{rel}:1: no layer for this file: add its folder to EDGES or OWNERS")
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
                problems.append(f"{rel}:{n}: {src} includes \"{name}\" ({dst}); {src} may include "
                                f"only: {', '.join(EDGES.get(src, ())) or 'nothing'}")
    return problems


# A declaration in a header: optional attributes and specifiers, a return type, the name, '('.
# Only lines that end the declaration (';') count, so calls and inline bodies are not taken.
DECL = re.compile(r"^\s*(?:\[\[\w+\]\]\s*)*(?:(?:static|inline|virtual|explicit|constexpr|friend|"
                  r"extern)\s+)*[\w:<>,]+(?:\s*[*&]+\s*|\s+)(~?[A-Za-z_]\w*)\s*\([^=]*;\s*$")
NOT_NAMES = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "operator", "static_assert"}


def code_lines(path):
    """code_lines is a file's lines with // comments cut (enough for these simple patterns)."""
    return [line.split("//", 1)[0] for line in path.read_text(errors="replace").splitlines()]


def declaration_problems(root):
    """declaration_problems: functions a public header declares whose only definitions are in
    folders its owner cannot reach. A definition is a line at column 0 of a src/ file (rtpar does
    not indent namespaces) naming NAME or SCOPE::NAME followed by '(' that does not end in ';'.
    An overloaded name defined both within and beyond reach passes: the check looks for hidden
    backward edges, not for every possible one."""
    defined = {}
    for path in (root / "src").rglob("*.cpp"):
        unit = unit_of_path(path.relative_to(root).as_posix())
        for line in code_lines(path):
            if not line or line[0] in " \t#/}{" or line.rstrip().endswith(";"):
                continue
            for m in re.finditer(r"(?:\b\w+::)*(~?[A-Za-z_]\w*)\s*\(", line):
                defined.setdefault(m.group(1), set()).add(unit)
                break
    problems = []
    for header, owner in sorted(OWNERS.items()):
        path = root / "include" / header
        if not path.is_file():
            continue
        reach = reachable(owner)
        for n, line in enumerate(code_lines(path), 1):
            m = DECL.match(line)
            if not m or m.group(1) in NOT_NAMES:
                continue
            units_defining = defined.get(m.group(1), set())
            if units_defining and not units_defining & reach:
                problems.append(f"include/{header}:{n}: {m.group(1)} is declared on {owner}'s "
                                f"floor but defined only in {', '.join(sorted(units_defining))}: "
                                f"declare it in a header that folder owns")
    return problems


def layout_problems(root):
    """layout_problems: every folder of EDGES is named in docs/internals/layout.md."""
    page = root / "docs/internals/layout.md"
    if not page.is_file():
        return ["docs/internals/layout.md:1: missing"]
    text = page.read_text()
    return [f"docs/internals/layout.md:1: the folder {u}/ is not described"
            for u in EDGES if not re.search(r"(?<![\w/])" + re.escape(u) + r"/", text)]


def check(root):
    return include_problems(root) + declaration_problems(root) + layout_problems(root)


def print_table():
    print("folder -> may include directly (besides itself)")
    for u, deps in EDGES.items():
        print(f"  {u:<18} -> {', '.join(deps) if deps else '(nothing)'}")
    for (f, inc), why in COMPAT.items():
        print(f"  exception: {f} includes {inc} ({why})")


def seeded(root, edit, expect):
    """seeded copies the tree, applies edit to the copy and tells whether a problem containing
    expect is reported."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        for d in TREES:
            shutil.copytree(root / d, copy / d)
        (copy / "docs/internals").mkdir(parents=True)
        shutil.copy(root / "docs/internals/layout.md", copy / "docs/internals/layout.md")
        if check(copy):
            print("self-test: the tree is not clean to begin with", file=sys.stderr)
            return False
        edit(copy)
        found = check(copy)
        for p in found:
            print(p)
        return any(expect in p for p in found)


def append(path, text):
    path.write_text(path.read_text() + text)


def self_test(root):
    """self_test seeds one violation of each kind into a copy of the tree and expects each to be
    reported: a backward include, a runtime folder including the analysis (allowed by a stack,
    refused by the edge list), a declaration below its definition, a folder missing from the
    layout page."""
    cases = [
        ("backward include",
         lambda c: append(c / "src/model/structure.cpp", '\n#include "runtime/team/signal_word.hpp"\n'),
         "src/model/structure.cpp"),
        ("runtime -> analysis",
         lambda c: append(c / "src/runtime/executor/executor.cpp", '\n#include "analysis/bounds/rta.hpp"\n'),
         "src/runtime/executor/executor.cpp"),
        ("declaration below its definition",
         lambda c: (append(c / "include/rtpar/error.hpp", "\nint layering_self_test_probe(int x);\n"),
                    append(c / "src/load/taskset_parse.cpp",
                           "\nint layering_self_test_probe(int x) { return x; }\n")),
         "layering_self_test_probe"),
        ("folder missing from the layout page",
         lambda c: (c / "docs/internals/layout.md").write_text(
             re.sub(r"(?<![\w/])omp/", "", (c / "docs/internals/layout.md").read_text())),
         "the folder omp/"),
    ]
    failed = 0
    for name, edit, expect in cases:
        ok = seeded(root, edit, expect)
        print(f"self-test: {name}: {'reported' if ok else 'NOT reported'}")
        failed += not ok
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    table = table_problems()
    if table:
        for p in table:
            print(p)
        return 2
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
