"""What a live table says happened, as frozen dataclasses; :meth:`TableEvent.to_json` is the event
line every tool reads (docs/live.md), field for field and in the same order as always.

The hand flow (:class:`~dealer_assist.live.handflow.LiveTable`) and the games' hooks make these
objects and keep them (an open alert is an :class:`Alert`); JSON is made only where the events
leave the table: :meth:`LiveTable.step` and :meth:`LiveTable.apply` give ``to_json()`` of each for
the pipeline, the events file, the hand log and the desk. A ruling inside an event is the rules
engine's JSON (:meth:`dealer_assist.rules.showdown.Ruling.to_json`) with the flow's marks; the
typed ruling is :attr:`LiveTable.ruled`.

>>> HandStart(0.4, 6, 1, seats=(1, 3, 5), button=5).to_json()
{'t': 0.4, 'frame': 6, 'type': 'hand_start', 'hand': 1, 'seats': [1, 3, 5], 'button': 5}
>>> a = Alert(2.1, 32, 1, code="joker_on_board", message="...", message_ja="...",
...           extra=(("zone", "board4"), ("card", "JK")))
>>> list(a.to_json())
['t', 'frame', 'type', 'hand', 'code', 'message', 'message_ja', 'zone', 'card', 'cleared']
>>> a.get("zone"), a.cleared
('board4', False)

Must not import the desk, Qt, OpenCV or the rules engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Optional

__all__ = ["TableEvent", "HandStart", "Board", "Hole", "Up", "Draw", "Confirm", "Showdown", "HandEnd",
           "Alert", "Raise", "Change", "Ledger", "EVENT_TYPES"]


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Every event's head: when (source seconds, frame) and in which hand (None between hands)."""

    t: float
    frame: int
    hand: Optional[int]
    type: ClassVar[str] = "event"

    def body(self) -> list[tuple[str, Any]]:  # pragma: no cover - each kind gives its own
        return []

    def to_json(self) -> dict:
        out: dict[str, Any] = {"t": self.t, "frame": self.frame, "type": self.type, "hand": self.hand}
        out.update(self.body())
        return out


@dataclass(frozen=True, slots=True)
class HandStart(TableEvent):
    type: ClassVar[str] = "hand_start"
    seats: tuple[int, ...] = ()
    button: Optional[int] = None
    antes: Optional[Mapping[str, int]] = None      # the level's antes, when there are any

    def body(self) -> list[tuple[str, Any]]:
        out = [("seats", list(self.seats)), ("button", self.button)]
        return out + ([("antes", dict(self.antes))] if self.antes else [])


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
    """The dealer confirmed cards as read: ``(zone, card)`` pairs."""

    type: ClassVar[str] = "confirm"
    cards: tuple[tuple[str, str], ...] = ()

    def body(self) -> list[tuple[str, Any]]:
        return [("cards", [{"zone": z, "card": c} for z, c in self.cards])]


@dataclass(frozen=True, slots=True)
class Showdown(TableEvent):
    """A ruling at the showdown (``ruling``: its JSON with the flow's marks) and the table it was
    made on (``table``: as ``dealer-assist settle`` reads it)."""

    type: ClassVar[str] = "showdown"
    ruling: Mapping[str, Any] = field(default_factory=dict)
    table: Mapping[str, Any] = field(default_factory=dict)

    def body(self) -> list[tuple[str, Any]]:
        return [("ruling", self.ruling), ("table", self.table)]


@dataclass(frozen=True, slots=True)
class HandEnd(TableEvent):
    type: ClassVar[str] = "hand_end"
    ruling: Optional[Mapping[str, Any]] = None
    board: tuple[str, ...] = ()
    won_without_showdown: Optional[int] = None
    corrections: int = 0
    provisional: bool = False
    confirmed: tuple[tuple[str, str], ...] = ()

    def body(self) -> list[tuple[str, Any]]:
        return [("ruling", self.ruling), ("board", list(self.board)),
                ("won_without_showdown", self.won_without_showdown), ("corrections", self.corrections),
                ("provisional", self.provisional),
                ("confirmed", [{"zone": z, "card": c} for z, c in self.confirmed])]


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

    def body(self) -> list[tuple[str, Any]]:
        return [("games", self.games), ("seats", {str(s): dict(v) for s, v in self.seats.items()}),
                ("changes", {str(s): dict(v) for s, v in self.changes.items()}),
                ("dropouts", list(self.dropouts)), ("button", self.button), ("over", self.over),
                ("reason", self.reason), ("reason_ja", self.reason_ja)]


#: event type -> its class
EVENT_TYPES: dict[str, type] = {c.type: c for c in (HandStart, Board, Hole, Up, Draw, Confirm, Showdown,
                                                      HandEnd, Alert, Raise, Change, Ledger)}
