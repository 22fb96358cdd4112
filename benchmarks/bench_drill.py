"""Trainer speed (issue 23): milliseconds to generate one drill, per topic and level, and to
check one answer.

    .venv/bin/python benchmarks/bench_drill.py [--n 30] [--seed 1]

Target: generating a drill takes under 50 ms (its table dealt, the engine's answer worked out and
the drill's JSON written).  The figures are printed; nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from dealer_assist.trainer.drills import LEVELS, TOPICS, check, drill_from_json, make_drill

TARGET_MS = 50.0


def time_topic(topic: str, level: int, n: int, seed: int) -> list[float]:
    """Milliseconds per drill, each drill made and written as JSON as ``drill --json`` does."""
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        json.dumps(make_drill(topic, level, seed, i).to_json(), ensure_ascii=False)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=30, help="drills per topic and level")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    every: list[float] = []
    print(f"{'topic':16} {'level':>5} {'median ms':>10} {'max ms':>8}")
    for topic in TOPICS:
        for level in LEVELS:
            ms = time_topic(topic, level, args.n, args.seed)
            every += ms
            print(f"{topic:16} {level:>5} {statistics.median(ms):>10.2f} {max(ms):>8.2f}")
    drills = [make_drill(t, lv, args.seed, i).to_json() for t in TOPICS for lv in LEVELS for i in range(5)]
    t0 = time.perf_counter()
    for d in drills:
        check(drill_from_json(d), d["answer"])
    check_ms = (time.perf_counter() - t0) * 1000 / len(drills)
    worst = max(every)
    print(f"all drills: median {statistics.median(every):.2f} ms, mean {statistics.mean(every):.2f} ms, "
          f"slowest {worst:.2f} ms per drill generated (target under {TARGET_MS:.0f} ms); "
          f"{len(every)} drills")
    print(f"check: {check_ms:.2f} ms per answer checked (the engine's answer worked out again)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
