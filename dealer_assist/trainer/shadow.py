"""Shadowing a live table (issue 23): a trainee rules on each showdown of live play before seeing the desk's ruling.

The live flow's ``showdown`` event carries the settle input of the table (``table``) next to its
ruling.  :func:`live_drill` turns it into a drill exactly as a hand of the hand log becomes one
(:func:`dealer_assist.trainer.fromlog.hand_drill`): the engine works the answer out again from the
table, and the topic is what the hand is (``side-pots`` when the pot was cut, ``showdown-joker``,
``stud``, ``showing-order`` when no chips were entered, ...).  The trainee's typed answer is read
as the trainer screen reads it (:mod:`dealer_assist.trainer.typed`) and judged by the drills'
:func:`~dealer_assist.trainer.drills.check`.

:class:`Shadow` follows the events of a live table: a showdown opens a question (a later showdown
event of the same hand, after a correction, replaces its table while it is still unanswered); an
answer is judged against the table standing when it was given, and goes into the trainee store's
``answers`` like any drill (drill id ``shadow-<session>-<hand>``), so it counts in the progress
chart.  A question still open when its hand ends (or the next hand starts, or the session ends)
is *not answered*: it is kept in the store's ``shadowed`` table with ``answered = 0`` and is not
counted as wrong in the progress.  Every shadowed showdown, answered or not, has one ``shadowed``
row.

Nothing here waits for the trainee: :meth:`Shadow.feed` only takes note of events, so the
dealer's screen and the pipeline never wait on an answer.

Must not import Qt, the camera or the live pipeline.
"""
from __future__ import annotations

import dataclasses
import sqlite3
import time
from typing import Any, Callable, Iterable, Mapping, Optional

from dealer_assist.errors import UserError
from dealer_assist.i18n import Msg, _, message_of
from dealer_assist.live.events import HandEnd, HandStart, Showdown, TableEvent
from dealer_assist.trainer.drills import CheckResult, Drill, check
from dealer_assist.trainer.store import Store
from dealer_assist.trainer.typed import answer_of, read_reply

__all__ = ["live_drill", "Shadow", "shadowed", "record_shadowed", "shadow_usage"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS shadowed (
    id INTEGER PRIMARY KEY,
    trainee INTEGER NOT NULL REFERENCES trainees(id),
    drill TEXT NOT NULL,
    hand TEXT NOT NULL,
    topic TEXT NOT NULL,
    level INTEGER NOT NULL,
    answered INTEGER NOT NULL,
    right INTEGER,
    seconds REAL,
    at REAL NOT NULL
);
"""


def shadow_usage(args) -> None:
    """``--shadow`` goes with ``--trainer NAME`` on a live table: :class:`UserError` saying why not."""
    if getattr(args, "trainer", None) is None or not str(args.trainer).strip():
        raise UserError(_("--shadow goes with --trainer NAME (the trainee who shadows the table)"))
    if getattr(args, "from_log", None) is not None:
        raise UserError(_("--shadow follows a live table; --from-log {path} is for the trainer screen's drills",
                          path=args.from_log))
    if getattr(args, "review", None) is not None:
        raise UserError(_("--shadow follows a live table; it does not go with --review"))
    Store(getattr(args, "trainees", None) or "trainees.sqlite").close()     # a store that cannot be opened: said now


def hand_ref(session: Optional[int], hand: Any) -> str:
    """``2:7`` (session 2, hand 7, as ``dealer-assist review`` names it); the hand alone without a hand log."""
    return f"{session}:{hand}" if session is not None else str(hand)


def live_drill(event: Showdown, session: Optional[int] = None) -> Drill:
    """The drill of a live ``showdown`` event: its table, the engine's answer, the topic of the hand.

    The drill is made from the event's line exactly as from a hand the hand log stored (the
    log's reader, :func:`~dealer_assist.trainer.fromlog.hand_drill`, reads stored lines).
    :class:`UserError` (a :class:`~dealer_assist.trainer.fromlog.LogSkip`) when the event carries
    no table the engine can rule on.
    """
    from dealer_assist.trainer.fromlog import hand_drill

    ref = hand_ref(session, event.hand)
    line = event.to_json()        # the drill is made from the line, as from a stored hand
    d = hand_drill({"ref": ref, "events": [line], "ruling": line["ruling"]}, "")
    ident = "shadow-" + ("live-" if session is None else "") + ref.replace(":", "-")
    return dataclasses.replace(d, id=ident, source=None, flagged=())


def _ensure(store: Store) -> None:
    try:
        store.db.executescript(_SCHEMA)
    except sqlite3.Error as exc:
        raise UserError(_("the trainee store cannot keep shadowed showdowns: {why}", why=str(exc))) from None


def record_shadowed(store: Store, name: str, drill: Drill, hand: str, answered: bool,
                    right: Optional[bool] = None, seconds: Optional[float] = None,
                    at: Optional[float] = None) -> None:
    """One shadowed showdown: answered (right or wrong, in seconds) or not answered."""
    _ensure(store)
    tid = store.trainee_id(name)
    store.db.execute("INSERT INTO shadowed(trainee, drill, hand, topic, level, answered, right, seconds, at) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (tid, drill.id, hand, drill.topic, drill.level, int(bool(answered)),
                      None if right is None else int(bool(right)), seconds, time.time() if at is None else at))
    store.db.commit()


def shadowed(store: Store, name: str) -> list[dict]:
    """Every shadowed showdown of ``name``, oldest first: ``{"drill", "hand", "topic", "level",
    "answered", "right" (None when not answered), "seconds", "at"}``."""
    _ensure(store)
    rows = store.db.execute(
        "SELECT s.drill, s.hand, s.topic, s.level, s.answered, s.right, s.seconds, s.at FROM shadowed s "
        "JOIN trainees t ON t.id = s.trainee WHERE t.name = ? ORDER BY s.id", (name.strip(),))
    return [{"drill": d, "hand": h, "topic": tp, "level": lv, "answered": bool(a),
             "right": None if r is None else bool(r), "seconds": s, "at": at}
            for d, h, tp, lv, a, r, s, at in rows]


class Shadow:
    """A trainee shadowing a live table: :meth:`feed` the table's events, :meth:`answer_text` the
    trainee's typed answer.  No Qt; the desk's shadow window and ``run --trainer`` drive it.

    State for a screen: ``hand`` (the hand being played), ``drill`` (the showdown asked, or the
    last one), ``result`` (the verdict once answered), ``missed`` (the last question passed
    unanswered), ``skipped`` (why a showdown could not be asked), ``updated`` (a correction
    changed the table of the open question).
    """

    def __init__(self, name: str, store: Store, *, session: Optional[int] = None,
                 clock: Callable[[], float] = time.monotonic):
        if not name.strip():
            raise UserError(_("a trainee needs a name"))
        self.name = name.strip()
        self.store = store
        self.session = session
        self.clock = clock
        _ensure(store)
        self.hand: Optional[int] = None
        self.drill: Optional[Drill] = None
        self.drill_hand: Optional[int] = None
        self.result: Optional[CheckResult] = None
        self.missed = False
        self.skipped: Optional[Msg] = None
        self.updated = False
        self.asked_at = 0.0
        self.seconds = 0.0
        self.answered = 0
        self.right = 0
        self.not_answered = 0
        self.store_error: Optional[Msg] = None      # the last record the store refused (a locked file)

    # ------------------------------------------------------------------ state

    @property
    def open(self) -> bool:
        """A question waits for the trainee's answer."""
        return self.drill is not None and self.result is None and not self.missed

    @property
    def ref(self) -> str:
        return hand_ref(self.session, self.drill_hand)

    def expected_text(self) -> str:
        """The engine's answer as the trainee would have typed it (shown once the question is over)."""
        from dealer_assist.trainer.typed import reply_text

        return reply_text(self.drill) if self.drill is not None else ""

    def ruling_lines(self, lang: str) -> list[str]:
        """The engine's explanation of the question's ruling (shown once the question is over)."""
        if self.drill is None or self.open:
            return []
        res = self.result or check(self.drill, answer_of(self.drill))
        lines = res.explanation_ja if lang == "ja" else res.explanation
        return list(lines[1:]) if self.result is None else list(lines)

    # ------------------------------------------------------------------ events

    def feed(self, events: Iterable[TableEvent]) -> bool:
        """Take note of the live table's events; True if what a screen shows changed."""
        changed = False
        for ev in events:
            if isinstance(ev, HandStart):
                self._pass()
                self.hand = ev.hand
                changed = True
            elif isinstance(ev, Showdown) and isinstance(ev.table, Mapping):
                changed |= self._showdown(ev)
            elif isinstance(ev, HandEnd):
                changed |= self._pass()
        return changed

    def _showdown(self, ev: Showdown) -> bool:
        hand = ev.hand
        if self.drill is not None and self.drill_hand != hand:
            self._pass()
        if self.drill_hand == hand and (self.result is not None or self.missed):
            return False            # answered already: judged on the table it was given on
        self.hand = hand
        try:
            drill = live_drill(ev, self.session)
        except UserError as exc:
            if self.drill_hand != hand or self.drill is None:
                self.drill, self.drill_hand, self.result, self.missed = None, hand, None, False
                self.skipped = _("hand {hand}: this showdown cannot be asked ({why})",
                                 hand=hand_ref(self.session, hand), why=message_of(exc))
            return True
        if self.drill is not None and self.drill_hand == hand:
            self.updated = self.drill.table != drill.table
            self.drill = drill      # the same question on the corrected table; the clock runs on
            return self.updated
        self.drill, self.drill_hand, self.result, self.missed = drill, hand, None, False
        self.skipped, self.updated = None, False
        self.asked_at = self.clock()
        return True

    def _pass(self) -> bool:
        """The open question's hand is over: not answered."""
        if not self.open:
            return False
        self.missed = True
        self.not_answered += 1
        self._keep(lambda: record_shadowed(self.store, self.name, self.drill, self.ref, answered=False))
        return True

    def _keep(self, write: Callable[[], None]) -> None:
        """Write to the trainee store; a store that refuses (locked, read-only, full) is said, and
        the shadowing goes on."""
        try:
            write()
            self.store_error = None
        except (sqlite3.Error, UserError) as exc:
            self.store_error = _("the trainee store did not keep this: {why}", why=message_of(exc))

    def close(self) -> bool:
        """The session ends: an open question is not answered."""
        return self._pass()

    # ------------------------------------------------------------------ the trainee

    def answer_text(self, text: str) -> CheckResult:
        """Judge what the trainee typed; :class:`UserError` if nothing is asked now or it cannot be read."""
        if not self.open:
            raise UserError(_("no showdown is waiting for an answer now"))
        return self.answer(read_reply(self.drill, text))

    def answer(self, answer: Mapping[str, Any]) -> CheckResult:
        """Judge ``answer`` against the engine's ruling on the table standing now, and record it."""
        if not self.open:
            raise UserError(_("no showdown is waiting for an answer now"))
        result = check(self.drill, answer)
        self.seconds = max(0.0, self.clock() - self.asked_at)
        self.result = result
        self.answered += 1
        self.right += int(result.right)

        def write() -> None:
            self.store.record(self.name, self.drill, result.right, self.seconds)
            record_shadowed(self.store, self.name, self.drill, self.ref, answered=True, right=result.right,
                            seconds=self.seconds)
        self._keep(write)
        return result
