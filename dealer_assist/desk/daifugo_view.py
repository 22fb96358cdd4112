"""The desk's Daifugo panel: the field, the lock and the revolution, who leads and who acts, each
seat's cards left, the last ruling, and the payout once a seat goes out.

:func:`daifugo_view` arranges what the live table's state says (:meth:`DaifugoTable.state
<dealer_assist.live.daifugo.DaifugoTable.state>`: its ``daifugo``, ``last_play`` and
``daifugo_result``) in one language, without Qt; :class:`DaifugoPanel` draws it. The words of the
rulings are the rules engine's own. An illegal play is also the banner's red ``illegal_play``
alert (the live table raises it).

>>> st = {"hand": 1, "daifugo": {"seats": [1, 2, 3], "winner": None, "turn": 2, "direction": "clockwise",
...       "revolution": True, "lock": ["h"], "leader": 1, "passed": [3],
...       "field": [{"seat": 1, "cards": ["7h"], "as": ["7h"]}], "cards_left": {"1": 4, "2": 9, "3": 1}},
...       "last_play": {"seat": 1, "legal": True, "ruling": {"reason": "legal", "reason_ja": "出せます"}}}
>>> v = daifugo_view(st, "ja")
>>> v.revolution, v.lock, v.turn_text, [(r.seat, r.cards_left, r.to_act, r.passed) for r in v.seats]
('革命中', 'しばり ♥', '次: シート2', [(1, 4, False, False), (2, 9, True, False), (3, 1, False, True)])
>>> daifugo_view(st, "en").revolution
'REVOLUTION'
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Mapping, Optional

from dealer_assist.i18n import _, render, seat

__all__ = ["DaifugoView", "SeatRow", "daifugo_view", "game_panel"]

_SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    cards_left: Optional[int]
    to_act: bool = False
    passed: bool = False
    leads: bool = False
    payout: Optional[int] = None
    winner: bool = False
    text: str = ""


@dataclass(frozen=True, slots=True)
class DaifugoView:
    title: str
    revolution: str                      # "" in the normal order
    lock: str                            # "" when no lock
    direction: str
    turn_text: str
    field: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]   # (seat, cards, read as)
    last: str                            # the last ruling in words
    last_legal: Optional[bool]
    seats: tuple[SeatRow, ...]
    payout: tuple[str, ...] = ()         # the payout's lines, once the game is over
    over: bool = False


def daifugo_view(state: Optional[Mapping[str, Any]], lang: str = "ja") -> DaifugoView:
    """What the panel shows for the live table's ``state`` in ``lang``."""
    state = state or {}
    result = state.get("daifugo_result")
    d = state.get("daifugo")
    last = state.get("last_play")
    over = False
    pay = None
    hand = state.get("hand")
    if d is None and result:
        d, last, pay, over, hand = result.get("daifugo"), result.get("last_play"), result.get("payout"), True, result.get("hand")
    if d is None:
        return DaifugoView(render(_("Daifugo: no game started (the dealer starts one)"), lang), "", "", "", "",
                           (), "", None, ())
    title = render(_("Daifugo game {n}", n=hand) if not over else _("Daifugo game {n}: over", n=hand), lang)
    revolution = render(_("REVOLUTION"), lang) if d.get("revolution") else ""
    lock = ""
    if d.get("lock"):
        lock = render(_("suit lock {suits}", suits="".join(_SUITS.get(s, s) for s in d["lock"])), lang)
    direction = render(_("clockwise") if d.get("direction") == "clockwise" else
                       _("counterclockwise (J reverse)"), lang)
    if d.get("winner") is not None:
        turn_text = render(_("seat {seat} went out", seat=d["winner"]), lang)
    else:
        turn_text = render(_("next: {seat}", seat=seat(d.get("turn"))), lang)
    field = tuple((int(p["seat"]), tuple(p["cards"]), tuple(p.get("as") or p["cards"])) for p in d.get("field") or ())
    said, legal = "", None
    if last:
        ruling = last.get("ruling") or {}
        said = str(ruling.get("reason_ja") if lang == "ja" else ruling.get("reason") or "")
        legal = bool(last.get("legal"))
        if not legal:
            said = render(_("ILLEGAL: {why}", why=said), lang)
    payouts = (pay or {}).get("payouts") or {}
    left = d.get("cards_left") or {}
    passed = set(d.get("passed") or ())
    rows = []
    for s in d.get("seats") or sorted(int(k) for k in left):
        n = left.get(str(s))
        bits = [render(_("{n} cards left", n=n), lang) if n is not None else "?"]
        if s in passed:
            bits.append(render(_("passed"), lang))
        if s == d.get("leader") and not over:
            bits.append(render(_("leads the round"), lang))
        if str(s) in payouts:
            v = payouts[str(s)]
            bits.append(f"{v:+d}G")
        rows.append(SeatRow(s, n, s == d.get("turn") and not over, s in passed, s == d.get("leader"),
                            payouts.get(str(s)), s == d.get("winner"), " · ".join(bits)))
    lines: tuple[str, ...] = ()
    if pay:
        lines = tuple(pay.get("explanation_ja" if lang == "ja" else "explanation") or ())
    return DaifugoView(title, revolution, lock, direction, turn_text, field, said, legal, tuple(rows),
                       lines, over)


def game_panel(table: Any):
    """The panel a live table names for its game (its ``desk_panel``, ``module:Class``), or None."""
    name = getattr(table, "desk_panel", None)
    if not name:
        return None
    module, cls = name.split(":")
    return getattr(importlib.import_module(module), cls)()


# ---------------------------------------------------------------------------------------- Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QWidget  # noqa: E402

from dealer_assist.desk.widgets import MUTED, PANEL_BG, TEXT, WIN, CardTile, Panel, label, vbox  # noqa: E402

_RED = "#d32f2f"


class DaifugoPanel(Panel):
    """The Daifugo referee's panel (see the module)."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        lay = vbox(self, (12, 10, 12, 10), 8)
        head = QHBoxLayout()
        self.title = label("", 20, bold=True, colour=TEXT)
        self.revolution = label("", 18, bold=True)
        self.lock = label("", 16, bold=True)
        self.direction = label("", 14, colour=MUTED)
        for w in (self.title, self.revolution, self.lock, self.direction):
            head.addWidget(w)
        head.addStretch(1)
        lay.addLayout(head)
        self.turn = label("", 18, bold=True, colour=TEXT)
        lay.addWidget(self.turn)
        self.field_box = QWidget()
        self.field_row = QHBoxLayout(self.field_box)
        self.field_row.setContentsMargins(0, 0, 0, 0)
        self.field_row.setSpacing(14)
        lay.addWidget(self.field_box)
        self.last = label("", 14)
        self.last.setWordWrap(True)
        lay.addWidget(self.last)
        self.seat_box = QWidget()
        self.seat_grid = QGridLayout(self.seat_box)
        self.seat_grid.setContentsMargins(0, 0, 0, 0)
        self.seat_grid.setHorizontalSpacing(16)
        lay.addWidget(self.seat_box)
        self.payout = label("", 13, colour=TEXT)
        self.payout.setWordWrap(True)
        lay.addWidget(self.payout)
        lay.addStretch(1)
        self.view: Optional[DaifugoView] = None

    def set_scale(self, k: float) -> None:   # the desk scales its panels; this one keeps its sizes
        pass

    @staticmethod
    def _clear(layout) -> None:
        while layout.count():
            item = layout.takeAt(0)
            w = item.widget()
            if w is not None:
                w.deleteLater()

    def show_state(self, state: Optional[Mapping[str, Any]], lang: str) -> None:
        v = daifugo_view(state, lang)
        if v == self.view:
            return
        self.view = v
        self.title.setText(v.title)
        self.revolution.setText(f" {v.revolution} " if v.revolution else "")
        self.revolution.setStyleSheet(f"background: {_RED}; color: white; border-radius: 6px;"
                                      if v.revolution else "")
        self.lock.setText(f" {v.lock} " if v.lock else "")
        self.lock.setStyleSheet("background: #f9a825; color: black; border-radius: 6px;" if v.lock else "")
        self.direction.setText(v.direction)
        self.turn.setText(v.turn_text)
        self._clear(self.field_row)
        for i, (s, cards, read_as) in enumerate(v.field[-3:]):
            box = QWidget()
            bl = vbox(box, spacing=2)
            bl.addWidget(QLabel(render(seat(s), lang)))
            tiles = QHBoxLayout()
            tiles.setSpacing(4)
            stand_ins = [a for a in read_as if a not in cards]
            for c in cards:
                tile = CardTile(84 if i == len(v.field[-3:]) - 1 else 60)
                tile.set_card(c, stand_in=stand_ins.pop(0) if c == "JK" and stand_ins else None,
                              highlight=i == len(v.field[-3:]) - 1)
                tiles.addWidget(tile)
            bl.addLayout(tiles)
            self.field_row.addWidget(box)
        if not v.field:
            self.field_row.addWidget(label(render(_("the field is empty"), lang), 14, colour=MUTED))
        self.field_row.addStretch(1)
        self.last.setText(v.last)
        self.last.setStyleSheet(f"color: {_RED if v.last_legal is False else TEXT};")
        self._clear(self.seat_grid)
        for r, row in enumerate(v.seats):
            name = label(("▶ " if row.to_act else "") + render(seat(row.seat), lang), 16, bold=True,
                         colour=WIN if row.winner else (TEXT if not row.passed else MUTED))
            self.seat_grid.addWidget(name, r // 2, (r % 2) * 2)
            self.seat_grid.addWidget(label(row.text, 14, colour=TEXT if not row.passed else MUTED),
                                     r // 2, (r % 2) * 2 + 1)
        self.payout.setText("\n".join(v.payout))
        self.setStyleSheet(f"QFrame#panel {{ background: {PANEL_BG}; border-radius: 8px; }}")

    def text(self) -> str:
        """What the panel says, as text (for tests)."""
        v = self.view
        if v is None:
            return ""
        parts = [v.title, v.revolution, v.lock, v.direction, v.turn_text, v.last]
        parts += [f"{r.seat}: {r.text}" for r in v.seats] + list(v.payout)
        return "\n".join(p for p in parts if p)
