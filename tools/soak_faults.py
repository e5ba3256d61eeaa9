#!/usr/bin/env python3
"""soak_faults.py — the fault mode of tools/soak.sh (docs/reliability.md, "Soak with faults").

  soak_faults.py variant FILE RTPAR OUT.toml [EVERY FACTOR]
      Writes OUT.toml: FILE with one task injecting overruns — every EVERY-th job (default 5)
      burns FACTOR (default 4) times its work (`spin`/`segments` args overrun_every and
      overrun_factor) — under budget = "enforce" and overrun = "skip". Prints the task's name.
      The injector is the task whose budget the runtime applies (a one-thread task, or a
      strand-level plan: `rtpar check FILE --json`), whose kernel takes the fault arguments
      (spin, segments, or none given) and that shares a core with another task, the highest
      priority first (its overruns would hurt the most); failing the last condition, the first
      that meets the others. Exit 4 (with the reason on stderr) when no task qualifies.
  soak_faults.py verdict REPORT.json TASK
      Prints the fault mode's verdict line; exit 0 when TASK overran (the fault was injected)
      and every other task has 0 misses, 1 otherwise.

The variant is written by a small TOML writer (tomllib reads; nothing in the standard library
writes): comments and layout are not kept, relative `lib:`/`omp:` paths are made absolute so
that the variant may live in another directory.
"""
import json
import os
import re
import subprocess
import sys
import tomllib

# FAULT_KERNELS are the kernels that take overrun_every/overrun_factor (a task without `kernel`
# runs spin, or segments when it declares [[task.segment]]).
FAULT_KERNELS = {None, "spin", "segments"}
# EXIT_NOT_APPLICABLE: no task of the file can inject a fault under an applied budget.
EXIT_NOT_APPLICABLE = 4


def toml_key(k):
    """toml_key is k bare when TOML allows it, else quoted."""
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def toml_value(v):
    """toml_value is v written as a TOML value (inline tables and arrays for nesting)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise ValueError(f"cannot write {type(v).__name__} as TOML")


def is_table_array(v):
    return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)


def write_table(lines, path, table):
    """write_table writes table's plain keys, then its sub-tables and arrays of tables."""
    for k, v in table.items():
        if not (isinstance(v, dict) or is_table_array(v)):
            lines.append(f"{toml_key(k)} = {toml_value(v)}")
    for k, v in table.items():
        sub = path + [toml_key(k)]
        if isinstance(v, dict):
            lines.append("")
            lines.append("[" + ".".join(sub) + "]")
            write_table(lines, sub, v)
        elif is_table_array(v):
            for item in v:
                lines.append("")
                lines.append("[[" + ".".join(sub) + "]]")
                write_table(lines, sub, item)


def members(plan_task):
    """members is the number of threads of a task's team (0 for a strand-level plan)."""
    if plan_task.get("segments"):
        return 0
    threads = plan_task.get("thread_cores") or []
    return len(threads) if threads else max(1, len(plan_task.get("cores") or []))


def cores_of(plan_task):
    cores = set(plan_task.get("cores") or []) | set(plan_task.get("thread_cores") or [])
    for seg in plan_task.get("segments") or []:
        cores |= {s["core"] for s in seg.get("strands", [])}
    return cores


def priority_of(plan_task):
    prios = [plan_task.get("priority", 0) or 0]
    for seg in plan_task.get("segments") or []:
        prios += [s.get("priority", 0) for s in seg.get("strands", [])]
    return max(prios)


def choose(spec_tasks, plan):
    """choose returns (index, reason): the injector, or (None, why none qualifies)."""
    if not plan.get("schedulable", False):
        return None, "the task set is not schedulable"
    plan_tasks = plan["tasks"]
    candidates = []
    for i, t in enumerate(spec_tasks):
        p = plan_tasks[i]
        if t.get("runtime") == "steal" or t.get("kernel") not in FAULT_KERNELS:
            continue
        if members(p) > 1:
            continue  # a team: the budget is not applied (docs/reliability.md, "Budgets")
        shared = any(cores_of(p) & cores_of(q) for j, q in enumerate(plan_tasks) if j != i)
        candidates.append((not shared, -priority_of(p), i))
    if not candidates:
        return None, ("no task runs a one-thread or strand-level plan with a kernel that takes "
                      "overrun_every/overrun_factor (spin, segments)")
    return min(candidates)[2], ""


def variant(file, rtpar, out, every, factor):
    with open(file, "rb") as f:
        spec = tomllib.load(f)
    checked = subprocess.run([rtpar, "check", file, "--json"], capture_output=True, text=True)
    if checked.returncode not in (0, 1):
        sys.stderr.write(f"soak: faults: rtpar check {file} exited {checked.returncode}: "
                         f"{checked.stderr}")
        return 2
    plan = json.loads(checked.stdout)
    tasks = spec.get("task", [])
    index, why = choose(tasks, plan)
    if index is None:
        sys.stderr.write(f"soak: faults: {file}: not applicable: {why}\n")
        return EXIT_NOT_APPLICABLE
    base = os.path.dirname(os.path.abspath(file))
    for t in tasks:
        k = t.get("kernel")
        if isinstance(k, str) and k[:4] in ("lib:", "omp:"):
            path, _, symbol = k[4:].rpartition(":")
            if path and not os.path.isabs(path):
                t["kernel"] = k[:4] + os.path.normpath(os.path.join(base, path)) + ":" + symbol
    t = tasks[index]
    # args need a kernel named: the default one — spin, or for [[task.segment]] the segments
    # kernel, which then takes the same structure as args.segments (docs/taskset.md).
    args = t.setdefault("args", {})
    if "kernel" not in t and t.get("segment"):
        args["segments"] = t.pop("segment")
    t.setdefault("kernel", "segments" if "segments" in args else "spin")
    args["overrun_every"] = every
    args["overrun_factor"] = factor
    t["budget"] = "enforce"
    t["overrun"] = "skip"
    lines = [f"# {os.path.basename(out)}: {file} with task '{t['name']}' injecting overruns "
             f"(tools/soak_faults.py)"]
    write_table(lines, [], spec)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(t["name"])
    return 0


def verdict(report_file, task):
    r = json.load(open(report_file))
    tasks = {t["name"]: t for t in r["tasks"]}
    inj = tasks[task]
    others = {n: t["misses"] for n, t in tasks.items() if n != task}
    missed = sum(others.values())
    ok = inj.get("overruns", 0) > 0 and inj.get("budget") == "enforce" and missed == 0
    print(f"soak: faults: '{task}' injected overruns (budget {inj.get('budget')}): "
          f"{inj.get('overruns', 0)} overruns, max excess {inj.get('max_overrun_ns', 0) / 1e6:.3f}ms, "
          f"demoted {inj.get('demoted_ns', 0) / 1e6:.3f}ms, own misses {inj['misses']}; "
          f"the other tasks: {missed} misses"
          + ("" if not others else " (" + ", ".join(f"{n} {m}" for n, m in others.items()) + ")")
          + ("" if ok else " -- FAILED" + (" (no overrun happened)" if inj.get("overruns", 0) == 0 else "")))
    return 0 if ok else 1


def main(argv):
    if len(argv) >= 5 and argv[1] == "variant":
        every = int(argv[5]) if len(argv) > 5 else 5
        factor = float(argv[6]) if len(argv) > 6 else 4.0
        return variant(argv[2], argv[3], argv[4], every, factor)
    if len(argv) == 4 and argv[1] == "verdict":
        return verdict(argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
