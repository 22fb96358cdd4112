"""Who may see what: a seat's cards leave the table only once shown at the showdown or once the
hand has ended. Pure functions over plain event dicts (no I/O); the forwarder applies them at the
table, before anything is sent.

A hand goes through three stages for the central log: ``play`` (before its showdown: every seat's
cards are hidden), ``shown`` (after the showdown event: the cards of the seats that showed are
public, the others not yet) and ``ended`` (after ``hand_end``: everything is public). An event
is sent in the form its stage allows, marked ``"withheld": true`` when something was hidden,
and sent again whole when the stage that allows it is reached.

>>> secrets = SeatCards()
>>> secrets.add_event({"type": "hole", "hand": 1, "seat": 1, "cards": ["Ks", "Qc"]})
>>> hidden = secrets.hidden(shown=set())
>>> public_event({"type": "hole", "hand": 1, "seat": 1, "cards": ["Ks", "Qc"]}, hidden)
({'type': 'hole', 'hand': 1, 'seat': 1, 'cards': ['??', '??'], 'withheld': True}, True)
>>> public_event({"type": "alert", "code": "duplicate_card", "zone": "seat1", "card": "Ks",
...               "message": "Ks seen twice"}, hidden)[0]["message"]
'?? seen twice'
>>> public_event({"type": "confirm", "cards": [{"zone": "seat1", "card": "Ks", "or": "Kc"}]}, hidden)[0]["cards"]
[{'zone': 'seat1', 'card': '??', 'or': '??'}]
>>> public_event({"type": "board", "street": "flop", "cards": ["Ks", "2c", "3d"]}, hidden)
({'type': 'board', 'street': 'flop', 'cards': ['Ks', '2c', '3d']}, False)
>>> public_event({"type": "hole", "seat": 1, "cards": ["Ks", "Qc"]}, secrets.hidden(shown={1}))[1]
False
"""
from __future__ import annotations

import copy
import re
from typing import Any, Iterable, Mapping, Optional

from dealer_assist.zones import seat_of_zone

__all__ = ["HIDDEN", "SeatCards", "public_event", "public_correction", "seat_of_zone", "shown_seats"]

HIDDEN = "??"
#: keys whose cards are public whatever the stage (the board is dealt face up)
_PUBLIC_KEYS = frozenset({"board"})


def shown_seats(showdown: Mapping[str, Any]) -> set[int]:
    """The seats whose cards a showdown event shows (its table's seats with cards, not folded)."""
    table = showdown.get("table") or (showdown.get("ruling") or {}).get("table") or {}
    out = set()
    for s in table.get("seats") or () if isinstance(table, Mapping) else ():
        if isinstance(s, Mapping) and s.get("hole") and not s.get("folded") and isinstance(s.get("seat"), int):
            out.add(int(s["seat"]))
    return out


class SeatCards:
    """What each seat of one hand holds, as far as the table's log says (hole events, cards the
    dealer confirmed or corrected in a seat's zone, the showdown's table)."""

    def __init__(self) -> None:
        self.by_seat: dict[int, set[str]] = {}

    def _add(self, seat: Any, cards: Iterable[Any]) -> None:
        if isinstance(seat, int) and not isinstance(seat, bool):
            self.by_seat.setdefault(seat, set()).update(str(c) for c in cards if isinstance(c, str) and c != HIDDEN)

    def add_event(self, ev: Mapping[str, Any]) -> None:
        if ev.get("type") == "hole":
            self._add(ev.get("seat"), ev.get("cards") or ())
        for d in _dicts(ev):
            seat = seat_of_zone(d.get("zone"))
            if seat is not None:
                self._add(seat, [d.get("card"), d.get("to")] + list(d.get("cards") or ()))
        if ev.get("type") == "showdown":
            table = ev.get("table") or (ev.get("ruling") or {}).get("table") or {}
            for s in table.get("seats") or () if isinstance(table, Mapping) else ():
                if isinstance(s, Mapping):
                    self._add(s.get("seat"), s.get("hole") or ())

    def add_correction(self, action: Mapping[str, Any]) -> None:
        seat = seat_of_zone(action.get("zone"))
        if seat is not None:
            self._add(seat, [action.get("card"), action.get("to")])

    def hidden(self, shown: Optional[set[int]]) -> "Hidden":
        """What stays hidden when the seats ``shown`` have shown (None: the hand has ended)."""
        if shown is None:
            return Hidden(frozenset(), frozenset())
        seats = frozenset(s for s in self.by_seat if s not in shown)
        cards = frozenset(c for s in seats for c in self.by_seat[s])
        return Hidden(seats, cards)


class Hidden:
    """The seats and the cards one stage of a hand keeps from the central log."""

    __slots__ = ("seats", "cards", "_pattern")

    def __init__(self, seats: frozenset, cards: frozenset):
        self.seats, self.cards = seats, cards
        self._pattern = (re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, sorted(cards))) + r")(?![A-Za-z0-9])")
                         if cards else None)

    def __bool__(self) -> bool:
        return bool(self.seats or self.cards)

    def mask_text(self, text: str) -> str:
        return text if self._pattern is None else self._pattern.sub(HIDDEN, text)


def _dicts(obj: Any):
    """Every mapping inside ``obj`` (itself included), depth first."""
    if isinstance(obj, Mapping):
        yield obj
        for v in obj.values():
            yield from _dicts(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _dicts(v)


def _mask(obj: Any, hidden: Hidden, key: Optional[str] = None, public: bool = False) -> Any:
    if isinstance(obj, str):
        return obj if public else hidden.mask_text(obj)
    if isinstance(obj, list):
        return [_mask(v, hidden, key, public) for v in obj]
    if isinstance(obj, dict):
        seat = seat_of_zone(obj.get("zone"))
        in_hidden_seat = seat is not None and seat in hidden.seats
        out = {}
        for k, v in obj.items():
            if in_hidden_seat and k in ("card", "to", "or") and isinstance(v, str):
                out[k] = HIDDEN
            elif in_hidden_seat and k == "cards" and isinstance(v, list):
                out[k] = [HIDDEN for _ in v]
            else:
                out[k] = _mask(v, hidden, k, public or k in _PUBLIC_KEYS)
        return out
    return obj


def public_event(ev: Mapping[str, Any], hidden: Hidden) -> tuple[dict, bool]:
    """(the event as the central log may hold it at this stage, whether anything was withheld)."""
    ev = dict(ev)
    if not hidden:
        return ev, False
    if ev.get("type") == "hole" and ev.get("seat") in hidden.seats:
        out = copy.deepcopy(ev)
        out["cards"] = [HIDDEN for _ in ev.get("cards") or ()]
    elif ev.get("type") == "board":
        out = dict(ev)
        out = {k: (v if k == "cards" else _mask(v, hidden, k)) for k, v in ev.items()}
    else:
        out = _mask(ev, hidden)
    if out == ev:
        return ev, False
    out["withheld"] = True
    return out, True


def public_correction(action: Mapping[str, Any], hidden: Hidden) -> tuple[dict, bool]:
    """A dealer's correction as the central log may hold it (a seat's cards hidden, with the
    other name the reader had offered for the card: it would tell the card's rank).

    >>> secrets = SeatCards()
    >>> secrets.add_correction({"type": "correct", "zone": "seat1", "card": "Ks", "to": "Kc"})
    >>> public_correction({"type": "correct", "zone": "seat1", "card": "Ks", "to": "Kc", "or": "Kc"},
    ...                   secrets.hidden(shown=set()))[0]
    {'type': 'correct', 'zone': 'seat1', 'card': '??', 'to': '??', 'or': '??', 'withheld': True}
    """
    return public_event(action, hidden)
