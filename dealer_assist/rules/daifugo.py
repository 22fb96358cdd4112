"""Daifugo (大富豪), seed 002, as Casino Quest plays it: plays, the game state, the payout.

Pure: no I/O.  Four layers, each usable on its own:

* :class:`Meld` and :func:`interpretations`: what a set of cards can be (a single, a
  group of one rank, a stair of one suit), every joker standing for a declared card;
* :class:`Daifugo`: the house rules as named hooks (strength order, what beats what,
  revolution, suit lock, 8 clears, J reverses, forbidden finishes, decks, money);
  a variant overrides a few of them;
* :class:`State`: one game as an immutable state machine; :meth:`State.check` rules on
  a proposed play or pass and answers legal or not, why (English and Japanese), and
  the new state;
* :func:`payout`: the money at the end of a game, the next game's leader and the dead
  button.

How the seed is read (RULINGS.md, Daifugo; the seed's explicit text wins):

* strength 3 < 4 < ... < K < A < 2; a joker played alone beats everything, also during
  a revolution, and nothing beats it;
* a stair runs in that strength order (Q-K-A and K-A-2 are stairs, 2-3-4 is not);
  a stair follows a stair of the same length whose lowest rank is higher
  (the seed: on ♦4♦5♦6, a one-suit 5-6-7 or higher);
* suit lock: a play whose suit (sorted suits, for a group) equals that of ANY play
  already on the field this round locks the round to it (♥3 → ♠4 → ♣6 → ♠9 locks ♠);
* a joker with other cards stands for the card its player declares; the declaration
  is required whenever more than one reading is legal (the suit of a joker in a group
  always matters for the lock, the end of a stair for its strength);
* the forbidden finish is judged by the revolution in force when the cards are put
  down (a last play of 2222 is refused; a last play of 3333 outside a revolution is
  allowed although it starts one);
* a leader whose one remaining card may not finish (a joker, 2 or 8; in a revolution
  a joker, 3 or 8) has nothing legal to lead: it passes and the next seat leads (the
  seed is silent; this avoids a deadlock).

>>> s = State.new([1, 2, 3], {1: "3h 9s Ks", 2: "4s Td 2d", 3: "6c 9h Qs"}, leader=1)
>>> s = s.play(1, "3h").play(2, "4s").play(3, "6c")
>>> r = s.check(Move.put(1, "9s"))
>>> r.legal, r.events, r.state.turn
(True, ('lock',), 2)
>>> r = r.state.check(Move.put(2, "Td"))
>>> r.legal, r.reason
(False, 'the round is locked to ♠: only ♠ may be played until the field clears')
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from dataclasses import field as _dc_field
from itertools import combinations_with_replacement
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from dealer_assist.cards import DECK_52 as _ALL_52, JOKER, Card, CardError, Rank, Suit, parse_card
from dealer_assist.i18n import Said, Text, _, _p, both, join, lines as render_lines, message_of, typed
from dealer_assist.rules.errors import MAX_CHIPS, MAX_SEAT, RuleError

__all__ = [
    "STRENGTH_ORDER", "Kind", "Meld", "interpretations", "Daifugo", "CASINO_QUEST",
    "Move", "FieldPlay", "Ruling", "State", "Payout", "payout", "suit_text",
]

#: Ranks from weakest to strongest outside a revolution (seed: ジョーカー>2>1>K>...>4>3).
STRENGTH_ORDER: tuple[Rank, ...] = (
    Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE,
    Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO,
)
_POS = {r: i for i, r in enumerate(STRENGTH_ORDER)}
_LONE_JOKER_POS = len(STRENGTH_ORDER)

_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def suit_text(suits: Sequence[Suit]) -> str:
    """Glyphs of a suit signature: ``'♠'``, ``'♥♠'``.

    >>> suit_text((Suit.HEARTS, Suit.SPADES))
    '♠♥'
    """
    return "".join(s.glyph for s in sorted(suits, key=_SUIT_ORDER.index))


def _rank_name(rank: Rank) -> str:
    return "10" if rank == Rank.TEN else rank.symbol


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


#: How a card is named in a daifugo ruling: ``9h`` / ``♥9`` (the rank 10 is ``10`` in Japanese).
_SUIT_WORDS = {Suit.SPADES: _p("daifugo suit", "s"), Suit.HEARTS: _p("daifugo suit", "h"),
               Suit.DIAMONDS: _p("daifugo suit", "d"), Suit.CLUBS: _p("daifugo suit", "c")}
_TEN = _p("daifugo rank", "T")


def _card_word(card: Card) -> Text:
    """A card in a ruling's words: ``Th`` / ``♥10``."""
    rank = _TEN if card.rank == Rank.TEN else card.rank.symbol
    return _p("daifugo card", "{rank}{suit}", rank=rank, suit=_SUIT_WORDS[card.suit])


def _sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Weakest first by the normal strength order, jokers last; suits ♠ ♥ ♦ ♣ within a rank."""
    return tuple(sorted(cards, key=lambda c: (_LONE_JOKER_POS, 0) if c.is_joker
                        else (_POS[c.rank], _SUIT_ORDER.index(c.suit))))


# --------------------------------------------------------------------------- melds

class Kind(str, enum.Enum):
    """The three shapes of a play; a lone joker is a single."""

    SINGLE = "single"
    GROUP = "group"
    STAIR = "stair"


@dataclass(frozen=True, slots=True)
class Meld:
    """A play as it counts: the cards put down and what each one stands for.

    ``cards`` are the cards as put down (jokers as ``JK``), ``declared`` what the jokers
    among them stand for (empty for a lone joker, which is itself: the strongest card),
    ``as_cards`` the play read with the declarations.  ``low`` is the strength position
    (0 = 3 ... 12 = 2; 13 = lone joker) of its lowest rank in the normal order.

    >>> m = interpretations(_cards("9h Th JK"))
    >>> [(x.kind.value, _cards_text(x.as_cards)) for x in m]
    [('stair', '8h 9h Th'), ('stair', '9h Th Jh')]
    >>> m[1].describe(), m[1].describe_ja()
    ('stair 9h-Th-Jh (JK as Jh)', '階段 ♥9-♥10-♥J（ジョーカーは♥J）')
    """

    kind: Kind
    cards: tuple[Card, ...]
    declared: tuple[Card, ...]
    as_cards: tuple[Card, ...]
    low: int

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def lone_joker(self) -> bool:
        return self.size == 1 and self.cards[0].is_joker

    @property
    def jokers(self) -> int:
        return sum(1 for c in self.cards if c.is_joker)

    @property
    def ranks(self) -> frozenset:
        return frozenset(c.rank for c in self.as_cards if not c.is_joker)

    @property
    def signature(self) -> tuple[Suit, ...]:
        """The suits the lock compares: one suit for a single or a stair, the sorted
        suits of a group; empty for a lone joker (it neither forms nor breaks a lock)."""
        if self.lone_joker:
            return ()
        if self.kind is Kind.STAIR:
            return (self.as_cards[0].suit,)
        return tuple(sorted((c.suit for c in self.as_cards), key=_SUIT_ORDER.index))

    def description(self) -> Text:
        """The play in words (the catalogues'): ``single 9s`` / ``♠9のシングル``."""
        if self.lone_joker:
            return _("joker alone")
        cards = self.as_cards
        if self.kind is Kind.SINGLE:
            text = _("single {card}", card=_card_word(cards[0]))
        elif self.kind is Kind.GROUP:
            rank, shown = _rank_name(cards[0].rank), join([_card_word(c) for c in cards], " ")
            if self.size == 2:
                text = _("pair of {rank}s ({cards})", rank=rank, cards=shown)
            elif self.size == 3:
                text = _("three of {rank}s ({cards})", rank=rank, cards=shown)
            elif self.size == 4:
                text = _("four of {rank}s ({cards})", rank=rank, cards=shown)
            else:
                text = _("{n} of {rank}s ({cards})", n=self.size, rank=rank, cards=shown)
        else:
            text = _("stair {cards}", cards=join([_card_word(c) for c in cards], "-"))
        if self.declared:
            return _("{play} ({jokers})", play=text,
                     jokers=join([_("JK as {card}", card=_card_word(c)) for c in self.declared],
                                 _p("daifugo list", ", ")))
        return text

    def describe(self) -> str:
        return both(self.description())[0]

    def describe_ja(self) -> str:
        return both(self.description())[1]

    @classmethod
    def from_json(cls, obj: Any) -> "Meld":
        """The play its JSON names (its cards and what its jokers stand for), read again from the
        cards' readings (:func:`interpretations`); :class:`RuleError` when it is none of them.

        >>> m = interpretations(_cards("9h Th JK"))[1]
        >>> Meld.from_json(m.to_json()) == m
        True
        """
        if not isinstance(obj, Mapping):
            raise RuleError(_("a play is a JSON object, not {type}", type=type(obj).__name__), field="play")
        cards = _read_cards(obj.get("cards"), "play.cards", None)
        declared = tuple(_read_cards(obj.get("jokers") or [], "play.jokers", None))
        for meld in interpretations(cards):
            if meld.kind.value == obj.get("kind") and meld.declared == declared and \
                    [str(c) for c in meld.as_cards] == list(obj.get("as") or [str(c) for c in meld.as_cards]):
                return meld
        raise RuleError(_("{cards} cannot be read as the {kind} it names", cards=_cards_text(cards),
                          kind=typed(obj.get('kind'))), field="play")

    def to_json(self) -> dict:
        return {
            "kind": self.kind.value,
            "cards": [str(c) for c in self.cards],
            "jokers": [str(c) for c in self.declared],
            "as": [str(c) for c in self.as_cards],
            "description": self.describe(),
            "description_ja": self.describe_ja(),
        }


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def interpretations(cards: Sequence[Card]) -> list[Meld]:
    """Every reading of ``cards`` as one play, jokers standing for any card that fits.

    A lone joker has one reading (itself); a group's jokers take its rank and any suit
    (two jokers with ``7h``: ``7h 7h 7s``, ``7h 7s 7s``, ... are distinct readings for the
    lock); a stair's jokers fill the gaps or extend either end, in the stair's suit.
    No readings: the cards are no play at all.

    >>> [_cards_text(m.as_cards) for m in interpretations(_cards("9h JK Jh"))]
    ['9h Th Jh']
    >>> len(interpretations(_cards("7h JK"))), interpretations(_cards("7h 8h"))
    (4, [])
    >>> [m.kind.value for m in interpretations(_cards("JK"))]
    ['single']
    """
    cards = tuple(cards)
    n = len(cards)
    if n == 0:
        return []
    naturals = [c for c in cards if not c.is_joker]
    k = n - len(naturals)
    if n == 1 and k == 1:
        return [Meld(Kind.SINGLE, cards, (), cards, _LONE_JOKER_POS)]
    put = _sort_cards(cards)
    out: list[Meld] = []
    ranks = {c.rank for c in naturals}
    if len(ranks) <= 1:
        kind = Kind.SINGLE if n == 1 else Kind.GROUP
        for rank in (sorted(ranks, key=_POS.get) if ranks else STRENGTH_ORDER):
            for suits in combinations_with_replacement(_SUIT_ORDER, k):
                declared = _sort_cards(Card(rank, s) for s in suits)
                as_cards = _sort_cards(naturals + list(declared))
                out.append(Meld(kind, put, declared, as_cards, _POS[rank]))
    suits = {c.suit for c in naturals}
    if n >= 3 and len(suits) <= 1 and len(ranks) == len(naturals):
        for suit in (sorted(suits, key=_SUIT_ORDER.index) if suits else _SUIT_ORDER):
            for start in range(len(STRENGTH_ORDER) - n + 1):
                window = STRENGTH_ORDER[start:start + n]
                if not ranks <= set(window):
                    continue
                declared = tuple(Card(r, suit) for r in window if r not in ranks)
                as_cards = tuple(Card(r, suit) for r in window)
                out.append(Meld(Kind.STAIR, put, declared, as_cards, start))
    return out


# --------------------------------------------------------------------------- rules

@dataclass(frozen=True)
class _Fail:
    """Why one reading of a play is illegal; ``stage`` orders how close it came."""

    stage: int
    why: Text

    @property
    def en(self) -> str:
        return both(self.why)[0]

    @property
    def ja(self) -> str:
        return both(self.why)[1]


class Daifugo:
    """The house rules of seed 002 (Casino Quest), as named hooks a variant may override.

    >>> r = CASINO_QUEST
    >>> r.decks_for(5), r.decks_for(6), r.jokers_for(6)
    (1, 2, 4)
    >>> sorted(x.symbol for x in r.forbidden_finish_ranks(False)), sorted(x.symbol for x in r.forbidden_finish_ranks(True))
    (['2', '8'], ['3', '8'])
    """

    name = "daifugo"
    min_players = 3
    max_players = 9
    hand_size = 10
    jokers_per_deck = 2
    ante = 5
    per_card = 5
    rake_per_player = 2
    min_chips = 50

    # -- decks
    def decks_for(self, players: int) -> int:
        """One 54-card deck (2 jokers); two when six or more play, the dealer included."""
        return 2 if players >= 6 else 1

    def jokers_for(self, players: int) -> int:
        return self.jokers_per_deck * self.decks_for(players)

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """Every card in play: 54 (52 + 2 jokers) per deck.  Ten are dealt to each player;
        the rest stay face down, unused.

        >>> len(CASINO_QUEST.deck_for(5)), len(CASINO_QUEST.deck_for(9))
        (54, 108)
        """
        one = tuple(c for c in _ALL_52) + (JOKER,) * self.jokers_per_deck
        return one * self.decks_for(players)

    # -- special plays
    def is_revolution(self, meld: Meld) -> bool:
        """Four or more cards at once (a group or a stair, jokers included)."""
        return meld.size >= 4

    def clears_field(self, meld: Meld) -> bool:
        """8切り: any play with an 8 in it (a joker declared as an 8 counts)."""
        return Rank.EIGHT in meld.ranks

    def reverses(self, meld: Meld) -> bool:
        """Jリバース: any play with a J in it (a joker declared as a J counts)."""
        return Rank.JACK in meld.ranks

    def forbidden_finish_ranks(self, revolution: bool) -> frozenset:
        """Ranks a player may not go out with (the joker always counts as forbidden)."""
        return frozenset({Rank.THREE, Rank.EIGHT}) if revolution else frozenset({Rank.TWO, Rank.EIGHT})

    def forbidden_finish(self, meld: Meld, revolution: bool) -> Optional[_Fail]:
        bad = self.forbidden_finish_ranks(revolution)
        if meld.jokers or any(c.rank in bad for c in meld.cards if not c.is_joker):
            if revolution:
                return _Fail(5, _("forbidden finish: a player may not go out during a revolution with a play "
                                  "containing a joker, 3 or 8"))
            return _Fail(5, _("forbidden finish: a player may not go out with a play containing a joker, 2 or 8"))
        return None

    # -- following
    def stronger(self, new: Meld, old: Meld, revolution: bool) -> bool:
        """Whether ``new`` beats ``old`` of the same kind and size."""
        if old.lone_joker:
            return False
        if new.lone_joker:
            return True
        return new.low < old.low if revolution else new.low > old.low

    def follow_failure(self, new: Meld, top: Meld, revolution: bool) -> Optional[_Fail]:
        """Why ``new`` cannot be played on ``top``; ``None`` if it can (the lock aside)."""
        kinds = {Kind.SINGLE: _("a single card"), Kind.GROUP: _("{n} cards of one rank", n=top.size),
                 Kind.STAIR: _("a stair of {n}", n=top.size)}
        if new.kind is not top.kind or new.size != top.size:
            stage = 1 if new.kind is not top.kind else 2
            return _Fail(stage, _("the field holds {top}: only {kind} may follow", top=top.description(),
                                  kind=kinds[top.kind]))
        if not self.stronger(new, top, revolution):
            if top.lone_joker:
                return _Fail(3, _("nothing beats a joker played alone"))
            if revolution:
                return _Fail(3, _("{new} does not beat {top} (revolution: lower ranks are stronger)",
                                  new=new.description(), top=top.description()))
            return _Fail(3, _("{new} does not beat {top}", new=new.description(), top=top.description()))
        return None

    # -- suit lock
    def lock_after(self, meld: Meld, field: Sequence["FieldPlay"], lock: Optional[tuple]) -> Optional[tuple]:
        """The lock after ``meld`` joins ``field``: it forms when the play's suits equal
        those of ANY play already on the field this round; it lasts until the field clears."""
        if lock is not None or not meld.signature:
            return lock
        if any(p.meld.signature == meld.signature for p in field):
            return meld.signature
        return None

    def lock_failure(self, meld: Meld, lock: Optional[tuple]) -> Optional[_Fail]:
        if lock is None or meld.lone_joker or meld.signature == lock:
            return None
        return _Fail(4, _("the round is locked to {suits}: only {suits} may be played until the field clears",
                          suits=suit_text(lock)))


CASINO_QUEST = Daifugo()


# --------------------------------------------------------------------------- moves and state

@dataclass(frozen=True, slots=True)
class Move:
    """A proposed action: cards put down (with declarations for jokers), or a pass.

    >>> Move.put(2, "9h Th JK", jokers="Jh")
    Move(seat=2, cards=(Card('9h'), Card('Th'), Card('JK')), jokers=(Card('Jh'),))
    >>> Move.pass_(3).is_pass
    True
    """

    seat: int
    cards: tuple[Card, ...] = ()
    jokers: Optional[tuple[Card, ...]] = None

    @property
    def is_pass(self) -> bool:
        return not self.cards

    @classmethod
    def put(cls, seat: int, cards: Union[str, Iterable], jokers: Union[None, str, Iterable] = None) -> "Move":
        cards = _read_cards(cards, "cards", seat)
        if not cards:
            raise RuleError(_("a play needs at least one card (or \"pass\": true)"), field="cards", seat=seat)
        declared = None if jokers is None else _read_cards(jokers, "jokers", seat)
        if declared is not None:
            if any(c.is_joker for c in declared):
                raise RuleError(_("a joker is declared as a card (e.g. 7s), not as JK"), field="jokers", seat=seat)
            count = sum(1 for c in cards if c.is_joker)
            if count == 0 and declared:
                raise RuleError(_("declarations given for a play with no joker"), field="jokers", seat=seat)
            if len(declared) != count and not (count == 1 and len(cards) == 1 and not declared):
                raise RuleError(_("{n} declaration(s) for {count} joker(s): give one card per joker",
                                  n=len(declared), count=count), field="jokers", seat=seat)
        return cls(seat, cards, declared)

    @classmethod
    def pass_(cls, seat: int) -> "Move":
        return cls(seat)

    @classmethod
    def from_json(cls, obj: Any) -> "Move":
        if not isinstance(obj, Mapping):
            raise RuleError(_("a play is a JSON object, not {type}", type=type(obj).__name__), field="play")
        unknown = set(obj) - {"seat", "cards", "jokers", "pass"}
        if unknown:
            raise RuleError(_("unknown field(s) {fields}; a play has seat, cards, jokers or pass",
                              fields=", ".join(sorted(unknown))), field="play")
        seat = _read_seat(obj.get("seat"), "play.seat")
        passing = obj.get("pass", False)
        if not isinstance(passing, bool):
            raise RuleError(_("pass is true or false"), field="pass", seat=seat)
        if passing:
            if obj.get("cards"):
                raise RuleError(_("a play is either cards or a pass, not both"), field="play", seat=seat)
            return cls.pass_(seat)
        if "cards" not in obj:
            raise RuleError(_("a play needs \"cards\" (or \"pass\": true)"), field="play", seat=seat)
        return cls.put(seat, obj["cards"], obj.get("jokers"))

    def to_json(self) -> dict:
        if self.is_pass:
            return {"seat": self.seat, "pass": True}
        out: dict = {"seat": self.seat, "cards": [str(c) for c in self.cards]}
        if self.jokers:
            out["jokers"] = [str(c) for c in self.jokers]
        return out


@dataclass(frozen=True, slots=True)
class FieldPlay:
    """A play lying on the field this round, and who made it."""

    seat: int
    meld: Meld

    def to_json(self) -> dict:
        return {"seat": self.seat, **self.meld.to_json()}


@dataclass(frozen=True, slots=True)
class Ruling:
    """The answer to :meth:`State.check`.  An illegal move leaves ``state`` unchanged."""

    legal: bool
    reason: str
    reason_ja: str
    state: "State"
    move: Move
    meld: Optional[Meld] = None
    events: tuple[str, ...] = ()
    options: tuple[Meld, ...] = ()

    def to_json(self) -> dict:
        out = {"legal": self.legal, "reason": self.reason, "reason_ja": self.reason_ja,
               "move": self.move.to_json(), "play": self.meld.to_json() if self.meld else None,
               "events": list(self.events), "state": self.state.to_json()}
        if self.options:
            out["options"] = [[str(c) for c in m.declared] for m in self.options]
        return out


_EVENT_TEXT = {
    "pass": _("passes"),
    "lock": _("suit lock"),
    "revolution": _("revolution: 3 is now strongest and 2 weakest (a lone joker stays strongest)"),
    "revolution_ends": _("counter-revolution: normal order again"),
    "reverse": _("J reverse: the order of play turns around"),
    "eight_clear": _("8 clears the field; the same player leads"),
    "field_cleared": _("everyone else passed: the field clears and the last player leads"),
    "lead_passes": _("the leader cannot play: the lead passes on"),
    "win": _("out of cards: wins the game, which ends now"),
}


@dataclass(frozen=True, slots=True)
class State:
    """One game of daifugo, between moves.

    ``seats`` in clockwise order (the dealer plays too); ``hands`` per seat (``None`` is a
    card nobody at the desk can see, written ``??``); ``turn`` the seat to act;
    ``clockwise`` False after an odd number of J plays; ``field`` the plays of this
    round, oldest first; ``passed`` the seats that passed this round; ``lock`` the suits
    the round is locked to; ``winner`` the seat that went out (the game is over).
    """

    seats: tuple[int, ...]
    hands: Mapping[int, tuple[Optional[Card], ...]]
    turn: Optional[int]
    clockwise: bool = True
    revolution: bool = False
    field: tuple[FieldPlay, ...] = ()
    passed: frozenset = frozenset()
    lock: Optional[tuple[Suit, ...]] = None
    winner: Optional[int] = None
    rules: Daifugo = _dc_field(default=CASINO_QUEST, compare=False, repr=False)

    # -- construction
    @classmethod
    def new(cls, seats: Sequence[int], hands: Mapping[int, Any], leader: int,
            rules: Daifugo = CASINO_QUEST) -> "State":
        """The state at the start of a game: ``leader`` (the dealer at a new table, else the
        last winner, or the dead button's seat) to lead on an empty field."""
        return cls.from_json({"seats": list(seats), "hands": {str(k): v for k, v in hands.items()},
                              "turn": leader}, rules)

    @property
    def decks(self) -> int:
        return self.rules.decks_for(len(self.seats))

    @property
    def top(self) -> Optional[FieldPlay]:
        return self.field[-1] if self.field else None

    def next_seat(self, seat: int, clockwise: bool, skip: Iterable[int] = ()) -> Optional[int]:
        """The next seat after ``seat`` in the direction of play, skipping ``skip``."""
        skip = set(skip)
        n = len(self.seats)
        i = self.seats.index(seat)
        step = 1 if clockwise else -1
        for k in range(1, n):
            s = self.seats[(i + step * k) % n]
            if s not in skip:
                return s
        return None

    # -- moves
    def play(self, seat: int, cards: Union[str, Iterable], jokers: Union[None, str, Iterable] = None) -> "State":
        """The state after a legal play; :class:`RuleError` (the ruling's reason, in each language)
        if illegal."""
        return self.apply(Move.put(seat, cards, jokers))

    def pass_(self, seat: int) -> "State":
        return self.apply(Move.pass_(seat))

    def apply(self, move: Move) -> "State":
        r = self.check(move)
        if not r.legal:
            raise RuleError(Said(r.reason, r.reason_ja), seat=move.seat)
        return r.state

    def check(self, move: Move) -> Ruling:
        """Rule on ``move``: legal or not, why, and the state after it.

        Illegal moves are normal answers; a move no table could produce (a seat that is
        not at the table, cards the seat does not hold) raises :class:`RuleError`.
        """
        seat = move.seat
        if seat not in self.seats:
            raise RuleError(_("seat {seat} is not at this table (seats {seats})", seat=seat,
                              seats=", ".join(map(str, self.seats))), field="play.seat")

        def no(why: Text, meld: Optional[Meld] = None, options: tuple = ()) -> Ruling:
            return Ruling(False, *both(why), self, move, meld, (), options)

        if self.winner is not None:
            return no(_("the game is over: seat {seat} went out", seat=self.winner))
        if seat != self.turn:
            return no(_("it is seat {turn}'s turn, not seat {seat}'s", turn=self.turn, seat=seat))
        if move.is_pass:
            return self._pass(move, no)
        hand = self.hands[seat]
        rest = _take(hand, move.cards, seat)
        self._check_copies(move)
        readings = interpretations(move.cards)
        if not readings:
            return no(_("{cards} is no play: play one card, two or more of one rank, or a stair of three or "
                        "more consecutive ranks in one suit", cards=_cards_text(move.cards)))
        lone = readings[0].lone_joker
        if move.jokers is not None and not lone:
            want = _sort_cards(move.jokers)
            readings = [m for m in readings if m.declared == want]
            if not readings:
                return no(_("with the joker(s) as {jokers}, {cards} is no play (one rank, or consecutive ranks "
                            "in one suit)", jokers=_cards_text(move.jokers), cards=_cards_text(move.cards)))
        elif lone and move.jokers:
            return no(_("a joker played alone is always the strongest card: it stands for no other card"))
        fails: list[_Fail] = []
        legal: list[Meld] = []
        for meld in readings:
            fail = self._failure(meld, finishing=not rest)
            if fail is None:
                legal.append(meld)
            else:
                fails.append(fail)
        if not legal:
            worst = max(fails, key=lambda f: f.stage)
            return no(worst.why, readings[0] if len(readings) == 1 else None)
        if len(legal) > 1:
            opts = ", ".join(_cards_text(m.declared) for m in legal[:12])
            if len(legal) > 12:
                why = _("say what the joker stands for: it matters here (legal readings: {opts} and {n} more)",
                        opts=opts, n=len(legal) - 12)
            else:
                why = _("say what the joker stands for: it matters here (legal readings: {opts})", opts=opts)
            return no(why, None, tuple(legal))
        return self._put(move, legal[0], rest)

    def _check_copies(self, move: Move) -> None:
        """A card played from unseen cards (``??``) must not be one whose every copy is
        already seen elsewhere (another hand, the field)."""
        for card in set(move.cards):
            limit = self.rules.jokers_for(len(self.seats)) if card.is_joker else self.decks
            places: list = [_("seat {seat}'s hand", seat=s) for s in self.seats if s != move.seat
                            for c in self.hands[s] if c == card]
            places += [_("the field") for p in self.field for c in p.meld.cards if c == card]
            own = sum(1 for c in self.hands[move.seat] if c == card)
            played = sum(1 for c in move.cards if c == card)
            if len(places) + max(own, played) > limit:
                raise RuleError(_("{card} is already in {place}: the {decks} deck(s) have {limit} of it",
                                  card=str(card), place=places[0], decks=self.decks, limit=limit),
                                field="play.cards", seat=move.seat)

    def _failure(self, meld: Meld, finishing: bool) -> Optional[_Fail]:
        top = self.top
        fail = None
        if top is not None:
            fail = self.rules.follow_failure(meld, top.meld, self.revolution)
        if fail is None:
            fail = self.rules.lock_failure(meld, self.lock)
        if fail is None and finishing:
            fail = self.rules.forbidden_finish(meld, self.revolution)
        return fail

    def _pass(self, move: Move, no) -> Ruling:
        if not self.field:
            hand = self.hands[move.seat]
            stuck = (len(hand) == 1 and hand[0] is not None and self.rules.forbidden_finish(
                interpretations(hand)[0], self.revolution) is not None)
            if not stuck:
                return no(_("the field is empty: the leader must play a card, not pass"))
            nxt = self.next_seat(move.seat, self.clockwise)
            st = replace(self, turn=nxt)
            return Ruling(True, *both(_("seat {seat}'s last card {card} cannot finish (forbidden finish) and "
                                        "there is nothing else to lead: seat {next} leads instead",
                                        seat=move.seat, card=str(hand[0]), next=nxt)),
                          st, move, None, ("pass", "lead_passes"))
        passed = self.passed | {move.seat}
        last = self.top.seat
        nxt = self.next_seat(move.seat, self.clockwise, passed)
        if nxt is None or nxt == last:
            st = replace(self, field=(), passed=frozenset(), lock=None, turn=last)
            return Ruling(True, *both(_("seat {seat} passes; everyone else has passed: the field clears and "
                                        "seat {last} leads", seat=move.seat, last=last)),
                          st, move, None, ("pass", "field_cleared"))
        st = replace(self, passed=passed, turn=nxt)
        return Ruling(True, *both(_("seat {seat} passes (and may not play again until the field clears); "
                                    "seat {next} to act", seat=move.seat, next=nxt)), st, move, None,
                      ("pass",))

    def _put(self, move: Move, meld: Meld, rest: tuple) -> Ruling:
        rules, seat = self.rules, move.seat
        events: list[str] = []
        hands = dict(self.hands)
        hands[seat] = rest
        lock = rules.lock_after(meld, self.field, self.lock)
        if lock is not None and self.lock is None:
            events.append("lock")
        revolution = self.revolution
        if rules.is_revolution(meld):
            revolution = not revolution
            events.append("revolution" if revolution else "revolution_ends")
        clockwise = self.clockwise
        if rules.reverses(meld):
            clockwise = not clockwise
            events.append("reverse")
        field = self.field + (FieldPlay(seat, meld),)
        if not rest:
            events.append("win")
            st = replace(self, hands=hands, turn=None, field=field, lock=lock, revolution=revolution,
                         clockwise=True, winner=seat)
        elif rules.clears_field(meld):
            if "lock" in events:
                events.remove("lock")
            events.append("eight_clear")
            st = replace(self, hands=hands, turn=seat, field=(), passed=frozenset(), lock=None,
                         revolution=revolution, clockwise=clockwise)
        else:
            nxt = self.next_seat(seat, clockwise, self.passed)
            if nxt is None:
                events.append("field_cleared")
                st = replace(self, hands=hands, turn=seat, field=(), passed=frozenset(), lock=None,
                             revolution=revolution, clockwise=clockwise)
            else:
                st = replace(self, hands=hands, turn=nxt, field=field, lock=lock,
                             revolution=revolution, clockwise=clockwise)
        if self.top is not None:
            said: list = [_("legal: seat {seat} plays {play} on {top}", seat=seat, play=meld.description(),
                            top=self.top.meld.description())]
        else:
            said = [_("legal: seat {seat} plays {play}", seat=seat, play=meld.description())]
        for e in events:
            if e == "lock":
                said.append(_("suit lock to {suits} (it matches a play already on the field)",
                              suits=suit_text(lock)))
            else:
                said.append(_EVENT_TEXT[e])
        if st.winner is None:
            said.append(_("seat {seat} to act", seat=st.turn))
        return Ruling(True, *both(join(said, _p("daifugo reasons", "; "))), st, move, meld, tuple(events))

    # -- JSON
    def to_json(self) -> dict:
        return {
            "seats": list(self.seats),
            "hands": {str(s): [("??" if c is None else str(c)) for c in self.hands[s]] for s in self.seats},
            "turn": self.turn,
            "direction": "clockwise" if self.clockwise else "counterclockwise",
            "revolution": self.revolution,
            "field": [p.to_json() for p in self.field],
            "passed": sorted(self.passed, key=self.seats.index),
            "lock": None if self.lock is None else [s.symbol for s in self.lock],
            "decks": self.decks,
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, obj: Any, rules: Daifugo = CASINO_QUEST) -> "State":
        """Read and check a state (see docs/daifugo.md); :class:`RuleError` names the field."""
        if not isinstance(obj, Mapping):
            raise RuleError(_("a state is a JSON object, not {type}", type=type(obj).__name__), field="state")
        known = {"seats", "hands", "turn", "direction", "revolution", "field", "passed", "lock",
                 "decks", "winner"}
        unknown = set(obj) - known
        if unknown:
            raise RuleError(_("unknown field(s) {fields}; a state has {known}", fields=", ".join(sorted(unknown)),
                              known=", ".join(sorted(known))), field="state")
        seats_raw = obj.get("seats")
        if not isinstance(seats_raw, list) or not seats_raw:
            raise RuleError(_("a list of seat numbers in clockwise order is required"), field="seats")
        seats = tuple(_read_seat(s, "seats") for s in seats_raw)
        if len(set(seats)) != len(seats):
            raise RuleError(_("a seat appears twice"), field="seats")
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise RuleError(_("{n} players: daifugo is played by {low} to {high}, the dealer included",
                              n=len(seats), low=rules.min_players, high=rules.max_players), field="seats")
        decks = rules.decks_for(len(seats))
        if "decks" in obj and obj["decks"] != decks:
            raise RuleError(_("{n} players use {decks} deck(s), not {got}", n=len(seats), decks=decks,
                              got=typed(obj['decks'])), field="decks")
        hands_raw = obj.get("hands")
        if not isinstance(hands_raw, Mapping):
            raise RuleError(_("an object seat -> cards is required"), field="hands")
        hands: dict[int, tuple] = {}
        for key, cards in hands_raw.items():
            s = _read_seat(key, "hands")
            if s not in seats:
                raise RuleError(_("seat {seat} is not in seats", seat=s), field="hands")
            hand = _read_cards(cards, "hands", s, allow_hidden=True)
            if len(hand) > rules.hand_size:
                raise RuleError(_("{n} cards: a hand is dealt {size}", n=len(hand), size=rules.hand_size),
                                field="hands", seat=s)
            hands[s] = hand
        missing = [s for s in seats if s not in hands]
        if missing:
            raise RuleError(_("no hand for seat(s) {seats} (use \"??\" for unseen cards)",
                              seats=", ".join(map(str, missing))), field="hands")
        direction = obj.get("direction", "clockwise")
        if direction not in ("clockwise", "counterclockwise"):
            raise RuleError(_("{got}: direction is \"clockwise\" or \"counterclockwise\"", got=typed(direction)),
                            field="direction")
        revolution = obj.get("revolution", False)
        if not isinstance(revolution, bool):
            raise RuleError(_("revolution is true or false"), field="revolution")
        winner = obj.get("winner")
        if winner is not None:
            winner = _read_seat(winner, "winner")
            if winner not in seats:
                raise RuleError(_("seat {seat} is not in seats", seat=winner), field="winner")
            if hands[winner]:
                raise RuleError(_("the winner has no cards left"), field="winner", seat=winner)
        else:
            empty = [s for s in seats if not hands[s]]
            if empty:
                raise RuleError(_("seat {seat} has no cards: the game is over; give \"winner\"", seat=empty[0]),
                                field="hands", seat=empty[0])
        turn = obj.get("turn")
        if winner is None:
            turn = _read_seat(turn, "turn")
            if turn not in seats:
                raise RuleError(_("seat {seat} is not in seats", seat=turn), field="turn")
        elif turn is not None:
            raise RuleError(_("the game is over: turn is null"), field="turn")
        field_raw = obj.get("field", [])
        if not isinstance(field_raw, list):
            raise RuleError(_("a list of the plays of this round, oldest first"), field="field")
        plays: list[FieldPlay] = []
        for i, p in enumerate(field_raw):
            plays.append(_read_field_play(p, i, seats))
        passed_raw = obj.get("passed", [])
        if not isinstance(passed_raw, list):
            raise RuleError(_("a list of seats"), field="passed")
        passed = frozenset(_read_seat(s, "passed") for s in passed_raw)
        if not passed <= set(seats):
            raise RuleError(_("a seat that is not at the table"), field="passed")
        if plays and plays[-1].seat in passed:
            raise RuleError(_("seat {seat} made the last play and cannot have passed", seat=plays[-1].seat),
                            field="passed")
        if not plays and passed:
            raise RuleError(_("nobody passes on an empty field"), field="passed")
        if turn is not None and turn in passed:
            raise RuleError(_("seat {seat} passed this round and cannot be the seat to act", seat=turn), field="turn")
        lock = _replay_field(plays, revolution, rules)
        if "lock" in obj:
            given = obj["lock"]
            given_sig = None if given is None else _read_suits(given)
            if given_sig != lock:
                have = _("none") if lock is None else suit_text(lock)
                raise RuleError(_("the field's plays give the lock {have}, not {given}", have=have,
                                  given=typed(given)), field="lock")
        counts: dict[Card, int] = {}
        for s in seats:
            for c in hands[s]:
                if c is not None:
                    counts[c] = counts.get(c, 0) + 1
        for p in plays:
            for c in p.meld.cards:
                counts[c] = counts.get(c, 0) + 1
        for c, n in counts.items():
            limit = rules.jokers_for(len(seats)) if c.is_joker else decks
            if n > limit:
                if c.is_joker:
                    why = _("{card} appears {n} times in hands and field: {players} players use {decks} "
                            "deck(s), with {limit} jokers", card=str(c), n=n, players=len(seats), decks=decks,
                            limit=limit)
                else:
                    why = _("{card} appears {n} times in hands and field: {players} players use {decks} "
                            "deck(s), with {limit} {card}", card=str(c), n=n, players=len(seats), decks=decks,
                            limit=limit)
                raise RuleError(why, field="hands")
        return cls(seats, hands, turn, direction == "clockwise", revolution, tuple(plays), passed,
                   lock, winner, rules)


def _take(hand: tuple, cards: Sequence[Card], seat: int) -> tuple:
    """``hand`` less ``cards``; a card not seen in the hand uses up a hidden ``??``."""
    rest = list(hand)
    for c in cards:
        if c in rest:
            rest.remove(c)
        elif None in rest:
            rest.remove(None)
        else:
            raise RuleError(_("seat {seat} does not hold {card} (hand: {hand})", seat=seat, card=str(c),
                              hand=" ".join("??" if x is None else str(x) for x in hand)),
                            field="play.cards", seat=seat)
    return tuple(rest)


def _read_seat(value: Any, fieldname: str) -> int:
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() \
            and len(value.strip()) <= 6:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SEAT:
        raise RuleError(_("{value} is not a seat number (1 to {max})", value=typed(value), max=MAX_SEAT),
                        field=fieldname)
    return value


def _read_cards(value: Any, fieldname: str, seat: Optional[int], allow_hidden: bool = False) -> tuple:
    if isinstance(value, str):
        tokens = value.replace(",", " ").split()
    elif isinstance(value, (list, tuple)):
        tokens = list(value)
    else:
        raise RuleError(_("a list of cards such as [\"7h\", \"JK\"], not {value}", value=typed(value)),
                        field=fieldname, seat=seat)
    try:
        return tuple(parse_card(t, allow_hidden=allow_hidden) for t in tokens)
    except CardError as exc:
        raise RuleError(message_of(exc), field=fieldname, seat=seat) from None


def _read_suits(value: Any) -> tuple:
    if isinstance(value, str):
        value = list(value)
    if not isinstance(value, list) or not value:
        raise RuleError(_("a list of suits such as [\"s\"] or [\"s\", \"h\"], or null"), field="lock")
    try:
        suits = [Suit.parse(v) for v in value]
    except CardError as exc:
        raise RuleError(message_of(exc), field="lock") from None
    return tuple(sorted(suits, key=_SUIT_ORDER.index))


def _read_field_play(obj: Any, i: int, seats: tuple) -> FieldPlay:
    where = f"field[{i}]"
    if not isinstance(obj, Mapping) or "cards" not in obj:
        raise RuleError(_("a play on the field is {\"seat\": N, \"cards\": [...], \"jokers\": [...]}"),
                        field=where)
    seat = _read_seat(obj.get("seat"), where + ".seat")
    if seat not in seats:
        raise RuleError(_("seat {seat} is not in seats", seat=seat), field=where)
    move = Move.put(seat, obj["cards"], obj.get("jokers"))
    readings = interpretations(move.cards)
    if move.jokers is not None and not (len(move.cards) == 1 and move.cards[0].is_joker):
        readings = [m for m in readings if m.declared == _sort_cards(move.jokers)]
    if not readings:
        raise RuleError(_("{cards} is no play", cards=_cards_text(move.cards)), field=where, seat=seat)
    if len(readings) > 1:
        raise RuleError(_("{cards}: say what the joker(s) stand for (\"jokers\")", cards=_cards_text(move.cards)),
                        field=where, seat=seat)
    return FieldPlay(seat, readings[0])


def _replay_field(plays: Sequence[FieldPlay], revolution: bool, rules: Daifugo) -> Optional[tuple]:
    """Check that the round's plays follow one another; the lock they make."""
    flips = sum(1 for p in plays if rules.is_revolution(p.meld))
    rev = revolution if flips % 2 == 0 else not revolution   # the revolution before the round's first play
    lock: Optional[tuple] = None
    for i, p in enumerate(plays):
        if rules.clears_field(p.meld):
            raise RuleError(_("{play} has an 8: it cleared the field and cannot lie on it", play=p.meld.description()),
                            field=f"field[{i}]", seat=p.seat)
        if i:
            fail = rules.follow_failure(p.meld, plays[i - 1].meld, rev) or rules.lock_failure(p.meld, lock)
            if fail is not None:
                raise RuleError(_("this round's plays do not follow: {why}", why=fail.why), field=f"field[{i}]",
                                seat=p.seat)
        lock = rules.lock_after(p.meld, plays[:i], lock)
        if rules.is_revolution(p.meld):
            rev = not rev
    return lock


# --------------------------------------------------------------------------- payout

@dataclass(frozen=True, slots=True)
class Payout:
    """The money at the end of a game, and who leads the next one.

    ``changes`` is each seat's signed change (the winner's includes its own ante);
    ``sum(changes.values()) + rake == 0``.
    """

    seats: tuple[int, ...]
    winner: int
    cards_left: Mapping[int, int]
    antes: Mapping[int, int]
    card_payments: Mapping[int, int]
    pot: int
    rake: int
    winner_takes: int
    changes: Mapping[int, int]
    next_leader: Optional[int]
    dead_button: bool
    chips_after: Optional[Mapping[int, int]]
    explanation: tuple[str, ...]
    explanation_ja: tuple[str, ...]

    def to_json(self) -> dict:
        out = {
            "winner": self.winner,
            "cards_left": {str(s): self.cards_left[s] for s in self.seats},
            "antes": {str(s): self.antes[s] for s in self.seats},
            "card_payments": {str(s): self.card_payments[s] for s in self.seats},
            "pot": self.pot, "rake": self.rake, "winner_takes": self.winner_takes,
            "payouts": {str(s): self.changes[s] for s in self.seats},
            "next_leader": self.next_leader, "dead_button": self.dead_button,
            "explanation": list(self.explanation), "explanation_ja": list(self.explanation_ja),
        }
        if self.chips_after is not None:
            out["chips_after"] = {str(s): self.chips_after[s] for s in self.seats}
        return out


def payout(seats: Sequence[int], winner: int, cards_left: Mapping[int, int], *,
           leaving: Iterable[int] = (), chips: Optional[Mapping[int, int]] = None,
           rules: Daifugo = CASINO_QUEST) -> Payout:
    """Settle a game: ante from everyone, the per-card payments, the rake, the winner's take.

    The next game is led by the winner; if the winner leaves the table, the dead button
    starts it from the winner's left (the next seat clockwise still at the table).

    >>> p = payout([1, 2, 3, 4], 2, {1: 3, 3: 10, 4: 1})
    >>> p.pot, p.rake, p.winner_takes, p.changes
    (90, 8, 82, {1: -20, 2: 77, 3: -55, 4: -10})
    >>> p = payout([1, 2, 3, 4], 2, {1: 3, 3: 10, 4: 1}, leaving=[2])
    >>> p.next_leader, p.dead_button
    (3, True)
    """
    seats = tuple(seats)
    if len(set(seats)) != len(seats):
        raise RuleError(_("a seat appears twice"), field="seats")
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise RuleError(_("{n} players: daifugo is played by {low} to {high}, the dealer included",
                          n=len(seats), low=rules.min_players, high=rules.max_players), field="seats")
    if winner not in seats:
        raise RuleError(_("seat {seat} is not in seats", seat=winner), field="winner")
    left: dict[int, int] = {}
    for s in seats:
        n = cards_left.get(s, 0 if s == winner else None)
        if n is None:
            raise RuleError(_("how many cards the seat still holds is missing"), field="cards_left", seat=s)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= rules.hand_size:
            raise RuleError(_("{got}: cards left is a whole number 0 to {size}", got=typed(n), size=rules.hand_size),
                            field="cards_left", seat=s)
        if s == winner and n:
            raise RuleError(_("the winner went out and holds no cards, not {n}", n=n), field="cards_left", seat=s)
        if s != winner and n == 0:
            raise RuleError(_("only the winner is out of cards: the game ends when the first player goes out"),
                            field="cards_left", seat=s)
        left[s] = n
    extra = set(cards_left) - set(seats)
    if extra:
        raise RuleError(_("seat {seat} is not in seats", seat=min(extra)), field="cards_left")
    leaving = set(leaving)
    if not leaving <= set(seats):
        raise RuleError(_("seat {seat} is not in seats", seat=min(leaving - set(seats))), field="leaving")
    if chips is not None:
        for s in seats:
            c = chips.get(s)
            if not isinstance(c, int) or isinstance(c, bool) or abs(c) > MAX_CHIPS:
                raise RuleError(_("chips before the game (a whole number up to {max}) are missing", max=MAX_CHIPS),
                                field="chips", seat=s)
            if c < rules.min_chips:
                raise RuleError(_("{chips}G: a seat needs at least {min}G to join a game", chips=c,
                                  min=rules.min_chips), field="chips", seat=s)
    antes = {s: rules.ante for s in seats}
    card_payments = {s: rules.per_card * left[s] for s in seats}
    pot = sum(antes.values()) + sum(card_payments.values())
    rake = rules.rake_per_player * len(seats)
    takes = pot - rake
    changes = {s: -(antes[s] + card_payments[s]) for s in seats}
    changes[winner] += takes
    staying = [s for s in seats if s not in leaving]
    dead = winner in leaving
    if not dead:
        leader: Optional[int] = winner
    else:
        i = seats.index(winner)
        leader = next((seats[(i + k) % len(seats)] for k in range(1, len(seats))
                       if seats[(i + k) % len(seats)] in staying), None)
    said: list = [
        _("ante {ante}G x {n} players = {total}G", ante=rules.ante, n=len(seats), total=sum(antes.values())),
        _("cards still held, {per}G each: {list}", per=rules.per_card,
          list=join([_("seat {seat} {n} ({paid}G)", seat=s, n=left[s], paid=card_payments[s])
                     for s in seats if s != winner], _p("daifugo list", ", "))),
        _("pot {pot}G; rake {each}G x {n} = {rake}G; seat {seat} takes {takes}G (net {net}G)", pot=pot,
          each=rules.rake_per_player, n=len(seats), rake=rake, seat=winner, takes=takes,
          net=f"{changes[winner]:+d}")]
    if leader is None:
        said.append(_("nobody stays at the table"))
    elif dead:
        said.append(_("seat {seat} leaves: dead button, seat {leader} (left of the winner) leads the next game",
                      seat=winner, leader=leader))
    else:
        said.append(_("seat {seat} (the winner) leads the next game", seat=winner))
    after = None
    if chips is not None:
        after = {s: chips[s] + changes[s] for s in seats}
        short = [s for s in staying if after[s] < rules.min_chips]
        if short:
            said.append(_("below the {min}G needed to play the next game: {list}", min=rules.min_chips,
                          list=join([_("seat {seat} ({chips}G)", seat=s, chips=after[s]) for s in short],
                                    _p("daifugo list", ", "))))
    en, ja = render_lines(said, "en"), render_lines(said, "ja")
    return Payout(seats, winner, left, antes, card_payments, pot, rake, takes, changes, leader, dead,
                  after, tuple(en), tuple(ja))


def payout_from_json(obj: Any, rules: Daifugo = CASINO_QUEST) -> Payout:
    """:func:`payout` from the JSON of docs/daifugo.md (``cards_left`` or ``hands``)."""
    if not isinstance(obj, Mapping):
        raise RuleError(_("a game result is a JSON object, not {type}", type=type(obj).__name__))
    known = {"seats", "winner", "cards_left", "hands", "leaving", "chips"}
    unknown = set(obj) - known
    if unknown:
        raise RuleError(_("unknown field(s) {fields}; expected {known}", fields=", ".join(sorted(unknown)),
                          known=", ".join(sorted(known))))
    seats_raw = obj.get("seats")
    if not isinstance(seats_raw, list):
        raise RuleError(_("a list of seat numbers in clockwise order is required"), field="seats")
    seats = [_read_seat(s, "seats") for s in seats_raw]
    winner = _read_seat(obj.get("winner"), "winner")
    if ("cards_left" in obj) == ("hands" in obj):
        raise RuleError(_("give either cards_left (seat -> number) or hands (seat -> cards)"), field="cards_left")
    left: dict[int, Any] = {}
    if "cards_left" in obj:
        raw = obj["cards_left"]
        if not isinstance(raw, Mapping):
            raise RuleError(_("an object seat -> number of cards"), field="cards_left")
        for k, v in raw.items():
            left[_read_seat(k, "cards_left")] = v
    else:
        raw = obj["hands"]
        if not isinstance(raw, Mapping):
            raise RuleError(_("an object seat -> cards"), field="hands")
        for k, v in raw.items():
            s = _read_seat(k, "hands")
            left[s] = len(_read_cards(v, "hands", s, allow_hidden=True))
    leaving_raw = obj.get("leaving", [])
    if not isinstance(leaving_raw, list):
        raise RuleError(_("a list of seats leaving the table"), field="leaving")
    leaving = [_read_seat(s, "leaving") for s in leaving_raw]
    chips = None
    if "chips" in obj:
        if not isinstance(obj["chips"], Mapping):
            raise RuleError(_("an object seat -> chips before the game"), field="chips")
        chips = {_read_seat(k, "chips"): v for k, v in obj["chips"].items()}
    return payout(seats, winner, left, leaving=leaving, chips=chips, rules=rules)


def check_json(obj: Any, rules: Daifugo = CASINO_QUEST) -> dict:
    """``dealer-assist daifugo check``: ``{"state": ..., "play": ...}`` or ``"plays": [...]``.

    With ``plays`` the moves are applied in order and checking stops at the first
    illegal one; ``results`` holds each ruling, ``state`` the state after the last legal one.
    """
    if not isinstance(obj, Mapping):
        raise RuleError(_("the input is a JSON object, not {type}", type=type(obj).__name__))
    unknown = set(obj) - {"state", "play", "plays"}
    if unknown:
        raise RuleError(_("unknown field(s) {fields}; expected state and play (or plays)",
                          fields=", ".join(sorted(unknown))))
    if "state" not in obj:
        raise RuleError(_("the game state is required"), field="state")
    state = State.from_json(obj["state"], rules)
    if ("play" in obj) == ("plays" in obj):
        raise RuleError(_("give either play (one move) or plays (a list of moves)"), field="play")
    if "play" in obj:
        return state.check(Move.from_json(obj["play"])).to_json()
    moves_raw = obj["plays"]
    if not isinstance(moves_raw, list) or not moves_raw:
        raise RuleError(_("a non-empty list of moves"), field="plays")
    moves = [Move.from_json(m) for m in moves_raw]
    results = []
    ruling = None
    for move in moves:
        ruling = state.check(move)
        results.append({k: v for k, v in ruling.to_json().items() if k != "state"})
        if not ruling.legal:
            break
        state = ruling.state
    return {"legal": ruling.legal, "reason": ruling.reason, "reason_ja": ruling.reason_ja,
            "results": results, "state": state.to_json()}
