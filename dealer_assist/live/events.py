"""What a live table says happened, as frozen dataclasses; :meth:`TableEvent.to_json` is the event
line every tool reads (docs/live.md), field for field and in the same order as always.

The hand flow (:class:`~dealer_assist.live.handflow.LiveTable`) and the games' hooks make these
objects and keep them (an open alert is an :class:`Alert`); :meth:`LiveTable.step` and
:meth:`LiveTable.apply` give them as they are to the pipeline, which hands them to the hand log,
the desk and the trainer's shadow window. JSON is made only at the edges, by :meth:`to_json`: the
events file and the CLI's lines (:func:`dealer_assist.live.pipeline.json_sink`), the hand log's
stored rows (and so the central log's outbox, which forwards those rows). Reading the hand log
back, :func:`event_from_json` turns a stored row into its object again.

A ruling inside an event is a :class:`~dealer_assist.live.ruling.TableRuling` (Daifugo's payout
a :class:`~dealer_assist.live.ruling.GamePayout`): the engine's ruling with the flow's marks
(``provisional``, ``unsure``, ``confirmed``, ``chips_entered``), its JSON made only in the event
line; the engine's own object is its ``result``.

>>> HandStart(0.4, 6, 1, seats=(1, 3, 5), button=5).to_json()
{'t': 0.4, 'frame': 6, 'type': 'hand_start', 'hand': 1, 'seats': [1, 3, 5], 'button': 5}
>>> a = Alert(2.1, 32, 1, code="joker_on_board", message="...", message_ja="...",
...           extra=(("zone", "board4"), ("card", "JK")))
>>> list(a.to_json())
['t', 'frame', 'type', 'hand', 'code', 'message', 'message_ja', 'zone', 'card', 'cleared']
>>> a.get("zone"), a.cleared
('board4', False)
>>> event_from_json(a.to_json()) == a
True

Must not import the desk, Qt, OpenCV or the rules engine (rulings come typed from
:mod:`dealer_assist.live.ruling`, which does not either).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Mapping, Optional, Union

from dealer_assist.cards import card_or_none
from dealer_assist.live.ruling import GamePayout, TableRuling, read_placed, ruling_or_none

__all__ = ["TableEvent", "HandStart", "Board", "Hole", "Up", "Draw", "Confirm", "Showdown", "HandEnd",
           "Alert", "Raise", "Change", "Ledger", "CardsLeft", "Leaving", "DealerChange", "ButtonSet",
           "EVENT_TYPES",
           "event_from_json"]

#: the fields every event line opens with
HEAD = ("t", "frame", "type", "hand")


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Every event's head: when (source seconds, frame) and in which hand (None between hands)."""

    t: float
    frame: int
    hand: Optional[int]
    type: ClassVar[str] = "event"
    #: fields whose JSON object is keyed by seat numbers as strings, and how each value is read
    #: back (their keys become ints in the event)
    seat_keyed: ClassVar[Mapping[str, Any]] = {}

    def body(self) -> list[tuple[str, Any]]:  # pragma: no cover - each kind gives its own
        return []

    def to_json(self) -> dict:
        """The event line (docs/live.md): the one place its shape is defined."""
        out: dict[str, Any] = {"t": self.t, "frame": self.frame, "type": self.type, "hand": self.hand}
        out.update(self.body())
        return out

    @classmethod
    def fields_of(cls, line: Mapping[str, Any]) -> dict[str, Any]:
        """The constructor's fields (other than the head) from an event line: each field by its own
        name, lists as tuples. Kinds whose line names or nests a field otherwise override this."""
        names = [f.name for f in fields(cls) if f.name not in ("t", "frame", "hand")]
        out = {n: _tuple(line[n]) for n in names if n in line}
        for name, value in cls.seat_keyed.items():
            if line.get(name) is not None:
                out[name] = _int_keys(line[name], value)
        return out

    @classmethod
    def from_json(cls, line: Mapping[str, Any]) -> "TableEvent":
        """The event of an event line of this kind (the inverse of :meth:`to_json`)."""
        return cls(line.get("t"), line.get("frame"), line.get("hand"), **cls.fields_of(line))


def _tuple(value: Any) -> Any:
    """A JSON list as a tuple (nested lists too); anything else as it is."""
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value


def _int_keys(obj: Optional[Mapping[str, Any]], value=lambda v: v) -> dict[int, Any]:
    """A JSON object keyed by seat numbers as strings -> keyed by int."""
    return {int(k): value(v) for k, v in (obj or {}).items()}


@dataclass(frozen=True, slots=True)
class HandStart(TableEvent):
    type: ClassVar[str] = "hand_start"
    seats: tuple[int, ...] = ()
    button: Optional[int] = None
    antes: Optional[Mapping[str, int]] = None      # the level's antes, when there are any
    #: Daifugo: the seats' cards left as the dealer gave them at the start (seat -> cards), when
    #: the referee joins a game under way; None: every seat holds its full hand
    cards_left: Optional[Mapping[int, int]] = None
    #: who deals the hand, as the dealer gave their name (``dealer`` action); None: not given
    dealer: Optional[str] = None
    #: Daifugo: the seat that leads the first play. Its table has no button; ``button`` names the
    #: same seat for the readers of older logs, and the words say 「親」 ("leads") where this is given
    leader: Optional[int] = None
    seat_keyed: ClassVar[Mapping[str, Any]] = {"cards_left": int}

    def body(self) -> list[tuple[str, Any]]:
        out = [("seats", list(self.seats)), ("button", self.button)]
        out += [("leader", self.leader)] if self.leader is not None else []
        out += [("antes", dict(self.antes))] if self.antes else []
        out += [("cards_left", {str(s): n for s, n in self.cards_left.items()})] if self.cards_left else []
        return out + ([("dealer", self.dealer)] if self.dealer else [])


@dataclass(frozen=True, slots=True)
class DealerChange(TableEvent):
    """A dealer took the table (the ``dealer`` action: dealers rotate between tables): from now on
    each hand's ``hand_start`` names them."""

    type: ClassVar[str] = "dealer"
    name: str = ""

    def body(self) -> list[tuple[str, Any]]:
        return [("name", self.name)]



@dataclass(frozen=True, slots=True)
class ButtonSet(TableEvent):
    """The dealer moved the button of the hand under way (the ``button`` action: the desk's B key)
    to ``seat``: the hand is ruled with it from now on (``was``: the seat it had). A button given
    between hands is named by the next ``hand_start``.

    >>> ButtonSet(3.0, 45, 2, seat=4, was=5).to_json()
    {'t': 3.0, 'frame': 45, 'type': 'button', 'hand': 2, 'seat': 4, 'was': 5}
    """

    type: ClassVar[str] = "button"
    seat: int = 0
    was: Optional[int] = None

    def body(self) -> list[tuple[str, Any]]:
        return [("seat", self.seat), ("was", self.was)]


@dataclass(frozen=True, slots=True)
class Board(TableEvent):
    type: ClassVar[str] = "board"
    street: str = ""
    cards: tuple[str, ...] = ()
    sure: tuple[bool, ...] = ()

    def body(self) -> list[tuple[str, Any]]:
        return [("street", self.street), ("cards", list(self.cards)), ("sure", list(self.sure))]


@dataclass(frozen=True, slots=True)
class Hole(TableEvent):
    """A seat's cards shown face up."""

    type: ClassVar[str] = "hole"
    seat: int = 0
    cards: tuple[str, ...] = ()
    sure: tuple[bool, ...] = ()

    def body(self) -> list[tuple[str, Any]]:
        return [("seat", self.seat), ("cards", list(self.cards)), ("sure", list(self.sure))]


@dataclass(frozen=True, slots=True)
class Up(TableEvent):
    """Stud: a deal's up cards (every seat's up cards so far) and the seat that acts first."""

    type: ClassVar[str] = "up"
    street: str = ""
    seats: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    sure: Mapping[int, tuple[bool, ...]] = field(default_factory=dict)
    acts_first: Optional[int] = None
    message: str = ""
    message_ja: str = ""
    seat_keyed: ClassVar[Mapping[str, Any]] = {"seats": tuple, "sure": tuple}

    def body(self) -> list[tuple[str, Any]]:
        return [("street", self.street), ("seats", {str(s): list(c) for s, c in self.seats.items()}),
                ("sure", {str(s): list(c) for s, c in self.sure.items()}), ("acts_first", self.acts_first),
                ("message", self.message), ("message_ja", self.message_ja)]



@dataclass(frozen=True, slots=True)
class Draw(TableEvent):
    """Lowball: a seat's draw as the dealer entered it (``cards`` 0: stood pat)."""

    type: ClassVar[str] = "draw"
    seat: int = 0
    cards: int = 0
    round: int = 1

    def body(self) -> list[tuple[str, Any]]:
        return [("seat", self.seat), ("cards", self.cards), ("round", self.round)]


@dataclass(frozen=True, slots=True)
class Confirm(TableEvent):
    """The dealer confirmed cards as read: ``(zone, card)`` pairs; ``offered``: for those the
    reader had offered another name for (``detect --json``'s ``"or"``), ``(zone, card, other)``,
    written as each card's ``"or"``: the hand log keeps what the dealer confirmed the card
    against.

    >>> ev = Confirm(6.0, 90, 1, cards=(("seat1", "Ks"), ("board2", "7h")), offered=(("seat1", "Ks", "Kc"),))
    >>> ev.to_json()["cards"]
    [{'zone': 'seat1', 'card': 'Ks', 'or': 'Kc'}, {'zone': 'board2', 'card': '7h'}]
    >>> Confirm.from_json(ev.to_json()) == ev
    True
    """

    type: ClassVar[str] = "confirm"
    cards: tuple[tuple[str, str], ...] = ()
    offered: tuple[tuple[str, str, str], ...] = ()

    def body(self) -> list[tuple[str, Any]]:
        other = {(z, c): o for z, c, o in self.offered}
        return [("cards", [{"zone": z, "card": c, **({"or": other[(z, c)]} if (z, c) in other else {})}
                           for z, c in self.cards])]

    @classmethod
    def fields_of(cls, line: Mapping[str, Any]) -> dict[str, Any]:
        cards = read_placed(line.get("cards"), "a confirm's cards")
        offered = tuple((c["zone"], c["card"], other) for c in line.get("cards") or ()
                        if isinstance(c, Mapping) and (other := card_or_none(c.get("or"))) is not None)
        return {"cards": cards, "offered": offered}


@dataclass(frozen=True, slots=True)
class Showdown(TableEvent):
    """A ruling at the showdown (``ruling``: the engine's ruling with the flow's marks) and the
    table it was made on (``table``: as ``dealer-assist settle`` reads it, the input a dispute
    replays). A stored line whose ruling cannot be read gives no event."""

    type: ClassVar[str] = "showdown"
    ruling: Optional[TableRuling] = None
    table: Mapping[str, Any] = field(default_factory=dict)

    def body(self) -> list[tuple[str, Any]]:
        return [("ruling", None if self.ruling is None else self.ruling.to_json()), ("table", self.table)]

    @classmethod
    def fields_of(cls, line: Mapping[str, Any]) -> dict[str, Any]:
        out = TableEvent.fields_of.__func__(cls, line)
        out["ruling"] = TableRuling.from_json(line.get("ruling"))
        return out


@dataclass(frozen=True, slots=True)
class HandEnd(TableEvent):
    """The hand is over: its final ruling (None: none was made; a stored one that cannot be read
    back is None too, the hand's end still stands), the board, who won without a showdown, the
    dealer's corrections, and whether the ruling stayed provisional and which cards were confirmed."""

    type: ClassVar[str] = "hand_end"
    ruling: Union[TableRuling, GamePayout, None] = None
    board: tuple[str, ...] = ()
    won_without_showdown: Optional[int] = None
    corrections: int = 0
    provisional: bool = False
    confirmed: tuple[tuple[str, str], ...] = ()

    def body(self) -> list[tuple[str, Any]]:
        return [("ruling", None if self.ruling is None else self.ruling.to_json()), ("board", list(self.board)),
                ("won_without_showdown", self.won_without_showdown), ("corrections", self.corrections),
                ("provisional", self.provisional),
                ("confirmed", [{"zone": z, "card": c} for z, c in self.confirmed])]

    @classmethod
    def fields_of(cls, line: Mapping[str, Any]) -> dict[str, Any]:
        out = TableEvent.fields_of.__func__(cls, line)
        out["confirmed"] = read_placed(line.get("confirmed"), "a hand end's confirmed cards")
        out["ruling"] = ruling_or_none(line.get("ruling"))
        return out


@dataclass(frozen=True, slots=True)
class Alert(TableEvent):
    """An alert raised (``cleared`` False) or cleared; ``extra``: where it applies, as
    ``(name, value)`` pairs in their order (``zone``, ``card``, ``seat``)."""

    type: ClassVar[str] = "alert"
    code: str = ""
    message: str = ""
    message_ja: str = ""
    extra: tuple[tuple[str, Any], ...] = ()
    cleared: bool = False

    def get(self, name: str, default: Any = None) -> Any:
        """One of the ``extra`` fields (``zone``, ``card``, ``seat``)."""
        return dict(self.extra).get(name, default)

    def body(self) -> list[tuple[str, Any]]:
        return [("code", self.code), ("message", self.message), ("message_ja", self.message_ja),
                *self.extra, ("cleared", self.cleared)]

    @classmethod
    def fields_of(cls, line: Mapping[str, Any]) -> dict[str, Any]:
        own = ("code", "message", "message_ja", "cleared")
        return {**{n: line[n] for n in own if n in line},
                "extra": tuple((k, v) for k, v in line.items() if k not in own and k not in HEAD)}


@dataclass(frozen=True, slots=True)
class Raise(TableEvent):
    """Half Texas: a seat raised, as the dealer entered it; ``raises`` so far in the game and the
    ``multiplier`` of its points (raises + 1)."""

    type: ClassVar[str] = "raise"
    seat: int = 0
    raises: int = 1
    multiplier: int = 2

    def body(self) -> list[tuple[str, Any]]:
        return [("seat", self.seat), ("raises", self.raises), ("multiplier", self.multiplier)]


@dataclass(frozen=True, slots=True)
class Change(TableEvent):
    """Half Texas: ``seat`` swapped its hand with the swap hand on the dropped seat ``with_seat``."""

    type: ClassVar[str] = "change"
    seat: int = 0
    with_seat: int = 0

    def body(self) -> list[tuple[str, Any]]:
        return [("seat", self.seat), ("with", self.with_seat)]

    @classmethod
    def fields_of(cls, line: Mapping[str, Any]) -> dict[str, Any]:
        return {"seat": line.get("seat", 0), "with_seat": line.get("with", 0)}


@dataclass(frozen=True, slots=True)
class Ledger(TableEvent):
    """Half Texas: the session's points after a game: ``seats`` (seat -> ``bp``, ``rp``, ``final``
    = BP x RP, ``dropped``), this game's ``changes`` (seat -> ``bp``, ``rp``), the seats that
    dropped out in it, the games played, the next button, and whether the session is ``over``
    (``reason``: why, in English and Japanese)."""

    type: ClassVar[str] = "ledger"
    games: int = 0
    seats: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    changes: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    dropouts: tuple[int, ...] = ()
    button: Optional[int] = None
    over: bool = False
    reason: str = ""
    reason_ja: str = ""
    seat_keyed: ClassVar[Mapping[str, Any]] = {"seats": dict, "changes": dict}

    def body(self) -> list[tuple[str, Any]]:
        return [("games", self.games), ("seats", {str(s): dict(v) for s, v in self.seats.items()}),
                ("changes", {str(s): dict(v) for s, v in self.changes.items()}),
                ("dropouts", list(self.dropouts)), ("button", self.button), ("over", self.over),
                ("reason", self.reason), ("reason_ja", self.reason_ja)]



@dataclass(frozen=True, slots=True)
class CardsLeft(TableEvent):
    """Daifugo: the dealer set a seat's cards left (where the camera cannot count a hand): ``cards``
    now, ``was`` before. The payout counts the cards left, so the log keeps every count entered.

    >>> CardsLeft(9.5, 142, 1, seat=2, cards=4, was=5).to_json()
    {'t': 9.5, 'frame': 142, 'type': 'cards_left', 'hand': 1, 'seat': 2, 'cards': 4, 'was': 5}
    """

    type: ClassVar[str] = "cards_left"
    seat: int = 0
    cards: int = 0
    was: Optional[int] = None

    def body(self) -> list[tuple[str, Any]]:
        return [("seat", self.seat), ("cards", self.cards), ("was", self.was)]


@dataclass(frozen=True, slots=True)
class Leaving(TableEvent):
    """Daifugo: the dealer marked a seat as leaving the table after this game (its payout names
    the dead button)."""

    type: ClassVar[str] = "leaving"
    seat: int = 0

    def body(self) -> list[tuple[str, Any]]:
        return [("seat", self.seat)]


#: event type -> its class
EVENT_TYPES: dict[str, type] = {c.type: c for c in (HandStart, Board, Hole, Up, Draw, Confirm, Showdown,
                                                      HandEnd, Alert, Raise, Change, Ledger, CardsLeft,
                                                      Leaving, DealerChange, ButtonSet)}


def event_from_json(line: Mapping[str, Any]) -> Optional[TableEvent]:
    """The event of a stored event line (the hand log's rows, an events file), or None for a line
    that is no table event (a session's header, another table's kind) or that cannot be read as
    one (a damaged row: a reader shows what it can).

    >>> ev = event_from_json({"t": 4.0, "frame": 60, "type": "hole", "hand": 1, "seat": 2,
    ...                       "cards": ["As", "Kd"], "sure": [True, False]})
    >>> ev.seat, ev.cards, ev.sure
    (2, ('As', 'Kd'), (True, False))
    >>> event_from_json({"type": "session_start", "session": 3}) is None
    True
    >>> event_from_json({"type": "up", "seats": {"one": ["As"]}}) is None
    True
    """
    kind = EVENT_TYPES.get(line.get("type")) if isinstance(line, Mapping) else None
    if kind is None:
        return None
    try:
        return kind.from_json(line)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None
