"""The desk's trainer screen (``dealer-assist desk --trainer NAME``): drills from the rules engine
for a named trainee, answered at the keyboard and timed, judged at once with the engine's
explanation, every answer kept in the trainee store; and a progress chart (accuracy and speed by
topic, drawn with QPainter) that names the weakest topics, which the next drills favour.

``drills=`` gives the window fixed drills instead, in turn: the hands of a hand log
(``desk --trainer NAME --from-log FILE``).

The table is drawn with the desk's card tiles; the answer is typed as the terminal drill reads it
(:mod:`dealer_assist.trainer.typed`).  Enter judges the answer; Enter again (or N) deals the next
drill.  The window knows no rule of a game: the drill and the verdict come from
:mod:`dealer_assist.trainer`.
"""
from __future__ import annotations

import random
import re
import time
from typing import Callable, Mapping, Optional, Sequence

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import (QGridLayout, QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem, QMainWindow,
                               QSizePolicy, QWidget)

from dealer_assist.desk.widgets import (APP_STYLE, DECIDING, MUTED, PANEL_BG, TEXT, WIN, CardTile, Panel,
                                        FitLines, fitting_font, font, label, vbox)
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, render, seat
from dealer_assist.trainer.drills import LEVELS, TOPICS, CheckResult, Drill, check, make_drill
from dealer_assist.trainer.store import Store, TopicProgress
from dealer_assist.trainer.typed import read_reply, reply_help, table_parts

__all__ = ["TrainerWindow", "ProgressChart", "pick_topic", "deciding_line", "build_drill_panel", "draw_drill_table",
           "show_explanation"]

WRONG = "#c62828"
#: How often the next drill is on one of the weakest topics (the rest: every topic in turn).
WEAK_SHARE = 0.6


def pick_topic(rng: random.Random, weakest: Sequence[str], turn: int, topics: Sequence[str]) -> str:
    """The next drill's topic: one of the weakest topics more often than not, else the next in turn.

    >>> rng = random.Random(0)
    >>> picks = [pick_topic(rng, ["hilo"], i, ["stud", "hilo", "daifugo"]) for i in range(200)]
    >>> picks.count("hilo") > picks.count("stud") + picks.count("daifugo")
    True
    """
    weak = [t for t in weakest if t in topics]
    if weak and rng.random() < WEAK_SHARE:
        return rng.choice(weak)
    return topics[turn % len(topics)]


def _cards_of(drill: Drill) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The drill's card rows: the common cards (board, stub, the play) and each seat's cards."""
    t = drill.table
    if drill.topic == "burn-swap":
        return list(t["stub"]), []
    if drill.topic == "daifugo":
        st = t["state"]
        return list(t["play"].get("cards") or []), [(s, list(st["hands"][str(s)])) for s in st["seats"]]
    rows = []
    for s in t["seats"]:
        cards = (list(s.get("down") or []) + list(s.get("up") or [])) if drill.topic == "stud" else list(s.get("hole") or [])
        rows.append((s["seat"], cards))
    return list(t.get("board") or []), rows


def build_drill_panel(owner: QMainWindow, title: str, *, heading_wrap: bool = False,
                      under_heading: Sequence[QWidget] = ()) -> tuple[QHBoxLayout, Panel]:
    """Window ``owner`` (the trainer screen, the trainee's shadow window), titled ``title``, and a
    drill's panel, its widgets set on ``owner``: ``heading`` (``under_heading`` below it), the common
    cards row ``common``, the table's ``lines``, the seats grid ``seats_grid`` (in ``seats_widget``),
    ``question``, ``help``, the answer ``entry`` (Enter calls ``owner.enter``), ``verdict`` and the
    ``explanation`` list.  Returns the window's row and the panel, which the caller puts in it."""
    owner.setStyleSheet(APP_STYLE)
    owner.setWindowTitle(title)
    central = QWidget()
    central.setObjectName("central")
    owner.setCentralWidget(central)
    outer = QHBoxLayout(central)
    panel = Panel()
    lay = vbox(panel, (12, 12, 12, 12), 8)
    owner.heading = label("", 15, True, TEXT, wrap=heading_wrap)
    owner.common = QHBoxLayout()
    owner.common.setSpacing(4)
    owner.seats_widget = QWidget()
    owner.seats_grid = QGridLayout(owner.seats_widget)
    owner.seats_grid.setContentsMargins(0, 0, 0, 0)
    owner.seats_grid.setSpacing(3)
    owner.lines = label("", 11, False, MUTED, wrap=True)
    owner.question = FitLines(13, bold=True, min_size=11, or_wrap=True)
    owner.question.setStyleSheet(f"color: {TEXT};")
    owner.help = label("", 10, False, MUTED, wrap=True)
    owner.entry = QLineEdit()
    owner.entry.setFont(font(14))
    owner.entry.setStyleSheet(f"color: {TEXT}; background: #2a3038; padding: 6px;")
    owner.entry.returnPressed.connect(owner.enter)
    owner.verdict = label("", 15, True, TEXT, wrap=True)
    owner.explanation = QListWidget()
    owner.explanation.setFont(font(11))
    owner.explanation.setStyleSheet(f"color: {TEXT}; background: #161a1e;")
    owner.explanation.setWordWrap(True)
    for w in (owner.heading, *under_heading):
        lay.addWidget(w)
    lay.addLayout(owner.common)
    for w in (owner.lines, owner.seats_widget, owner.question, owner.help, owner.entry, owner.verdict):
        lay.addWidget(w)
    lay.addWidget(owner.explanation, 1)
    return outer, panel


def draw_drill_table(owner, drill: Optional[Drill], common_size: int, seat_size: int) -> None:
    """Draw ``drill``'s table in ``owner``'s panel (:func:`build_drill_panel`): the common cards
    (``common_size`` tiles), each seat's cards (``seat_size`` tiles) and words, the table's lines;
    the tiles drawn are ``owner.tiles``.  ``None``: an empty table."""
    for layout in (owner.common, owner.seats_grid):
        while layout.count():
            w = layout.takeAt(0).widget()
            if w is not None:      # gone at once, not at the next turn of the event loop
                w.hide()
                w.setParent(None)
                w.deleteLater()
    owner.tiles = []
    if drill is None:
        owner.lines.setText("")
        return
    common, rows = _cards_of(drill)
    head, seat_lines, tail = table_parts(drill, owner.lang)
    words = dict(seat_lines)
    for code in common:
        tile = CardTile(common_size)
        tile.set_card(code)
        owner.common.addWidget(tile)
        owner.tiles.append(tile)
    owner.common.addStretch(1)
    columns = 2 if len(rows) > 4 else 1
    for i, (number, cards) in enumerate(rows):
        cell = QWidget()
        h = QHBoxLayout(cell)
        h.setContentsMargins(0, 0, 0, 0)
        h.setSpacing(3)
        for code in cards:
            tile = CardTile(seat_size)
            tile.set_card(code)
            h.addWidget(tile)
            owner.tiles.append(tile)
        text = label(words.get(number, render(seat(number), owner.lang)), 10, False, TEXT, wrap=True)
        h.addWidget(text, 1)
        owner.seats_grid.addWidget(cell, i // columns, i % columns)
    owner.lines.setText("\n".join(head + tail))


def show_explanation(explanation: QListWidget, lines: Sequence[str], deciding: Optional[int]) -> None:
    """The engine's ``lines`` added to ``explanation``, the ``deciding`` one marked."""
    for i, line in enumerate(lines):
        item = QListWidgetItem(line)
        if i == deciding:
            item.setBackground(QColor(DECIDING))
            item.setForeground(QColor("#111111"))
            f = QFont(explanation.font())
            f.setBold(True)
            item.setFont(f)
        explanation.addItem(item)


class ProgressChart(QWidget):
    """Accuracy (bar) and mean seconds (dot) per topic, drawn with QPainter, and the weakest
    topics named above them."""

    def __init__(self, lang: str, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.lang = lang
        self.rows: dict[str, TopicProgress] = {}
        self.weakest: list[str] = []
        self.history: dict[str, list[bool]] = {}
        self.setMinimumSize(360, 300)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_progress(self, rows: Mapping[str, TopicProgress], weakest: Sequence[str],
                     history: Optional[Mapping[str, Sequence[bool]]] = None) -> None:
        """``history``: per topic, right or wrong of each answer, oldest first (the last ones are
        drawn under the bar, so the chart shows the trend as well as the total)."""
        self.rows = dict(rows)
        self.weakest = list(weakest)
        self.history = {k: list(v) for k, v in (history or {}).items()}
        self.update()

    def title(self) -> str:
        if not self.weakest:
            return render(_("No answers yet"), self.lang)
        names = "、".join(render(TOPICS[t].title, self.lang) for t in self.weakest) if self.lang == "ja" \
            else ", ".join(render(TOPICS[t].title, self.lang) for t in self.weakest)
        return render(_("Weakest: {topics}", topics=names), self.lang)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(PANEL_BG))
        w, h = self.width(), self.height()
        p.setPen(QColor(TEXT))
        p.setFont(font(11, True))
        title = QFontMetrics(p.font()).elidedText(self.title(), Qt.TextElideMode.ElideRight, int(w - 20))
        p.drawText(QRectF(10, 4, w - 20, 24), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)
        p.setFont(font(9))
        p.setPen(QColor(MUTED))
        p.drawText(QRectF(10, 26, w - 20, 18), Qt.AlignmentFlag.AlignLeft,
                   render(_("bar: share right; dot: seconds per answer (right edge: 60 s); "
                            "squares: the last answers, oldest first"), self.lang))
        topics = list(TOPICS)
        top, bottom = 50.0, h - 10.0
        row_h = (bottom - top) / len(topics)
        name_w = min(230.0, w * 0.48)
        x0, x1 = 10 + name_w, w - 14.0
        for i, t in enumerate(topics):
            y = top + i * row_h
            p.setPen(QColor(TEXT if t not in self.weakest else DECIDING))
            name = render(TOPICS[t].title, self.lang)
            # one line where a smaller type allows (Qt would leave 「ン」 alone on a second line)
            p.setFont(fitting_font([name], name_w - 6, 9, 7.5, t in self.weakest, or_wrap=True))
            p.drawText(QRectF(10, y, name_w - 6, row_h), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
                       | Qt.TextFlag.TextWordWrap, name)
            p.fillRect(QRectF(x0, y + row_h * 0.2, x1 - x0, row_h * 0.6), QColor("#2a3038"))
            r = self.rows.get(t)
            if r is None:
                continue
            acc = r.accuracy
            colour = QColor(WIN if acc >= 0.8 else DECIDING if acc >= 0.5 else WRONG)
            # at least a sliver: a topic never answered right still shows its (red) bar
            p.fillRect(QRectF(x0, y + row_h * 0.2, max(6.0, (x1 - x0) * acc), row_h * 0.6), colour)
            sx = x0 + (x1 - x0) * min(r.mean_seconds, 60.0) / 60.0
            p.setPen(QPen(QColor(TEXT), 2))
            p.setBrush(QColor("#ffffff"))
            p.drawEllipse(QRectF(sx - 4, y + row_h / 2 - 4, 8, 8))
            p.setPen(QColor(TEXT))
            p.drawText(QRectF(x0 + 4, y, x1 - x0 - 8, row_h), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                       f"{round(acc * 100)}%  {r.right}/{r.answers}")
            last = self.history.get(t, [])[-int((x1 - x0) // 8):]
            side = max(3.0, min(6.0, row_h * 0.16))
            for k, ok in enumerate(last):
                p.fillRect(QRectF(x0 + k * (side + 2), y + row_h * 0.82, side, side), QColor(WIN if ok else WRONG))
        p.end()


class TrainerWindow(QMainWindow):
    """Drills for trainee ``name``: the table, the question, the typed answer, the verdict."""

    def __init__(self, name: str, store: Store, *, lang: str = "ja", seed: Optional[int] = None,
                 topics: Optional[Sequence[str]] = None, level: Optional[int] = None,
                 clock: Callable[[], float] = time.monotonic, drills: Optional[Sequence[Drill]] = None):
        """``drills``: these drills in turn (the hands of a hand log, :mod:`dealer_assist.trainer.fromlog`)
        instead of drills the engine deals."""
        super().__init__()
        self.fixed = list(drills or [])
        self.name = name
        self.store = store
        self.lang = lang
        self.seed = random.randrange(1 << 30) if seed is None else seed
        self.rng = random.Random(self.seed)
        self.topics = list(topics or TOPICS)
        self.level = level
        self.clock = clock
        self.turn = 0
        self.drill: Optional[Drill] = None
        self.result: Optional[CheckResult] = None
        self.started = 0.0
        self.seconds = 0.0
        self.tiles: list[CardTile] = []
        outer, left = build_drill_panel(self, self.words(_("Trainer: {name}", name=name)))
        self.chart = ProgressChart(lang)
        outer.addWidget(left, 3)
        outer.addWidget(self.chart, 2)
        self.refresh_chart()
        self.next_drill()

    # ------------------------------------------------------------------ words and state

    def words(self, msg) -> str:
        return render(msg, self.lang)

    def refresh_chart(self) -> None:
        rows = self.store.progress(self.name)
        history: dict[str, list[bool]] = {}
        for a in self.store.answers(self.name):
            history.setdefault(a["topic"], []).append(a["right"])
        self.chart.set_progress(rows, self.store.weakest(self.name, 3) if rows else [], history)

    def next_drill(self) -> None:
        if self.fixed:      # the given drills in turn, then again from the first
            self.drill = self.fixed[self.turn % len(self.fixed)]
            self.turn += 1
            self.result = None
            self.show_drill()
            self.started = self.clock()
            return
        weakest = self.store.weakest(self.name, 3, self.topics) if self.store.progress(self.name) else []
        topic = pick_topic(self.rng, weakest, self.turn, self.topics)
        level = self.level or LEVELS[(self.turn // len(self.topics)) % len(LEVELS)]
        self.drill = make_drill(topic, level, self.seed, self.turn)
        self.turn += 1
        self.result = None
        self.show_drill()
        self.started = self.clock()

    def show_drill(self) -> None:
        d = self.drill
        self.heading.setText(self.words(_("{name}: drill {i}: {topic} (level {level})", name=self.name,
                                          i=self.turn, topic=TOPICS[d.topic].title, level=d.level)))
        draw_drill_table(self, d, 64, 40)
        self.question.setText(self.words(d.question))
        self.help.setText(self.words(reply_help(d)))
        self.entry.clear()
        self.entry.setReadOnly(False)
        self.entry.setFocus()
        self.verdict.setText("")
        self.explanation.clear()

    # ------------------------------------------------------------------ the keyboard

    def enter(self) -> None:
        """Enter: judge the typed answer; once judged, deal the next drill."""
        if self.result is not None:
            self.next_drill()
            return
        try:
            answer = read_reply(self.drill, self.entry.text())
        except UserError as exc:
            self.verdict.setStyleSheet(f"color: {DECIDING};")
            self.verdict.setText(exc.message_ja if self.lang == "ja" and exc.message_ja else str(exc))
            return
        self.answer(answer)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt)
        if self.result is not None and event.key() == Qt.Key.Key_N:
            self.next_drill()
            return
        super().keyPressEvent(event)

    def answer(self, answer: Mapping) -> CheckResult:
        """Judge ``answer``, record it with its seconds, show the verdict and the engine's why."""
        self.seconds = max(0.0, self.clock() - self.started)
        result = check(self.drill, answer)
        self.result = result
        self.store.record(self.name, self.drill, result.right, self.seconds)
        self.entry.setReadOnly(True)
        head = _("Right ({s} s)", s=f"{self.seconds:.1f}") if result.right else \
            _("Wrong ({s} s)", s=f"{self.seconds:.1f}")
        self.verdict.setStyleSheet(f"color: {WIN if result.right else WRONG};")
        self.verdict.setText(self.words(head) + "  " + self.words(_("Enter: next drill")))
        lines = result.explanation_ja if self.lang == "ja" else result.explanation
        show_explanation(self.explanation, lines, self.deciding_line(result))
        self.refresh_chart()
        return result

    def deciding_line(self, result: CheckResult) -> Optional[int]:
        """The index of the engine's line that decides what the trainee got wrong (or, when right,
        what the question asked): the award line of the pot a wrongly paid seat wins or shares,
        the showing-order line, or the first line naming the expected value."""
        return deciding_line(result)


def deciding_line(result: CheckResult) -> Optional[int]:
    """See :meth:`TrainerWindow.deciding_line` (the lines are ``result.explanation``, the verdict first)."""
    lines = list(result.explanation)
    exp = result.expected
    fields = [d.field for d in result.wrong] or list(TOPICS[result.drill.topic].asks)
    if any(f.startswith(("showdown_order", "first_to_act", "shown")) for f in fields):
        for i, line in enumerate(lines[1:], 1):
            if line.startswith("Showdown order"):
                return i
    pots = exp.get("pots") or []
    if pots and any(f.startswith(("payouts", "pots")) for f in fields):
        wrong_seats = {int(f.split(".")[1]) for f in fields if f.startswith("payouts.")}
        wrong_pots = {int(f[5:f.index("]")]) for f in fields if f.startswith("pots[")}
        chosen = next((i for i, p in enumerate(pots) if i in wrong_pots
                       or wrong_seats & {int(s) for s, v in p["shares"].items() if v}), 0)
        name = pots[chosen]["name"] + " "
        for i, line in enumerate(lines[1:], 1):
            if line.startswith(name):
                return i
    keys = [str(exp.get(f.split(".")[0])) for f in fields if isinstance(exp.get(f.split(".")[0]), (int, str))
            and not isinstance(exp.get(f.split(".")[0]), bool)]
    for i, line in enumerate(lines[1:], 1):
        if any(re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", line) for k in keys):
            return i
    return 1 if len(lines) > 1 else None
