"""Half Texas Hold'em (ハーフテキサスホールデム), seed 001: the whole game, pure.

A 26-card deck (one black suit and one red suit, A to K each; default ♠ and ♥),
hands nobody may look at, card-location calls, raises that multiply the game's
points, a "change" with a dropped seat's hand, colour points (BP and RP) instead
of chips, forced dropout at 0, and a final score of BP x RP.  The points the
seed leaves open are read as ``RULINGS.md`` and ``docs/half-texas.md`` say.

The module has four layers, each usable on its own:

* the ranking: :func:`rank_five`, :func:`best_hand` (twin tower, the
  "more black" choice among equal fives);
* the points of one game: :func:`score_game` (winner, losers, ties, the raise
  multiplier) and :class:`Points` (the 0 floor and forced dropout);
* one game as a state machine: :class:`Game` (deal, call, fold, raise, change,
  the three ways action ends, the showdown);
* the session: :class:`Session` (the button going round twice, three dropouts,
  final standings and the casino-war instruction), and :class:`HalfTexas`, the
  ``settle`` interface.

>>> c = Colors()
>>> h = best_hand(parse_cards("As Ah 2s 2h 3s 3h 9h"), c)
>>> h.category.label, format_cards(h.five), h.black, h.red
('twin tower', 'As Ah 2s 3s 3h', 3, 2)
>>> s = score_game(parse_cards("As Ah 2s 2h 3s"), {1: parse_cards("3h 9h"), 2: parse_cards("Ks Qh")})
>>> s.winners, s.changes[1], s.changes[2]
((1,), (3, 2), (0, -2))
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, ClassVar, Iterable, Mapping, Optional, Sequence

from dealer_assist.cards import Card, CardError, Rank, Suit, format_cards, parse_card, parse_cards, place_words
from dealer_assist.i18n import (Text, _, _n, _p, both, capitalized, join, message_of, seat_list, street as street_word,
                                typed)
from dealer_assist.rules.errors import RuleError

__all__ = [
    "Colors", "Category", "Hand", "rank_five", "best_hand", "parse_call",
    "Points", "GameScore", "score_game", "illegal",
    "Role", "Status", "Phase", "Location", "SeatState", "Event", "Game",
    "Player", "Session", "Standing", "Standings", "casino_war", "HalfTexas", "HalfTexasRuling", "LiveGame",
    "TableSeat",
    "DEFAULT_POINTS", "TABLE_SEATS", "SLIDE_MAX", "BURNS_TO_SHOW",
]

#: Points each player starts with: 10 BP and 10 RP (seed §5).
DEFAULT_POINTS = 10
#: Seats at the table.  26 cards = 2 x 6 seats + 5 board + 9 burn cards (seed §2).
TABLE_SEATS = 6
#: The button player's slide call: 0 to 9 cards from the top go to the bottom (seed §2).
SLIDE_MAX = 9
#: Burn cards that must be open before the button's action ends the action (seed §3).
BURNS_TO_SHOW = 3
#: Button rounds, and dropouts, that end a session (seed §1).
ROUNDS_PER_SESSION = 2
DROPOUTS_TO_END = 3


def illegal(why: Text, *, field: Optional[str] = None, seat: Optional[int] = None) -> RuleError:
    """A :class:`RuleError` saying ``why`` (a catalogue message): English as ``str``, Japanese
    with ``says("ja")`` (``reason_en`` and ``reason_ja`` too), as every rule engine's errors.

    >>> e = illegal(_("this seat has folded and cannot act"), seat=2)
    >>> str(e), e.says("ja")
    ('seat 2: this seat has folded and cannot act', 'シート2: フォールド済みのためアクションできません')
    """
    en, ja = both(why)
    err = RuleError(why, field=field, seat=seat)
    err.reason_en = en
    err.reason_ja = ja
    return err


#: A suit as a sign: ``s`` / ``♠``.
_SUIT_SIGN = {Suit.SPADES: _p("suit sign", "s"), Suit.HEARTS: _p("suit sign", "h"),
              Suit.DIAMONDS: _p("suit sign", "d"), Suit.CLUBS: _p("suit sign", "c")}
#: A suit as the dealer calls it in Half Texas: ``s`` / ``黒``.
_SUIT_COLOUR = {Suit.SPADES: _p("half texas colour", "s"), Suit.HEARTS: _p("half texas colour", "h"),
                Suit.DIAMONDS: _p("half texas colour", "d"), Suit.CLUBS: _p("half texas colour", "c")}


def _card_sign(card: Card) -> Text:
    """``8d`` / ``8♦``."""
    return _p("card sign", "{rank}{suit}", rank=card.rank.symbol, suit=_SUIT_SIGN[card.suit])


def _card_call(card: Card) -> Text:
    """A card as the dealer calls it: ``8s`` / ``黒8`` (the colour, then the rank)."""
    return _p("half texas card", "{rank}{suit}", rank=card.rank.symbol, suit=_SUIT_COLOUR[card.suit])


def _card_calls(cards: Sequence[Card]) -> Text:
    """``Ts 2h`` / ``黒T・赤2``."""
    return join([_card_call(c) for c in cards], _p("half texas cards", " "))


# --------------------------------------------------------------------------- the deck

_BLACK_SUITS = (Suit.SPADES, Suit.CLUBS)
_RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)


@dataclass(frozen=True, slots=True)
class Colors:
    """Which suit is "black" and which is "red" at this table (default ♠ and ♥).

    >>> Colors(Suit.CLUBS, Suit.DIAMONDS).deck[:3], len(Colors().deck)
    ((Card('Ac'), Card('2c'), Card('3c')), 26)
    >>> Colors(Suit.HEARTS, Suit.SPADES)
    Traceback (most recent call last):
    ...
    dealer_assist.rules.errors.RuleError: colors: the black suit must be s or c, not h
    """

    black: Suit = Suit.SPADES
    red: Suit = Suit.HEARTS

    def __post_init__(self) -> None:
        if self.black not in _BLACK_SUITS:
            raise illegal(_("the black suit must be s or c, not {suit}", suit=_SUIT_SIGN[Suit(self.black)]),
                          field="colors")
        if self.red not in _RED_SUITS:
            raise illegal(_("the red suit must be h or d, not {suit}", suit=_SUIT_SIGN[Suit(self.red)]),
                          field="colors")

    @property
    def deck(self) -> tuple[Card, ...]:
        """The 26 cards: black A, 2, ..., K, then red A, 2, ..., K."""
        order = [Rank.ACE] + [Rank(r) for r in range(2, 14)]
        return tuple(Card(r, s) for s in (self.black, self.red) for r in order)

    def is_black(self, card: Card) -> bool:
        return card.suit == self.black

    def in_deck(self, card: Card) -> bool:
        return card.suit in (self.black, self.red)

    def card(self, black: bool, rank: Rank) -> Card:
        return Card(Rank(rank), self.black if black else self.red)

    def check(self, card: Card, *, field: Optional[str] = None, seat: Optional[int] = None) -> Card:
        """``card`` if it is one of the 26, else a :class:`RuleError` saying which deck this is."""
        if card.is_joker:
            raise illegal(_("Half Texas is played without a joker"), field=field, seat=seat)
        if not self.in_deck(card):
            raise illegal(_("{card} is not in the 26-card deck (black {black}, red {red})", card=_card_sign(card),
                            black=_SUIT_SIGN[self.black], red=_SUIT_SIGN[self.red]), field=field, seat=seat)
        return card

    def name_ja(self, card: Card) -> str:
        """The dealer's name of a card: ``'黒8'``, ``'赤K'``."""
        return both(_card_call(card))[1]

    @classmethod
    def read(cls, obj: Any) -> "Colors":
        """From ``{"black": "s", "red": "h"}`` (either key may be left out)."""
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping) or set(obj) - {"black", "red"}:
            raise RuleError(_('expected {"black": "s" or "c", "red": "h" or "d"}'), field="colors")
        try:
            black = Suit.parse(obj.get("black", "s"))
            red = Suit.parse(obj.get("red", "h"))
        except CardError as exc:
            raise RuleError(message_of(exc), field="colors") from None
        return cls(black, red)


def parse_call(text: str, colors: Colors = Colors()) -> Card:
    """The card a player names in a location call: ``'黒8'``, ``'赤K'``, ``'♥K'``, ``'black 10'``, ``'8s'``.

    >>> parse_call("黒8"), parse_call("♥K"), parse_call("red 10"), parse_call("K♥")
    (Card('8s'), Card('Kh'), Card('Th'), Card('Kh'))
    >>> parse_call("黒8", Colors(Suit.CLUBS, Suit.DIAMONDS))
    Card('8c')
    >>> parse_call("8d")
    Traceback (most recent call last):
    ...
    dealer_assist.rules.errors.RuleError: call: 8d is not in the 26-card deck (black s, red h)
    """
    if isinstance(text, Card):
        return colors.check(text, field="call")
    if not isinstance(text, str):
        raise RuleError(_("a call names a card, such as 黒8 or ♥K, not {text}", text=typed(text)), field="call")
    t = text.strip().replace(" ", "")
    low = t.lower()
    for words, black in ((("黒", "black", "b"), True), (("赤", "red", "r"), False)):
        for w in words:
            if low.startswith(w) and len(low) > len(w):
                try:
                    return colors.card(black, Rank.parse(t[len(w):]))
                except CardError:
                    break
    if t[:1] in "♠♥♦♣♤♡♢♧" and len(t) > 1:
        t = t[1:] + t[0]
    try:
        card = parse_card(t)
    except CardError:
        raise illegal(_("{text} is not a card call: say a colour and a rank (黒8, 赤K) or a card (♥K, 8s)",
                        text=typed(text)), field="call") from None
    return colors.check(card, field="call")


# --------------------------------------------------------------------------- the ranking

class Category(enum.IntEnum):
    """Hand categories, weakest first (seed §7: ① > ② > ... > ⑦)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    FLUSH = 2
    TWO_PAIR = 3
    STRAIGHT = 4
    TWIN_TOWER = 5
    STRAIGHT_FLUSH = 6

    @property
    def slug(self) -> str:
        """``'twin_tower'``: the name in JSON (as the other games' ``category``: ``'one_pair'``)."""
        return self.name.lower()

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")

    @property
    def words(self) -> Text:
        return _CATEGORY_WORDS[self]

    @property
    def ja(self) -> str:
        return both(_CATEGORY_WORDS[self])[1]


_CATEGORY_WORDS = {
    Category.HIGH_CARD: _("high card"), Category.ONE_PAIR: _("one pair"), Category.FLUSH: _("flush"),
    Category.TWO_PAIR: _("two pair"), Category.STRAIGHT: _("straight"),
    Category.TWIN_TOWER: _("twin tower"), Category.STRAIGHT_FLUSH: _("straight flush"),
}


def _high(r: int) -> int:
    """Rank value with the ace as 14 (``1`` stands for the low ace in sequences)."""
    return 14 if r == 1 else r


def _straight_top(ranks: set) -> Optional[int]:
    """Top of a five-card run (A-2-3-4-5 tops at 5); K-A-2 never connects."""
    if len(ranks) != 5:
        return None
    if max(ranks) - min(ranks) == 4:
        return max(ranks)
    if ranks == {14, 2, 3, 4, 5}:
        return 5
    return None


def _twin_tower_top(pairs: Sequence[int], single: int) -> Optional[int]:
    """Top of pair-single-pair on three consecutive ranks: A-A-2-3-3 -> 3, Q-Q-K-A-A -> 14."""
    for low in range(1, 13):                      # 1 = the low ace; 12 = Q-K-A; K-A-2 has no start
        if {_high(low), _high(low + 2)} == set(pairs) and single == _high(low + 1):
            return _high(low + 2)
    return None


def rank_five(cards: Sequence[Card], colors: Colors = Colors()) -> tuple[Category, tuple[int, ...]]:
    """The strength of five cards as ``(category, ranks)``: larger tuples are stronger.

    Only the ranks (and for flushes the colour) count; no colour breaks a tie.

    >>> rank_five(parse_cards("As Ah 2s 3s 3h"))
    (<Category.TWIN_TOWER: 5>, (3,))
    >>> rank_five(parse_cards("Ks Kh As 2s 2h"))[0].label   # K-A-2 is a tunnel, not a tower
    'two pair'
    >>> rank_five(parse_cards("Js Qs Ks As 2s"))[0].label
    'flush'
    """
    if len(cards) != 5:
        raise RuleError(_("a hand is five cards, got {n}", n=len(cards)))
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    if len(set(cards)) != 5 or max(counts.values()) > 2:
        raise RuleError(_("{cards} cannot come from the 26-card deck (each rank once per colour)",
                          cards=format_cards(cards)))
    flush = len({colors.is_black(c) for c in cards}) == 1
    top = _straight_top(set(ranks))
    if top is not None:
        return (Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT), (top,)
    pairs = sorted((r for r, n in counts.items() if n == 2), reverse=True)
    singles = sorted((r for r, n in counts.items() if n == 1), reverse=True)
    if len(pairs) == 2:
        tower = _twin_tower_top(pairs, singles[0])
        if tower is not None:
            return Category.TWIN_TOWER, (tower,)
        return Category.TWO_PAIR, (pairs[0], pairs[1], singles[0])
    if flush:
        return Category.FLUSH, tuple(ranks)
    if pairs:
        return Category.ONE_PAIR, (pairs[0], *singles)
    return Category.HIGH_CARD, tuple(ranks)


@dataclass(frozen=True, slots=True)
class Hand:
    """A seat's best five of seven, the two left out, and the colour counts of the five."""

    category: Category
    ranks: tuple[int, ...]
    five: tuple[Card, ...]
    unused: tuple[Card, ...]
    black: int
    red: int

    @property
    def key(self) -> tuple[int, tuple[int, ...]]:
        return (int(self.category), self.ranks)

    def description(self) -> Text:
        return _("{hand} {ranks} ({black} black, {red} red)", hand=self.category.words,
                 ranks=_rank_line(self.five), black=self.black, red=self.red)

    def describe(self) -> str:
        """``'twin tower A-A-2-3-3 (3 black, 2 red)'``."""
        return both(self.description())[0]

    def describe_ja(self) -> str:
        return both(self.description())[1]

    def to_json(self) -> dict:
        return {
            "category": self.category.slug,
            "category_ja": self.category.ja,
            "best_five": [str(c) for c in self.five],
            "unused": [str(c) for c in self.unused],
            "black": self.black,
            "red": self.red,
            "description": self.describe(),
            "description_ja": self.describe_ja(),
        }


def _rank_line(cards: Sequence[Card]) -> str:
    return "-".join(c.rank.symbol for c in cards)


def _display_order(cards: Sequence[Card], category: Category, ranks: tuple[int, ...],
                   colors: Colors) -> tuple[Card, ...]:
    """Runs and towers low to high as the seed writes them (A2345, 889TT); else pairs first, high first."""
    black_first = lambda c: (not colors.is_black(c),)  # noqa: E731
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.TWIN_TOWER):
        low_ace = ranks[0] in (5, 3)     # A-2-3-4-5 and A-A-2-3-3 play the ace low
        value = lambda c: 1 if (low_ace and c.rank == Rank.ACE) else int(c.rank)  # noqa: E731
        return tuple(sorted(cards, key=lambda c: (value(c), black_first(c))))
    count = {r: sum(1 for c in cards if c.rank == r) for r in {c.rank for c in cards}}
    return tuple(sorted(cards, key=lambda c: (-count[c.rank], -int(c.rank), black_first(c))))


def best_hand(cards: Sequence[Card], colors: Colors = Colors()) -> Hand:
    """The best five of the seven (two hole + five board) cards.

    Among equally strong fives the one with more black cards is the hand
    (seed §4: A A K K J J 9 plays A A K K and the black J).

    >>> h = best_hand(parse_cards("As Ah Ks Kh Js Jh 9s"))
    >>> format_cards(h.five), h.black, h.red, format_cards(h.unused)
    ('As Ah Ks Kh Js', 3, 2, 'Jh 9s')
    """
    cards = tuple(cards)
    if len(cards) < 5:
        raise RuleError(_("a hand needs at least five cards, got {n}", n=len(cards)))
    for c in cards:
        colors.check(c)
    if len(set(cards)) != len(cards):
        raise RuleError(_("the same card twice in {cards}", cards=format_cards(cards)))
    ordered = sorted(cards, key=lambda c: (-int(c.rank), not colors.is_black(c)))
    best: Optional[tuple] = None
    for five in combinations(ordered, 5):
        cat, ranks = rank_five(five, colors)
        black = sum(1 for c in five if colors.is_black(c))
        score = (int(cat), ranks, black)
        if best is None or score > best[0]:
            best = (score, cat, ranks, five, black)
    _key, cat, ranks, five, black = best
    unused = tuple(c for c in ordered if c not in five)
    return Hand(cat, ranks, _display_order(five, cat, ranks, colors), unused, black, 5 - black)


# --------------------------------------------------------------------------- points of one game

@dataclass(frozen=True, slots=True)
class Points:
    """A player's BP and RP.  Points stop at 0; 0 of either colour is a forced dropout.

    >>> p = Points(3, 1).apply(-4, -2)
    >>> p, p.dropped, p.final
    (Points(bp=0, rp=0), True, 0)
    """

    bp: int = DEFAULT_POINTS
    rp: int = DEFAULT_POINTS

    def __post_init__(self) -> None:
        for name, v in (("bp", self.bp), ("rp", self.rp)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise RuleError(_("points are whole numbers >= 0, got {value}", value=typed(v)), field=name)

    @property
    def dropped(self) -> bool:
        return self.bp == 0 or self.rp == 0

    @property
    def final(self) -> int:
        """The final score: BP x RP (seed §6)."""
        return self.bp * self.rp

    def apply(self, dbp: int, drp: int) -> "Points":
        return Points(max(0, self.bp + dbp), max(0, self.rp + drp))


@dataclass(frozen=True, slots=True)
class GameScore:
    """The outcome of one game, before the 0 floor: who won and each seat's (BP, RP) change.

    ``changes`` has every seat given to :func:`score_game`; folded seats change by (0, 0).
    """

    multiplier: int
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    folded: tuple[int, ...]
    hands: Mapping[int, Hand]
    changes: Mapping[int, tuple[int, int]]
    by_folds: bool
    explanation: tuple[str, ...]
    explanation_ja: tuple[str, ...]

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    def applied(self, points: Mapping[int, Points]) -> tuple[dict[int, Points], dict[int, tuple[int, int]],
                                                            list[str], list[str]]:
        """New points after the 0 floor, the changes that really happened, and notes on floors and dropouts."""
        new: dict[int, Points] = {}
        actual: dict[int, tuple[int, int]] = {}
        said: list = []
        for seat in sorted(self.changes):
            old = points[seat]
            dbp, drp = self.changes[seat]
            p = old.apply(dbp, drp)
            new[seat] = p
            actual[seat] = (p.bp - old.bp, p.rp - old.rp)
            if actual[seat] != (dbp, drp):
                said.append(_("Seat {seat} had {bp} BP {rp} RP: points stop at 0, so it loses only {lbp} BP "
                              "{lrp} RP.", seat=seat, bp=old.bp, rp=old.rp, lbp=-actual[seat][0],
                              lrp=-actual[seat][1]))
            if p.dropped and not old.dropped:
                colour = ("BP" if p.rp else "RP" if p.bp else _p("points", "BP and RP"))
                said.append(_("Seat {seat} has no {colour} left: forced dropout. From the next game its seat "
                              "gets a face-down swap hand.", seat=seat, colour=colour))
        en, ja = list(both(x)[0] for x in said), list(both(x)[1] for x in said)
        return new, actual, en, ja


def score_game(board: Sequence[Card], holes: Mapping[int, Sequence[Card]], *, folded: Iterable[int] = (),
               raises: int = 0, colors: Colors = Colors()) -> GameScore:
    """Score a finished game (seed §4): colour points to the best hand, losses to the others.

    ``holes`` maps every seat still in the game (and optionally folded seats) to its two cards;
    ``folded`` seats neither gain nor lose.  Each raise multiplies every change (x2, x3, ...).
    A sole winner gains the colour counts of its best five; each other seat loses the colour
    counts of the two cards of the winner's seven the five left out.  Two or more best hands:
    each +1 BP +1 RP, each other seat -1 BP -1 RP.

    >>> s = score_game(parse_cards("8s 8h 9s Ts 2h"),
    ...                {1: parse_cards("Th 3h"), 2: parse_cards("As Ah"), 3: parse_cards("Ks Kh")}, raises=1)
    >>> s.multiplier, s.winners, dict(s.changes)
    (2, (1,), {1: (6, 4), 2: (0, -4), 3: (0, -4)})
    """
    board = tuple(board)
    folded_set = frozenset(folded)
    if isinstance(raises, bool) or not isinstance(raises, int) or raises < 0:
        raise RuleError(_("raises is a whole number >= 0, got {raises}", raises=typed(raises)), field="raises")
    live = sorted(s for s in holes if s not in folded_set)
    if not live:
        raise illegal(_("every seat folded: one seat must still be in the game"), field="folded")
    if raises > len(live):
        raise illegal(_("{raises} raises but only {live} seat(s) still in the game: a raiser can raise once and "
                        "cannot fold", raises=raises, live=len(live)), field="raises")
    m = raises + 1
    hands = {s: best_hand(tuple(holes[s]) + board, colors) for s in live}
    best = max(h.key for h in hands.values())
    winners = tuple(s for s in live if hands[s].key == best)
    losers = tuple(s for s in live if s not in winners)
    changes: dict[int, tuple[int, int]] = {s: (0, 0) for s in sorted(set(holes) | folded_set)}
    said: list = []
    by_folds = len(live) == 1
    mult = _n(" (x{m}: {n} raise)", " (x{m}: {n} raises)", raises, m=m, n=raises) if raises else ""
    if by_folds:
        said.append(_("Everyone else folded: seat {seat} wins without a showdown.", seat=live[0]))
    for s in live:
        said.append(_("Seat {seat}: {hand}.", seat=s, hand=hands[s].description()))
    if len(winners) == 1:
        w = hands[winners[0]]
        changes[winners[0]] = (m * w.black, m * w.red)
        said.append(_("Seat {seat} wins and gains the colours of its five: +{bp} BP +{rp} RP{mult}.",
                      seat=winners[0], bp=m * w.black, rp=m * w.red, mult=mult))
        ub = sum(1 for c in w.unused if colors.is_black(c))
        ur = len(w.unused) - ub
        for s in losers:
            changes[s] = (-m * ub, -m * ur)
        if len(losers) == 1:
            said.append(_("{seats} loses the colours of the two cards the winner did not use ({cards}): "
                          "{bp} BP {rp} RP{mult}.", seats=capitalized(seat_list(losers)), cards=_card_calls(w.unused),
                          bp=_loss(m * ub), rp=_loss(m * ur), mult=mult))
        elif losers:
            said.append(_("{seats} lose the colours of the two cards the winner did not use ({cards}): "
                          "{bp} BP {rp} RP each{mult}.", seats=capitalized(seat_list(losers)),
                          cards=_card_calls(w.unused), bp=_loss(m * ub), rp=_loss(m * ur), mult=mult))
    else:
        for s in winners:
            changes[s] = (m, m)
        for s in losers:
            changes[s] = (-m, -m)
        said.append(_("{seats} tie for the best hand: +{m} BP +{m} RP each{mult}.",
                      seats=capitalized(seat_list(winners)), m=m, mult=mult))
        if len(losers) == 1:
            said.append(_("{seats} loses {m} BP {m} RP each.", seats=capitalized(seat_list(losers)), m=m))
        elif losers:
            said.append(_("{seats} lose {m} BP {m} RP each.", seats=capitalized(seat_list(losers)), m=m))
    out_folded = tuple(sorted(s for s in changes if s in folded_set))
    if out_folded:
        said.append(_("{seats} folded: no points change.", seats=capitalized(seat_list(out_folded))))
    en, ja = tuple(both(x)[0] for x in said), tuple(both(x)[1] for x in said)
    return GameScore(m, winners, losers, out_folded, hands, changes, by_folds, en, ja)


def _loss(points: int) -> str:
    """Points lost as a ruling says them: ``-8``, and ``0`` where none are (not ``-0``).

    >>> _loss(8), _loss(0)
    ('-8', '0')
    """
    return f"-{points}" if points else "0"


def _names_ja(cards: Sequence[Card], colors: Colors) -> str:
    return both(_card_calls(cards))[1]


# --------------------------------------------------------------------------- one game

_ACTIONS = {"call": _p("half texas action", "call"), "fold": _p("half texas action", "fold"),
            "raise": _p("half texas action", "raise"), "change": _p("half texas action", "change")}


class Role(enum.Enum):
    """Who sits in a seat: a player, a dropped player's seat (a swap hand), or nobody."""

    PLAYER = "player"
    DROPPED = "dropped"
    EMPTY = "empty"


class Status(enum.Enum):
    """A player's state in the current game."""

    IN = "in"              # may still act
    RAISED = "raised"      # no more actions, goes to showdown
    FOLDED = "folded"


class Phase(enum.Enum):
    ACTION = "action"
    SHOWDOWN = "showdown"              # scored by comparing hands
    WON_BY_FOLDS = "won-by-folds"      # everyone else folded


@dataclass(frozen=True, slots=True)
class Location:
    """Where a card lies: ``seat`` 1..6, ``board`` 1..5 (flop 1-3, turn 4, river 5) or ``burn`` 1..9
    (the three burns of the deal, then the six cards left over)."""

    kind: str
    index: int

    def description(self) -> Text:
        if self.kind == "seat":
            return _("in seat {seat}'s hand", seat=self.index)
        if self.kind == "board":
            street = {1: "flop", 2: "flop", 3: "flop", 4: "turn", 5: "river"}[self.index]
            return _("board card {n} ({street})", n=self.index, street=street_word(street))
        if self.index > 3:
            return _("burn card {n} (left over after the deal)", n=self.index)
        return _("burn card {n}", n=self.index)

    def describe(self) -> str:
        return both(self.description())[0]

    def describe_ja(self) -> str:
        return both(self.description())[1]


@dataclass(frozen=True, slots=True)
class SeatState:
    seat: int
    role: Role
    hand: tuple[Card, Card]
    status: Status = Status.IN

    @property
    def can_act(self) -> bool:
        return self.role is Role.PLAYER and self.status is Status.IN

    @property
    def live(self) -> bool:
        """Still in the game (not folded): a player who is in or has raised."""
        return self.role is Role.PLAYER and self.status is not Status.FOLDED


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the game's history: ``action`` is deal, call, fold, raise, change or end."""

    seat: Optional[int]
    action: str
    text: str
    text_ja: str
    card: Optional[Card] = None
    location: Optional[Location] = None


@dataclass(frozen=True, slots=True)
class Game:
    """One game of Half Texas as an explicit state machine.  Every method returns a new game.

    Start with :meth:`deal`; while ``phase`` is ``ACTION`` the seat ``to_act`` may
    :meth:`call` a card, :meth:`fold`, :meth:`raise_` or :meth:`change`.  Action ends
    (seed §3) when everyone else folds, when every seat still in has raised, or when the
    button's action ends with three or more burn cards open (if the button can no longer
    act, when the turn comes round to the button's seat).  Then :meth:`score`.

    >>> deck = Colors().deck                    # black A..K then red A..K, top first
    >>> g = Game.deal(deck, button=1, players=(1, 2, 3))
    >>> g.to_act, format_cards(g.seat(2).hand), format_cards(g.board)
    (2, 'As 7s', 'Ah 2h 3h 5h 7h')
    >>> g = g.call(2, "黒J")                     # the dealer opens J♠ and says where it is
    >>> g.history[-1].text
    "seat 2 calls Js: it is in seat 6's hand"
    >>> g = g.fold(3).raise_(1)                 # seat 1 is the button: it raised, seat 2 may still act
    >>> g.phase, g.to_act
    (<Phase.ACTION: 'action'>, 2)
    >>> g.raise_(2).phase                       # everyone still in has raised
    <Phase.SHOWDOWN: 'showdown'>
    """

    colors: Colors
    button: int
    seats: tuple[SeatState, ...]
    board: tuple[Card, ...]
    burns: tuple[Card, ...]
    phase: Phase
    to_act: Optional[int]
    opened: frozenset = frozenset()
    raises: int = 0
    change_used: bool = False
    number: int = 1
    history: tuple[Event, ...] = ()

    # ------------------------------------------------------------------ dealing

    @classmethod
    def deal(cls, deck: Sequence[Card | str], *, button: int, players: Iterable[int],
             dropped: Iterable[int] = (), slide: int = 0, table_seats: int = TABLE_SEATS,
             colors: Colors = Colors(), number: int = 1) -> "Game":
        """Deal a game from ``deck`` (the 26 cards, top first) after the button's slide call.

        The ``slide`` top cards go to the bottom; then, from the seat after the button, every
        seat (empty ones too) gets one card, twice round; then burn, three board cards, burn,
        one, burn, one.  The cards left over are burn cards too (nine in all at six seats).
        """
        try:
            cards = tuple(parse_card(c) for c in deck)
        except CardError as exc:
            raise RuleError(message_of(exc), field="deck") from None
        for c in cards:
            colors.check(c, field="deck")
        if len(set(cards)) != len(cards) or len(cards) != 26:
            raise illegal(_("the deck must be the 26 cards, each once; got {n} cards ({k} different)",
                            n=len(cards), k=len(set(cards))), field="deck")
        if isinstance(table_seats, bool) or not isinstance(table_seats, int) or not 2 <= table_seats <= 8:
            raise RuleError(_("a Half Texas table has 2 to 8 seats (6 by the seed), got {seats}",
                              seats=typed(table_seats)), field="table_seats")
        if isinstance(slide, bool) or not isinstance(slide, int) or not 0 <= slide <= SLIDE_MAX:
            raise illegal(_("the slide call is 0 to {top} cards, got {got}", top=SLIDE_MAX, got=typed(slide)),
                          field="slide")
        players = tuple(sorted(set(players)))
        dropped = tuple(sorted(set(dropped)))
        for s in players + dropped:
            if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= table_seats:
                raise RuleError(_("seat {seat} is not a seat of this {n}-seat table", seat=typed(s), n=table_seats),
                                field="seats")
        if set(players) & set(dropped):
            s = sorted(set(players) & set(dropped))[0]
            raise illegal(_("a seat cannot both play and be dropped out"), field="seats", seat=s)
        if len(players) < 2:
            raise illegal(_("a game needs at least two players"), field="seats")
        if button not in players:
            raise illegal(_("the button must be on a seat with a player (seats {seats}), not seat {seat}",
                            seats=list(players), seat=button), field="button")
        cards = cards[slide:] + cards[:slide]
        order = [(button + i) % table_seats or table_seats for i in range(1, table_seats + 1)]
        holes: dict[int, list[Card]] = {s: [] for s in order}
        pos = 0
        for _round in range(2):
            for s in order:
                holes[s].append(cards[pos])
                pos += 1
        burns: list[Card] = []
        board: list[Card] = []
        for n in (3, 1, 1):
            burns.append(cards[pos])
            board.extend(cards[pos + 1:pos + 1 + n])
            pos += 1 + n
        burns.extend(cards[pos:])
        seats = []
        for s in range(1, table_seats + 1):
            role = Role.PLAYER if s in players else Role.DROPPED if s in dropped else Role.EMPTY
            seats.append(SeatState(s, role, (holes[s][0], holes[s][1])))
        first = next(s for s in order if s in players)
        g = cls(colors, button, tuple(seats), tuple(board), tuple(burns), Phase.ACTION, first, number=number)
        ev = Event(None, "deal", *both(_("game {number}: button on seat {button}, slide {slide}; seat {first} "
                                         "acts first", number=number, button=button, slide=slide, first=first)))
        return replace(g, history=(ev,))

    # ------------------------------------------------------------------ looking

    @property
    def table_seats(self) -> int:
        return len(self.seats)

    def seat(self, number: int) -> SeatState:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.seats):
            raise RuleError(_("there is no seat {seat} at this {n}-seat table", seat=typed(number), n=len(self.seats)),
                            field="seat")
        return self.seats[number - 1]

    def where(self, card: Card | str) -> Location:
        """Where ``card`` lies now (the dealer's knowledge, not the players')."""
        card = self.colors.check(parse_card(card), field="card")
        for s in self.seats:
            if card in s.hand:
                return Location("seat", s.seat)
        if card in self.board:
            return Location("board", self.board.index(card) + 1)
        return Location("burn", self.burns.index(card) + 1)

    def locations(self) -> dict[Card, Location]:
        """Every one of the 26 cards and where it lies."""
        out = {c: Location("seat", s.seat) for s in self.seats for c in s.hand}
        out.update({c: Location("board", i + 1) for i, c in enumerate(self.board)})
        out.update({c: Location("burn", i + 1) for i, c in enumerate(self.burns)})
        return out

    def open_cards(self) -> dict[Card, Location]:
        """What the players may see: each open card and where it lies."""
        return {c: loc for c, loc in self.locations().items() if c in self.opened}

    @property
    def burns_open(self) -> int:
        return sum(1 for c in self.burns if c in self.opened)

    @property
    def live_seats(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.live)

    @property
    def over(self) -> bool:
        return self.phase is not Phase.ACTION

    def legal_actions(self) -> tuple[str, ...]:
        """What ``to_act`` may do now: some of ``call``, ``fold``, ``raise``, ``change``."""
        if self.over:
            return ()
        acts = []
        if len(self.opened) < 26:
            acts.append("call")
        acts += ["fold", "raise"]
        if not self.change_used and any(s.role is Role.DROPPED for s in self.seats):
            acts.append("change")
        return tuple(acts)

    # ------------------------------------------------------------------ actions

    def _check_turn(self, seat: int, action: str) -> SeatState:
        if self.over:
            raise illegal(_("the action is over ({phase}); no more {action}", phase=self.phase.value,
                            action=_ACTIONS[action]), field="action", seat=seat)
        st = self.seat(seat)
        if st.role is not Role.PLAYER:
            why = (_("seat {seat} has dropped out and cannot act", seat=seat) if st.role is Role.DROPPED
                   else _("seat {seat} is empty and cannot act", seat=seat))
            raise illegal(why, field="action", seat=seat)
        if st.status is Status.FOLDED:
            raise illegal(_("this seat has folded and cannot act"), field="action", seat=seat)
        if st.status is Status.RAISED:
            raise illegal(_("this seat has raised: a raiser has no more actions and goes to the showdown"),
                          field="action", seat=seat)
        if seat != self.to_act:
            raise illegal(_p("half texas", "it is seat {turn}'s turn, not seat {seat}'s", turn=self.to_act,
                             seat=seat),
                          field="action", seat=seat)
        return st

    def call(self, seat: int, card: Card | str) -> "Game":
        """Seat ``seat`` names a card; the dealer opens it and says where it lies."""
        self._check_turn(seat, "call")
        card = parse_call(card, self.colors)
        loc = self.where(card)
        if card in self.opened:
            raise illegal(_("{card} is already open ({where}): call a card that is still face down",
                            card=_card_call(card), where=loc.description()), field="call", seat=seat)
        ev = Event(seat, "call", *both(_("seat {seat} calls {card}: it is {where}", seat=seat, card=_card_call(card),
                                         where=loc.description())), card, loc)
        g = replace(self, opened=self.opened | {card}, history=self.history + (ev,))
        return g._advance(seat)

    def fold(self, seat: int) -> "Game":
        """Seat ``seat`` leaves the game; its two cards are opened at once."""
        st = self._check_turn(seat, "fold")
        ev = Event(seat, "fold", *both(_("seat {seat} folds and shows {cards}", seat=seat, cards=_card_calls(st.hand))))
        g = self._with_seat(replace(st, status=Status.FOLDED))
        g = replace(g, opened=g.opened | set(st.hand), history=g.history + (ev,))
        live = g.live_seats
        if len(live) == 1:
            end = Event(None, "end", *both(_("everyone else folded: seat {seat} wins", seat=live[0])))
            return replace(g, phase=Phase.WON_BY_FOLDS, to_act=None, history=g.history + (end,))
        return g._advance(seat)

    def raise_(self, seat: int) -> "Game":
        """Seat ``seat`` raises: the game's points are multiplied once more; it acts no more."""
        st = self._check_turn(seat, "raise")
        n = self.raises + 1
        ev = Event(seat, "raise", *both(_("seat {seat} raises: this game's points count x{n}", seat=seat, n=n + 1)))
        g = self._with_seat(replace(st, status=Status.RAISED))
        return replace(g, raises=n, history=g.history + (ev,))._advance(seat)

    def change(self, seat: int, with_seat: Optional[int] = None) -> "Game":
        """Seat ``seat`` swaps its hand with the swap hand on a dropped seat (once a game, table-wide)."""
        st = self._check_turn(seat, "change")
        if self.change_used:
            raise illegal(_("the change has already been used in this game (once a game)"), field="change", seat=seat)
        dropped = [s.seat for s in self.seats if s.role is Role.DROPPED]
        if not dropped:
            raise illegal(_("no seat has dropped out, so there is no swap hand to change with"),
                          field="change", seat=seat)
        if with_seat is None:
            if len(dropped) > 1:
                raise illegal(_("say which dropped seat's hand to take: {seats}", seats=seat_list(dropped)),
                              field="change", seat=seat)
            with_seat = dropped[0]
        other = self.seat(with_seat)
        if other.role is not Role.DROPPED:
            raise illegal(_("seat {seat} is not a dropped seat: a change takes the hand on a dropped seat ({dropped})",
                            seat=with_seat, dropped=dropped), field="change", seat=seat)
        ev = Event(seat, "change", *both(_("seat {seat} changes hands with dropped seat {other}", seat=seat,
                                           other=with_seat)))
        g = self._with_seat(replace(st, hand=other.hand))._with_seat(replace(other, hand=st.hand))
        return replace(g, change_used=True, history=g.history + (ev,))._advance(seat)

    # ------------------------------------------------------------------ flow

    def _with_seat(self, st: SeatState) -> "Game":
        seats = list(self.seats)
        seats[st.seat - 1] = st
        return replace(self, seats=tuple(seats))

    def _clockwise_after(self, seat: int) -> list[int]:
        n = len(self.seats)
        return [(seat + i - 1) % n + 1 for i in range(1, n + 1)]

    def _advance(self, actor: int) -> "Game":
        """After ``actor``'s action: end the action (seed §3's three ways) or pass the turn."""
        if not any(s.can_act for s in self.seats):
            return self._to_showdown(_("everyone still in has raised"))
        enough = self.burns_open >= BURNS_TO_SHOW
        if enough and actor == self.button:
            return self._to_showdown(_("{n} burn cards are open and the button's action ended", n=self.burns_open))
        for s in self._clockwise_after(actor):
            st = self.seats[s - 1]
            if s == self.button and enough and not st.can_act:
                return self._to_showdown(
                    _("{n} burn cards are open and the turn reached the button's seat", n=self.burns_open))
            if st.can_act:
                return replace(self, to_act=s)
        raise AssertionError("unreachable: some seat can act")  # pragma: no cover

    def _to_showdown(self, why: Text) -> "Game":
        shown = {c for s in self.seats if s.live for c in s.hand} | set(self.board)
        ev = Event(None, "end", *both(_("showdown: {why}", why=why)))
        return replace(self, phase=Phase.SHOWDOWN, to_act=None, opened=self.opened | shown,
                       history=self.history + (ev,))

    def score(self) -> GameScore:
        """The finished game's :class:`GameScore` (the changes before the 0 floor)."""
        if not self.over:
            raise illegal(_("the game is still in its action (seat {seat} to act)", seat=self.to_act), field="action")
        holes = {s.seat: s.hand for s in self.seats if s.role is Role.PLAYER}
        folded = [s.seat for s in self.seats if s.role is Role.PLAYER and s.status is Status.FOLDED]
        return score_game(self.board, holes, folded=folded, raises=self.raises, colors=self.colors)

    def showdown_order(self) -> tuple[int, ...]:
        """Seats still in, from the seat after the button clockwise (the order of action)."""
        return tuple(s for s in self._clockwise_after(self.button) if self.seats[s - 1].live)


# --------------------------------------------------------------------------- the session

@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    points: Points
    dropped_after: Optional[int] = None      # the game number in which the player dropped out

    @property
    def dropped(self) -> bool:
        return self.dropped_after is not None


@dataclass(frozen=True, slots=True)
class Standing:
    place: int                  # equal final points share a place until a casino war
    seat: int
    bp: int
    rp: int
    final: int
    dropped: bool

    def to_json(self) -> dict:
        return {"place": self.place, "seat": self.seat, "bp": self.bp, "rp": self.rp, "final": self.final,
                "dropped": self.dropped}


@dataclass(frozen=True, slots=True)
class Standings:
    """Final standings: BP x RP, highest first; equal scores are settled by casino war."""

    rows: tuple[Standing, ...]
    ties: tuple[tuple[int, ...], ...]             # groups of seats on equal points
    instructions: tuple[str, ...]
    instructions_ja: tuple[str, ...]

    def with_casino_war(self, cards: Mapping[int, Card | str]) -> "Standings":
        """Order tied seats by the cards they drew in a casino war (A high; equal ranks stay tied).

        >>> st = Standings.of([Player(1, Points(12, 5)), Player(2, Points(6, 10)), Player(3, Points(7, 7))])
        >>> [(r.place, r.seat, r.final) for r in st.rows], st.ties
        ([(1, 1, 60), (1, 2, 60), (3, 3, 49)], ((1, 2),))
        >>> st = st.with_casino_war({1: "4h", 2: "Js"})
        >>> [(r.place, r.seat) for r in st.rows], st.ties
        ([(1, 2), (2, 1), (3, 3)], ())
        """
        cards = {s: parse_card(c) for s, c in cards.items()}
        for s, c in cards.items():
            if c.is_joker:
                raise RuleError(_("a casino war is played without the joker"), field="casino_war", seat=s)
        rows = {r.seat: r for r in self.rows}
        places = sorted({r.place for r in self.rows})
        order: list[list[int]] = []
        for place in places:
            group = [r.seat for r in self.rows if r.place == place]
            if len(group) > 1 and all(s in cards for s in group):
                order.extend(casino_war({s: cards[s] for s in group}))
            else:
                order.append(group)
        return Standings._build(rows, order)

    @classmethod
    def of(cls, players: Iterable[Player]) -> "Standings":
        rows = {p.seat: Standing(0, p.seat, p.points.bp, p.points.rp, p.points.final, p.dropped)
                for p in players}
        finals = sorted({r.final for r in rows.values()}, reverse=True)
        order = [sorted(s for s, r in rows.items() if r.final == f) for f in finals]
        return cls._build(rows, order)

    @classmethod
    def _build(cls, rows: Mapping[int, Standing], order: Sequence[Sequence[int]]) -> "Standings":
        out: list[Standing] = []
        ties: list[tuple[int, ...]] = []
        said: list = []
        place = 1
        for group in order:
            for s in group:
                out.append(replace(rows[s], place=place))
            if len(group) > 1:
                ties.append(tuple(group))
                pts = rows[group[0]].final
                said.append(_("{seats} tie on {pts} points for place {place}: settle their order by casino war "
                              "(one card each, highest rank wins; equal ranks draw again).",
                              seats=capitalized(seat_list(group)), pts=pts, place=place))
            place += len(group)
        return cls(tuple(out), tuple(ties), tuple(both(x)[0] for x in said), tuple(both(x)[1] for x in said))

    def to_json(self) -> dict:
        return {"rows": [r.to_json() for r in self.rows], "ties": [list(t) for t in self.ties],
                "instructions": list(self.instructions), "instructions_ja": list(self.instructions_ja)}


def casino_war(cards: Mapping[int, Card]) -> list[list[int]]:
    """Order seats by one casino-war card each, A high; seats with equal ranks stay in one group.

    >>> casino_war({1: parse_card("9s"), 2: parse_card("Ah"), 3: parse_card("9h")})
    [[2], [1, 3]]
    """
    ranks = sorted({int(c.rank) for c in cards.values()}, reverse=True)
    return [sorted(s for s, c in cards.items() if int(c.rank) == r) for r in ranks]


@dataclass(frozen=True, slots=True)
class Session:
    """A Half Texas session: games until the button has gone round twice or three players dropped out.

    The button starts on the lowest occupied seat ("from seat 1") and moves clockwise to the next
    seat whose player is still in the session; it is never put on an empty or dropped seat.

    >>> s = Session.start([1, 2, 3, 4, 5])
    >>> s.button, s.games, s.over
    (1, 0, False)
    """

    colors: Colors
    table_seats: int
    players: tuple[Player, ...]
    button: int
    games: int = 0
    rounds: int = 0
    over: bool = False
    end_reason: str = ""
    end_reason_ja: str = ""
    end_why: Text = ""
    log: tuple[str, ...] = ()
    log_ja: tuple[str, ...] = ()

    @classmethod
    def start(cls, seats: Iterable[int], *, table_seats: int = TABLE_SEATS, colors: Colors = Colors(),
              bp: int = DEFAULT_POINTS, rp: int = DEFAULT_POINTS) -> "Session":
        seats = sorted(set(seats))
        if len(seats) < 2:
            raise illegal(_("a session needs at least two players"), field="seats")
        for s in seats:
            if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= table_seats:
                raise RuleError(_("seat {seat} is not a seat of this {n}-seat table", seat=typed(s), n=table_seats),
                                field="seats")
        start = Points(bp, rp)
        if start.dropped:
            raise RuleError(_("players start with at least 1 BP and 1 RP"), field="bp")
        return cls(colors, table_seats, tuple(Player(s, start) for s in seats), seats[0])

    def player(self, seat: int) -> Player:
        for p in self.players:
            if p.seat == seat:
                return p
        raise RuleError(_("no player sits in seat {seat}", seat=seat), field="seat", seat=seat)

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if not p.dropped)

    @property
    def dropouts(self) -> tuple[int, ...]:
        return tuple(p.seat for p in sorted((p for p in self.players if p.dropped),
                                            key=lambda p: (p.dropped_after, p.seat)))

    def deal(self, deck: Sequence[Card | str], slide: int = 0) -> Game:
        """The next game, dealt from ``deck`` (top first) after the button's ``slide`` call."""
        if self.over:
            raise illegal(_("the session is over ({why})", why=self.end_why), field="session")
        return Game.deal(deck, button=self.button, players=self.active,
                         dropped=[p.seat for p in self.players if p.dropped], slide=slide,
                         table_seats=self.table_seats, colors=self.colors, number=self.games + 1)

    def record(self, game: Game) -> "Session":
        """Apply a finished game: points with the 0 floor, dropouts, the button, the end of the session."""
        if self.over:
            raise illegal(_("the session is over"), field="session")
        if game.number != self.games + 1 or game.button != self.button or game.colors != self.colors:
            raise illegal(_("this is not the session's game {n} (button on seat {seat})", n=self.games + 1,
                            seat=self.button), field="game")
        score = game.score()
        pts = {p.seat: p.points for p in self.players if not p.dropped}
        new, actual, en, ja = score.applied(pts)
        number = game.number
        players = tuple(
            replace(p, points=new[p.seat], dropped_after=number if new[p.seat].dropped else None)
            if p.seat in new else p for p in self.players)
        s = replace(self, players=players, games=number,
                    log=self.log + score.explanation + tuple(en),
                    log_ja=self.log_ja + score.explanation_ja + tuple(ja))
        active = s.active
        if len(s.dropouts) >= DROPOUTS_TO_END:
            return s._end(_("{n} players have dropped out", n=len(s.dropouts)))
        if len(active) < 2:
            return s._end(_("fewer than two players are left"))
        nxt = next(x for x in s._clockwise_after(self.button) if x in active)
        rounds = s.rounds + (1 if nxt <= self.button else 0)
        s = replace(s, button=nxt, rounds=rounds)
        if rounds >= ROUNDS_PER_SESSION:
            return s._end(_("the button has gone round twice"))
        return s

    def _clockwise_after(self, seat: int) -> list[int]:
        n = self.table_seats
        return [(seat + i - 1) % n + 1 for i in range(1, n + 1)]

    def _end(self, why: Text) -> "Session":
        en, ja = both(_("The session ends after game {n}: {why}.", n=self.games, why=why))
        return replace(self, over=True, end_reason=both(why)[0], end_reason_ja=both(why)[1], end_why=why,
                       log=self.log + (en,), log_ja=self.log_ja + (ja,))

    def standings(self) -> Standings:
        """Standings by BP x RP (final once the session is over)."""
        return Standings.of(self.players)


# --------------------------------------------------------------------------- settle interface

def _read_int(value: Any, field: str, seat: Optional[int], minimum: int = 0) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        said = (_("expected a whole number, got None") if value is None
                else _("expected a whole number, got {value}", value=typed(value)))
        raise RuleError(said, field=field, seat=seat)
    if value < minimum:
        raise RuleError(_("{value} is below {minimum}: expected a whole number >= {minimum}",
                          value=value, minimum=minimum), field=field, seat=seat)
    return value


def _read_cards(value: Any, colors: Colors, field: str, seat: Optional[int], count: int) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RuleError(_("expected a list of {count} cards such as [\"As\", \"Kh\"], got {value}",
                          count=count, value=typed(value)), field=field, seat=seat)
    out = []
    for token in value:
        try:
            card = parse_card(token)
        except CardError as exc:
            raise RuleError(message_of(exc), field=field, seat=seat) from None
        out.append(colors.check(card, field=field, seat=seat))
    if len(out) != count:
        raise RuleError(_("expected {n} cards, got {got}: {cards}", n=count, got=len(out), cards=format_cards(out)),
                        field=field, seat=seat)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One player's seat of a game as the live table read it: its two cards (None: not shown,
    allowed for a folded seat), whether it folded or raised, and its points before the game."""

    seat: int
    hole: Optional[tuple[str, ...]]
    folded: bool
    raised: bool
    bp: int
    rp: int

    def to_json(self) -> dict:
        return {"seat": self.seat, "hole": None if self.hole is None else list(self.hole),
                "folded": self.folded, "raised": self.raised, "bp": self.bp, "rp": self.rp}


@dataclass(frozen=True, slots=True)
class LiveGame:
    """One finished game as the live table read it (:mod:`dealer_assist.live.half_texas`);
    ``to_json()`` is what ``dealer-assist settle`` reads."""

    board: tuple[str, ...]
    raises: int
    seats: tuple[TableSeat, ...]
    button: Optional[int] = None
    table_seats: int = TABLE_SEATS
    colors: Optional[Mapping[str, str]] = None

    def to_json(self) -> dict:
        out: dict = {"game": "half-texas", "board": list(self.board), "raises": self.raises}
        if self.button is not None:
            out["button"] = self.button
        out["table_seats"] = self.table_seats
        if self.colors:
            out["colors"] = dict(self.colors)
        out["seats"] = [s.to_json() for s in self.seats]
        return out


@dataclass(frozen=True, slots=True)
class HalfTexasRuling:
    """One game of Half Texas ruled: the raise multiplier, each player's points won or lost (after
    the 0 floor) and standing after the game, the hands, the winners, the showdown order and the
    explanation in both languages; nobody is paid chips. ``to_json()`` is ``settle``'s output."""

    multiplier: int
    points: Mapping[int, tuple[int, int]]       # seat -> (BP, RP) won (+) or lost (-) this game
    standings: Mapping[int, Points]             # seat -> its points after the game
    hands: Mapping[int, Hand]
    winners: tuple[int, ...]
    showdown_order: tuple[int, ...]
    explanation: tuple[str, ...]
    explanation_ja: tuple[str, ...]
    game: ClassVar[str] = "half-texas"

    @property
    def tie(self) -> bool:
        return len(self.winners) > 1

    @property
    def dropouts(self) -> tuple[int, ...]:
        """The players out of points after this game (dropped before or now)."""
        return tuple(n for n, p in sorted(self.standings.items()) if p.dropped)

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "multiplier": self.multiplier,
            "points": {str(n): {"bp": bp, "rp": rp} for n, (bp, rp) in sorted(self.points.items())},
            "standings": {str(n): {"bp": p.bp, "rp": p.rp, "dropped": p.dropped}
                          for n, p in sorted(self.standings.items())},
            "dropouts": list(self.dropouts),
            "hands": {str(n): h.to_json() for n, h in sorted(self.hands.items())},
            "winners": list(self.winners),
            "tie": self.tie,
            "showdown_order": list(self.showdown_order),
            "explanation": list(self.explanation),
            "explanation_ja": list(self.explanation_ja),
            "payouts": {},
            "pots": [],
        }


class HalfTexas:
    """``settle`` for one finished game of Half Texas: BP and RP changes, standings, hands, why.

    >>> out = HalfTexas().settle({"game": "half-texas", "board": ["8s", "8h", "9s", "Ts", "2h"],
    ...     "raises": 0, "seats": [{"seat": 1, "hole": ["Th", "3h"], "bp": 10, "rp": 10},
    ...                            {"seat": 2, "hole": ["As", "Ah"], "bp": 10, "rp": 1}]})
    >>> out["points"], out["standings"]["2"]
    ({'1': {'bp': 3, 'rp': 2}, '2': {'bp': 0, 'rp': -1}}, {'bp': 10, 'rp': 0, 'dropped': True})
    """

    name: ClassVar[str] = "half-texas"
    fields: ClassVar[frozenset] = frozenset({"game", "board", "raises", "seats", "colors", "button", "table_seats"})
    seat_fields: ClassVar[frozenset] = frozenset({"seat", "hole", "folded", "raised", "bp", "rp"})

    def check(self, game: LiveGame) -> LiveGame:
        """A game read at the live table, refused with the reason (in both languages) while the
        cards the points need are not all open: the five board cards and the two cards of every
        seat still in the game."""
        from dealer_assist.errors import UserError

        if len(game.board) != 5:
            raise UserError(_("the colour points need the five board cards open: {n} of 5 are open",
                              n=len(game.board)))
        hidden = [s.seat for s in game.seats if not s.folded and (s.hole is None or len(s.hole) != 2)]
        if hidden:
            raise UserError(_("the colour points need the two cards of {seats} open", seats=seat_list(hidden)))
        return game

    def rule(self, game: LiveGame) -> HalfTexasRuling:
        """The ruling on a game read at the live table. Its cards and points are checked by the
        same reader as ``settle``'s input (one place says what a game may hold)."""
        return self.ruling(game.to_json())

    def settle(self, obj: Mapping) -> dict:
        """``dealer-assist settle`` for one game: :meth:`ruling`'s JSON."""
        return self.ruling(obj).to_json()

    def ruling(self, obj: Mapping) -> HalfTexasRuling:
        """Read one finished game (``settle``'s input) and rule on it; a :class:`RuleError` names
        the field and the seat that are wrong."""
        if not isinstance(obj, Mapping):
            raise RuleError(_("a table is a JSON object, not {type}", type=type(obj).__name__))
        unknown = sorted(set(obj) - self.fields)
        if unknown:
            raise RuleError(_("unknown field(s) {fields} for game {game}; known: {known}", fields=", ".join(unknown),
                              game=typed("half-texas"), known=", ".join(sorted(self.fields))), field=unknown[0])
        colors = Colors.read(obj.get("colors"))
        table_seats = _read_int(obj.get("table_seats", TABLE_SEATS), "table_seats", None, minimum=2)
        if table_seats > 8:
            raise RuleError(_("a Half Texas table has 2 to 8 seats (6 by the seed), got {seats}", seats=table_seats),
                            field="table_seats")
        board = _read_cards(obj.get("board"), colors, "board", None, 5)
        raises = _read_int(obj.get("raises", 0), "raises", None)
        seats_obj = obj.get("seats")
        if not isinstance(seats_obj, list) or not seats_obj:
            raise RuleError(_("expected a non-empty list of seats"), field="seats")
        holes: dict[int, tuple[Card, ...]] = {}
        points: dict[int, Points] = {}
        folded: list[int] = []
        raised: list[int] = []
        places: dict[str, tuple[Card, ...]] = {"board": board}
        for i, s in enumerate(seats_obj):
            if not isinstance(s, Mapping):
                raise RuleError(_("seat entry {n} is not an object", n=i + 1), field="seats")
            if "seat" not in s:
                raise RuleError(_("seat entry {n} has no \"seat\" number", n=i + 1), field="seat")
            n = _read_int(s["seat"], "seat", None, minimum=1)
            if n > table_seats:
                raise RuleError(_("seat {seat} is not at a {n}-seat table", seat=n, n=table_seats), field="seat", seat=n)
            if n in points:
                raise RuleError(_("seat {seat} is listed twice", seat=n), field="seats", seat=n)
            bad = sorted(set(s) - self.seat_fields)
            if bad:
                raise RuleError(_("unknown field(s) {fields}; known: {known}", fields=", ".join(bad),
                                  known=", ".join(sorted(self.seat_fields))), field=bad[0], seat=n)
            for flag in ("folded", "raised"):
                if not isinstance(s.get(flag, False), bool):
                    raise RuleError(_("expected true or false, got {value}", value=typed(s.get(flag))), field=flag, seat=n)
            is_folded = s.get("folded", False)
            if is_folded and s.get("raised", False):
                raise illegal(_("a seat that raised cannot fold (it goes to the showdown)"), field="folded", seat=n)
            for f in ("bp", "rp"):
                if f not in s:
                    raise RuleError(_("missing {field} (the seat's points before this game)", field=f), field=f, seat=n)
            p = Points(_read_int(s["bp"], "bp", n), _read_int(s["rp"], "rp", n))
            if p.dropped:
                raise illegal(_("a seat with {bp} BP {rp} RP has dropped out and does not play; leave it out of seats",
                                bp=p.bp, rp=p.rp), field="bp", seat=n)
            points[n] = p
            if is_folded:
                folded.append(n)
            if s.get("raised", False):
                raised.append(n)
            hole = s.get("hole")
            if hole is None and is_folded:
                holes[n] = ()
            else:
                holes[n] = _read_cards(hole, colors, "hole", n, 2)
                places[f"seat {n}"] = holes[n]
        seen: dict[Card, str] = {}
        for place, cards in places.items():
            for c in cards:
                if c in seen:
                    seat = int(place.split()[1]) if place != "board" else None
                    raise RuleError(_("duplicate card {card}: it is both in {other} and in {place}", card=str(c),
                                      other=place_words(seen[c]), place=place_words(place)),
                                    field="hole" if seat else "board", seat=seat)
                seen[c] = place
        if raised and "raises" in obj and raises != len(raised):
            raise RuleError(_("raises is {raises} but {n} seat(s) are marked raised", raises=raises, n=len(raised)),
                            field="raises")
        if raised and "raises" not in obj:
            raises = len(raised)
        live = [n for n in points if n not in folded]
        score = score_game(board, {n: h for n, h in holes.items() if n in live or h}, folded=folded,
                           raises=raises, colors=colors)
        new, actual, notes, notes_ja = score.applied(points)
        button = obj.get("button")
        if button is not None:
            button = _read_int(button, "button", None, minimum=1)
            if button not in points:
                raise RuleError(_("the button is on seat {button}, which is not among the seats", button=button),
                                field="button")
            start = button
        else:
            start = table_seats
        order = [(start + i - 1) % table_seats + 1 for i in range(1, table_seats + 1)]
        return HalfTexasRuling(
            score.multiplier, {n: actual[n] for n in sorted(points)}, {n: new[n] for n in sorted(points)},
            dict(sorted(score.hands.items())), tuple(score.winners), tuple(n for n in order if n in live),
            tuple(score.explanation) + tuple(notes), tuple(score.explanation_ja) + tuple(notes_ja))
