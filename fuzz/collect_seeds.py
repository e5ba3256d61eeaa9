#!/usr/bin/env python3
"""collect_seeds.py — gathers the seed corpora of the fuzz targets from the source tree.

Usage: collect_seeds.py SOURCE_DIR OUT_DIR
Writes OUT_DIR/taskset/ (examples/*.toml and *.toml.in, tests/data/*.toml, fuzz/seeds/taskset/,
and every ```toml block of docs/), OUT_DIR/target_spec/ (fuzz/seeds/target_spec/) and
OUT_DIR/measured_profile/ (every ```json block of docs/cli.md: run reports and plans). The JSON
seeds written by rtpar's own writers come from make_seeds (fuzz/make_seeds.cpp). Each output
directory is emptied first, so a removed source file leaves no stale seed.
"""
import pathlib
import re
import shutil
import sys

FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.M | re.S)


def fresh(path):
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def main():
    if len(sys.argv) != 3:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    taskset = fresh(out / "taskset")
    files = (sorted((src / "examples").glob("*.toml")) + sorted((src / "examples").glob("*.toml.in"))
             + sorted((src / "tests/data").glob("*.toml")) + sorted((src / "fuzz/seeds/taskset").iterdir()))
    for f in files:
        shutil.copyfile(f, taskset / f"{f.parent.name}_{f.name}")
    measured = fresh(out / "measured_profile")
    for doc in sorted((src / "docs").rglob("*.md")):
        for n, (lang, body) in enumerate(FENCE.findall(doc.read_text())):
            if lang == "toml":
                (taskset / f"doc_{doc.stem}_{n}.toml").write_text(body)
            elif lang == "json" and doc.name == "cli.md":
                (measured / f"doc_{doc.stem}_{n}.json").write_text(body)
    target = fresh(out / "target_spec")
    for f in sorted((src / "fuzz/seeds/target_spec").iterdir()):
        shutil.copyfile(f, target / f.name)
    fresh(out / "overhead_profile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
