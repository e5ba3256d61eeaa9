#!/usr/bin/env python3
"""gen_light_tasks.py N [--cores M] [--util U] [--seed S] [--places] — write a task-set file of N
light (sequential, C <= D) tasks on stdout, for the `rtpar check` scaling benchmark
(bench/check_scaling.sh) and the scaling regression test (tests/cli/scaling_test.sh).

Periods are drawn from a harmonic-free menu of 1..1000 ms, deadlines are the period or 80% of it,
and the work of each task is U*cores/N of its period (rounded up to 1 us), so the total
utilisation is about U per core. The generator is deterministic for a given seed (a linear
congruential generator, not Python's `random`, so the file is identical across Python versions).
With --places every task gets `places = [core]` round-robin (the partitioned planner needs them),
as an EDF task or (static) with a priority 1..89; --override-every K gives every K-th task an
explicit priority (K = 1: every task, so the federated planners use global priorities)."""
import argparse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--util", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--places", choices=["edf", "static"], default=None,
                    help="pin each task to one core (partitioned planner): EDF or static priority")
    ap.add_argument("--override-every", type=int, default=0,
                    help="give every K-th task an explicit priority 1..89 (1: all, global mode)")
    a = ap.parse_args()
    state = a.seed

    def rnd(k):
        nonlocal state
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (state >> 33) % k

    periods_ms = [1, 2, 3, 5, 7, 10, 12, 15, 20, 25, 30, 50, 70, 100, 150, 200, 300, 500, 1000]
    out = [f"[system]\ncores = {a.cores}\nplanner = \"federated\"\n"]
    share = a.util * a.cores / a.n
    for i in range(a.n):
        t_us = periods_ms[rnd(len(periods_ms))] * 1000
        d_us = t_us if rnd(2) == 0 else t_us * 4 // 5
        c_us = max(1, int(t_us * share * (0.5 + rnd(1000) / 1000.0)))
        c_us = min(c_us, d_us)
        task = f'[[task]]\nname = "t{i:05d}"\nperiod = "{t_us}us"\ndeadline = "{d_us}us"\nwork = "{c_us}us"\n'
        if a.places:
            task += f"places = [{i % a.cores}]\n"
        if a.places == "static" or (a.override_every and i % a.override_every == 0):
            task += f"priority = {1 + rnd(89)}\n"
        out.append(task)
    print("\n".join(out), end="")


if __name__ == "__main__":
    main()
