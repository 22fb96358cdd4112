"""Half Texas on the desk: the session's ledger of BP and RP per seat, across hands.

The live table's state for Half Texas carries ``ledger`` (every player's BP, RP, BP x RP, whether
it dropped out, the last game's changes, the games played, whether the session is over) and the
game in progress's ``raises`` and ``multiplier``; each seat's entry says whether it ``raised``
and whether its cards are a dropped seat's ``swap_hand``. :func:`ledger_view` arranges them for
the screen in either language (pure, no Qt); :class:`LedgerPanel` shows the game's explanation
and, under it, the ledger in place of the ruling's pots (nobody is paid chips), the seats in place
order (highest BP x RP first, as the standings will be).

>>> st = {"hand": 2, "raises": 1, "multiplier": 2, "button": 2,
...       "ledger": {"games": 1, "over": False, "reason": "", "reason_ja": "",
...                  "seats": {"1": {"bp": 30, "rp": 10, "final": 300, "dropped": False},
...                            "2": {"bp": 10, "rp": 2, "final": 20, "dropped": False}},
...                  "changes": {"1": {"bp": 20, "rp": 0}, "2": {"bp": 0, "rp": -8}}},
...       "seats": {"1": {"raised": True}, "2": {"raised": False}}}
>>> v = ledger_view(st, "ja")
>>> v.title, v.game
('持ち点（1ゲーム終了）', '第2ゲーム レイズ1回 ×2')
>>> [r.cells for r in v.rows]
[('シート1', '30', '10', '300', '+20 / +0', 'レイズ'), ('シート2', '10', '2', '20', '+0 / -8', '')]
>>> ledger_view({"hand": None}, "en") is None
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional

from dealer_assist.i18n import _, render

__all__ = ["LedgerRow", "LedgerView", "ledger_view", "seat_status", "ledger_panel", "LedgerPanel"]


@dataclass(frozen=True, slots=True)
class LedgerRow:
    seat: int
    cells: tuple[str, ...]       # seat, BP, RP, BP x RP, last game's change, status
    dropped: bool = False
    leader: bool = False         # the highest BP x RP


@dataclass(frozen=True, slots=True)
class LedgerView:
    title: str
    game: str                    # the game in progress: its number, raises and multiplier
    header: tuple[str, ...]
    rows: tuple[LedgerRow, ...]
    note: str = ""               # the session is over, and why


def _signed(n: Any) -> str:
    return f"{int(n):+d}" if isinstance(n, int) else "-"


def ledger_view(state: Optional[Mapping[str, Any]], lang: str = "ja") -> Optional[LedgerView]:
    """The ledger as the desk shows it, or None where the state has none (another game)."""
    ledger = (state or {}).get("ledger")
    if not isinstance(ledger, Mapping):
        return None
    seats = {int(k): v for k, v in (ledger.get("seats") or {}).items()}
    changes = {int(k): v for k, v in (ledger.get("changes") or {}).items()}
    table_seats = {int(k): v for k, v in ((state or {}).get("seats") or {}).items()}
    games = int(ledger.get("games") or 0)
    title = render(_("points ({n} games played)", n=games), lang)
    game = ""
    if state.get("hand") is not None and not ledger.get("over"):
        raises = int(state.get("raises") or 0)
        game = render(_("game {n}: {raises} raises, x{m}", n=games + 1, raises=raises,
                        m=int(state.get("multiplier") or raises + 1)), lang)
    best = max((r.get("final", 0) for r in seats.values() if not r.get("dropped")), default=None)
    order = sorted(seats, key=lambda s: (-int(seats[s].get("final", 0)), s))
    rows = []
    for s in order:
        r = seats[s]
        ch = changes.get(s) or {}
        status = []
        if r.get("dropped"):
            status.append(render(_("out: swap hand"), lang))
        if (table_seats.get(s) or {}).get("raised"):
            status.append(render(_("raised"), lang))
        rows.append(LedgerRow(s, (render(_("seat {seat}", seat=s), lang), str(r.get("bp")), str(r.get("rp")),
                                  str(r.get("final")),
                                  f"{_signed(ch.get('bp'))} / {_signed(ch.get('rp'))}" if ch else "",
                                  " ".join(status)),
                              bool(r.get("dropped")), best is not None and r.get("final") == best and best > 0))
    header = tuple(render(m, lang) for m in (_("seat"), _("BP"), _("RP"), _("BP x RP"), _("last game"), _("state")))
    note = ""
    if ledger.get("over"):
        why = ledger.get("reason_ja") if lang == "ja" else ledger.get("reason")
        note = render(_("the session is over ({why}): final score BP x RP; equal scores go to casino war",
                        why=why or "-"), lang)
    return LedgerView(title, game, header, tuple(rows), note)


def seat_status(seat: Optional[Mapping[str, Any]], folded: bool, lang: str = "ja") -> Optional[str]:
    """A seat panel's status line in Half Texas (in place of the chips, which the game has none
    of): the player's points, that it raised or folded, or that it is out (its cards a swap hand);
    None for a seat that is no player (an empty seat is dealt too, its cards play no part).

    >>> seat_status({"bp": 30, "rp": 2, "dropped": False, "raised": True}, False, "ja")
    '30BP 2RP・レイズ'
    >>> seat_status({"bp": 10, "rp": 0, "dropped": True}, True, "en")
    'out: swap hand'
    >>> seat_status({"raised": False}, True, "en") is None
    True
    """
    if not seat or "bp" not in seat:
        return None
    if seat.get("dropped"):
        return render(_("out: swap hand"), lang)
    text = render(_("{bp} BP {rp} RP", bp=seat.get("bp"), rp=seat.get("rp")), lang)
    if folded:
        return render(_("{points}, folded", points=text), lang)
    if seat.get("raised"):
        return render(_("{points}, raised", points=text), lang)
    return text


def ledger_panel(table: Any) -> Optional["LedgerPanel"]:
    """The ledger panel for a live table whose game keeps one (its flow's ``ledger``), or None."""
    if not hasattr(getattr(table, "rules", None), "ledger"):
        return None
    return LedgerPanel()


# ---------------------------------------------------------------------------------------- Qt
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QScrollArea, QWidget  # noqa: E402

from dealer_assist.desk.widgets import MUTED, TEXT, WIN, Panel, label, vbox  # noqa: E402

_OUT = "#e57373"


class LedgerPanel(Panel):
    """The session's ledger of BP and RP (see the module)."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        box = vbox(self, (10, 8, 10, 8), 4)
        self.why = label("", 11, False, TEXT, wrap=True)
        self.why.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        scroll = QScrollArea()        # the explanation scrolls; the ledger under it always shows
        scroll.setWidget(self.why)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }")
        box.addWidget(scroll, 1)
        self.title = label("", 14, True, TEXT)
        box.addWidget(self.title)
        self.game = label("", 12, False, MUTED)
        box.addWidget(self.game)
        grid_host = QWidget()
        self.grid = QGridLayout(grid_host)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(2)
        box.addWidget(grid_host)
        self.note = label("", 12, True, "#ffd54a", wrap=True)
        box.addWidget(self.note)
        self._cells: list[QLabel] = []
        self._shown: Optional[LedgerView] = None

    def label_seats(self, panels: Mapping[int, Any], state: Optional[Mapping[str, Any]], lang: str) -> None:
        """Put each player's points on its seat panel in place of the chips (:func:`seat_status`);
        an empty seat's panel says it is no player."""
        seats = (state or {}).get("seats") or {}
        for n, panel in panels.items():
            st = seats.get(str(n)) or {}
            view = getattr(panel, "view", None)
            text = seat_status(st, bool(getattr(view, "folded", st.get("folded"))), lang)
            if text is None and (view is not None and view.dealt):
                text = render(_("no player"), lang)
            if text is not None:
                panel.status.setText(text)

    def show_state(self, state: Optional[Mapping[str, Any]], lang: str, explanation: tuple = (),
                   shown: tuple = ()) -> None:
        """Show the ledger of ``state`` and the last ruling's ``explanation``, less the lines naming
        the hands ``shown`` on the seat panels (the points won and lost are what is read here)."""
        lines = [x for x in explanation if not any(h and h in x for h in shown)]
        text = "\n".join(lines) if lines else render(_("the points are ruled at the showdown"), lang)
        if text != self.why.text():
            self.why.setText(text)
        view = ledger_view(state, lang)
        if view == self._shown:
            return
        self._shown = view
        for cell in self._cells:
            self.grid.removeWidget(cell)
            cell.deleteLater()
        self._cells = []
        if view is None:
            self.title.setText("")
            self.game.setText("")
            self.note.setText("")
            return
        self.title.setText(view.title)
        self.game.setText(view.game)
        self.game.setVisible(bool(view.game))
        self.note.setText(view.note)
        self.note.setVisible(bool(view.note))
        for col, text in enumerate(view.header):
            cell = label(text, 11, False, MUTED)
            self.grid.addWidget(cell, 0, col)
            self._cells.append(cell)
        for i, row in enumerate(view.rows, 1):
            colour = _OUT if row.dropped else (WIN if row.leader else TEXT)
            for col, text in enumerate(row.cells):
                cell = label(text, 14 if col in (1, 2, 3) else 12, col == 3, colour)
                self.grid.addWidget(cell, i, col)
                self._cells.append(cell)
