"""The desk's Daifugo panel: the field, the lock and the revolution, who leads and who acts, each
seat's cards left, the last ruling, and the payout once a seat goes out.

:func:`daifugo_view` arranges what the live table's state says (:meth:`DaifugoTable.state
<dealer_assist.live.daifugo.DaifugoTable.state>`: its ``daifugo``, ``last_play`` and
``daifugo_result``) in one language, without Qt; :class:`DaifugoPanel` draws it. The words of the
rulings are the rules engine's own. An illegal play is also the banner's red ``illegal_play``
alert (the live table raises it).

The camera cannot see a pass, cannot count the cards a player holds and cannot hear what a joker
stands for: the panel's buttons (and keys) send these dealer inputs to the live table as actions,
the same way the desk sends a correction (``acted`` carries each, the window hands it to the
table): ``{"type": "pass", "seat": N}`` (P: the seat to act passes), ``{"type": "cards_left",
"seat": N, "cards": n}`` (each seat's − and + buttons) and ``{"type": "joker", "as": [...]}``
(one button per legal reading of a play waiting for its declaration; J opens them as a menu). The
rules engine rules them; a refused one comes back on the banner.

>>> st = {"hand": 1, "daifugo": {"seats": [1, 2, 3], "winner": None, "turn": 2, "direction": "clockwise",
...       "revolution": True, "lock": ["h"], "leader": 1, "passed": [3],
...       "field": [{"seat": 1, "cards": ["7h"], "as": ["7h"]}], "cards_left": {"1": 4, "2": 9, "3": 1}},
...       "last_play": {"seat": 1, "legal": True, "ruling": {"reason": "legal", "reason_ja": "出せます"}}}
>>> v = daifugo_view(st, "ja")
>>> v.revolution, v.lock, v.turn_text, [(r.seat, r.cards_left, r.to_act, r.passed) for r in v.seats]
('革命中', 'しばり ♥', '次: シート2', [(1, 4, False, False), (2, 9, True, False), (3, 1, False, True)])
>>> daifugo_view(st, "en").revolution
'REVOLUTION'
>>> v.pass_text, v.inputs
('パス: シート2 (P)', True)
>>> st["declaration"] = {"seat": 2, "cards": ["7h", "JK"], "options": [["7s"], ["7d"]]}
>>> w = daifugo_view(st, "en")
>>> w.declaration, w.readings
('JOKER: seat 2 laid ♥7 JK: what does the joker stand for? (J)', (('7s',), ('7d',)))
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Mapping, Optional

from dealer_assist.desk.texts import SUIT_SYMBOL
from dealer_assist.i18n import _, render, seat

__all__ = ["DaifugoView", "SeatRow", "daifugo_view", "game_panel"]


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
    inputs: bool = False                 # a game is being played: the dealer's inputs are open
    pass_text: str = ""                  # the pass button: who passes
    pass_seat: Optional[int] = None
    declaration: str = ""                # a play waiting for the joker's declaration, in words
    readings: tuple[tuple[str, ...], ...] = ()   # its legal readings (each joker's card, in order)


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
        lock = render(_("suit lock {suits}", suits="".join(SUIT_SYMBOL.get(s, s) for s in d["lock"])), lang)
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
    payouts = dict(pay.payouts) if pay is not None else {}      # the game's GamePayout, once over
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
        if s in payouts:
            bits.append(f"{payouts[s]:+d}G")
        rows.append(SeatRow(s, n, s == d.get("turn") and not over, s in passed, s == d.get("leader"),
                            payouts.get(s), s == d.get("winner"), " · ".join(bits)))
    lines = pay.lines(lang) if pay is not None else ()
    inputs = not over and d.get("winner") is None
    to_act = d.get("turn") if inputs else None
    pass_text = render(_("Pass: {seat} (P)", seat=seat(to_act)), lang) if to_act is not None else ""
    declaration, readings = "", ()
    waiting = state.get("declaration") if inputs else None
    if waiting:
        declaration = render(_("JOKER: {seat} laid {cards}: what does the joker stand for? (J)",
                               seat=seat(waiting.get("seat")), cards=reading_text(waiting.get("cards") or ())), lang)
        readings = tuple(tuple(str(c) for c in o) for o in waiting.get("options") or ())
    return DaifugoView(title, revolution, lock, direction, turn_text, field, said, legal, tuple(rows),
                       lines, over, inputs, pass_text, to_act, declaration, readings)


def game_panel(table: Any):
    """The panel a live table names for its game (its ``desk_panel``, ``module:Class``), or None."""
    name = getattr(table, "desk_panel", None)
    if not name:
        return None
    module, cls = name.split(":")
    return getattr(importlib.import_module(module), cls)()


def reading_text(cards) -> str:
    """Cards as the panel writes them: ``♠7``, ``♥10 JK`` (a joker reading on its button: ``♠7``)."""
    return " ".join(c if c == "JK" or len(c) != 2 else SUIT_SYMBOL.get(c[1], c[1]) + ("10" if c[0] == "T" else c[0])
                    for c in cards)


# ---------------------------------------------------------------------------------------- Qt
from PySide6.QtCore import Signal  # noqa: E402
from PySide6.QtGui import QKeySequence, QShortcut  # noqa: E402
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QMenu, QPushButton, QWidget  # noqa: E402

from dealer_assist.desk.widgets import (MUTED, PANEL_BG, TEXT, WIN, CardTile, Panel, card_colour, font,  # noqa: E402
                                        label, vbox)

_RED = "#d32f2f"


class DaifugoPanel(Panel):
    """The Daifugo referee's panel (see the module). ``acted`` carries each dealer input (an
    action for the live table); whoever shows the panel connects it (the desk's window, to its
    ``requestAct``, as a correction goes)."""

    acted = Signal(object)

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.lang = "ja"
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
        # the dealer's inputs: the seat to act passes; a joker's declaration
        inputs = QHBoxLayout()
        self.pass_button = QPushButton()
        self.pass_button.setFont(font(14, bold=True))
        self.pass_button.clicked.connect(self.send_pass)
        inputs.addWidget(self.pass_button)
        self.declare = label("", 14, bold=True, colour="#ffd54a")
        self.declare.setWordWrap(True)
        inputs.addWidget(self.declare, 1)
        self.reading_row = QHBoxLayout()
        self.reading_row.setSpacing(6)
        inputs.addLayout(self.reading_row)
        lay.addLayout(inputs)
        self.reading_buttons: list[QPushButton] = []
        self.seat_box = QWidget()
        self.seat_grid = QGridLayout(self.seat_box)
        self.seat_grid.setContentsMargins(0, 0, 0, 0)
        self.seat_grid.setHorizontalSpacing(16)
        lay.addWidget(self.seat_box)
        #: each seat's − and + buttons for its cards left, by seat
        self.count_buttons: dict[int, tuple[QPushButton, QPushButton]] = {}
        QShortcut(QKeySequence("P"), self, activated=self.send_pass)
        QShortcut(QKeySequence("J"), self, activated=self.open_readings)
        self.menu: Optional[QMenu] = None
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

    # ------------------------------------------------------------------ the dealer's inputs
    def _send(self, action: Mapping[str, Any]) -> None:
        self.acted.emit(dict(action))

    def send_pass(self) -> None:
        """The seat to act passes (P)."""
        v = self.view
        if v is not None and v.inputs and v.pass_seat is not None:
            self._send({"type": "pass", "seat": v.pass_seat})

    def send_cards_left(self, seat_no: int, n: int) -> None:
        """The dealer counts a seat's cards (where the camera cannot)."""
        if self.view is not None and self.view.inputs:
            self._send({"type": "cards_left", "seat": seat_no, "cards": n})

    def declare_joker(self, reading: tuple[str, ...]) -> None:
        """The player's declaration: what each joker of the waiting play stands for."""
        if self.view is not None and self.view.readings:
            self._send({"type": "joker", "as": list(reading)})

    def open_readings(self) -> Optional[QMenu]:
        """The waiting play's readings as a menu (J): arrows and Enter choose one."""
        v = self.view
        if v is None or not v.readings:
            return None
        self.menu = QMenu(self)
        for reading in v.readings:
            act = self.menu.addAction(reading_text(reading))
            act.triggered.connect(lambda _=False, r=reading: self.declare_joker(r))
        self.menu.popup(self.declare.mapToGlobal(self.declare.rect().bottomLeft()))
        return self.menu

    def show_state(self, state: Optional[Mapping[str, Any]], lang: str) -> None:
        v = daifugo_view(state, lang)
        if v == self.view:
            return
        self.view = v
        self.lang = lang
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
        self.pass_button.setText(v.pass_text or render(_("Pass (P)"), lang))
        self.pass_button.setEnabled(v.inputs and v.pass_seat is not None)
        self.pass_button.setVisible(not v.over)     # a game over has no one to pass
        self.declare.setText(v.declaration)
        self._clear(self.reading_row)
        self.reading_buttons = []
        for reading in v.readings:
            b = QPushButton(reading_text(reading))
            b.setFont(font(16, bold=True))
            b.setStyleSheet(f"QPushButton {{ background: #fbfbf8; color: {card_colour(reading[0])}; "
                            f"border-radius: 5px; }} QPushButton:focus {{ border: 3px solid #ffd54a; }}")
            b.clicked.connect(lambda _=False, r=reading: self.declare_joker(r))
            self.reading_row.addWidget(b)
            self.reading_buttons.append(b)
        self._clear(self.seat_grid)
        self.count_buttons = {}
        fewer, more = render(_("one card fewer"), lang), render(_("one card more"), lang)
        for r, row in enumerate(v.seats):
            name = label(("▶ " if row.to_act else "") + render(seat(row.seat), lang), 16, bold=True,
                         colour=WIN if row.winner else (TEXT if not row.passed else MUTED))
            col = (r % 2) * 4
            self.seat_grid.addWidget(name, r // 2, col)
            self.seat_grid.addWidget(label(row.text, 14, colour=TEXT if not row.passed else MUTED),
                                     r // 2, col + 1)
            if v.inputs:
                n = row.cards_left
                minus, plus = QPushButton("−"), QPushButton("+")
                for b, tip, to in ((minus, fewer, (n or 1) - 1), (plus, more, (n or 0) + 1)):
                    b.setFont(font(14, bold=True))
                    b.setFixedWidth(40)
                    b.setToolTip(tip)
                    b.setEnabled(n is not None and 1 <= to <= 10)
                    b.clicked.connect(lambda _=False, s=row.seat, to=to: self.send_cards_left(s, to))
                self.seat_grid.addWidget(minus, r // 2, col + 2)
                self.seat_grid.addWidget(plus, r // 2, col + 3)
                self.count_buttons[row.seat] = (minus, plus)
        self.payout.setText("\n".join(v.payout))
        self.setStyleSheet(f"QFrame#panel {{ background: {PANEL_BG}; border-radius: 8px; }}")

    def text(self) -> str:
        """What the panel says, as text (for tests)."""
        v = self.view
        if v is None:
            return ""
        parts = [v.title, v.revolution, v.lock, v.direction, v.turn_text, v.last, v.pass_text, v.declaration]
        parts += [reading_text(r) for r in v.readings]
        parts += [f"{r.seat}: {r.text}" for r in v.seats] + list(v.payout)
        return "\n".join(p for p in parts if p)
