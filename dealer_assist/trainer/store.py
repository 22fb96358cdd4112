"""The trainee store: trainees by name, every answer they gave (topic, level, right or wrong,
seconds, when), and their progress by topic, in one SQLite file.

>>> from dealer_assist.trainer.drills import make_drill
>>> s = Store(":memory:")
>>> d = make_drill("odd-chips", 1, seed=1, index=0)
>>> s.record("Aiko", d, True, 12.5); s.record("Aiko", d, False, 30.0); s.record("Aiko", d, True, 8.0)
>>> p = s.progress("Aiko")["odd-chips"]
>>> p.answers, p.right, round(p.accuracy, 2), p.mean_seconds
(3, 2, 0.67, 16.833333333333332)
>>> s.trainees()
['Aiko']

Must not import Qt, the camera or the live pipeline.
"""
from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import Optional, Sequence

from dealer_assist.errors import UserError
from dealer_assist.i18n import _

__all__ = ["Store", "TopicProgress"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS trainees (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    trainee INTEGER NOT NULL REFERENCES trainees(id),
    drill TEXT NOT NULL,
    topic TEXT NOT NULL,
    level INTEGER NOT NULL,
    right INTEGER NOT NULL,
    seconds REAL NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_trainee ON answers(trainee, topic);
"""


@dataclass(frozen=True, slots=True)
class TopicProgress:
    """One trainee's record on one topic."""

    topic: str
    answers: int
    right: int
    mean_seconds: float

    @property
    def accuracy(self) -> float:
        return self.right / self.answers if self.answers else 0.0


class Store:
    """Trainees and their answers in the SQLite file ``path`` (``:memory:`` for a test)."""

    def __init__(self, path: str):
        try:
            self.db = sqlite3.connect(path)
            self.db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise UserError(_("cannot open the trainee store {path}: {why}", path=path, why=str(exc))) from None

    def close(self) -> None:
        self.db.close()

    def trainee_id(self, name: str) -> int:
        name = name.strip()
        if not name:
            raise UserError(_("a trainee needs a name"))
        row = self.db.execute("SELECT id FROM trainees WHERE name = ?", (name,)).fetchone()
        if row:
            return row[0]
        cur = self.db.execute("INSERT INTO trainees(name, created) VALUES (?, ?)", (name, time.time()))
        self.db.commit()
        return cur.lastrowid

    def trainees(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT name FROM trainees ORDER BY name")]

    def record(self, name: str, drill, right: bool, seconds: float, at: Optional[float] = None) -> None:
        """One answer: the drill (its id, topic, level), right or wrong, the seconds it took."""
        tid = self.trainee_id(name)
        self.db.execute("INSERT INTO answers(trainee, drill, topic, level, right, seconds, at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (tid, drill.id, drill.topic, drill.level, int(bool(right)), float(seconds),
                         time.time() if at is None else at))
        self.db.commit()

    def answers(self, name: str) -> list[dict]:
        """Every answer of ``name``, oldest first."""
        rows = self.db.execute(
            "SELECT a.drill, a.topic, a.level, a.right, a.seconds, a.at FROM answers a "
            "JOIN trainees t ON t.id = a.trainee WHERE t.name = ? ORDER BY a.id", (name.strip(),))
        return [{"drill": d, "topic": tp, "level": lv, "right": bool(r), "seconds": s, "at": at}
                for d, tp, lv, r, s, at in rows]

    def progress(self, name: str) -> dict[str, TopicProgress]:
        """Accuracy and mean seconds per topic of ``name``."""
        rows = self.db.execute(
            "SELECT a.topic, COUNT(*), SUM(a.right), AVG(a.seconds) FROM answers a "
            "JOIN trainees t ON t.id = a.trainee WHERE t.name = ? GROUP BY a.topic ORDER BY a.topic",
            (name.strip(),))
        return {tp: TopicProgress(tp, n, int(r or 0), float(s or 0.0)) for tp, n, r, s in rows}

    def weakest(self, name: str, k: int = 3, topics: Sequence[str] = ()) -> list[str]:
        """The ``k`` topics ``name`` does worst in: lowest accuracy, then slowest; a topic of
        ``topics`` never drilled comes first (nothing is known of it yet)."""
        prog = self.progress(name)
        never = [t for t in topics if t not in prog]
        ranked = sorted(prog.values(), key=lambda p: (p.accuracy, -p.mean_seconds))
        return (never + [p.topic for p in ranked])[:k]
