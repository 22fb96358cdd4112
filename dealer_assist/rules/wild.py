"""Wild cards on high-hand games (seed 004): named ranks and/or the joker stand for any card.

A table names its wild cards with ``"wild"``: a list of ranks (``"2"``, ``"T"`` or ``"10"``) and/or
``"JK"`` (which adds the joker to the deck: 53 cards).  Every card of a wild rank is wild, wherever
it lies (hole or board).  Seed 004: a wild card can be used in place of any card, and with wild
cards five of a kind is the top hand.

How a wild card is read (docs/showdown-games.md): it becomes the card that makes the best hand;
within one hand two wild cards stand for two different cards, and never for a natural card of the
same five, except that five of a kind needs a fifth card of a rank (its suit then repeats).  It may
be a card another seat holds.

The search runs on top of :func:`~dealer_assist.rules.evaluator.evaluate_key` (no second
evaluator): five of a kind is checked first, then only stand-ins that can matter are tried --
ranks that pair a natural card, complete a straight, or are the highest free kickers, in any
suit, and, where a flush is within reach, cards of that suit.  ``tests/test_lowball_hilo_wild.py``
checks the pruning against trying every card.

>>> v = best_wild_hand(parse_cards("8c 8d 2h As Kd"), WildSpec(frozenset({2}), False))
>>> v.describe(), [f"{w}={s}" for w, s in v.wild_as]
('three of a kind, 8-8-8-A-K (wild: 2h=8s)', ['2h=8s'])
>>> best_wild_hand(parse_cards("9s 9h 9d 9c JK"), WildSpec(frozenset(), True)).describe()
'five of a kind, 9-9-9-9-9 (wild: JK=9s)'
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Sequence

from dealer_assist.i18n import Msg, _, _p, join, typed
from dealer_assist.cards import DECK_52, DECK_53, JOKER, Card, CardError, Rank, format_cards, parse_cards
from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.evaluator import Category, HandValue, _pack, _pick_five, evaluate_key
from dealer_assist.rules.holdem import Holdem
from dealer_assist.rules.showdown import SeatHand, SeatInput, Table

__all__ = ["WildSpec", "NO_WILD", "parse_wild", "WildValue", "best_wild_hand", "wild_key", "WildCards",
           "WildHoldem"]

_SUITS_HIGH_FIRST = (3, 2, 1, 0)          # spades, hearts, diamonds, clubs
# Rank-index windows (rank - 2) of the ten straights, the wheel last.
_WINDOWS = [tuple(range(top - 4, top + 1)) for top in range(12, 3, -1)] + [(12, 0, 1, 2, 3)]


@dataclass(frozen=True, slots=True)
class WildSpec:
    """Which cards are wild: ``ranks`` (2..14) and whether the joker is (and is in the deck)."""

    ranks: frozenset
    joker: bool

    def __bool__(self) -> bool:
        return bool(self.ranks) or self.joker

    def is_wild(self, card: Card) -> bool:
        return card.is_joker if card.rank is None else card.rank in self.ranks

    def text(self) -> str:
        names = [Rank(r).symbol for r in sorted(self.ranks, reverse=True)]
        return ", ".join((["JK"] if self.joker else []) + names)


NO_WILD = WildSpec(frozenset(), False)


def parse_wild(value: Any) -> WildSpec:
    """Read ``"wild"``: a list of rank symbols and/or ``"JK"``; ``null`` or ``[]`` is no wild card.

    >>> parse_wild(["2", "JK"]).text(), parse_wild(["10"]).text()
    ('JK, 2', 'T')
    >>> parse_wild(["2s"])
    Traceback (most recent call last):
    ...
    dealer_assist.rules.errors.RuleError: wild: '2s' is not a rank or JK: name wild ranks without a suit, e.g. ["2"] (every deuce is wild) or ["JK"]
    """
    if value is None:
        return NO_WILD
    if not isinstance(value, list):
        raise RuleError(_("expected a list such as [\"2\"] or [\"JK\"], got {got}", got=typed(value)), field="wild")
    ranks: set = set()
    joker = False
    for token in value:
        if isinstance(token, str) and token.strip().upper() in ("JK", "JOKER"):
            if joker:
                raise RuleError(_("JK is listed twice"), field="wild")
            joker = True
            continue
        try:
            rank = Rank.parse(token.strip()) if isinstance(token, str) else None
        except CardError:
            rank = None
        if rank is None:
            raise RuleError(_("{token} is not a rank or JK: name wild ranks without a suit, e.g. "
                              "[\"2\"] (every deuce is wild) or [\"JK\"]", token=typed(token)), field="wild")
        if int(rank) in ranks:
            raise RuleError(_("rank {rank} is listed twice", rank=rank.symbol), field="wild")
        ranks.add(int(rank))
    return WildSpec(frozenset(ranks), joker)


def wild_key(real: Sequence[int], wilds: int) -> tuple[int, tuple[int, ...]]:
    """Best high key of natural cards (by index) plus ``wilds`` wild cards, 5 to 7 cards in all.

    Returns the key and the stand-ins (card indices, one per wild, best first).  Five of a kind
    repeats a suit where the natural cards hold all four.

    >>> key, stand = wild_key([c.index for c in parse_cards("Ks Qs Js Ts 3d")], 1)
    >>> HandValue(key, ()).describe(), [str(Card.from_index(i)) for i in stand]
    ('royal flush, A-K-Q-J-T', ['As'])
    """
    if wilds == 0:
        return evaluate_key(real), ()
    counts = [0] * 13
    suit_count = [0] * 4
    taken = set(real)
    for i in real:
        counts[i >> 2] += 1
        suit_count[i & 3] += 1
    for r in range(12, -1, -1):                       # five of a kind beats everything
        if counts[r] + wilds >= 5 and (counts[r] or wilds >= 5):
            need = 5 - counts[r]
            free = [4 * r + s for s in _SUITS_HIGH_FIRST if 4 * r + s not in taken]
            stand = (free + [4 * r + 3] * 5)[:need] + [4 * r + 3] * (wilds - need)
            return _pack(Category.FIVE_OF_A_KIND, (r + 2,) * 5), tuple(stand[:wilds])
    best_key, best_stand = -1, ()
    present = {r for r in range(13) if counts[r]}
    candidates = set(present)
    for window in _WINDOWS:
        if sum(1 for r in window if counts[r]) + wilds >= 5:
            candidates.update(window)
    candidates.update([r for r in range(12, -1, -1) if not counts[r]][:wilds])
    for combo in itertools.combinations_with_replacement(sorted(candidates, reverse=True), wilds):
        stand: list[int] = []
        used = set(taken)
        for r in combo:
            card = next((4 * r + s for s in _SUITS_HIGH_FIRST if 4 * r + s not in used), None)
            if card is None:           # all four of the rank already in play: no better than others
                break
            used.add(card)
            stand.append(card)
        else:
            key = evaluate_key(list(real) + stand)
            if key > best_key:
                best_key, best_stand = key, tuple(stand)
    for f in range(4):                                # flushes: every wild in the suit
        if suit_count[f] + wilds < 5:
            continue
        own = {i >> 2 for i in real if i & 3 == f}
        cands = set()
        for window in _WINDOWS:
            if sum(1 for r in window if r in own) + wilds >= 5:
                cands.update(r for r in window if r not in own)
        cands.update([r for r in range(12, -1, -1) if r not in own][:wilds])
        for combo in itertools.combinations(sorted(cands, reverse=True), wilds):
            stand = [4 * r + f for r in combo]
            key = evaluate_key(list(real) + stand)
            if key > best_key:
                best_key, best_stand = key, tuple(stand)
    return best_key, best_stand


@dataclass(frozen=True, slots=True)
class WildValue:
    """A high hand with wild cards: ``best_five`` shows the wild cards themselves, ``wild_as``
    says what each wild card in the five stands for (wild cards outside the five are unused)."""

    key: int
    best_five: tuple[Card, ...]
    wild_as: tuple[tuple[Card, Card], ...]

    @property
    def value(self) -> HandValue:
        return HandValue(self.key, self.best_five)

    def description(self) -> Msg:
        """``five of a kind, 9-9-9-9-9 (wild: JK=9s)`` / ``ファイブカード 9-9-9-9-9（ワイルド: JK=9s）``."""
        base = self.value.description()
        if not self.wild_as:
            return base
        return _("{hand} (wild: {cards})", hand=base,
                 cards=join([f"{w}={s}" for w, s in self.wild_as], _p("wild cards", ", ")))

    def describe(self) -> str:
        return self.description().render("en")

    def describe_ja(self) -> str:
        return self.description().render("ja")


def best_wild_hand(cards: Sequence[Card], wild: WildSpec) -> WildValue:
    """The best high hand of 5 to 7 cards where the cards ``wild`` names are wild."""
    cards = tuple(cards)
    if not 5 <= len(cards) <= 7:
        raise CardError(_("a hand is 5 to 7 cards, got {n}: {cards}", n=len(cards), cards=format_cards(cards)),
                        cards)
    naturals = [c for c in cards if not wild.is_wild(c)]
    # The joker first, then the wild ranks high to low, so the report reads the same every time.
    wilds = sorted((c for c in cards if wild.is_wild(c)), key=lambda c: -c.index)
    key, stand = wild_key([c.index for c in naturals], len(wilds))
    stand_cards = [DECK_52[i] for i in stand]
    if key >> 20 == Category.FIVE_OF_A_KIND:
        rank = (key >> 16) & 15
        natural = [c for c in naturals if c.rank == rank]
        used = wilds[:5 - len(natural)]
        five = tuple(natural) + tuple(used)
        return WildValue(key, five, tuple(zip(used, stand_cards)))
    pool = naturals + stand_cards
    chosen = _pick_five(pool, key)
    by_stand = dict(zip(stand_cards, wilds))
    five = tuple(by_stand.get(c, c) for c in chosen)
    wild_as = tuple((by_stand[c], c) for c in chosen if c in by_stand)
    return WildValue(key, five, wild_as)


def wild_of(table: Table) -> WildSpec:
    return parse_wild(table.extra.get("wild"))


class WildCards:
    """Mixin for a high-hand :class:`~dealer_assist.rules.showdown.ShowdownGame`: adds ``"wild"``.

    Without ``"wild"`` the game plays exactly as its base.  ``hand_cards`` (hook) names the cards
    a seat makes its hand from.
    """

    def deck_for(self, table: Table):
        if wild_of(table).joker:
            return DECK_53, 1
        return super().deck_for(table)

    def hand_cards(self, table: Table, seat: SeatInput) -> tuple[Card, ...]:
        return seat.hole + table.board

    def seat_hand(self, table: Table, seat: SeatInput) -> SeatHand:
        spec = wild_of(table)
        if not spec:
            return super().seat_hand(table, seat)
        v = best_wild_hand(self.hand_cards(table, seat), spec)
        value = v.value
        joker_as = next((s for w, s in v.wild_as if w.is_joker), None)
        notes = (("wild_as", {str(w): str(s) for w, s in v.wild_as}),)
        return SeatHand(seat.seat, v.key, value.category.slug, value.name_msg, v.best_five,
                        v.description(), joker_as, JOKER in seat.hole, notes)


class WildHoldem(WildCards, Holdem):
    """Texas hold'em with optional wild cards (``"game": "holdem", "wild": ["2"]``).

    >>> r = WildHoldem().settle({"game": "holdem", "wild": ["JK"], "board": ["9s","9h","9d","Kc","2c"],
    ...     "button": 1, "seats": [{"seat": 1, "hole": ["JK","9c"], "committed": 10},
    ...                            {"seat": 2, "hole": ["Ks","Qs"], "committed": 10}]})
    >>> r.payouts, r.hands[1].text
    ({1: 20, 2: 0}, 'five of a kind, 9-9-9-9-9 (wild: JK=9s)')
    """

    extra_fields = Holdem.extra_fields + ("wild",)
