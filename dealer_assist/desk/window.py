"""The desk display's live window and the worker thread that drives the pipeline.

The :class:`LiveWorker` lives in its own thread and runs the :class:`~dealer_assist.desk.session.LiveSession`
one frame per timer tick, so the card detector never blocks the screen; between frames it takes
the dealer's corrections, and every step goes back to the window as a ``Tick``. The window keeps
a :class:`~dealer_assist.desk.view.DeskState` and redraws its panels from it: it shows, it never
decides.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

from PySide6.QtCore import QObject, QThread, QTimer, Qt, Signal, Slot
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (QGridLayout, QInputDialog, QLabel, QMainWindow, QSplitter, QToolBar,
                               QVBoxLayout, QWidget)

from dealer_assist.desk.session import LiveSession, Tick
from dealer_assist.desk.texts import t
from dealer_assist.i18n import _, message_of
from dealer_assist.desk.view import DeskSnapshot, DeskState
from dealer_assist.desk.widgets import (APP_STYLE, AlertBanner, AnteDialog, BoardPanel, CardPicker,
                                        CorrectionConfirm, EventLog, RulingPanel, SeatPanel, VideoView,
                                        antes_text, font, use_qt_language, vbox)



class LiveWorker(QObject):
    """Runs a live session in a worker thread: ``start``, ``pause``, ``resume``, ``step_once`` and
    ``act`` are slots (call them through queued signals); ``ticked`` carries every step's Tick."""

    ticked = Signal(object)
    paused = Signal(bool)
    ended = Signal()
    previewed = Signal(object)

    def __init__(self, session: LiveSession):
        super().__init__()
        self.session = session
        self._timer: Optional[QTimer] = None
        self._running = False

    @Slot()
    def start(self) -> None:
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._tick)
        self._running = True
        self._timer.start()

    def _tick(self) -> None:
        tick = self._step()
        if tick is None:
            return
        if tick.ended:
            self._set_running(False)
            self.ended.emit()
        elif self.session.paused_here(tick):
            self.session.stop_at = None
            self._set_running(False)

    def _step(self) -> Optional[Tick]:
        try:
            tick = self.session.step()
        except Exception as exc:    # noqa: BLE001 - the screen must say it, not die
            from dealer_assist.errors import UserError
            tick = self.session.stop(message_of(exc) if isinstance(exc, UserError) else
                                     _("an internal error ({detail})", detail=f"{type(exc).__name__}: {exc}"))
        self.ticked.emit(tick)
        return tick

    def _set_running(self, running: bool) -> None:
        self._running = running
        if self._timer is not None:
            if running and not self.session.ended:
                self._timer.start()
            else:
                self._timer.stop()
        self.paused.emit(not running)

    @Slot()
    def pause(self) -> None:
        self._set_running(False)

    @Slot()
    def resume(self) -> None:
        if not self.session.ended:
            self._set_running(True)

    @Slot()
    def step_once(self) -> None:
        if not self._running:
            tick = self._step()
            if tick is not None and tick.ended:
                self.ended.emit()

    @Slot(object)
    def act(self, action: Mapping[str, Any]) -> None:
        self.ticked.emit(self.session.act(action))

    @Slot(object)
    def preview(self, action: Mapping[str, Any]) -> None:
        """What a correction would do (refused, or the payouts before and after), for the window."""
        result = self.session.preview(action)
        tick = result.pop("tick", None)
        if tick is not None:
            self.ticked.emit(tick)
        self.previewed.emit(result)

    @Slot()
    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._running = False
        self.session.close()


class DeskWindow(QMainWindow):
    """The dealer's screen for a live table (see docs/desk.md)."""

    requestAct = Signal(object)
    requestPreview = Signal(object)
    requestPause = Signal()
    requestResume = Signal()
    requestStep = Signal()
    requestStart = Signal()
    requestStop = Signal()
    updated = Signal()

    def __init__(self, session: LiveSession, *, calibration=None, lang: str = "ja", db: Optional[str] = None,
                 source_name: str = "", threaded: bool = True, font_ok: bool = True):
        super().__init__()
        self.session = session
        self.lang = lang if font_ok else "en"
        use_qt_language(self.lang)
        self.font_ok = font_ok
        self.db = db
        self.source_name = source_name
        table = session.table
        self.desk = DeskState(seats=table.seats)
        if not font_ok:
            self._notify("font_missing", "font_missing")
        self.snapshot: Optional[DeskSnapshot] = None
        self.frames_seen = 0
        self.ended = False
        self.is_paused = False
        self.picker: Optional[CardPicker] = None
        self.confirm: Optional[CorrectionConfirm] = None
        self.dispute = None
        self._last_frame_index: Optional[int] = None

        self.setStyleSheet(APP_STYLE)
        central = QWidget()
        central.setObjectName("central")
        outer = QVBoxLayout(central)
        outer.setContentsMargins(8, 6, 8, 6)
        outer.setSpacing(6)
        self.banner = AlertBanner()
        self.banner.dismissed.connect(self.dismiss_notices)
        outer.addWidget(self.banner)

        # left: the camera and the commentary under it; right: the board and the ruling, which
        # takes all the height left (its pots, deciding line and explanation are what is read)
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        ll = vbox(left)
        self.video = VideoView()
        if calibration is not None:
            self.video.set_zones(calibration.zones_image())
        self.video.cardClicked.connect(self.open_picker)
        ll.addWidget(self.video, 4)
        self.log = EventLog()
        self.log.setMinimumHeight(60)
        ll.addWidget(self.log, 1)
        split.addWidget(left)
        right = QWidget()
        rl = vbox(right)
        self.board = BoardPanel()
        self.board.cardClicked.connect(self.open_picker)
        rl.addWidget(self.board)
        self.ruling = RulingPanel()
        rl.addWidget(self.ruling, 1)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        self.split = split
        self._split_moved = False
        split.splitterMoved.connect(lambda *_: setattr(self, "_split_moved", True))
        outer.addWidget(split, 1)

        seats = QWidget()
        grid = QGridLayout(seats)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(6)
        self.seats: dict[int, SeatPanel] = {}
        per_row = table.seats if table.seats <= 6 else (table.seats + 1) // 2
        for n in range(1, table.seats + 1):
            panel = SeatPanel(n)
            panel.cardClicked.connect(self.open_picker)
            grid.addWidget(panel, (n - 1) // per_row, (n - 1) % per_row)
            self.seats[n] = panel
        outer.addWidget(seats)
        # a game with a panel of its own (Daifugo's referee: the field, the lock, the revolution,
        # each seat's cards left, the payout) shows it in place of the ruling and the seat panels
        from dealer_assist.desk.daifugo_view import game_panel
        self.game_panel = game_panel(table)
        if self.game_panel is not None:
            rl.addWidget(self.game_panel, 1)
            self.ruling.hide()
            seats.hide()
            # the panel's dealer inputs (a pass, a seat's cards left, a joker's declaration) go to
            # the table as every action of the window does
            acted = getattr(self.game_panel, "acted", None)
            if acted is not None:
                acted.connect(self.requestAct.emit)
        # Half Texas (points, not chips): the game's explanation and the session's ledger of BP
        # and RP in place of the ruling's pots
        from dealer_assist.desk.half_texas_view import ledger_panel
        self.ledger_panel = ledger_panel(table)
        if self.ledger_panel is not None:
            rl.addWidget(self.ledger_panel, 1)
            self.ruling.hide()
        self.setCentralWidget(central)

        self.status = QLabel()
        self.status.setFont(font(11))
        self.statusBar().addWidget(self.status, 1)
        self._build_toolbar()

        # the worker
        self.worker = LiveWorker(session)
        self.thread_: Optional[QThread] = None
        if threaded:
            self.thread_ = QThread(self)
            self.worker.moveToThread(self.thread_)
            self.thread_.started.connect(self.worker.start)
        else:
            self.requestStart.connect(self.worker.start)
        self.worker.ticked.connect(self.on_tick)
        self.worker.paused.connect(self._on_paused)
        self.worker.ended.connect(self._on_ended)
        self.requestAct.connect(self.worker.act)
        self.requestPreview.connect(self.worker.preview)
        self.worker.previewed.connect(self._on_preview)
        self.requestPause.connect(self.worker.pause)
        self.requestResume.connect(self.worker.resume)
        self.requestStep.connect(self.worker.step_once)
        self.requestStop.connect(self.worker.stop)
        self.render()

    # ------------------------------------------------------------------ chrome
    def _build_toolbar(self) -> None:
        bar = QToolBar()
        bar.setMovable(False)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.act_pause = QAction(self)
        self.act_pause.triggered.connect(self.toggle_pause)
        self.act_step = QAction(self)
        self.act_step.triggered.connect(self.step_frame)
        self.act_lang = QAction(self)
        self.act_lang.triggered.connect(self.toggle_language)
        self.act_log = QAction(self)
        self.act_log.triggered.connect(self.open_hand_log)
        self.act_full = QAction(self)
        self.act_full.triggered.connect(self.toggle_fullscreen)
        self.act_confirm = QAction(self)
        self.act_confirm.triggered.connect(self.confirm_all)
        self.act_dealer = QAction(self)
        self.act_dealer.triggered.connect(self.open_dealer)
        self.act_button = QAction(self)
        self.act_button.triggered.connect(self.open_button)
        # a game with a panel of its own (Daifugo) has no button: its leader is the panel's
        self.act_button.setVisible(self.game_panel is None)
        self.act_follow = QAction(self)               # shown only while the camera stands moved
        self.act_follow.triggered.connect(self.follow_camera)
        self.act_follow.setVisible(False)
        for a in (self.act_pause, self.act_step, self.act_confirm, self.act_follow, self.act_log, self.act_button,
                  self.act_dealer, self.act_lang, self.act_full):
            bar.addAction(a)
        for key, fn in ((Qt.Key.Key_Space, self.toggle_pause), (Qt.Key.Key_Right, self.step_frame),
                        (Qt.Key.Key_L, self.toggle_language), (Qt.Key.Key_H, self.open_hand_log),
                        (Qt.Key.Key_F11, self.toggle_fullscreen), (Qt.Key.Key_Escape, self.dismiss_notices),
                        (Qt.Key.Key_A, self.open_antes), (Qt.Key.Key_D, self.open_dealer),
                        (Qt.Key.Key_B, self.open_button),
                        (Qt.Key.Key_Z, self.follow_camera),
                        (Qt.Key.Key_Return, self.confirm_all),
                        (Qt.Key.Key_Enter, self.confirm_all), (Qt.Key.Key_C, self.confirm_all)):
            QShortcut(QKeySequence(key), self, activated=fn)
        for slot in range(1, 6):
            QShortcut(QKeySequence(str(slot)), self, activated=lambda slot=slot: self.correct_board_slot(slot))
        QShortcut(QKeySequence("Ctrl+Q"), self, activated=self.close)

    def _retranslate(self) -> None:
        lang = self.lang
        self.setWindowTitle(t("title", lang) + (f" — {self.source_name}" if self.source_name else ""))
        self.act_pause.setText(t("resume" if self.is_paused else "pause", lang))
        self.act_step.setText(t("step", lang))
        self.act_dealer.setText(t("dealer_title", lang))
        self.act_button.setText(t("button_title", lang))
        self.act_follow.setText(t("follow_camera", lang))
        self.act_follow.setVisible(self.camera_moved)
        self.act_lang.setText(t("lang", lang))
        self.act_log.setText(t("handlog", lang))
        self.act_full.setText(t("fullscreen", lang))
        self.act_confirm.setText(t("confirm_all", lang))
        snap = self.snapshot
        self.act_confirm.setEnabled(bool(snap is not None and snap.live and snap.unsure))
        self.act_log.setEnabled(self.db is not None)
        self.act_pause.setEnabled(not self.ended)
        self.act_step.setEnabled(self.is_paused and not self.ended)

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        if self.thread_ is not None:
            self.thread_.start()
        else:
            self.requestStart.emit()

    def shutdown(self) -> None:
        """Stop the worker, close the source and the hand log (everything recorded stays)."""
        if self.thread_ is not None and self.thread_.isRunning():
            self.requestStop.emit()
            self.thread_.quit()
            self.thread_.wait(10000)
        elif self.thread_ is None:
            self.worker.stop()

    def open_on_screen(self, size: Optional[tuple[int, int]] = None) -> None:
        """Show the window: at ``size``, or at the screen's available size (maximised) by default."""
        if size is not None:
            self.resize(*size)
            self.show()
            return
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is not None:
            area = screen.availableGeometry()
            self.setGeometry(area)
        self.showMaximized()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt)
        """Cards and key figures grow with the screen: laid out for 1280x800, scaled up to 1920x1080."""
        super().resizeEvent(event)
        if not self._split_moved:
            # the camera and the ruling get half the width each, until the dealer moves the divider
            half = max(1, self.split.width() // 2)
            self.split.setSizes([half, max(1, self.split.width() - half)])
        k = max(1.0, min(1.5, min(self.width() / 1280, self.height() / 800)))
        if abs(k - getattr(self, "_scale", 1.0)) > 0.02:
            self._scale = k
            self.board.set_scale(k)
            self.ruling.set_scale(k)
            for panel in self.seats.values():
                panel.set_scale(k)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt)
        self.shutdown()
        super().closeEvent(event)

    @Slot(object)
    def on_tick(self, tick: Tick) -> None:
        if tick.frame is not None:
            self.frames_seen += 1
            self._last_frame_index = tick.frame.index
            self.video.set_frame(tick.frame.image)
        if tick.zones is not None:
            self.video.set_zones(tick.zones)
        if tick.proposed is not None:
            self.video.set_proposed(tick.proposed)
        if tick.part is not None:
            self.video.set_part(tick.part)
        self.desk.feed(tick.events, tick.state)
        if tick.ended:
            self.ended = True
        self.render()

    def _on_paused(self, paused: bool) -> None:
        self.is_paused = paused
        self.render()

    def _on_ended(self) -> None:
        self.ended = True
        self.render()

    # ------------------------------------------------------------------ drawing
    def render(self) -> None:
        snap = self.desk.snapshot(self.lang)
        self.snapshot = snap
        self._retranslate()
        self.banner.set_alerts(snap.alerts, self.lang)
        self.board.show_snapshot(snap)
        self.ruling.show_snapshot(snap)
        if getattr(self, "game_panel", None) is not None:
            self.game_panel.show_state(self.desk.state, self.lang)
        if getattr(self, "ledger_panel", None) is not None:
            self.ledger_panel.show_state(self.desk.state, self.lang, snap.explanation,
                                         tuple(sv.hand_name for sv in snap.seats if sv.hand_name))
        self.log.set_lines(snap.log)
        for sv in snap.seats:
            self.seats[sv.seat].show_seat(sv, self.lang, snap.live, snap.unsure, snap.others)
        if getattr(self, "ledger_panel", None) is not None:       # Half Texas: points, not chips
            self.ledger_panel.label_seats(self.seats, self.desk.state, self.lang)
        alert_zones = {a.zone for a in snap.alerts if a.zone and a.severity == "stop"}
        # the table's cards as last tracked lie elsewhere in a picture whose camera moved: not drawn
        shown = snap.live or snap.hand is None
        self.video.set_overlay(snap.tracks if shown and not self.camera_moved else (), alert_zones, self.lang)
        bits = [t("ended" if self.ended else "paused" if self.is_paused else "playing", self.lang)]
        if self._last_frame_index is not None:
            bits.append(t("frame", self.lang, n=self._last_frame_index))
        antes = antes_text((self.desk.state or {}).get("antes"), self.lang)
        if antes:
            bits.append(antes)
        if (self.desk.state or {}).get("dealer"):
            bits.append(t("dealer_now", self.lang, name=self.desk.state["dealer"]))
        bits.append(t("log_to", self.lang, path=self.db) if self.db else t("no_log", self.lang))
        if self.source_name:
            bits.append(self.source_name)
        self.status.setText("   ·   ".join(bits))
        self.updated.emit()

    # ------------------------------------------------------------------ dealer actions
    def toggle_pause(self) -> None:
        if self.ended:
            return
        if self.is_paused:
            self.requestResume.emit()
        else:
            self.requestPause.emit()

    def step_frame(self) -> None:
        if self.is_paused and not self.ended:
            self.requestStep.emit()

    def toggle_language(self) -> None:
        self.set_language("en" if self.lang == "ja" else "ja")

    def set_language(self, lang: str) -> None:
        if lang == "ja" and not self.font_ok:
            # Japanese would be empty boxes: stay in English and say why
            self._notify("font_missing", "font_missing_stay")
            lang = "en"
        self.lang = lang
        use_qt_language(lang)
        self.render()

    def toggle_fullscreen(self) -> None:
        self.showNormal() if self.isFullScreen() else self.showFullScreen()

    def dismiss_notices(self) -> None:
        if self.picker is not None and self.picker.isVisible():
            return
        if self.desk.dismiss():
            self.render()

    def correct_board_slot(self, slot: int) -> None:
        snap = self.snapshot
        if snap is None or slot - 1 >= len(snap.board) or snap.board[slot - 1] is None:
            return
        self.open_picker({"zone": f"board{slot}", "card": snap.board[slot - 1]})

    def open_picker(self, target: Mapping[str, Any]) -> Optional[CardPicker]:
        """The dealer clicked a card: ask for its true identity (or its removal)."""
        snap = self.snapshot
        zone, card = target.get("zone"), target.get("card")
        if snap is None or not snap.live:
            if snap is not None and snap.hand is not None:
                self._notify("correction_refused", "correct_over", n=snap.hand)
            else:
                self._notify("correction_refused", "correct_none")
            self.render()
            return None
        if card == "BACK":
            self._notify("correction_refused", "correct_back")
            self.render()
            return None
        if self.picker is not None:
            self.picker.close()
        self.picker = CardPicker(str(zone), str(card), self.lang, self, doubtful=snap.doubtful(zone, card),
                                 other=snap.other(zone, card))
        self.picker.chosen.connect(lambda to: self.correct(str(zone), str(card), to))
        self.picker.confirmed.connect(lambda: self.confirm_card(str(zone), str(card)))
        self.picker.setModal(True)
        self.picker.open()
        return self.picker

    def confirm_all(self) -> None:
        """The dealer confirms every card the table is not sure of as read (Enter or C): the
        ruling made on them is final. Logged as a ``confirm`` event naming each card."""
        snap = self.snapshot
        if snap is None or not snap.live or not snap.unsure:
            return
        if self.picker is not None and self.picker.isVisible():
            return
        self.requestAct.emit({"type": "confirm"})

    def confirm_card(self, zone: str, card: str) -> None:
        """The dealer confirms one card as read (from the card's picker)."""
        self.requestAct.emit({"type": "confirm", "zone": zone, "card": card})

    def open_antes(self) -> AnteDialog:
        """The dealer sets the level's antes (key A): they go to the table as a dealer action."""
        dialog = AnteDialog((self.desk.state or {}).get("antes"), self.lang, self)
        dialog.chosen.connect(self.requestAct.emit)
        dialog.setModal(True)
        dialog.open()
        self.ante_dialog = dialog
        return dialog

    @property
    def camera_moved(self) -> bool:
        """The camera stands moved off its calibration (the table waits; the zones may follow it)."""
        return "camera_moved" in self.desk.source_alerts

    def follow_camera(self) -> None:
        """The camera moved and the dealer saw on the picture where the zones would go (key Z): they
        follow it. The table says if no move stands."""
        self.requestAct.emit({"type": "follow_camera"})

    def open_dealer(self) -> QInputDialog:
        """A dealer takes the table (key D: dealers rotate): their name goes to the table as a
        dealer action, and every hand from the next one names them. A name the table refuses is
        said on the banner."""
        dialog = QInputDialog(self)
        dialog.setWindowTitle(t("dealer_title", self.lang))
        dialog.setLabelText(t("dealer_label", self.lang))
        dialog.setTextValue(str((self.desk.state or {}).get("dealer") or ""))
        self._dialog_buttons(dialog)
        dialog.textValueSelected.connect(lambda name: self.requestAct.emit({"type": "dealer", "name": name}))
        dialog.setModal(True)
        dialog.open()
        self.dealer_dialog = dialog
        return dialog

    def open_button(self) -> Optional[QInputDialog]:
        """The dealer puts the button on a seat (key B): this hand's while one is under way (the
        ruling follows it at once), else the next hand's, in place of the seat the rotation would
        give. It goes to the table as the dealer action ``{"type": "button", "seat": n}``, which
        the hand log keeps. None in a game without a button (Daifugo's panel names its leader)."""
        if self.game_panel is not None:
            return None
        state = self.desk.state or {}
        hand = state.get("hand")
        seats = list(range(1, self.session.table.seats + 1))
        items = [t("seat", self.lang, n=n) for n in seats]
        dialog = QInputDialog(self)
        dialog.setWindowTitle(t("button_title", self.lang))
        dialog.setLabelText(t("button_label_hand", self.lang, n=hand) if hand is not None
                            else t("button_label_next", self.lang))
        dialog.setComboBoxItems(items)
        dialog.setComboBoxEditable(False)
        self._dialog_buttons(dialog)
        # between hands the next hand's button where one was given, else the one in place
        now = (state.get("next_button") if hand is None else None) or state.get("button")
        if isinstance(now, int) and now in seats:
            dialog.setTextValue(items[seats.index(now)])

        def chosen(text: str) -> None:
            if text in items:
                self.requestAct.emit({"type": "button", "seat": seats[items.index(text)]})

        dialog.textValueSelected.connect(chosen)
        dialog.setModal(True)
        dialog.open()
        self.button_dialog = dialog
        return dialog

    def _dialog_buttons(self, dialog: QInputDialog) -> None:
        """A question's buttons in the desk's language (Qt's own read "OK" and "Cancel")."""
        dialog.setOkButtonText(t("dialog_ok", self.lang))
        dialog.setCancelButtonText(t("picker_cancel", self.lang))

    def _notify(self, code: str, text: str, **fields: Any) -> None:
        """A notice of the desk's own (text key ``text``) for the banner, in both languages."""
        self.desk.notify(code, t(text, "en", **fields), t(text, "ja", **fields))

    def correct(self, zone: str, card: str, to: Optional[str]) -> None:
        """Ask the table what a correction would do; :meth:`_on_preview` sends it, asks first or
        says why it is refused. Sent, it is logged and the ruling follows at once."""
        if to == card:
            return
        self.requestPreview.emit({"type": "correct", "zone": zone, "card": card, "to": to})

    @Slot(object)
    def _on_preview(self, result: Mapping[str, Any]) -> None:
        action = result["action"]
        if result.get("refused"):
            # the table said why (a card already elsewhere, a card not there): on the banner, by
            # the alert the session logged; nothing is sent
            self.render()
            return
        if not result.get("changes"):
            self.requestAct.emit(action)
            return
        if self.confirm is not None:
            self.confirm.close()
        self.confirm = CorrectionConfirm(action, result.get("before"), result.get("after"), self.lang, self)
        self.confirm.confirmed.connect(lambda: self.requestAct.emit(action))
        self.confirm.setModal(True)
        self.confirm.open()

    def open_hand_log(self):
        if self.db is None:
            return None
        from dealer_assist.desk.dispute import DisputeWindow

        if self.dispute is None or not self.dispute.isVisible():
            self.dispute = DisputeWindow(self.db, lang=self.lang, parent=self)
        self.dispute.show()
        self.dispute.raise_()
        self.dispute.refresh()
        return self.dispute
