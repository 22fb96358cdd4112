"""How many showdowns wait on the dealer: provisional because a card is not sure (every doubt
holds the ruling) against provisional because a doubtful card could change the chips
(dealer_assist.live.doubt), and how long the question takes.

    .venv/bin/python benchmarks/bench_doubt.py [--tables 2000] [--seed 1]

Random showdowns of hold'em and Joker NLH (seats still in at the showdown: 2 in 60 %, 3 in 25 %,
4 in 10 %, 5 or 6 in 5 %; random stacks, so that side pots occur; the joker dealt where the deck
has one) and seven-card stud; each shown card is doubtful
with the chance its kind of name is not sure. Two sets of chances, both measured with the shipped
models and thresholds (``benchmarks/eval_sure.py``: its rows with ``--json``, and its line "real
photos, right names not sure by kind"; models/MODEL_CARD.md, "Twenty-seventh session"):

* ``rendered``: right names not sure on the seven validation sets, cards of 60 pixels and more:
  2-10 and aces 0.101 (2,127 of 21,002), courts 0.251 (2,437 of 9,712, those showing both index
  corners and those showing one together), jokers 0.557;
* ``real``: on the real photos (../shared/real/edje-train, ranks 9 to A): 9s, 10s and aces 15 of
  255 (0.059), courts 40 of 259 (0.154); they hold no joker, so jokers as rendered.

A table's doubtful cards are the shown cards drawn doubtful; a table with none is final either way
and counts in the totals. Prints, per game and chance set, the share of showdowns provisional
before (any doubt) and now (a doubt that could change the chips), the share with three doubtful
cards or more (never tried: provisional), how many of those with one or two doubtful cards are
final now, and the question's median and longest time.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from dealer_assist.cards import DECK_52, JOKER
from dealer_assist.games import find_game
from dealer_assist.live.doubt import doubt_can_change
from dealer_assist.vision.detector import sure_kind

CHANCES = {
    "rendered": {"number": 0.101, "court": 0.251, "joker": 0.557},
    "real": {"number": 0.059, "court": 0.154, "joker": 0.557},
}


def kind(card: str) -> str:
    """The kind of name whose not-sure rate a card takes (the reader's own: ``sure_kind``)."""
    return sure_kind(card) or "number"


def random_table(game: str, rng: random.Random) -> dict:
    deck = [str(c) for c in DECK_52] + ([str(JOKER)] if game == "joker-holdem" else [])
    rng.shuffle(deck)
    n = rng.choices((2, 3, 4, 5, 6), (60, 25, 10, 3, 2))[0]
    stacks = [rng.choice((50, 100, 100, 200, 400)) for _ in range(n)]
    if game == "stud7":
        seats = [{"seat": s + 1, "down": [deck.pop(), deck.pop(), deck.pop()],
                  "up": [deck.pop() for _ in range(4)], "committed": stacks[s]} for s in range(n)]
        return {"game": game, "button": 1, "seats": seats}
    board = [deck.pop() for _ in range(5)]
    seats = [{"seat": s + 1, "hole": [deck.pop(), deck.pop()], "committed": stacks[s]} for s in range(n)]
    return {"game": game, "board": board, "button": 1, "seats": seats}


def shown(obj: dict) -> list[tuple[str, str]]:
    cards = [(f"board{i}", c) for i, c in enumerate(obj.get("board") or (), 1)]
    for s in obj["seats"]:
        cards += [(f"seat{s['seat']}", c) for c in (s.get("hole") or s.get("down", []) + s.get("up", []))]
    return cards


def run(game: str, chances: dict, n: int, seed: int) -> dict:
    rng = random.Random(seed)
    rules = find_game(game).rules
    before = now = too_wide = 0
    by_count = {1: [0, 0], 2: [0, 0]}       # doubtful cards -> [tables, final now]
    times = []
    done = 0
    while done < n:
        obj = random_table(game, rng)
        try:
            table = rules.read_table({k: v for k, v in obj.items() if k != "game"})
            rules.rule(table)
        except Exception:           # a table the engine refuses (a joker on the board): deal again
            continue
        done += 1
        doubt = [(z, c) for z, c in shown(obj) if rng.random() < chances[kind(c)]]
        if not doubt:
            continue
        before += 1
        t0 = time.perf_counter()
        changes = doubt_can_change(rules, table, doubt)
        times.append(time.perf_counter() - t0)
        now += changes
        too_wide += len(doubt) > 2
        if len(doubt) in by_count:
            by_count[len(doubt)][0] += 1
            by_count[len(doubt)][1] += not changes
    return {"before": before / n, "now": now / n, "too_wide": too_wide / n, "by_count": by_count,
            "median_ms": 1000 * statistics.median(times) if times else 0.0,
            "max_ms": 1000 * max(times) if times else 0.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{'game':14} {'chances':9} {'provisional before':>19} {'now':>6} {'ratio':>6} "
          f"{'3+ doubtful':>12} {'final, 1 doubtful':>18} {'final, 2 doubtful':>18} "
          f"{'median ms':>10} {'longest ms':>11}")
    for game in ("joker-holdem", "holdem", "stud7"):
        for name, chances in CHANCES.items():
            r = run(game, chances, args.tables, args.seed)
            ratio = r["now"] / r["before"] if r["before"] else 0.0
            one, two = (f"{f}/{t} ({f / t:.2f})" if t else "-" for t, f in (r["by_count"][1], r["by_count"][2]))
            print(f"{game:14} {name:9} {r['before']:19.3f} {r['now']:6.3f} {ratio:6.2f} "
                  f"{r['too_wide']:12.3f} {one:>18} {two:>18} {r['median_ms']:10.1f} {r['max_ms']:11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
