"""Low hands (seed 004): ace-to-five and deuce-to-seven lowball, and their draw-game showdowns.

Seed 004 names two ways of ranking the *weakest* hand:

* **A-5** (ace-to-five): the ace is the lowest card, straights and flushes do not count; the best
  hand is 5-4-3-2-A.
* **2-7** (deuce-to-seven): the ace is the highest card, straights and flushes count (against the
  hand); the best hand is 7-5-4-3-2 not all of one suit, and 5-4-3-2-A is an ace-high no-pair hand,
  not a straight.

Both reuse the high-hand evaluator: a 2-7 low is the high key read backwards (with the wheel read
as ace-high), an A-5 low is the pair structure of :mod:`~dealer_assist.rules.evaluator` with the ace
moved below the deuce and straights and flushes switched off.  A :class:`LowValue` is *smaller is
better*; :attr:`LowValue.key` ranks it.

>>> wheel, seven = low_a5(parse_cards("5d 4c 3h 2s Ad")), low_a5(parse_cards("7c 5d 4h 3s 2c"))
>>> wheel < seven, wheel.describe(), seven.describe()
(True, '5-4-3-2-A low', '7-5-4-3-2 low')
>>> low_27(parse_cards("7c 5d 4h 3s 2c")) < low_27(parse_cards("5d 4c 3h 2s Ad"))
True
>>> low_27(parse_cards("5d 4c 3h 2s Ad")).describe()
'A-5-4-3-2 low'
>>> low_27(parse_cards("7h 5h 4h 3h 2h")).describe()
'flush, 7-5-4-3-2 (low)'

The draw games (``"lowball-a5"``, ``"lowball-27"``) settle a final five-card hand per seat: each
seat's ``"hole"`` holds its five cards after the draw and there is no board.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from dealer_assist.i18n import Msg, _, _p
from dealer_assist.cards import Card, CardError, format_cards, parse_cards
from dealer_assist.rules.evaluator import (
    LOW_ACE, Category, _nonflush_key, _pack, _unpack, evaluate_key, rank_text,
)
from dealer_assist.rules.showdown import SeatHand, SeatInput, ShowdownGame, Table

__all__ = ["LowValue", "low_a5", "low_27", "best_low", "LowballA5", "Lowball27", "low_seat_hand"]

_WHEEL = (5, 4, 3, 2, LOW_ACE)


@dataclass(frozen=True, slots=True, order=False)
class LowValue:
    """A low hand: ``rule`` is ``'a5'`` or ``'27'``; a *smaller* :attr:`badness` is a better low.

    ``category`` and ``ranks`` are the hand read as a poker hand under that rule (for A-5 the ace
    is 1 and there are no straights or flushes), ranks in the order they are compared.
    """

    rule: str
    badness: int
    five: tuple[Card, ...]

    @property
    def key(self) -> int:
        """Larger is better (what showdowns compare)."""
        return -self.badness

    @property
    def category(self) -> Category:
        return _unpack(self.badness)[0]

    @property
    def ranks(self) -> tuple[int, ...]:
        ranks = _unpack(self.badness)[1]
        if self.rule == "a5":          # the ace was stored as 2, every rank one above itself
            return tuple(r - 1 for r in ranks)
        return ranks

    def qualifies(self, limit: int) -> bool:
        """``limit``-or-better: no pair (no straight or flush for 2-7) and no card above ``limit``.

        >>> low_a5(parse_cards("8c 7d 4h 2s Ad")).qualifies(8), low_a5(parse_cards("9c 7d 4h 2s Ad")).qualifies(8)
        (True, False)
        """
        return self.category is Category.HIGH_CARD and self.ranks[0] <= limit

    def description(self) -> Msg:
        """``7-5-4-3-2 low`` / ``ロー(2-7) 7-5-4-3-2``; a pair or worse ``one pair, 7-7-4-3-2 (low)``."""
        text = rank_text(self.ranks)
        if self.category is Category.HIGH_CARD:
            if self.rule == "a5":
                return _p("A-5 low", "{ranks} low", ranks=text)
            return _p("2-7 low", "{ranks} low", ranks=text)
        if self.rule == "a5":
            return _p("A-5 low", "{hand}, {ranks} (low)", hand=self.category.name_msg, ranks=text)
        return _p("2-7 low", "{hand}, {ranks} (low)", hand=self.category.name_msg, ranks=text)

    def describe(self) -> str:
        return self.description().render("en")

    def describe_ja(self) -> str:
        return self.description().render("ja")

    def __lt__(self, other: "LowValue") -> bool:      # "is a better low than"
        return self.badness < other.badness

    def __gt__(self, other: "LowValue") -> bool:
        return self.badness > other.badness


def _check_five(cards: Sequence[Card]) -> None:
    if len(cards) != 5:
        raise CardError(_("a low hand is five cards, got {n}: {cards}", n=len(cards), cards=format_cards(cards)),
                        cards)
    if any(c.is_joker for c in cards):
        raise CardError(_("low hands are played without a joker"), cards)


def _badness_a5(indices: Sequence[int]) -> int:
    counts = [0] * 13
    for i in indices:
        r = i >> 2                       # 0 for a deuce .. 12 for an ace
        counts[0 if r == 12 else r + 1] += 1
    # An empty rank mask switches straights off; suits are never looked at, so no flushes.
    return _nonflush_key(counts, 0)


def _badness_27(indices: Sequence[int]) -> int:
    key = evaluate_key(indices)
    category, ranks = _unpack(key)
    if ranks == _WHEEL:                  # 5-4-3-2-A is not a straight in 2-7: ace high
        category = Category.FLUSH if category is Category.STRAIGHT_FLUSH else Category.HIGH_CARD
        key = _pack(category, (14, 5, 4, 3, 2))
    return key


_BADNESS: dict[str, Callable[[Sequence[int]], int]] = {"a5": _badness_a5, "27": _badness_27}


def _order_five(five: Sequence[Card], rule: str) -> tuple[Card, ...]:
    """Display order: the cards in the order their ranks are compared."""
    def low_rank(c: Card) -> int:
        return 1 if (rule == "a5" and c.rank == 14) else int(c.rank)
    counts: dict[int, int] = {}
    for c in five:
        counts[low_rank(c)] = counts.get(low_rank(c), 0) + 1
    return tuple(sorted(five, key=lambda c: (-counts[low_rank(c)], -low_rank(c), -c.suit)))


def low_a5(cards: Sequence[Card]) -> LowValue:
    """The ace-to-five value of exactly five cards."""
    cards = tuple(cards)
    _check_five(cards)
    return LowValue("a5", _badness_a5([c.index for c in cards]), _order_five(cards, "a5"))


def low_27(cards: Sequence[Card]) -> LowValue:
    """The deuce-to-seven value of exactly five cards."""
    cards = tuple(cards)
    _check_five(cards)
    return LowValue("27", _badness_27([c.index for c in cards]), _order_five(cards, "27"))


def best_low(cards: Iterable[Card], rule: str = "a5") -> LowValue:
    """The best low five of 5 to 7 cards under ``rule`` (``'a5'`` or ``'27'``).

    >>> best_low(parse_cards("Kd Ks 8c 5h 4d 3c Ah")).describe()
    '8-5-4-3-A low'
    """
    cards = tuple(cards)
    if not 5 <= len(cards) <= 7:
        raise CardError(_("a low hand is made from 5 to 7 cards, got {n}", n=len(cards)), cards)
    badness = _BADNESS[rule]
    best_b, best_five = None, ()
    for five in itertools.combinations(cards, 5):
        b = badness([c.index for c in five])
        if best_b is None or b < best_b:
            best_b, best_five = b, five
    return LowValue(rule, best_b, _order_five(best_five, rule))


def low_seat_hand(seat: int, value: LowValue) -> SeatHand:
    """A :class:`SeatHand` whose key orders lows best-first (larger key = better low)."""
    cat = value.category
    return SeatHand(seat, value.key, cat.slug, cat.name_msg, value.five, value.description(),
                    notes=(("low_rule", value.rule),))


class LowballA5(ShowdownGame):
    """Ace-to-five lowball draw: each seat's final five cards in ``"hole"``, no board.

    >>> r = LowballA5().settle({"game": "lowball-a5", "button": 1, "seats": [
    ...     {"seat": 1, "hole": ["5d","4c","3h","2s","Ad"], "committed": 50},
    ...     {"seat": 2, "hole": ["6c","4d","3c","2h","Ac"], "committed": 50}]})
    >>> r.payouts, r.hands[1].text
    ({1: 100, 2: 0}, '5-4-3-2-A low')
    """

    name = "lowball-a5"
    rule_name = "a5"
    hole_count = 5
    board_count = 0

    def seat_hand(self, table: Table, seat: SeatInput) -> SeatHand:
        return low_seat_hand(seat.seat, best_low(seat.hole, self.rule_name))


class Lowball27(LowballA5):
    """Deuce-to-seven lowball draw: the ace is high, straights and flushes count against a hand.

    >>> r = Lowball27().settle({"game": "lowball-27", "button": 2, "seats": [
    ...     {"seat": 1, "hole": ["5d","4c","3h","2s","Ad"], "committed": 50},
    ...     {"seat": 2, "hole": ["8c","6d","4s","3d","2h"], "committed": 50}]})
    >>> r.payouts, r.hands[1].text, r.hands[2].text
    ({1: 0, 2: 100}, 'A-5-4-3-2 low', '8-6-4-3-2 low')
    """

    name = "lowball-27"
    rule_name = "27"
