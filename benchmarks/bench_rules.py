"""Rules-engine speed: 7-card evaluations per second (ours vs treys, same hands, one run) and the
median in-process settle time of a 10-seat Joker hold'em showdown.

    .venv/bin/python benchmarks/bench_rules.py [--hands 50000] [--rounds 5] [--settles 2000]

Targets (issue 2): at least 3x treys; settle median at most 2 ms.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from dealer_assist.cards import DECK_52, JOKER
from dealer_assist.rules.evaluator import evaluate_key
from dealer_assist.rules.settle import settle


def eval_rates(n: int, seed: int, rounds: int = 5) -> tuple[float, float | None]:
    """Best-of-``rounds`` rates, the two evaluators taking turns on the same hands, so that a
    busy machine slows both alike."""
    rng = random.Random(seed)
    hands = [rng.sample(range(52), 7) for _ in range(n)]
    try:
        import treys
    except ImportError:
        treys = None
    if treys is not None:
        e = treys.Evaluator()
        tc = [treys.Card.new(str(c)) for c in DECK_52]
        th = [([tc[i] for i in h[:2]], [tc[i] for i in h[2:]]) for h in hands]
    ours = theirs = 0.0
    for _ in range(rounds):
        t0 = time.perf_counter()
        for h in hands:
            evaluate_key(h)
        ours = max(ours, n / (time.perf_counter() - t0))
        if treys is not None:
            t0 = time.perf_counter()
            for hole, board in th:
                e.evaluate(hole, board)
            theirs = max(theirs, n / (time.perf_counter() - t0))
    return ours, (theirs or None)


def ten_seat_tables(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    tables = []
    for _ in range(n):
        deck = list(DECK_52)
        rng.shuffle(deck)
        board, rest = deck[:5], deck[5:]
        holes = [rest[2 * i: 2 * i + 2] for i in range(10)]
        holes[rng.randrange(10)][rng.randrange(2)] = JOKER          # one seat holds the joker
        seats = [{"seat": i + 1, "hole": [str(c) for c in h], "committed": rng.choice([50, 100, 200, 400])}
                 for i, h in enumerate(holes)]
        tables.append({"game": "joker-holdem", "board": [str(c) for c in board], "button": 1,
                       "seats": seats, "last_aggressor": rng.randint(1, 10)})
    return tables


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--settles", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    ours, theirs = eval_rates(a.hands, a.seed, a.rounds)
    print(f"7-card evaluations/s  dealer-assist: {ours:,.0f}")
    if theirs:
        print(f"7-card evaluations/s  treys 0.1.8:   {theirs:,.0f}")
        print(f"ratio dealer-assist / treys:        {ours / theirs:.2f}x   (target >= 3x)")
    tables = ten_seat_tables(a.settles, a.seed)
    for t in tables[:50]:
        settle(t)                                                     # warm up
    times = []
    for t in tables:
        t0 = time.perf_counter()
        settle(t)
        times.append((time.perf_counter() - t0) * 1000)
    med = statistics.median(times)
    p95 = sorted(times)[int(0.95 * len(times))]
    print(f"settle, 10-seat Joker hold'em: median {med:.3f} ms, p95 {p95:.3f} ms over {len(times)} "
          f"showdowns   (target median <= 2 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
