"""The card model and the notation of RULINGS.md.

Every interface of dealer-assist speaks one notation: a rank
(``A K Q J T 9 8 7 6 5 4 3 2``, ``10`` accepted on input) followed by a suit
(``s h d c``, ``♠ ♥ ♦ ♣`` accepted on input); the joker is ``JK``; a face-down
or unknown card is ``??`` where a card may be hidden.  Output always uses the
canonical two-letter form.

>>> c = parse_card("10♥")
>>> c
Card('Th')
>>> str(c), c.rank, c.suit
('Th', <Rank.TEN: 10>, <Suit.HEARTS: 2>)
>>> parse_cards("As Kd JK")
(Card('As'), Card('Kd'), Card('JK'))
>>> str(JOKER), JOKER.is_joker
('JK', True)
>>> parse_card("1s")
Traceback (most recent call last):
...
dealer_assist.cards.CardError: '1s' is not a card: '1' is not a rank. A card is a rank (A K Q J T 9 8 7 6 5 4 3 2, or 10) followed by a suit (s h d c, or ♠ ♥ ♦ ♣), e.g. As, Td, 7c; the joker is JK
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Union

from dealer_assist.errors import Worded
from dealer_assist.i18n import _, _n, _p, join, seat, typed

__all__ = [
    "Rank", "Suit", "Card", "CardError", "JOKER", "HIDDEN", "DECK_52", "DECK_53",
    "parse_card", "parse_cards", "card_or_none", "format_cards", "check_unique",
]

HIDDEN = "??"

_FORMAT_HELP = _(
    "A card is a rank (A K Q J T 9 8 7 6 5 4 3 2, or 10) followed by a suit "
    "(s h d c, or ♠ ♥ ♦ ♣), e.g. As, Td, 7c; the joker is JK"
)


class CardError(Worded, ValueError):
    """A token that is not a card, or a set of cards that cannot be on one table.

    The message names the offending token and says what a card looks like; a message of the
    catalogues (:mod:`dealer_assist.i18n`) says it in both languages (:meth:`says`).
    ``token`` holds the offending text (or card) for programs.
    """

    def __init__(self, message: object, token: object = None):
        super().__init__(self._words(message))
        self.token = token


class Rank(enum.IntEnum):
    """Card ranks, valued 2..14 (the ace is high; games that play it low say so)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """``'A'``, ``'K'``, ..., ``'T'``, ..., ``'2'``."""
        return _RANK_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> "Rank":
        """Parse a rank symbol (``'A'``, ``'T'``, ``'10'``, ``'7'``; case-insensitive)."""
        try:
            return _RANK_BY_SYMBOL[text.upper()]
        except (KeyError, AttributeError):
            raise CardError(
                _("{text} is not a rank: ranks are A K Q J T 9 8 7 6 5 4 3 2 (or 10)", text=typed(text)), text
            ) from None


class Suit(enum.IntEnum):
    """Suits, numbered so that the TDA suit order ♠ > ♥ > ♦ > ♣ is the numeric order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """``'s'``, ``'h'``, ``'d'`` or ``'c'``."""
        return "cdhs"[self]

    @property
    def glyph(self) -> str:
        """``'♠'``, ``'♥'``, ``'♦'`` or ``'♣'``."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> "Suit":
        """Parse a suit letter or glyph (``'s'``, ``'♠'``, ``'♤'``; case-insensitive)."""
        try:
            return _SUIT_BY_SYMBOL[text.lower()]
        except (KeyError, AttributeError):
            raise CardError(_("{text} is not a suit: suits are s h d c (or ♠ ♥ ♦ ♣)", text=typed(text)),
                            text) from None


_RANK_SYMBOLS = {r: s for r, s in zip(Rank, "23456789TJQKA")}
_RANK_BY_SYMBOL = {s: r for r, s in _RANK_SYMBOLS.items()}
_RANK_BY_SYMBOL["10"] = Rank.TEN
_SUIT_BY_SYMBOL = {
    "c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}
_JOKER_TOKENS = {"JK", "JOKER", "🃏"}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and a suit, or the joker (rank and suit both ``None``).

    Cards are immutable and interned: ``parse_card('As') is parse_card('A♠')``.
    ``index`` numbers the 53 cards 0..52 (``4 * (rank - 2) + suit``; the joker
    is 52), which is what compact tables and models key on.

    >>> Card(Rank.ACE, Suit.SPADES).index, JOKER.index
    (51, 52)
    >>> Card.from_index(0)
    Card('2c')
    """

    rank: Optional[Rank]
    suit: Optional[Suit]

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise CardError(_("a card has both a rank and a suit, or neither (the joker)"), self)
        if self.rank is not None:
            object.__setattr__(self, "rank", Rank(self.rank))
            object.__setattr__(self, "suit", Suit(self.suit))

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def index(self) -> int:
        if self.rank is None:
            return 52
        return 4 * (self.rank - 2) + self.suit

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card numbered ``index`` (0..52)."""
        if not 0 <= index <= 52:
            raise CardError(_("card index {index} is out of range 0..52", index=index), index)
        return _ALL_CARDS[index]

    @classmethod
    def parse(cls, token: str) -> "Card":
        return parse_card(token)

    def __str__(self) -> str:
        if self.rank is None:
            return "JK"
        return self.rank.symbol + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """Human form with a suit glyph: ``'A♠'``, ``'T♥'``, ``'JOKER'``."""
        if self.rank is None:
            return "JOKER"
        return self.rank.symbol + self.suit.glyph


_ALL_CARDS = tuple(
    [object.__new__(Card) for _ in range(53)]
)
for _i, _c in enumerate(_ALL_CARDS):
    if _i == 52:
        object.__setattr__(_c, "rank", None)
        object.__setattr__(_c, "suit", None)
    else:
        object.__setattr__(_c, "rank", Rank(_i // 4 + 2))
        object.__setattr__(_c, "suit", Suit(_i % 4))

JOKER: Card = _ALL_CARDS[52]
DECK_52: tuple[Card, ...] = _ALL_CARDS[:52]
DECK_53: tuple[Card, ...] = _ALL_CARDS

_CARD_BY_TOKEN: dict[str, Card] = {}


def parse_card(token: Union[str, Card], *, allow_hidden: bool = False) -> Optional[Card]:
    """Parse one card token.  ``??`` gives ``None`` where ``allow_hidden`` is set.

    Accepts ``As``, ``A♠``, ``10h``, ``td`` (case-insensitive), ``JK``/``joker``.
    A :class:`Card` passes through unchanged.

    >>> parse_card("??", allow_hidden=True) is None
    True
    >>> parse_card("A")
    Traceback (most recent call last):
    ...
    dealer_assist.cards.CardError: 'A' is not a card: it has no suit. A card is a rank (A K Q J T 9 8 7 6 5 4 3 2, or 10) followed by a suit (s h d c, or ♠ ♥ ♦ ♣), e.g. As, Td, 7c; the joker is JK
    """
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise CardError(_("{token} is not a card: expected text such as 'As'. {help}",
                          token=typed(token), help=_FORMAT_HELP), token)
    cached = _CARD_BY_TOKEN.get(token)
    if cached is not None:
        return cached
    text = token.strip()
    if text == HIDDEN:
        if allow_hidden:
            return None
        raise CardError(_("'??' (a hidden card) is not allowed here: this place needs a known card"), token)
    if text.upper() in _JOKER_TOKENS or text == "🃏":
        card = JOKER
    else:
        card = _parse_rank_suit(token, text)
    _CARD_BY_TOKEN[token] = card
    return card


def _parse_rank_suit(token: str, text: str) -> Card:
    if not text:
        raise CardError(_("{token} is not a card: it is empty. {help}", token=typed(token), help=_FORMAT_HELP),
                        token)
    if len(text) == 1:
        if text.upper() in _RANK_BY_SYMBOL:
            said = _("{token} is not a card: it has no suit. {help}", token=typed(token), help=_FORMAT_HELP)
        else:
            said = _("{token} is not a card: it is too short. {help}", token=typed(token), help=_FORMAT_HELP)
        raise CardError(said, token)
    rank_text, suit_text = text[:-1], text[-1]
    if rank_text.upper() not in _RANK_BY_SYMBOL:
        if len(text) > 3 or (len(rank_text) > 1 and rank_text != "10"):
            said = _("{token} is not a card: it is too long (one card per token). {help}",
                     token=typed(token), help=_FORMAT_HELP)
        else:
            said = _("{token} is not a card: {rank} is not a rank. {help}",
                     token=typed(token), rank=typed(rank_text), help=_FORMAT_HELP)
        raise CardError(said, token)
    if suit_text.lower() not in _SUIT_BY_SYMBOL:
        raise CardError(_("{token} is not a card: {suit} is not a suit. {help}",
                          token=typed(token), suit=typed(suit_text), help=_FORMAT_HELP), token)
    rank = _RANK_BY_SYMBOL[rank_text.upper()]
    suit = _SUIT_BY_SYMBOL[suit_text.lower()]
    return _ALL_CARDS[4 * (rank - 2) + suit]


def parse_cards(tokens: Union[str, Iterable[Union[str, Card]]], *, allow_hidden: bool = False) -> tuple:
    """Parse several cards: a whitespace/comma separated string or an iterable of tokens.

    >>> parse_cards("Ah,Kh ??", allow_hidden=True)
    (Card('Ah'), Card('Kh'), None)
    """
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    return tuple(parse_card(t, allow_hidden=allow_hidden) for t in tokens)


def card_or_none(text: Any) -> Optional[str]:
    """``text`` as a card in RULINGS notation, or None where it is none: for a value that only
    informs (the reader's other name for a doubtful card) and that a damaged line or hostile
    JSON may carry, where a wrong value is dropped rather than refused.

    >>> card_or_none("kc"), card_or_none("10♥"), card_or_none("<b>"), card_or_none("??"), card_or_none(3)
    ('Kc', 'Th', None, None, None)
    """
    if not isinstance(text, str):
        return None
    try:
        return str(Card.parse(text))
    except CardError:
        return None


def format_cards(cards: Iterable[Optional[Card]], sep: str = " ") -> str:
    """Canonical text of several cards; a hidden card (``None``) prints as ``??``.

    >>> format_cards(parse_cards("10s JK"))
    'Ts JK'
    """
    return sep.join(HIDDEN if c is None else str(c) for c in cards)


def check_unique(groups: dict, *, jokers_allowed: int = 1) -> None:
    """Raise :class:`CardError` if a card appears twice across the named groups.

    ``groups`` maps a place name (``'board'``, ``'seat 3'``) to its cards.  The
    message names both places.  ``jokers_allowed`` is how many jokers the deck has.

    >>> check_unique({"board": parse_cards("As Kd 2c"), "seat 1": parse_cards("Ah As")})
    Traceback (most recent call last):
    ...
    dealer_assist.cards.CardError: duplicate card As: it is both in board and in seat 1
    """
    seen: dict[Card, str] = {}
    jokers: list[str] = []
    for place, cards in groups.items():
        for card in cards:
            if card is None:
                continue
            if card.is_joker:
                jokers.append(place)
                if len(jokers) > jokers_allowed:
                    where = join([place_words(p) for p in jokers], _p("seat list", " and "))
                    if jokers_allowed == 0:
                        said = _("too many jokers: the deck has no joker, seen in {where}", where=where)
                    else:
                        said = _n("too many jokers: the deck has {n} joker, seen in {where}",
                                  "too many jokers: the deck has {n} jokers, seen in {where}",
                                  jokers_allowed, n=jokers_allowed, where=where)
                    raise CardError(said, card)
                continue
            if card in seen:
                other = seen[card]
                if other == place:
                    said = _("duplicate card {card}: it is twice in {place}", card=str(card),
                             place=place_words(place))
                else:
                    said = _("duplicate card {card}: it is both in {other} and in {place}",
                             card=str(card), other=place_words(other), place=place_words(place))
                raise CardError(said, card)
            seen[card] = place


def place_words(place: Any) -> Any:
    """A place name of :func:`check_unique` in words: ``'board'`` and ``'seat 3'`` in each
    language; anything else (a message, a name) as it is."""
    if place == "board":
        return _("board")
    m = re.fullmatch(r"seat (\d+)", place) if isinstance(place, str) else None
    return seat(int(m.group(1))) if m else place
