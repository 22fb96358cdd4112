"""Main and side pots from the chips each seat committed, and splitting a pot with odd chips.

Each seat's total commitment for the hand is cut at every all-in level of a live seat:
everyone pays into a level up to what they committed, folded seats included, and only the
live seats that reached the level may win it (TDA rule 21: each pot is awarded on its own).

>>> pots = build_pots({1: 100, 2: 40, 3: 100, 4: 20}, folded={4})
>>> [(p.amount, p.eligible) for p in pots]
[(140, (1, 2, 3)), (120, (1, 3))]

Chips a folded seat committed above every live seat's commitment stay in the top pot.
A level only one live seat reached is that seat's uncalled bet: a pot it alone can win.

Antes are dead money (seed 004: 「アンティの全額がメインボードに入ります」): no one has to match
them, so they are not layered with the bets.  Every seat's ante goes to the main pot, which
every live seat contests, and the side pots are cut from the chips committed beyond the antes.
The big blind's ante of the WSOP 2023 hand in issue 25: seat 2 posts a 225,000 ante and is all
in for 3,350,000 more, which seat 5 calls; seat 5 wins all of it.

>>> [(p.amount, p.eligible) for p in build_pots({1: 75_000, 2: 3_575_000, 5: 3_350_000},
...                                             folded={1}, antes={2: 225_000})]
[(7000000, (2, 5))]

A seat all in for less than the ante the others posted (a short ante) is an all-in like any
other: it wins from each seat's ante no more than it put in itself, and the rest of the antes
go to the next pot (as pokerkit's uniform-ante trimming and Robert's Rules of Poker read it).

>>> [(p.amount, p.antes, p.eligible) for p in build_pots({1: 5, 2: 110, 3: 110},
...                                                      antes={1: 5, 2: 10, 3: 10})]
[(15, 15, (1, 2, 3)), (210, 10, (2, 3))]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Optional, Sequence

from dealer_assist.i18n import _
from dealer_assist.rules.errors import RuleError

__all__ = ["Pot", "build_pots", "short_antes", "split_amount", "clockwise_from"]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips, the live seats that may win it, and every seat that paid into it.

    ``antes``: how many of ``amount``'s chips are antes (dead money); ``level``: the chips beyond
    its ante a seat needed to have committed to be eligible.
    """

    amount: int
    eligible: tuple[int, ...]
    contributors: tuple[int, ...]
    level: int
    antes: int = 0

    @property
    def is_uncalled(self) -> bool:
        """Only one live seat reached this level: the chips go back to it."""
        return len(self.eligible) == 1


@dataclass(slots=True)
class _Layer:
    amount: int
    antes: int
    eligible: tuple[int, ...]
    contributors: set
    level: int


def short_antes(committed: Mapping[int, int], antes: Mapping[int, int], folded: Iterable[int] = ()
                ) -> dict[int, int]:
    """The live seats all in on an ante below the largest posted (nothing bet beyond it): seat -> ante.

    A seat that posted no ante is not short: at a big-blind ante table one seat antes for all.

    >>> short_antes({1: 5, 2: 110, 3: 10}, {1: 5, 2: 10, 3: 10})
    {1: 5}
    >>> short_antes({1: 5040, 2: 0}, {1: 5040})
    {}
    >>> short_antes({1: 75, 2: 3575, 5: 3350}, {2: 225}, folded={1})
    {}
    """
    folded = set(folded)
    top = max(antes.values(), default=0)
    return {s: antes.get(s, 0) for s, c in sorted(committed.items())
            if s not in folded and c == antes.get(s, 0) and 0 < antes.get(s, 0) < top}


def build_pots(committed: Mapping[int, int], folded: Iterable[int] = (),
               antes: Optional[Mapping[int, int]] = None) -> list[Pot]:
    """Main pot first, then side pots in order of the all-in levels.

    ``antes`` (seat -> chips, part of ``committed``) go to the main pot as dead money; the
    side pots are cut from the chips committed beyond them (see the module's text).

    >>> [(p.amount, p.eligible) for p in build_pots({1: 50, 2: 200, 3: 200})]
    [(150, (1, 2, 3)), (300, (2, 3))]
    >>> build_pots({1: 10, 2: 10}, folded={1, 2})
    Traceback (most recent call last):
    ...
    dealer_assist.rules.errors.RuleError: folded: every seat has folded: one seat must still be in the hand
    """
    folded = set(folded)
    antes = {s: a for s, a in (antes or {}).items() if a}
    live = {s: c for s, c in committed.items() if s not in folded}
    if not live:
        raise RuleError(_("every seat has folded: one seat must still be in the hand"), field="folded")
    short = short_antes(committed, antes, folded)
    layers: list[_Layer] = []
    # the antes: one layer, or one per short ante (each short seat contests the antes up to its own)
    ante_levels = sorted(set(short.values()) | {max(antes.values(), default=0)})
    previous = 0
    for level in ante_levels:
        paid = {s: min(a, level) - min(a, previous) for s, a in antes.items()}
        eligible = tuple(s for s in sorted(live) if s not in short or short[s] >= level)
        layers.append(_Layer(sum(paid.values()), sum(paid.values()), eligible,
                             {s for s, v in paid.items() if v}, 0))
        previous = level
    # the bets beyond the antes, cut at every live seat's all-in level
    bets = {s: c - antes.get(s, 0) for s, c in committed.items()}
    live_bets = {s: b for s, b in bets.items() if s in live and s not in short}
    levels = sorted(set(live_bets.values())) or [0]   # [0]: every live seat is short; bets overflow
    if levels[0] == 0 and len(levels) > 1:
        levels = levels[1:]
    previous = 0
    for i, level in enumerate(levels):
        top = i == len(levels) - 1
        paid = {s: max(0, (b if top else min(b, level)) - previous)   # the top pot takes folded overflow
                for s, b in bets.items()}
        eligible = tuple(sorted(s for s, b in live_bets.items() if b >= level))
        layers.append(_Layer(sum(paid.values()), 0, eligible, {s for s, v in paid.items() if v}, level))
        previous = level
    # a layer no live seat may win (antes above every live seat's short ante, or bets when every
    # live seat is short) stays in the pot below it, as a folded seat's overflow does
    merged: list[_Layer] = []
    for layer in layers:
        if not layer.amount:
            continue
        if merged and (not layer.eligible or layer.eligible == merged[-1].eligible):
            last = merged[-1]
            last.amount += layer.amount
            last.antes += layer.antes
            last.contributors |= layer.contributors
            last.level = max(last.level, layer.level)
        else:
            merged.append(layer)
    if not merged:
        merged.append(_Layer(0, 0, tuple(sorted(live)), set(), 0))
    return [Pot(m.amount, m.eligible, tuple(sorted(m.contributors)), m.level, m.antes) for m in merged]


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
        raise RuleError(_("a pot needs at least one winner"))
    base, odd = divmod(amount, len(winners))
    shares = {s: base for s in winners}
    lucky = list(winners[:odd])
    for s in lucky:
        shares[s] += 1
    return shares, lucky
