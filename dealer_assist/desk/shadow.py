"""The trainee's window for shadowing a live table (``dealer-assist desk --trainer NAME --shadow``).

A second top-level window beside the dealer's :class:`~dealer_assist.desk.window.DeskWindow`: it
receives the same ticks from the live worker (it never sends anything to the table), and at each
showdown draws the table with the desk's card tiles and asks the trainee for the ruling, typed as
on the trainer screen.  The ruling stays hidden in this window until the trainee answers (or the
hand ends unanswered); the dealer's window shows it at once as always: nothing waits for the
trainee.  The rules and the record are :class:`dealer_assist.trainer.shadow.Shadow`'s.
"""
from __future__ import annotations

import time
from typing import Callable, Optional

from PySide6.QtCore import QEvent, QObject, Slot
from PySide6.QtWidgets import QMainWindow, QWidget

from dealer_assist.desk.trainer import WRONG, build_drill_panel, deciding_line, draw_drill_table, show_explanation
from dealer_assist.desk.widgets import DECIDING, MUTED, WIN, CardTile, label
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, render
from dealer_assist.trainer.drills import TOPICS
from dealer_assist.trainer.shadow import Shadow
from dealer_assist.trainer.store import Store
from dealer_assist.trainer.typed import reply_help

__all__ = ["ShadowWindow", "attach"]


class ShadowWindow(QMainWindow):
    """The trainee's own window: the showdown's table, the question, the typed answer, the verdict."""

    def __init__(self, name: str, store: Store, *, lang: str = "ja", session: Optional[int] = None,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.shadow = Shadow(name, store, session=session, clock=clock)
        self.lang = lang
        self.tiles: list[CardTile] = []
        self._shown = None           # the drill drawn now (redrawn only when it changes)
        self._entry_hand = None
        self._refused = None         # (drill, why) of an answer that could not be read
        self.status = label("", 11, False, MUTED, wrap=True)
        outer, box = build_drill_panel(self, self.words(_("Shadowing: {name}", name=self.shadow.name)),
                                       heading_wrap=True, under_heading=(self.status,))
        outer.addWidget(box)
        self.render()

    def words(self, msg) -> str:
        return render(msg, self.lang)

    # ------------------------------------------------------------------ the live table

    @Slot(object)
    def on_tick(self, tick) -> None:
        """A tick of the live worker (the same the dealer's window gets): events only, never an action."""
        changed = self.shadow.feed(tick.events)
        if getattr(tick, "ended", False):
            changed |= self.shadow.close()
        if changed:
            self.render()

    def finish(self) -> None:
        """The session is over: an open question is kept as not answered."""
        if self.shadow.close():
            self.render()

    # ------------------------------------------------------------------ the trainee

    def enter(self) -> None:
        """Enter: judge the typed answer (an unreadable one is refused and asked again)."""
        if not self.shadow.open:
            return
        try:
            self.shadow.answer_text(self.entry.text())
        except UserError as exc:
            self._refused = (self.shadow.drill, exc.message_ja if self.lang == "ja" and exc.message_ja else str(exc))
        self.render()

    # ------------------------------------------------------------------ drawing

    def _draw_table(self) -> None:
        self._shown = self.shadow.drill
        draw_drill_table(self, self._shown, 56, 36)

    def render(self) -> None:
        sh = self.shadow
        d = sh.drill
        if d is not self._shown:
            self._draw_table()
        score = self.words(_("answered {answered}, right {right}, not answered {missed}", answered=sh.answered,
                             right=sh.right, missed=sh.not_answered))
        if sh.open:
            self.heading.setText(self.words(_("Hand {hand}: showdown. Your ruling? ({topic})", hand=sh.ref,
                                              topic=TOPICS[d.topic].title)))
        elif d is not None:
            self.heading.setText(self.words(_("Hand {hand}: {topic}", hand=sh.ref, topic=TOPICS[d.topic].title)))
        elif sh.hand is not None:
            self.heading.setText(self.words(_("Hand {hand}: waiting for its showdown", hand=sh.hand)))
        else:
            self.heading.setText(self.words(_("Waiting for the first hand")))
        waiting = sh.hand is not None and sh.hand != sh.drill_hand and not sh.open
        bits = [score]
        if waiting and d is not None:
            bits.append(self.words(_("hand {hand} is being played: its showdown comes here", hand=sh.hand)))
        if sh.skipped is not None:
            bits.append(self.words(sh.skipped))
        if sh.store_error is not None:
            bits.append(self.words(sh.store_error))
        if sh.open and sh.updated:
            bits.append(self.words(_("the dealer corrected a card: the question now stands on the corrected table")))
        self.status.setText("\n".join(bits))
        self.question.setText(self.words(d.question) if d is not None else "")
        self.help.setText(self.words(reply_help(d)) if sh.open else "")
        self.entry.setReadOnly(not sh.open)
        self.entry.setEnabled(sh.open)
        if sh.open:
            if self._entry_hand != sh.drill_hand:      # a new showdown: a fresh entry
                self.entry.clear()
                self._entry_hand = sh.drill_hand
            if not self.entry.hasFocus():
                self.entry.setFocus()
            if self._refused is not None and self._refused[0] is d:
                self.verdict.setStyleSheet(f"color: {DECIDING};")
                self.verdict.setText(self._refused[1])
            else:
                self.verdict.setText("")
            self.explanation.clear()
            return
        # the question is over (or none yet): the verdict and the engine's ruling may be shown
        self._refused = None
        self.explanation.clear()
        if d is None:
            self.verdict.setText("")
            return
        if sh.result is not None:
            res = sh.result
            head = _("Right ({s} s)", s=f"{sh.seconds:.1f}") if res.right else _("Wrong ({s} s)", s=f"{sh.seconds:.1f}")
            self.verdict.setStyleSheet(f"color: {WIN if res.right else WRONG};")
            self.verdict.setText(self.words(head) + "\n" + self.words(_("the ruling: {answer}",
                                                                          answer=sh.expected_text())))
            deciding = deciding_line(res)
        else:
            self.verdict.setStyleSheet(f"color: {DECIDING};")
            self.verdict.setText(self.words(_("Not answered: the hand ended first. The ruling: {answer}",
                                              answer=sh.expected_text())))
            deciding = None
        show_explanation(self.explanation, sh.ruling_lines(self.lang), deciding)

    def ruling_visible(self) -> bool:
        """Does this window show any part of the ruling now (the verdict or the engine's lines)?"""
        return self.explanation.count() > 0 or bool(self.verdict.text() and not self.shadow.open)


def attach(desk_window, name: str, store_path: str, *, lang: str = "ja", session: Optional[int] = None,
           clock: Callable[[], float] = time.monotonic) -> ShadowWindow:
    """The shadow window for trainee ``name`` (store ``store_path``), fed the desk window's live ticks."""
    window = ShadowWindow(name, Store(store_path), lang=lang, session=session, clock=clock)
    desk_window.worker.ticked.connect(window.on_tick)
    window._closer = _CloseWith(window)          # the desk closed: the trainee's window goes too
    desk_window.installEventFilter(window._closer)
    return window


class _CloseWith(QObject):
    """Closes ``window`` when the object it watches is closed."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window = window

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt)
        if event.type() == QEvent.Type.Close:
            self.window.finish()
            self.window.close()
        return False
