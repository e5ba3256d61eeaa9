#!/usr/bin/env python3
"""summarize.py: one line per OpenMP conformance run from ctest's LastTest.log.

    ctest -R '^omp\\.' ; python3 tests/omp/summarize.py BUILD_DIR [--failed]

Prints the test, PASS/FAIL, its time, and for a failure the first line that tells why (a
FAIL line of omp_check.h, a loader error, a timeout or a signal): what the runtime authors
need first. Exit status 0 (it only reports)."""
import re
import sys
from pathlib import Path

WHY = re.compile(r"(^FAIL |symbol lookup error|version `|timed out|killed by signal|"
                 r"Assertion|error|Segmentation|Aborted)", re.I)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    log = Path(sys.argv[1]) / "Testing" / "Temporary" / "LastTest.log"
    only_failed = "--failed" in sys.argv[2:]
    text = log.read_text(errors="replace")
    blocks = re.split(r"^\d+/\d+ Testing: ", text, flags=re.M)[1:]
    rows = []
    for b in blocks:
        name = b.split("\n", 1)[0].strip()
        out = b.split("Output:\n", 1)[-1].split("<end of output>", 1)[0]
        lines = [l for l in out.splitlines() if l.strip() and not l.startswith("-----")]
        passed = "Test Passed." in b
        t = re.search(r"Test time =\s*([\d.]+)", b)
        why = ""
        if not passed:
            why = next((l for l in lines if WHY.search(l)), lines[0] if lines else "(no output)")
            m = re.search(r"Test Failed.*|\*\*\*Timeout|Exit code 0x[0-9a-f]+", b)
            if not why and m:
                why = m.group(0)
        if only_failed and passed:
            continue
        rows.append((name, "PASS" if passed else "FAIL", t.group(1) if t else "?", why.strip()))
    for name, st, t, why in sorted(rows):
        print(f"{name:44} {st} {t:>6}s  {why[:160]}")
    npass = sum(1 for r in rows if r[1] == "PASS")
    print(f"# {npass}/{len(rows)} shown runs passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
