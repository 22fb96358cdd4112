"""High-hand evaluation of 5 to 7 cards: category, the five ranks that decide, the best five.

A hand's strength is one integer (:attr:`HandValue.key`): the category, then the five ranks in
the order they are compared (the pair before its kickers, the trips before the pair of a full
house).  Suits never break ties.  Comparing two hands is comparing two integers, which is what
makes the evaluator fast: it never enumerates the 21 five-card subsets of seven cards.

>>> v = evaluate(parse_cards("Ah Kh Qh Jh Th 2c 2d"))
>>> v.category, v.name_ja, format_cards(v.best_five)
(<Category.STRAIGHT_FLUSH: 8>, 'ロイヤルストレートフラッシュ', 'Ah Kh Qh Jh Th')
>>> w = evaluate(parse_cards("7c 7d 7s 2h 2c 9d 3s"))
>>> w.category.name_en, w.ranks_text, w < v
('full house', '7-7-7-2-2', True)
>>> evaluate(parse_cards("5d 4c 3h 2s Ad")).describe()
'straight, 5-4-3-2-A'

Wheel straights (A-2-3-4-5) rank below 6-high straights; the ace then counts as 1 in ``ranks``.
"""
from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from dealer_assist.i18n import Msg, _
from dealer_assist.cards import Card, CardError, format_cards, parse_cards

__all__ = [
    "Category", "HandValue", "evaluate", "evaluate_key", "hand_key", "best_of",
    "rank_text", "LOW_ACE",
]

#: The value the ace takes in ``ranks`` when it plays low (a wheel straight).
LOW_ACE = 1


class Category(enum.IntEnum):
    """Hand categories, weakest first.  ``FIVE_OF_A_KIND`` exists only with wild cards."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def slug(self) -> str:
        """Machine name used in JSON: ``'flush'``, ``'full_house'``, ..."""
        return self.name.lower()

    @property
    def name_msg(self) -> Msg:
        """The category's name in the catalogues (Japanese: seed 004's vocabulary)."""
        return _NAMES[self]

    @property
    def name_en(self) -> str:
        return _NAMES[self].render("en")

    @property
    def name_ja(self) -> str:
        """The Japanese name dealers use (seed 004's vocabulary)."""
        return _NAMES[self].render("ja")


_NAMES = {
    Category.HIGH_CARD: _("high card"),
    Category.ONE_PAIR: _("one pair"),
    Category.TWO_PAIR: _("two pair"),
    Category.THREE_OF_A_KIND: _("three of a kind"),
    Category.STRAIGHT: _("straight"),
    Category.FLUSH: _("flush"),
    Category.FULL_HOUSE: _("full house"),
    Category.FOUR_OF_A_KIND: _("four of a kind"),
    Category.STRAIGHT_FLUSH: _("straight flush"),
    Category.FIVE_OF_A_KIND: _("five of a kind"),
}
ROYAL_FLUSH = _("royal flush")

_RANK_SYM = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
             10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


def rank_text(ranks: Iterable[int]) -> str:
    """``'A-K-J-T-6'`` from rank values (1 or 14 print as ``A``)."""
    return "-".join(_RANK_SYM[r] for r in ranks)


def _pack(category: int, ranks: Sequence[int]) -> int:
    r1, r2, r3, r4, r5 = ranks
    return (category << 20) | (r1 << 16) | (r2 << 12) | (r3 << 8) | (r4 << 4) | r5


def _unpack(key: int) -> tuple[Category, tuple[int, ...]]:
    return Category(key >> 20), tuple((key >> s) & 15 for s in (16, 12, 8, 4, 0))


# --- tables over 13-bit rank masks (bit r-2 set for rank r) --------------------------------

def _straight_top(mask: int) -> int:
    for top in range(14, 5, -1):
        run = 0b11111 << (top - 6)
        if mask & run == run:
            return top
    if mask & 0b1000000001111 == 0b1000000001111:   # A 5 4 3 2
        return 5
    return 0


def _top_bits(mask: int, n: int) -> tuple[int, ...]:
    out = []
    r = 12
    while r >= 0 and len(out) < n:
        if mask >> r & 1:
            out.append(r + 2)
        r -= 1
    return tuple(out)


_STRAIGHT = [_straight_top(m) for m in range(1 << 13)]


def _straight_ranks(top: int) -> tuple[int, ...]:
    return (5, 4, 3, 2, LOW_ACE) if top == 5 else tuple(range(top, top - 5, -1))


def _flush_key(mask: int) -> int:
    top = _STRAIGHT[mask]
    if top:
        return _pack(Category.STRAIGHT_FLUSH, _straight_ranks(top))
    return _pack(Category.FLUSH, _top_bits(mask, 5))


_FLUSH_KEY = {m: _flush_key(m) for m in range(1 << 13) if m.bit_count() >= 5}


def _nonflush_key(counts: Sequence[int], mask: int) -> int:
    """Key of the best non-flush five from rank counts (index r-2) of 5..7 cards."""
    quads = trips = 0
    trips2 = 0
    pairs: list[int] = []
    singles: list[int] = []
    for i in range(12, -1, -1):
        c = counts[i]
        if not c:
            continue
        r = i + 2
        if c == 4:
            quads = r
        elif c == 3:
            if trips:
                trips2 = r
            else:
                trips = r
        elif c == 2:
            pairs.append(r)
        else:
            singles.append(r)
    if quads:
        kicker = max([trips, trips2] + pairs + singles)
        return _pack(Category.FOUR_OF_A_KIND, (quads, quads, quads, quads, kicker))
    if trips and (trips2 or pairs):
        p = max(trips2, pairs[0] if pairs else 0)
        return _pack(Category.FULL_HOUSE, (trips, trips, trips, p, p))
    top = _STRAIGHT[mask]
    if top:
        return _pack(Category.STRAIGHT, _straight_ranks(top))
    if trips:
        k = singles[:2]
        return _pack(Category.THREE_OF_A_KIND, (trips, trips, trips, k[0], k[1]))
    if len(pairs) >= 2:
        p1, p2 = pairs[0], pairs[1]
        kicker = max(pairs[2:] + singles) if len(pairs) > 2 or singles else 0
        return _pack(Category.TWO_PAIR, (p1, p1, p2, p2, kicker))
    if pairs:
        k = singles[:3]
        return _pack(Category.ONE_PAIR, (pairs[0], pairs[0], k[0], k[1], k[2]))
    return _pack(Category.HIGH_CARD, tuple(singles[:5]))


def _kicker_table(n: int) -> list[int]:
    """For each 13-bit rank mask, its top ``n`` ranks packed 4 bits each (the low kickers)."""
    out = []
    for m in range(1 << 13):
        v = 0
        tops = _top_bits(m, n)
        for r in tops:
            v = (v << 4) | r
        out.append(v << (4 * (n - len(tops))))
    return out


_K1, _K2, _K3, _K5 = (_kicker_table(n) for n in (1, 2, 3, 5))
_STRAIGHT_KEY = [_pack(Category.STRAIGHT, _straight_ranks(t)) if t else 0 for t in _STRAIGHT]
_CARD_BIT = [(1 << (i >> 2), i & 3) for i in range(52)]
_QUADS, _FULL, _TRIPS, _TWO, _PAIR = (int(c) << 20 for c in (
    Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.THREE_OF_A_KIND,
    Category.TWO_PAIR, Category.ONE_PAIR))


def evaluate_key(indices: Sequence[int]) -> int:
    """The strength of 5..7 cards given by their :attr:`Card.index` (no jokers): larger is better.

    This is the hot path (no objects, no validation): use :func:`evaluate` for a checked result.
    It works on four 13-bit rank masks, one per suit: ranks held in two, three or four suits
    come from ANDs of the masks, and every category is a table lookup or a few shifts.

    >>> evaluate_key([c.index for c in parse_cards("As Ks Qs Js Ts")]) > \\
    ...     evaluate_key([c.index for c in parse_cards("Ac Ad Ah As Kc")])
    True
    """
    a = b = c = d = 0
    for i in indices:
        bit, s = _CARD_BIT[i]
        if s == 0:
            a |= bit
        elif s == 1:
            b |= bit
        elif s == 2:
            c |= bit
        else:
            d |= bit
    # Five of one suit among at most seven cards leaves no room for quads or a full house.
    if a.bit_count() >= 5:
        return _FLUSH_KEY[a]
    if b.bit_count() >= 5:
        return _FLUSH_KEY[b]
    if c.bit_count() >= 5:
        return _FLUSH_KEY[c]
    if d.bit_count() >= 5:
        return _FLUSH_KEY[d]
    ranks = a | b | c | d
    ab, cd = a & b, c & d
    two = ab | cd | ((a | b) & (c | d))            # ranks held at least twice
    if not two:
        return _STRAIGHT_KEY[ranks] or _K5[ranks]  # high card: category 0
    three = (ab & (c | d)) | (cd & (a | b))        # ranks held at least three times
    if three:
        four = ab & cd
        if four:
            q = four.bit_length() + 1
            return _QUADS | (q << 16) | (q << 12) | (q << 8) | (q << 4) | _K1[ranks ^ (1 << (q - 2))]
        t = three.bit_length() + 1
        pair = two ^ (1 << (t - 2))                 # a pair, or a second set of trips
        if pair:
            p = pair.bit_length() + 1
            return _FULL | (t << 16) | (t << 12) | (t << 8) | (p << 4) | p
        return _STRAIGHT_KEY[ranks] or (
            _TRIPS | (t << 16) | (t << 12) | (t << 8) | _K2[ranks ^ (1 << (t - 2))])
    straight = _STRAIGHT_KEY[ranks]
    if straight:
        return straight
    p1 = two.bit_length() + 1
    rest = two ^ (1 << (p1 - 2))
    if rest:
        p2 = rest.bit_length() + 1
        return (_TWO | (p1 << 16) | (p1 << 12) | (p2 << 8) | (p2 << 4)
                | _K1[ranks ^ (1 << (p1 - 2)) ^ (1 << (p2 - 2))])
    return _PAIR | (p1 << 16) | (p1 << 12) | _K3[ranks ^ (1 << (p1 - 2))]


@dataclass(frozen=True, slots=True, order=False)
class HandValue:
    """What a set of cards is worth: compare two values with ``<``, ``==``, ``>``.

    ``ranks`` are the five ranks in comparison order; ``best_five`` the cards that make them
    (display order: strongest group first).
    """

    key: int
    best_five: tuple[Card, ...]

    @property
    def category(self) -> Category:
        return Category(self.key >> 20)

    @property
    def ranks(self) -> tuple[int, ...]:
        return _unpack(self.key)[1]

    @property
    def ranks_text(self) -> str:
        return rank_text(self.ranks)

    @property
    def is_royal(self) -> bool:
        return self.category is Category.STRAIGHT_FLUSH and self.ranks[0] == 14

    @property
    def name_msg(self) -> Msg:
        return ROYAL_FLUSH if self.is_royal else self.category.name_msg

    @property
    def name_en(self) -> str:
        return self.name_msg.render("en")

    @property
    def name_ja(self) -> str:
        return self.name_msg.render("ja")

    def description(self) -> Msg:
        """The hand in words: ``flush, A-K-J-T-6`` / ``フラッシュ A-K-J-T-6``."""
        return _("{hand}, {ranks}", hand=self.name_msg, ranks=self.ranks_text)

    def describe(self) -> str:
        """``'flush, A-K-J-T-6'``."""
        return self.description().render("en")

    def describe_ja(self) -> str:
        """``'フラッシュ A-K-J-T-6'``."""
        return self.description().render("ja")

    def __lt__(self, other: "HandValue") -> bool:
        return self.key < other.key

    def __le__(self, other: "HandValue") -> bool:
        return self.key <= other.key

    def __gt__(self, other: "HandValue") -> bool:
        return self.key > other.key

    def __ge__(self, other: "HandValue") -> bool:
        return self.key >= other.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"<HandValue {self.describe()} [{format_cards(self.best_five)}]>"


def hand_key(cards: Sequence[Card]) -> int:
    """:func:`evaluate_key` for :class:`Card` objects."""
    return evaluate_key([c.index for c in cards])


def _pick_five(cards: Sequence[Card], key: int) -> tuple[Card, ...]:
    """The five cards among ``cards`` that make ``key`` (strongest group first, spades first)."""
    category, ranks = _unpack(key)
    pool = sorted(cards, key=lambda c: (c.rank, c.suit), reverse=True)
    if category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
        suits = {}
        for c in pool:
            suits.setdefault(c.suit, []).append(c)
        pool = max(suits.values(), key=len)
    out: list[Card] = []
    used: set[Card] = set()
    for r in ranks:
        want = 14 if r == LOW_ACE else r
        for c in pool:
            if c.rank == want and c not in used:
                out.append(c)
                used.add(c)
                break
    return tuple(out)


def evaluate(cards: Iterable[Card]) -> HandValue:
    """Evaluate 5 to 7 distinct cards (no joker) as a high hand.

    >>> evaluate(parse_cards("As Ks"))
    Traceback (most recent call last):
    ...
    dealer_assist.cards.CardError: a hand is 5 to 7 cards, got 2: As Ks
    """
    cards = tuple(cards)
    if not 5 <= len(cards) <= 7:
        raise CardError(_("a hand is 5 to 7 cards, got {n}: {cards}", n=len(cards), cards=format_cards(cards)),
                        cards)
    if any(c.is_joker for c in cards):
        raise CardError(_("evaluate() takes no joker: the game decides what a joker stands for"), cards)
    if len(set(cards)) != len(cards):
        raise CardError(_("a hand cannot hold the same card twice: {cards}", cards=format_cards(cards)), cards)
    key = evaluate_key([c.index for c in cards])
    return HandValue(key, _pick_five(cards, key))


def best_of(cards: Sequence[Card], *, choose: int = 5, fixed: Sequence[Card] = ()) -> HandValue:
    """Best five from ``fixed`` plus ``choose - len(fixed)`` of ``cards`` (games that force cards).

    >>> best_of(parse_cards("Ks Js 6s 4d 2c"), fixed=parse_cards("Ts As")).describe()
    'flush, A-K-J-T-6'
    """
    fixed = tuple(fixed)
    need = choose - len(fixed)
    best: Optional[HandValue] = None
    for combo in itertools.combinations(cards, need):
        five = fixed + combo
        key = evaluate_key([c.index for c in five])
        if best is None or key > best.key:
            best = HandValue(key, five)
    if best is None:
        raise CardError(_("cannot make a five-card hand from {cards}", cards=format_cards(fixed + tuple(cards))))
    return HandValue(best.key, best.best_five)
