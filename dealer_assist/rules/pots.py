"""Main and side pots from the chips each seat committed, and splitting a pot with odd chips.

Each seat's total commitment for the hand is cut at every all-in level of a live seat:
everyone pays into a level up to what they committed, folded seats included, and only the
live seats that reached the level may win it (TDA rule 21: each pot is awarded on its own).

>>> pots = build_pots({1: 100, 2: 40, 3: 100, 4: 20}, folded={4})
>>> [(p.amount, p.eligible) for p in pots]
[(140, (1, 2, 3)), (120, (1, 3))]

Chips a folded seat committed above every live seat's commitment stay in the top pot.
A level only one live seat reached is that seat's uncalled bet: a pot it alone can win.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from dealer_assist.rules.errors import RuleError

__all__ = ["Pot", "build_pots", "split_amount", "clockwise_from"]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips, the live seats that may win it, and every seat that paid into it."""

    amount: int
    eligible: tuple[int, ...]
    contributors: tuple[int, ...]
    level: int   # the commitment a seat needed to reach to be eligible

    @property
    def is_uncalled(self) -> bool:
        """Only one live seat reached this level: the chips go back to it."""
        return len(self.eligible) == 1


def build_pots(committed: Mapping[int, int], folded: Iterable[int] = ()) -> list[Pot]:
    """Main pot first, then side pots in order of the all-in levels.

    >>> [(p.amount, p.eligible) for p in build_pots({1: 50, 2: 200, 3: 200})]
    [(150, (1, 2, 3)), (300, (2, 3))]
    >>> build_pots({1: 10, 2: 10}, folded={1, 2})
    Traceback (most recent call last):
    ...
    dealer_assist.rules.errors.RuleError: folded: every seat has folded: one seat must still be in the hand
    """
    folded = set(folded)
    live = {s: c for s, c in committed.items() if s not in folded}
    if not live:
        raise RuleError("every seat has folded: one seat must still be in the hand", field="folded")
    levels = sorted(set(live.values()))
    if levels and levels[0] == 0 and len(levels) > 1:
        levels = levels[1:]
    pots: list[Pot] = []
    previous = 0
    for i, level in enumerate(levels):
        top = i == len(levels) - 1
        amount = 0
        contributors = []
        for seat, chips in sorted(committed.items()):
            upper = chips if top else min(chips, level)   # the top pot takes folded overflow
            part = max(0, upper - previous)
            if part:
                amount += part
                contributors.append(seat)
        eligible = tuple(sorted(s for s, c in live.items() if c >= level))
        if amount or not pots:
            pots.append(Pot(amount, eligible, tuple(contributors), level))
        previous = level
    return pots


def clockwise_from(button: int, seats: Iterable[int]) -> list[int]:
    """Seats in clockwise order starting with the first seat left of the button.

    Seat numbers increase clockwise and wrap around.

    >>> clockwise_from(4, [1, 2, 4, 6])
    [6, 1, 2, 4]
    """
    seats = sorted(set(seats))
    after = [s for s in seats if s > button]
    return after + [s for s in seats if s <= button]


def split_amount(amount: int, winners: Sequence[int]) -> tuple[dict[int, int], list[int]]:
    """Share ``amount`` among ``winners`` given in odd-chip order (the first gets the first odd chip).

    Returns the shares and the seats that received an odd chip; no seat gets more than one
    odd chip of a pot.

    >>> split_amount(101, [3, 1])
    ({3: 51, 1: 50}, [3])
    """
    if not winners:
        raise RuleError("a pot needs at least one winner")
    base, odd = divmod(amount, len(winners))
    shares = {s: base for s in winners}
    lucky = list(winners[:odd])
    for s in lucky:
        shares[s] += 1
    return shares, lucky
