"""A ruling as the live table keeps it, shows it and logs it: one typed shape for every poker game.

The rules engine rules on a typed table and gives its game's result object (hold'em, stud,
hi/lo and lowball: :class:`dealer_assist.rules.showdown.Ruling`; Half Texas:
:class:`dealer_assist.rules.half_texas.HalfTexasRuling`). The hand flow turns it into a
:class:`TableRuling` once, when it is made (each game's flow hook ``table_ruling``), and adds what
only the table knows (the flow's marks): whether the dealer entered the seats' chips, whether the
ruling is provisional, which of its cards are not sure and which the dealer confirmed. From there
the ``showdown`` and ``hand_end`` events, :meth:`LiveTable.state`, the desk and the trainer's shadow
window read its fields; JSON is made only at the edges (:meth:`TableRuling.to_json`: the event
line, the hand log's ``ruling`` column) and read back there (:meth:`TableRuling.from_json`: the
hand log, an events file), field for field the JSON every tool has always read.

Daifugo ends a game with a payout, not a showdown: :class:`GamePayout` is its ruling in a
``hand_end``, with the same reading interface (``payouts``, ``lines``, ``winners_of_pots``).

The words (hand names, pot names, the explanation) are the engine's own, rendered in both
languages when the ruling is made: the desk arranges them and never words a ruling itself.

>>> from dealer_assist.rules.holdem import Holdem
>>> r = Holdem().settle({"board": ["As", "Kd", "7c", "7d", "2s"], "button": 1, "seats": [
...     {"seat": 1, "hole": ["Ah", "Qc"], "committed": 100},
...     {"seat": 2, "hole": ["Kh", "Kc"], "committed": 100}]})
>>> tr = TableRuling.of(r)
>>> tr.payouts, tr.winners_of_pots(), tr.hands[2].category, tr.hands[2].best_five
({1: 0, 2: 200}, (2,), 'full_house', ('Kh', 'Kc', 'Kd', '7c', '7d'))
>>> marked = tr.marked(provisional=True, unsure=(("seat2", "Kc"),), others=(("seat2", "Kc", "Ks"),))
>>> marked.provisional, marked.to_json()["unsure"]
(True, [{'zone': 'seat2', 'card': 'Kc', 'or': 'Ks'}])
>>> TableRuling.from_json(marked.to_json()) == marked
True
>>> TableRuling.from_json({"game": "holdem", "payouts": {"one": 2}})
Traceback (most recent call last):
...
dealer_assist.live.ruling.RulingFormatError: a ruling's payouts are keyed by seat numbers, not 'one'

Must not import the desk, Qt or OpenCV.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional

from dealer_assist.cards import card_or_none

__all__ = ["TableRuling", "PotRuled", "HandRuled", "GamePayout", "RulingFormatError", "ruling_from_json",
           "ruling_or_none", "read_offered"]

#: a card in a zone, as the marks name it: ``("seat2", "Qh")``
Placed = tuple[str, str]
#: a doubtful card in a zone and the reader's likeliest other name for it: ``("seat2", "Qh", "Qd")``
Offered = tuple[str, str, str]


class RulingFormatError(ValueError):
    """A stored ruling that is not one (a damaged hand-log row, a hand-edited events file): says
    which field is wrong."""


# ------------------------------------------------------------------------------ reading JSON
def _seat(key: Any, what: str) -> int:
    try:
        n = int(key)
    except (TypeError, ValueError):
        raise RulingFormatError(f"a ruling's {what} are keyed by seat numbers, not {key!r}") from None
    if isinstance(key, bool) or n < 1:
        raise RulingFormatError(f"a ruling's {what} are keyed by seat numbers, not {key!r}")
    return n


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulingFormatError(f"a ruling's {what} must be a whole number, not {value!r}")
    return value


def _seat_ints(obj: Any, what: str) -> dict[int, int]:
    if obj is None:
        return {}
    if not isinstance(obj, Mapping):
        raise RulingFormatError(f"a ruling's {what} must be an object keyed by seat, not {type(obj).__name__}")
    return {_seat(k, what): _int(v, what) for k, v in obj.items()}


def _ints(obj: Any, what: str) -> tuple[int, ...]:
    if obj is None:
        return ()
    if not isinstance(obj, (list, tuple)):
        raise RulingFormatError(f"a ruling's {what} must be a list, not {type(obj).__name__}")
    return tuple(_int(v, what) for v in obj)


def _strs(obj: Any, what: str) -> tuple[str, ...]:
    if obj is None:
        return ()
    if not isinstance(obj, (list, tuple)) or not all(isinstance(v, str) for v in obj):
        raise RulingFormatError(f"a ruling's {what} must be a list of texts")
    return tuple(obj)


def _str(obj: Any, what: str) -> str:
    if not isinstance(obj, str):
        raise RulingFormatError(f"a ruling's {what} must be a text, not {obj!r}")
    return obj


def read_placed(obj: Any, what: str) -> tuple[Placed, ...]:
    """``[{"zone", "card"}, ...]`` as ``((zone, card), ...)``; :class:`RulingFormatError` names
    ``what`` when it is not such a list."""
    if obj is None:
        return ()
    try:
        return tuple((_str(c["zone"], what), _str(c["card"], what)) for c in obj)
    except (TypeError, KeyError):
        raise RulingFormatError(f"{what} must be a list of {{zone, card}}") from None


def read_offered(obj: Any) -> tuple[Offered, ...]:
    """The reader's other names among doubtful cards ``[{"zone", "card", "or"}, ...]`` (a ruling's
    or the table state's ``unsure``): ``((zone, card, other), ...)``. An entry without a card for
    ``"or"`` (none offered, or a damaged or hostile value) is left out: the name only informs the
    dealer, so a wrong one is dropped rather than refused.

    >>> read_offered([{"zone": "seat1", "card": "Ks", "or": "kc"}, {"zone": "seat1", "card": "9h"},
    ...               {"zone": "seat2", "card": "2d", "or": "<b>"}, "junk", {"zone": 3, "card": "Qh", "or": "Qd"}])
    (('seat1', 'Ks', 'Kc'),)
    """
    if not isinstance(obj, (list, tuple)):
        return ()
    return tuple((c["zone"], c["card"], other) for c in obj
                 if isinstance(c, Mapping) and isinstance(c.get("zone"), str) and isinstance(c.get("card"), str)
                 and (other := card_or_none(c.get("or"))) is not None)


def _frozen(value: Any) -> Any:
    """A game's own JSON value kept inside a frozen ruling: its lists as tuples (an object stays
    as it is: it is only ever read, through :meth:`TableRuling.note`, and written back)."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _thawed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


# ------------------------------------------------------------------------------ the parts
class _Noted:
    """A part of a ruling with the game's own fields (``notes``), read by name."""

    __slots__ = ()

    def note(self, name: str, default: Any = None) -> Any:
        """One of the game's own fields (``default`` where the game has none): Half Texas's
        ``points``, a hand's ``joker_as``, a payout's ``next_leader``."""
        for key, value in self.notes:
            if key == name:
                return _thawed(value)
        return default


class _Explained(_Noted):
    """A whole ruling: the game's own fields and the explanation in both languages."""

    __slots__ = ()

    def lines(self, lang: str) -> tuple[str, ...]:
        """The explanation in ``lang`` (what a floor manager reads aloud)."""
        return self.explanation_ja if lang == "ja" else self.explanation


@dataclass(frozen=True, slots=True)
class PotRuled:
    """One pot (or one half of a split pot): its name in both languages, the chips in it, the
    seats that could win it, those that do and what each takes, and who got the odd chips."""

    name: str
    name_ja: str
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: Mapping[int, int]
    odd_chips: tuple[int, ...] = ()

    def title(self, lang: str) -> str:
        return self.name_ja if lang == "ja" else self.name

    def to_json(self) -> dict:
        return {"name": self.name, "name_ja": self.name_ja, "amount": self.amount,
                "eligible": list(self.eligible), "winners": list(self.winners),
                "shares": {str(s): v for s, v in self.shares.items()}, "odd_chips": list(self.odd_chips)}

    @classmethod
    def from_json(cls, obj: Any) -> "PotRuled":
        if not isinstance(obj, Mapping):
            raise RulingFormatError("a ruling's pots must be objects")
        return cls(_str(obj.get("name", ""), "pot name"), _str(obj.get("name_ja", obj.get("name", "")), "pot name"),
                   _int(obj.get("amount", 0), "pot amount"), _ints(obj.get("eligible"), "eligible seats"),
                   _ints(obj.get("winners"), "pot winners"), _seat_ints(obj.get("shares"), "shares"),
                   _ints(obj.get("odd_chips"), "odd chips"))


#: a hand's game-specific fields that its JSON gives before the words (the rest come after)
_BEFORE_WORDS = ("joker_as", "unused", "black", "red")


@dataclass(frozen=True, slots=True)
class HandRuled(_Noted):
    """A seat's hand at the showdown: its category (an English key and its name in Japanese), the
    best five, its description in both languages, and the game's own fields (``notes``: the
    joker's stand-in ``joker_as``, stud's ``shown``, lowball's ``low``, Half Texas's ``unused``,
    ``black`` and ``red``), in the order the engine gives them."""

    category: str
    category_ja: str
    best_five: tuple[str, ...]
    description: str
    description_ja: str
    notes: tuple[tuple[str, Any], ...] = ()

    @property
    def shown(self) -> bool:
        """Whether the hand was shown (stud lets a beaten hand be mucked unshown)."""
        return self.note("shown", True) is not False

    def words(self, lang: str) -> str:
        return self.description_ja if lang == "ja" else self.description

    def to_json(self) -> dict:
        out: dict[str, Any] = {"category": self.category, "category_ja": self.category_ja,
                               "best_five": list(self.best_five)}
        out.update((k, _thawed(v)) for k, v in self.notes if k in _BEFORE_WORDS)
        out["description"] = self.description
        out["description_ja"] = self.description_ja
        out.update((k, _thawed(v)) for k, v in self.notes if k not in _BEFORE_WORDS)
        return out

    @classmethod
    def from_json(cls, obj: Any) -> "HandRuled":
        if not isinstance(obj, Mapping):
            raise RulingFormatError("a ruling's hands must be objects")
        own = ("category", "category_ja", "best_five", "description", "description_ja")
        return cls(_str(obj.get("category", ""), "hand category"),
                   _str(obj.get("category_ja", obj.get("category", "")), "hand category"),
                   _strs(obj.get("best_five"), "best five"),
                   _str(obj.get("description", ""), "hand description"),
                   _str(obj.get("description_ja", obj.get("description", "")), "hand description"),
                   tuple((k, _frozen(v)) for k, v in obj.items() if k not in own))

    @classmethod
    def of(cls, hand: Any) -> "HandRuled":
        """From the engine's :class:`~dealer_assist.rules.showdown.SeatHand`."""
        notes = (("joker_as", None if hand.joker_as is None else str(hand.joker_as)),) + tuple(
            (k, _frozen(v)) for k, v in hand.notes)
        return cls(hand.category, hand.category_ja, tuple(str(c) for c in hand.best_five),
                   hand.text, hand.text_ja, notes)


# ------------------------------------------------------------------------------ the ruling
@dataclass(frozen=True, slots=True)
class TableRuling(_Explained):
    """A ruling at the live table: what the engine ruled, in the shape every game shares, and the
    flow's marks.

    ``payouts``: chips each seat takes (empty where a game pays no chips: Half Texas pays colour
    points, its ``notes``); ``pots``: each pot and who takes it; ``hands``: each shown hand;
    ``showdown_order``: who shows first; ``explanation`` / ``explanation_ja``: the engine's lines,
    read aloud in a dispute; ``antes``: dead money posted per seat (only where there were antes);
    ``notes``: the game's own fields in the engine's order (Half Texas: ``multiplier``,
    ``points``, ``standings``, ``dropouts``, ``winners``, ``tie``).

    The marks: ``chips_entered`` (False: the dealer entered no chips and the payouts are as if
    each seat put in 1; None: not said), ``provisional`` (None: a ruling that is never provisional,
    won without a showdown), ``unsure`` (its cards that are not sure, while provisional),
    ``others`` (for those of them the reader offered another name for, ``(zone, card, other)``:
    what the dealer should check each against; the JSON writes it as the card's ``"or"``) and
    ``confirmed`` (its cards the dealer confirmed). ``result`` is the engine's own object (None when
    read back from JSON); it is not part of the JSON and not compared."""

    game: str
    payouts: Mapping[int, int] = field(default_factory=dict)
    pots: tuple[PotRuled, ...] = ()
    hands: Mapping[int, HandRuled] = field(default_factory=dict)
    showdown_order: tuple[int, ...] = ()
    explanation: tuple[str, ...] = ()
    explanation_ja: tuple[str, ...] = ()
    antes: Mapping[int, int] = field(default_factory=dict)
    notes: tuple[tuple[str, Any], ...] = ()
    chips_entered: Optional[bool] = None
    provisional: Optional[bool] = None
    unsure: tuple[Placed, ...] = ()
    confirmed: tuple[Placed, ...] = ()
    others: tuple[Offered, ...] = ()
    result: Any = field(default=None, compare=False, repr=False)
    #: the order of the fields in the JSON it was read from (a game whose engine writes its own
    #: order, Half Texas, keeps it; empty: the showdown games' order)
    order: tuple[str, ...] = field(default=(), compare=False, repr=False)

    # -------------------------------------------------------------- made by the flow
    @classmethod
    def of(cls, result: Any) -> "TableRuling":
        """From the engine's :class:`~dealer_assist.rules.showdown.Ruling` (every game that pays
        pots of chips), its fields taken as they are and its words rendered in both languages."""
        pots = tuple(PotRuled(a.name, a.name_ja, a.amount, tuple(a.eligible), tuple(a.winners),
                              dict(a.shares), tuple(a.odd_chips)) for a in result.awards)
        return cls(result.game, dict(sorted(result.payouts.items())), pots,
                   {s: HandRuled.of(h) for s, h in sorted(result.hands.items())},
                   tuple(result.showdown_order), result.explanation, result.explanation_ja,
                   dict(sorted(result.antes.items())), result=result)

    def marked(self, **marks: Any) -> "TableRuling":
        """The same ruling with the flow's marks set (``chips_entered``, ``provisional``,
        ``unsure``, ``confirmed``, ``others``)."""
        return replace(self, **{k: tuple(v) if k in ("unsure", "confirmed", "others") else v
                                for k, v in marks.items()})

    # -------------------------------------------------------------- read by the desk and the log
    def winners_of_pots(self) -> tuple[int, ...]:
        """Every seat that takes a pot (or a share of one), in seat order; a game without pots
        (Half Texas) gives its own ``winners``."""
        seats = {s for p in self.pots for s in p.winners}
        seats.update(int(s) for s in self.note("winners", ()) or ())
        return tuple(sorted(seats))

    def takes_a_pot(self, seat: int) -> bool:
        return any(seat in p.winners for p in self.pots)

    def to_json(self) -> dict:
        """The ruling's JSON, as the event line and the hand log carry it (docs/live.md)."""
        out: dict[str, Any] = {
            "game": self.game,
            "payouts": {str(s): v for s, v in self.payouts.items()},
            "pots": [p.to_json() for p in self.pots],
            "hands": {str(s): h.to_json() for s, h in self.hands.items()},
            "showdown_order": list(self.showdown_order),
            "explanation": list(self.explanation),
            "explanation_ja": list(self.explanation_ja),
        }
        if self.antes:      # only where there were antes, as the engine writes it
            out["antes"] = {str(s): v for s, v in self.antes.items()}
        out.update((k, _thawed(v)) for k, v in self.notes)
        if self.chips_entered is not None:
            out["chips_entered"] = self.chips_entered
        if self.provisional is not None:
            out["provisional"] = self.provisional
            other = {(z, c): o for z, c, o in self.others}
            out["unsure"] = [{"zone": z, "card": c, **({"or": other[(z, c)]} if (z, c) in other else {})}
                             for z, c in self.unsure]
            out["confirmed"] = [{"zone": z, "card": c} for z, c in self.confirmed]
        if self.order:
            ordered = {k: out[k] for k in self.order if k in out}
            ordered.update((k, v) for k, v in out.items() if k not in ordered)
            return ordered
        return out

    @classmethod
    def from_json(cls, obj: Any) -> "TableRuling":
        """A ruling from its JSON (the hand log's column, an event line); a
        :class:`RulingFormatError` names the field that is not what a ruling holds."""
        if not isinstance(obj, Mapping):
            raise RulingFormatError(f"a ruling is a JSON object, not {type(obj).__name__}")
        own = {"game", "payouts", "pots", "hands", "showdown_order", "explanation", "explanation_ja", "antes",
               "chips_entered", "provisional", "unsure", "confirmed"}
        hands = obj.get("hands") or {}
        pots = obj.get("pots") or []
        if not isinstance(hands, Mapping):
            raise RulingFormatError("a ruling's hands must be an object keyed by seat")
        if not isinstance(pots, list):
            raise RulingFormatError("a ruling's pots must be a list")
        for flag in ("chips_entered", "provisional"):
            if obj.get(flag) is not None and not isinstance(obj.get(flag), bool):
                raise RulingFormatError(f"a ruling's {flag} must be true or false, not {obj.get(flag)!r}")
        return cls(
            _str(obj.get("game", ""), "game"),
            _seat_ints(obj.get("payouts"), "payouts"),
            tuple(PotRuled.from_json(p) for p in pots),
            {_seat(k, "hands"): HandRuled.from_json(h) for k, h in hands.items()},
            _ints(obj.get("showdown_order"), "showdown order"),
            _strs(obj.get("explanation"), "explanation"),
            _strs(obj.get("explanation_ja"), "explanation"),
            _seat_ints(obj.get("antes"), "antes"),
            tuple((k, _frozen(v)) for k, v in obj.items() if k not in own),
            obj.get("chips_entered"),
            obj.get("provisional"),
            read_placed(obj.get("unsure"), "a ruling's unsure cards"),
            read_placed(obj.get("confirmed"), "a ruling's confirmed cards"),
            read_offered(obj.get("unsure")),
            order=tuple(obj),
        )


#: a Daifugo payout's fields in the order the engine writes them
_PAYOUT_ORDER = ("winner", "cards_left", "antes", "card_payments", "pot", "rake", "winner_takes", "payouts",
                 "next_leader", "dead_button", "explanation", "explanation_ja", "chips_after")


@dataclass(frozen=True, slots=True)
class GamePayout(_Explained):
    """The payout at the end of a Daifugo game (:class:`dealer_assist.rules.daifugo.Payout`):
    the seat that went out first, each seat's signed change in chips, the explanation, and the
    game's own fields (``notes``: cards left, antes, card payments, pot, rake, the winner's take,
    who leads next, a dead button, the chips after)."""

    winner: int
    payouts: Mapping[int, int]
    explanation: tuple[str, ...] = ()
    explanation_ja: tuple[str, ...] = ()
    notes: tuple[tuple[str, Any], ...] = ()
    result: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, paid: Any) -> "GamePayout":
        """From the engine's :class:`~dealer_assist.rules.daifugo.Payout` (its JSON's words)."""
        obj = paid.to_json()
        out = cls.from_json(obj)
        return replace(out, result=paid)

    def winners_of_pots(self) -> tuple[int, ...]:
        return (self.winner,)

    def to_json(self) -> dict:
        own = {"winner": self.winner, "payouts": {str(s): v for s, v in self.payouts.items()},
               "explanation": list(self.explanation), "explanation_ja": list(self.explanation_ja)}
        notes = {k: _thawed(v) for k, v in self.notes}
        out = {k: own[k] if k in own else notes[k] for k in _PAYOUT_ORDER if k in own or k in notes}
        out.update((k, v) for k, v in notes.items() if k not in out)
        return out

    @classmethod
    def from_json(cls, obj: Any) -> "GamePayout":
        if not isinstance(obj, Mapping):
            raise RulingFormatError(f"a payout is a JSON object, not {type(obj).__name__}")
        own = ("winner", "payouts", "explanation", "explanation_ja")
        return cls(_seat(obj.get("winner"), "winner"), _seat_ints(obj.get("payouts"), "payouts"),
                   _strs(obj.get("explanation"), "explanation"), _strs(obj.get("explanation_ja"), "explanation"),
                   tuple((k, _frozen(v)) for k, v in obj.items() if k not in own))


def ruling_from_json(obj: Any) -> "TableRuling | GamePayout":
    """A stored ruling: a Daifugo payout (it names the seat that went out, ``winner``, and the
    ``card_payments``) or a table's ruling."""
    if isinstance(obj, Mapping) and "card_payments" in obj and "winner" in obj:
        return GamePayout.from_json(obj)
    return TableRuling.from_json(obj)


def ruling_or_none(obj: Any) -> "TableRuling | GamePayout | None":
    """A stored ruling read back, or None where there is none or it cannot be read (a reader
    shows what it can: the hand without its ruling)."""
    if obj is None or isinstance(obj, (TableRuling, GamePayout)):
        return obj
    try:
        return ruling_from_json(obj)
    except RulingFormatError:
        return None
