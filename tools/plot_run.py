#!/usr/bin/env python3
"""plot_run.py — draws a run's report directory (`rtpar run --out DIR`) as three PNGs
(docs/cli.md, "rtpar plot"):

  rtpar plot DIR [--out PNGDIR]             # runs this script
  python3 tools/plot_run.py DIR [PNGDIR]    # DIR/jobs.csv + DIR/report.json -> PNGDIR/*.png

histogram.png  each task's response times in log-spaced buckets (1-2-5 series), its response
               bound and deadline marked;
response.png   each job's response over the run (time since the run's start), bound and deadline
               dashed, misses in red;
timeline.png   one row per CPU: for a strand-level task (decomposition, fork-join-rta) each segment
               its threads ran, and for a team task each job on the master's CPU and each
               worker's share of a region on the worker's, on the CPU of the thread (trace.json's
               per-CPU tracks); for the others (a one-thread task, a work-stealing pool) each job
               from its start to its finish on every core its task was planned on
               (report.json tasks[].cores).

PNGDIR defaults to DIR. Exit status: 0; 2 when DIR lacks jobs.csv or report.json or they are
malformed; 3 when matplotlib is missing (Debian: python3-matplotlib, scripts/setup.sh).
"""
import csv
import json
import math
import os
import sys


def die(status, message):
    """die prints `rtpar plot: MESSAGE` to stderr and exits with status."""
    print(f"rtpar plot: {message}", file=sys.stderr)
    sys.exit(status)


def edges_125(max_ns):
    """edges_125: the upper bucket edges 1 us, 2 us, 5 us, ... up to the first above max_ns (as
    src/report/response_histogram.cpp)."""
    edges, decade = [], 1000
    while True:
        for step in (1, 2, 5):
            edges.append(decade * step)
            if edges[-1] > max_ns:
                return edges
        decade *= 10


def label_ns(ns):
    """label_ns: a short duration label (800ns, 20us, 1.5ms, 2s)."""
    for unit, scale in (("s", 10**9), ("ms", 10**6), ("us", 10**3)):
        if ns >= scale:
            return f"{ns / scale:g}{unit}"
    return f"{ns}ns"


def read_run(directory):
    """read_run: (tasks, start_ns) — per task in file order: name, cores, deadline, bound, jobs
    (release, start, finish, response, missed)."""
    jobs_path = os.path.join(directory, "jobs.csv")
    report_path = os.path.join(directory, "report.json")
    for p in (jobs_path, report_path):
        if not os.path.isfile(p):
            die(2, f"{p}: not found (a directory written by `rtpar run --out DIR`)")
    try:
        with open(report_path) as f:
            report = json.load(f)
        start_ns = int(report["start_ns"])
        tasks = {}
        for t in report["tasks"]:
            tasks[t["name"]] = {"name": t["name"], "cores": list(t.get("cores") or []),
                                "deadline": t.get("deadline_ns"),
                                "bound": t.get("response_bound_ns"), "jobs": []}
    except (ValueError, KeyError, TypeError) as e:
        die(2, f"{report_path}: malformed report ({e!r})")
    try:
        with open(jobs_path, newline="") as f:
            for row in csv.DictReader(f):
                task = tasks.get(row["task"])
                if task is None:
                    die(2, f"{jobs_path}: task {row['task']!r} is not in report.json")
                task["jobs"].append((int(row["release_ns"]), int(row["start_ns"]),
                                     int(row["finish_ns"]), int(row["response_ns"]),
                                     row["missed"] == "1"))
    except (ValueError, KeyError, TypeError) as e:
        die(2, f"{jobs_path}: malformed jobs.csv ({e!r})")
    return list(tasks.values()), start_ns


def read_cpu_slices(directory, start_ns):
    """read_cpu_slices: {task: [(cpu, start_ms, length_ms)]} from trace.json's per-CPU tracks, for
    the tasks whose threads recorded segments (strand-level plans) or team shares (a team of
    several threads); {} without trace.json or tracks (an older run)."""
    path = os.path.join(directory, "trace.json")
    if not os.path.isfile(path):
        return {}
    try:
        with open(path) as f:
            events = json.load(f)["traceEvents"]
        cpu_pid = next((e["pid"] for e in events if e.get("name") == "process_name"
                        and e["args"]["name"] == "CPUs"), None)
        if cpu_pid is None:
            return {}
        cpu_of = {e["tid"]: int(e["args"]["name"].split()[1]) for e in events
                  if e.get("name") == "thread_name" and e["pid"] == cpu_pid}
        strand_tasks = {e["args"]["task"] for e in events
                        if e.get("ph") == "X" and e.get("cat") in ("segment", "share", "steal")}
        out = {}
        for e in events:
            if e.get("ph") != "X" or e["pid"] != cpu_pid or e["args"]["task"] not in strand_tasks:
                continue
            out.setdefault(e["args"]["task"], []).append(
                (cpu_of[e["tid"]], e["ts"] / 1e3, e["dur"] / 1e3))
        return out
    except (ValueError, KeyError, TypeError, IndexError, StopIteration) as e:
        die(2, f"{path}: malformed trace.json ({e!r})")


def plot_histogram(plt, tasks, path):
    """plot_histogram: one panel per task, jobs per log-spaced bucket, bound and deadline."""
    shown = [t for t in tasks if t["jobs"]]
    fig, axes = plt.subplots(len(shown), 1, figsize=(8, 2.2 * len(shown) + 0.6), squeeze=False)
    for ax, t in zip(axes[:, 0], shown):
        responses = [j[3] for j in t["jobs"]]
        edges = edges_125(max(responses))
        lows = [0] + edges[:-1]
        counts = [0] * len(edges)
        for r in responses:
            counts[next(i for i, e in enumerate(edges) if r < e)] += 1
        first = next(i for i, c in enumerate(counts) if c)
        last = max(i for i, c in enumerate(counts) if c)
        xs = list(range(first, last + 1))
        ax.bar(range(len(xs)), [counts[i] for i in xs], color="tab:blue")
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([f"<{label_ns(edges[i])}" for i in xs], fontsize=8)
        filled = [counts[i] for i in xs if counts[i]]
        if max(filled) > 50 * min(filled):
            ax.set_yscale("log")  # a long tail of few jobs stays visible beside the mode
        ax.set_ylabel("jobs")
        marks = []
        for name, value in (("R bound", t["bound"]), ("D", t["deadline"])):
            if value:
                marks.append(f"{name} {label_ns(value)}")
                # The bucket holding the mark, at its position inside the bucket (log scale).
                for k, i in enumerate(xs):
                    if lows[i] <= value < edges[i]:
                        lo = math.log(max(lows[i], 1))
                        frac = (math.log(value) - lo) / (math.log(edges[i]) - lo)
                        ax.axvline(k - 0.5 + frac, color="tab:red" if name == "D" else "tab:orange",
                                   linestyle="--")
        ax.set_title(f"{t['name']}: {len(responses)} jobs" + (f" ({', '.join(marks)})"
                                                              if marks else ""), fontsize=9)
    axes[-1, 0].set_xlabel("response time (release to finish), log-spaced buckets")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_response(plt, tasks, start_ns, path):
    """plot_response: each job's response against its release time, one panel per task."""
    shown = [t for t in tasks if t["jobs"]]
    fig, axes = plt.subplots(len(shown), 1, figsize=(8, 2.2 * len(shown) + 0.6), squeeze=False,
                             sharex=True)
    for ax, t in zip(axes[:, 0], shown):
        xs = [(j[0] - start_ns) / 1e9 for j in t["jobs"]]
        ys = [j[3] / 1e6 for j in t["jobs"]]
        ax.plot(xs, ys, ".", markersize=3, color="tab:blue", label="response")
        missed = [(x, y) for x, y, j in zip(xs, ys, t["jobs"]) if j[4]]
        if missed:
            ax.plot(*zip(*missed), "x", color="tab:red", label=f"{len(missed)} missed")
        if t["bound"]:
            ax.axhline(t["bound"] / 1e6, color="tab:orange", linestyle="--", label="R bound")
        if t["deadline"]:
            ax.axhline(t["deadline"] / 1e6, color="tab:red", linestyle=":", label="deadline")
        ax.set_ylabel("ms")
        ax.set_title(t["name"], fontsize=9)
        ax.legend(fontsize=7, loc="upper right")
    axes[-1, 0].set_xlabel("release time since the run's start (s)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_timeline(plt, tasks, start_ns, path, cpu_slices):
    """plot_timeline: one row per CPU; a strand-level task's segments on the CPUs its threads ran
    on (cpu_slices), every other task's jobs as bars on its task's cores."""
    cores = sorted({c for t in tasks for c in t["cores"]} |
                   {c for slices in cpu_slices.values() for c, _, _ in slices})
    fig, ax = plt.subplots(figsize=(10, 0.6 * max(len(cores), 1) + 1.4))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    row = {c: i for i, c in enumerate(cores)}
    for k, t in enumerate(tasks):
        if t["name"] in cpu_slices:
            by_cpu = {}
            for c, at, length in cpu_slices[t["name"]]:
                by_cpu.setdefault(c, []).append((at, length))
            for n, (c, bars) in enumerate(sorted(by_cpu.items())):
                ax.broken_barh(bars, (row[c] - 0.4, 0.8), color=colors[k % len(colors)],
                               label=t["name"] if n == 0 else None)
            continue
        bars = [((j[1] - start_ns) / 1e6, (j[2] - j[1]) / 1e6) for j in t["jobs"]]
        for c in t["cores"]:
            ax.broken_barh(bars, (row[c] - 0.4, 0.8), color=colors[k % len(colors)],
                           label=t["name"] if c == t["cores"][0] else None)
    ax.set_yticks(range(len(cores)))
    ax.set_yticklabels([f"CPU {c}" for c in cores])
    ax.set_xlabel("time since the run's start (ms); each job (or segment) from its start to its "
                  "finish")
    ax.set_title("jobs on their planned cores" + ("; strand-level and team tasks: what each "
                                                  "thread ran, on its CPU" if cpu_slices else ""),
                 fontsize=9)
    if tasks:
        ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv):
    if len(argv) not in (2, 3):
        die(2, "usage: plot_run.py DIR [PNGDIR]")
    directory = argv[1]
    out = argv[2] if len(argv) == 3 else directory
    tasks, start_ns = read_run(directory)
    cpu_slices = read_cpu_slices(directory, start_ns)
    if not any(t["jobs"] for t in tasks):
        die(2, f"{directory}: the run recorded no job, nothing to plot")
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only, no display
        import matplotlib.pyplot as plt
    except ImportError:
        die(3, "matplotlib is not installed (Debian: apt-get install python3-matplotlib, or "
               "scripts/setup.sh)")
    os.makedirs(out, exist_ok=True)
    written = []
    for name, draw in (("histogram.png", lambda p: plot_histogram(plt, tasks, p)),
                       ("response.png", lambda p: plot_response(plt, tasks, start_ns, p)),
                       ("timeline.png", lambda p: plot_timeline(plt, tasks, start_ns, p, cpu_slices))):
        path = os.path.join(out, name)
        draw(path)
        written.append(path)
    for p in written:
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
