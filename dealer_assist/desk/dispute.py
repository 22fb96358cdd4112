"""Dispute mode: open a past hand from the hand log, step through its snapshots and events, and
show its ruling with the explanation a floor manager reads aloud.

Everything comes from the log as it was recorded (:func:`~dealer_assist.live.handlog.load_hand`):
the ruling shown is the one the table gave then, not a new one. Hands are named as ``review``
names them, session and hand number (``2:3``), and a hand that never ended because its run
stopped is shown as interrupted (中断), not as in progress.
"""
from __future__ import annotations

from typing import Optional, Union

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QImage, QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QMainWindow, QPushButton, QSplitter, QWidget

from dealer_assist.desk.texts import event_name, seats_text, t, zone_text
from dealer_assist.desk.view import DeskState
from dealer_assist.desk.widgets import (APP_STYLE, MUTED, PANEL_BG, TEXT, BoardPanel, Panel, RulingPanel, SeatPanel,
                                        VideoView, font, label, vbox)
from dealer_assist.errors import UserError
from dealer_assist.i18n import N_, Msg, Text, _p, message_of, render
from dealer_assist.live.ruling import read_offered
from dealer_assist.live.words import RULING_UNREADABLE
from dealer_assist.live.words import line as event_line

#: The hand list's own texts (message ids of the catalogues): a hand is named by session and
#: number, as ``dealer-assist review SESSION:HAND`` names it, and its status is one of the log's three.
ROW_TEXTS = {
    "row": N_("{ref}  session {session}, hand {hand}  {when}  {status}\n    board {board}"),
    "ended": N_("ended"),
    "open": N_("in progress"),
    "interrupted": N_("interrupted (the run stopped)"),
    "header": N_("Hand {ref}: hand {hand} of session {session} (id {id}), {status}"),
    # a damaged log: what it lost is said, and the hand shown from what is there
    "session_missing": N_("session {session}: its row is missing from the hand log (the log is damaged there)"),
}


def row_text(key: str, lang: str, **fields) -> str:
    return Msg(ROW_TEXTS[key], tuple(fields.items())).render(lang)


class DisputeWindow(QMainWindow):
    """The hand log for a dispute. ``open_hand(ref)`` shows one hand (``"2:3"``: session 2, hand 3,
    or its row id); ← and → step its snapshots."""

    handOpened = Signal(int)

    def __init__(self, db: str, *, lang: str = "ja", hand_id: Optional[Union[int, str]] = None,
                 parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.db = db
        self.lang = lang
        self.hands: list[dict] = []
        self.hand: Optional[dict] = None
        self.snap_index = 0
        #: the error shown, in words of the catalogues (in the window's language); ``error`` is its English
        self.error_words: Optional[Text] = None
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setStyleSheet(APP_STYLE + f" QLabel {{ color: {TEXT}; }}"
                           f" QListWidget {{ background: {PANEL_BG}; color: {TEXT}; border: none; }}"
                           f" QListWidget::item:selected {{ background: #37474f; }}"
                           f" QPushButton {{ background: #2a3038; color: {TEXT}; border-radius: 6px;"
                           f" padding: 6px 12px; }}")
        central = QWidget()
        outer = vbox(central, (6, 6, 6, 6))
        split = QSplitter(Qt.Orientation.Horizontal)
        # left: the hands
        left = QWidget()
        ll = vbox(left)
        self.hands_title = label(size=15, bold=True)
        ll.addWidget(self.hands_title)
        self.hand_list = QListWidget()
        self.hand_list.setFont(font(12))
        self.hand_list.setWordWrap(True)
        self.hand_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.hand_list.currentRowChanged.connect(self._row_changed)
        ll.addWidget(self.hand_list, 1)
        split.addWidget(left)
        # middle: the snapshot and the timeline
        mid = QWidget()
        ml = vbox(mid)
        self.image = VideoView()
        ml.addWidget(self.image, 3)
        nav = QHBoxLayout()
        self.prev_button = QPushButton()
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button = QPushButton()
        self.next_button.clicked.connect(lambda: self.step(1))
        self.snap_label = label(size=12)
        self.snap_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        nav.addWidget(self.prev_button)
        nav.addWidget(self.snap_label, 1)
        nav.addWidget(self.next_button)
        ml.addLayout(nav)
        self.timeline = QListWidget()
        self.timeline.setFont(font(11))
        self.timeline.setWordWrap(True)
        self.timeline.itemClicked.connect(self._event_clicked)
        ml.addWidget(self.timeline, 2)
        split.addWidget(mid)
        # right: board, ruling, corrections, session
        right = QWidget()
        rl = vbox(right)
        self.board = BoardPanel(tile=70)
        rl.addWidget(self.board)
        self.ruling = RulingPanel()
        rl.addWidget(self.ruling, 3)
        box = Panel()
        bl = vbox(box, (10, 8, 10, 8), spacing=4)
        self.corr_title = label(size=13, bold=True)
        self.corr_text = label(size=12, wrap=True)
        self.session_text = label(size=10, colour=MUTED, wrap=True)
        bl.addWidget(self.corr_title)
        bl.addWidget(self.corr_text)
        bl.addWidget(self.session_text)
        rl.addWidget(box, 1)
        split.addWidget(right)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 5)
        split.setStretchFactor(2, 4)
        split.setSizes([300, 560, 420])
        outer.addWidget(split, 1)
        seats = QWidget()
        self.seat_row = QHBoxLayout(seats)
        self.seat_row.setContentsMargins(0, 0, 0, 0)
        self.seat_panels: list[SeatPanel] = []
        outer.addWidget(seats)
        self.setCentralWidget(central)
        for key, fn in ((Qt.Key.Key_Left, lambda: self.step(-1)), (Qt.Key.Key_Right, lambda: self.step(1)),
                        (Qt.Key.Key_Home, lambda: self.show_snapshot(0)),
                        (Qt.Key.Key_End, lambda: self.show_snapshot(len(self._snaps()) - 1)),
                        (Qt.Key.Key_Escape, self.close)):
            QShortcut(QKeySequence(key), self, activated=fn)
        QShortcut(QKeySequence(Qt.Key.Key_L), self, activated=lambda: self.set_language(
            "en" if self.lang == "ja" else "ja"))
        self.resize(1280, 800)
        self.refresh()
        if hand_id is not None:
            self.open_hand(hand_id)
        elif self.hands:
            self.hand_list.setCurrentRow(len(self.hands) - 1)

    # ------------------------------------------------------------------ data
    def refresh(self) -> None:
        """Re-read the list of hands (the live table may have logged more)."""
        from dealer_assist.live.handlog import list_hands

        try:
            self.hands = list_hands(self.db)
            self._set_error(None)
        except UserError as exc:
            self.hands = []
            self._set_error(exc)
        current = self.hand["id"] if self.hand else None
        self.hand_list.blockSignals(True)
        self.hand_list.clear()
        for h in self.hands:
            self.hand_list.addItem(self._row_text(h))
        if current is not None:     # keep the open hand (and the snapshot shown) selected
            for i, h in enumerate(self.hands):
                if h["id"] == current:
                    self.hand_list.setCurrentRow(i)
        self.hand_list.blockSignals(False)
        self._retranslate()

    def _row_text(self, h: dict) -> str:
        lang = self.lang
        status = h.get("status")
        status = row_text(status if status in ("ended", "open", "interrupted") else "open", lang)
        if h.get("unconfirmed"):        # paid on doubtful cards the dealer never confirmed
            status = _p("hand list", "{status}, unconfirmed", status=status).render(lang)
        if h.get("session_missing"):    # a damaged log: listed all the same, and said
            status = _p("hand list", "{status}, session lost", status=status).render(lang)
        when = (h.get("started") or "")[11:19]
        board = (_p("hand list", "(unreadable)").render(lang) if h.get("board_unreadable")
                 else " ".join(str(c) for c in h.get("board") or []) or "-")
        row = row_text("row", lang, ref=h.get("ref") or f"{h.get('session')}:{h.get('hand')}",
                       session=h.get("session"), hand=h.get("hand"), when=when, board=board, status=status)
        winners = h.get("winners") or []
        if winners:
            row += "\n    " + t("winners", lang, seats=seats_text(winners, lang))
        return row

    def _row_changed(self, row: int) -> None:
        if 0 <= row < len(self.hands):
            self.open_hand(self.hands[row]["id"])

    def open_hand(self, hand_id: Union[int, str]) -> bool:
        """Show the hand ``hand_id`` names: ``"2:3"`` (session 2, hand 3) or its row id."""
        from dealer_assist.live.handlog import load_hand

        try:
            self.hand = load_hand(self.db, hand_id)
        except UserError as exc:
            self._set_error(exc)
            self.hand = None
            self._retranslate()
            return False
        self._set_error(None)
        hand_id = self.hand["id"]
        for i, h in enumerate(self.hands):
            if h["id"] == hand_id and self.hand_list.currentRow() != i:
                self.hand_list.blockSignals(True)
                self.hand_list.setCurrentRow(i)
                self.hand_list.blockSignals(False)
        self._show_hand()
        self.show_snapshot(self._decisive())
        self.handOpened.emit(hand_id)
        return True

    @property
    def error(self) -> Optional[str]:
        """The error shown, in English (None: none)."""
        return None if self.error_words is None else render(self.error_words, "en")

    def _set_error(self, exc: Optional[BaseException]) -> None:
        """The error to show (None: none), in ``error_words``."""
        self.error_words = message_of(exc) if exc is not None else None

    def _decisive(self) -> int:
        """The snapshot a dispute starts from: the (last) showdown, else the last one with cards."""
        snaps = self._snaps()
        for kinds in (("showdown",), ("hole", "board")):
            found = [i for i, s in enumerate(snaps) if s.get("event_type") in kinds]
            if found:
                return found[-1]
        return len(snaps) - 1

    def _snaps(self) -> list[dict]:
        return list((self.hand or {}).get("snapshots") or [])

    # ------------------------------------------------------------------ drawing
    def set_language(self, lang: str) -> None:
        self.lang = lang
        self.refresh()
        if self.hand is not None:
            self._show_hand()
            self.show_snapshot(self.snap_index)

    def _retranslate(self) -> None:
        lang = self.lang
        self.setWindowTitle(t("dispute_title", lang) + f" — {self.db}")
        self.hands_title.setText(t("dispute_hands", lang))
        self.prev_button.setText(t("prev", lang))
        self.next_button.setText(t("next", lang))
        self.corr_title.setText(t("corrections", lang))
        if self.error:
            self.snap_label.setText(render(self.error_words, lang))
        elif not self.hands:
            self.snap_label.setText(t("dispute_none", lang))

    def _show_hand(self) -> None:
        hand = self.hand
        if hand is None:
            return
        lang = self.lang
        snap = DeskState.logged_hand(hand["events"], hand.get("ruling")).snapshot(lang)
        self.board.show_snapshot(snap)
        self.ruling.show_snapshot(snap)
        for panel in self.seat_panels:      # a panel per seat dealt in, as the hand ended
            panel.setParent(None)
            panel.deleteLater()
        self.seat_panels = []
        for sv in snap.seats:
            if sv.dealt:
                panel = SeatPanel(sv.seat, tile=50)
                panel.show_seat(sv, lang, live=False)
                self.seat_row.addWidget(panel)
                self.seat_panels.append(panel)
        self.timeline.clear()
        for ev in hand["events"]:
            self.timeline.addItem(event_line(ev, lang, explain=False))
        corr = hand.get("corrections") or []
        lines = [t("correction_line", lang, frame=c.get("frame"), zone=zone_text(c.get("zone"), lang),
                   card=c.get("card"), to=c.get("to") or t("removed", lang)) for c in corr]
        lines += [t("confirmed_line", lang, frame=c.get("frame"), zone=zone_text(c.get("zone"), lang),
                    card=c.get("card")) for c in hand.get("confirmations") or ()]
        if hand.get("ruling_unreadable"):
            lines.append(RULING_UNREADABLE.render(lang))
        ruled = hand.get("ruling") or {}
        if ruled.get("provisional") or ruled.get("unsure"):
            from dealer_assist.desk.view import _placed, placed_text
            lines.append((t("ruling_provisional", lang) + ": " + t("provisional_over", lang)
                          if ruled.get("provisional") else t("moot_line", lang))
                         + " (" + placed_text(_placed(ruled.get("unsure")), lang,
                                              read_offered(ruled.get("unsure"))) + ")")
        self.corr_text.setText("\n".join(lines) if lines else t("no_corrections", lang))
        sess = hand.get("session") or {}
        models = sess.get("models") or {}
        short = ", ".join(f"{k} {str(v)[:10]}" for k, v in models.items() if k.endswith(".onnx") and v)
        status = hand.get("status") if hand.get("status") in ("ended", "open", "interrupted") else "open"
        header = row_text("header", lang, ref=hand.get("ref") or f"{sess.get('id')}:{hand.get('hand')}",
                          hand=hand.get("hand"), session=sess.get("id"), id=hand.get("id"),
                          status=row_text(status, lang))
        if hand.get("session_missing"):
            header += "\n" + row_text("session_missing", lang, session=sess.get("id"))
        self.session_text.setText(header + "\n"
                                  + t("session_line", lang, source=sess.get("source") or "-", models=short or "-")
                                  + (f"\n{sess.get('started') or ''}  dealer-assist {sess.get('app_version') or ''}"))

    def step(self, delta: int) -> None:
        self.show_snapshot(self.snap_index + delta)

    def show_snapshot(self, index: int) -> None:
        from dealer_assist.live.handlog import load_snapshot

        snaps = self._snaps()
        if not snaps:
            self.snap_index = 0
            self.snap_label.setText(t("no_snapshots", self.lang) if self.hand else "")
            self.prev_button.setEnabled(False)
            self.next_button.setEnabled(False)
            return
        index = max(0, min(index, len(snaps) - 1))
        self.snap_index = index
        s = snaps[index]
        try:
            jpeg = load_snapshot(self.db, s["id"])
            image = QImage.fromData(jpeg, "JPG")
        except UserError as exc:
            image = QImage()
            self._set_error(exc)
        if not image.isNull():
            self.image.set_image(image)
        ev_type = event_name(s.get("event_type") or "", self.lang)
        self.snap_label.setText(t("snapshot_of", self.lang, i=index + 1, n=len(snaps), frame=s.get("frame"),
                                  t=f"{float(s.get('t') or 0.0):.1f}", event=ev_type))
        self.prev_button.setEnabled(index > 0)
        self.next_button.setEnabled(index < len(snaps) - 1)
        ev_index = s.get("event_index")
        if isinstance(ev_index, int) and 0 <= ev_index < self.timeline.count():
            self.timeline.setCurrentRow(ev_index)

    def _event_clicked(self, item) -> None:
        row = self.timeline.row(item)
        snaps = self._snaps()
        best = None
        for i, s in enumerate(snaps):       # the last snapshot at or before that event
            if s.get("event_index", 0) <= row:
                best = i
        if best is not None:
            self.show_snapshot(best)
            self.timeline.setCurrentRow(row)

    def ruling_text(self) -> str:
        return "\n".join(self.ruling.pot_texts())
