"""The hand log: every hand, its events, the ruling, the dealer's corrections and JPEG snapshots,
in one SQLite file, written as the table plays and read back to settle disputes.

Durability is the point: the file is in WAL mode with ``synchronous=FULL`` and every
:meth:`HandLog.record` is its own committed transaction, so a process killed at any moment
(power cut, crash, ``kill -9``) leaves every event it had recorded readable and the file intact.

One ``run`` is one *session*; a hand row is opened by its ``hand_start`` event (or by the first
event naming a hand the log has not seen) and closed by ``hand_end``. A hand that never ends
keeps every event already recorded; the readers call it ``open`` while the process that writes
it is alive and ``interrupted`` once that process is gone (killed, crashed, or closed mid-hand).
Events with no hand (alerts between hands) are kept with hand NULL.

A hand is addressed by its session and its number in that session, ``"2:3"`` (session 2,
hand 3); its row id (``id``) is accepted too. :func:`salvage` copies what is still readable out
of a damaged log into a new one.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "hands.sqlite")
>>> log = HandLog(path, source="camera 0", game="joker-holdem")
>>> log.record({"t": 0.5, "frame": 7, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1})
1
>>> log.record({"t": 4.0, "frame": 60, "type": "board", "hand": 1, "street": "flop",
...             "cards": ["Ks", "Js", "6s"]}, snapshot_jpeg=b"\\xff\\xd8 a frame \\xff\\xd9")
2
>>> log.close()
>>> [(h["ref"], h["status"], h["board"], h["events"]) for h in list_hands(path)]
[('1:1', 'interrupted', ['Ks', 'Js', '6s'], 2)]
>>> hand = load_hand(path, "1:1")
>>> [e["type"] for e in hand["events"]], hand["snapshots"][0]["event_type"]
(['hand_start', 'board'], 'board')
>>> load_snapshot(path, hand["snapshots"][0]["id"])[:2]
b'\\xff\\xd8'
"""
from __future__ import annotations

import bisect
import datetime as _dt
import functools
import hashlib
import json
import math
import os
import re
import socket
import sqlite3
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence

from dealer_assist import __version__
from dealer_assist.errors import UserError
from dealer_assist.i18n import Text, _, render, typed
from dealer_assist.cards import card_or_none
from dealer_assist.live.events import TableEvent
from dealer_assist.live.ruling import ruling_or_none

__all__ = ["SCHEMA_VERSION", "HandLog", "list_hands", "load_hand", "load_snapshot", "snapshot_changed", "ruling_winners",
           "stored_ruling", "parse_hand_ref", "find_hand", "salvage"]

#: The type a hand's account (:func:`load_hand`) gives a stored event or correction line that
#: cannot be read: the log is damaged there, and the rest of the hand still reads.
DAMAGED_LINE = "damaged_line"

#: The schema this code writes (``PRAGMA user_version``). A file with a higher number was written
#: by a newer dealer-assist and is refused rather than misread; lower numbers are migrated up.
SCHEMA_VERSION = 3

_APP_ID = 0x44414C47  # "DALG": PRAGMA application_id, marks the file as a dealer-assist hand log

_SCHEMA_V1 = """
CREATE TABLE schema_versions (
    version     INTEGER PRIMARY KEY,
    applied     REAL NOT NULL,            -- unix time
    app_version TEXT NOT NULL
);
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY,
    started     REAL NOT NULL,            -- unix time
    ended       REAL,                     -- set by close(); NULL if the process died
    source      TEXT NOT NULL,
    game        TEXT NOT NULL,
    calibration TEXT,
    models      TEXT NOT NULL DEFAULT '{}',   -- JSON: model name -> version
    app_version TEXT NOT NULL
);
CREATE TABLE hands (
    id            INTEGER PRIMARY KEY,
    session       INTEGER NOT NULL REFERENCES sessions(id),
    hand          INTEGER NOT NULL,       -- hand number within the session
    started_t     REAL,                   -- clip/stream time of hand_start (s)
    ended_t       REAL,
    started_frame INTEGER,
    ended_frame   INTEGER,
    started_wall  REAL NOT NULL,          -- unix time
    ended_wall    REAL,
    status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    seats         TEXT,                   -- JSON list of seats dealt in
    button        INTEGER,
    ruling        TEXT,                   -- JSON: the latest ruling (final once ended)
    board         TEXT NOT NULL DEFAULT '[]',   -- JSON list of cards
    won_without_showdown INTEGER,
    UNIQUE (session, hand)
);
CREATE TABLE events (
    id       INTEGER PRIMARY KEY,
    session  INTEGER NOT NULL REFERENCES sessions(id),
    hand     INTEGER REFERENCES hands(id),      -- NULL: between hands
    seq      INTEGER NOT NULL,                  -- order within the session, 1, 2, ...
    t        REAL,
    frame    INTEGER,
    type     TEXT NOT NULL,
    wall     REAL NOT NULL,
    json     TEXT NOT NULL,                     -- the event exactly as emitted
    UNIQUE (session, seq)
);
CREATE INDEX events_by_hand ON events(hand, seq);
CREATE TABLE corrections (
    id       INTEGER PRIMARY KEY,
    session  INTEGER NOT NULL REFERENCES sessions(id),
    hand     INTEGER REFERENCES hands(id),
    t        REAL,
    frame    INTEGER,
    zone     TEXT,
    card     TEXT,
    to_card  TEXT,                              -- NULL: the card was removed
    after_seq INTEGER NOT NULL,                 -- events.seq of the last event recorded before it
    wall     REAL NOT NULL,
    json     TEXT NOT NULL                      -- the dealer's action as given
);
CREATE INDEX corrections_by_hand ON corrections(hand, id);
CREATE TABLE snapshots (
    id       INTEGER PRIMARY KEY,
    event    INTEGER NOT NULL REFERENCES events(id),
    frame    INTEGER,
    t        REAL,
    jpeg     BLOB,                              -- NULL when same_as holds the same image
    same_as  INTEGER REFERENCES snapshots(id)   -- several events of one frame share one image
);
CREATE INDEX snapshots_by_event ON snapshots(event);
"""

# Version 2: which process wrote a session, so a reader can tell a hand still being played from
# one whose process was killed (``interrupted``).
_SCHEMA_V2 = """
ALTER TABLE sessions ADD COLUMN pid INTEGER;      -- the writing process
ALTER TABLE sessions ADD COLUMN host TEXT;        -- ... and its machine
"""

# Version 3: each snapshot's SHA-256 as written, so a reader tells an image the disk changed from
# the one recorded (a snapshot is the evidence of a dispute; NULL in rows of older files).
_SCHEMA_V3 = """
ALTER TABLE snapshots ADD COLUMN sha256 TEXT;     -- hex digest of jpeg; NULL where same_as holds the image
"""

#: Migrations: version -> SQL that takes a file from version-1 to version.
_MIGRATIONS: dict[int, str] = {1: _SCHEMA_V1, 2: _SCHEMA_V2, 3: _SCHEMA_V3}

_TABLES = ("schema_versions", "sessions", "hands", "events", "corrections", "snapshots")


# -- opening ---------------------------------------------------------------------------------------
#: SQLite's own words for what a person meets (a file that is no database, a damaged one, a busy
#: one, no rights), each in the catalogues; any other SQLite message is said in its own words.
_SQLITE_WORDS = {m.msgid: m for m in (
    _("file is not a database"),
    _("database disk image is malformed"),
    _("database is locked"),
    _("unable to open database file"),
    _("attempt to write a readonly database"),
    _("disk I/O error"),
    _("database or disk is full"),
)}


def _describe(exc: BaseException) -> Text:
    """What SQLite said, without its full stop: in both languages where it is one a person meets.

    >>> from dealer_assist.i18n import both
    >>> both(_describe(sqlite3.DatabaseError("file is not a database")))[0]
    'file is not a database'
    >>> _describe(sqlite3.OperationalError("no such table: x"))
    'no such table: x'
    """
    text = str(exc).rstrip(".") or type(exc).__name__
    return _SQLITE_WORDS.get(text, text)


def _not_a_log(path: str, why: Text) -> UserError:
    if any(w in render(why, "en") for w in ("damaged", "malformed", "corrupt")):
        return UserError(_("{path} is not a readable dealer-assist hand log ({why}); it was left untouched: "
                           "give another --db; dealer-assist review --salvage {path} NEW.sqlite copies what "
                           "is still readable", path=path, why=why))
    return UserError(_("{path} is not a readable dealer-assist hand log ({why}); it was left untouched: "
                       "give another --db", path=path, why=why))


def _check_schema(con: sqlite3.Connection, path: str) -> int:
    """The file's schema version after checks; raises UserError for anything else than a hand log."""
    try:
        # one read transaction: a consistent view even while another process sets the file up
        con.execute("BEGIN")
        try:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = con.execute("PRAGMA user_version").fetchone()[0]
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
        finally:
            if con.in_transaction:
                con.execute("COMMIT")
    except sqlite3.DatabaseError as exc:
        raise _not_a_log(path, _describe(exc)) from None
    if version > SCHEMA_VERSION:
        raise UserError(_("{path} was written by a newer dealer-assist (hand-log schema {version}; "
                          "this version {app} reads up to {known}): update dealer-assist or give another --db",
                          path=path, version=version, app=__version__, known=SCHEMA_VERSION))
    if version == 0:
        if tables:
            raise _not_a_log(path, _("an SQLite database with other tables: {tables}",
                                     tables=", ".join(sorted(tables)[:5])))
        return 0
    if app_id != _APP_ID or not set(_TABLES) <= tables:
        raise _not_a_log(path, _("an SQLite database of another program"))
    return version


def _check_known(path: str, version: int) -> None:
    """The writer's check of a file's schema version: one this code wrote or migrates up from (0
    to SCHEMA_VERSION). Another number (negative: set by hand or by another tool) has no
    migration to start from, so the file is refused before anything is written to it; a reader
    still reads its hands (their tables and the application id are checked by _check_schema)."""
    if not 0 <= version <= SCHEMA_VERSION:
        raise UserError(_("{path} has hand-log schema version {version}, which this dealer-assist {app} does "
                          "not know (it writes {known}); it was left untouched: give another --db "
                          "(dealer-assist review --db {path} still reads its hands)",
                          path=path, version=version, app=__version__, known=SCHEMA_VERSION))


def _migrate(con: sqlite3.Connection, path: str, version: int) -> None:
    """Bring the file up to SCHEMA_VERSION, one committed step per version."""
    _check_known(path, version)
    while version < SCHEMA_VERSION:
        version += 1
        try:
            con.execute("BEGIN IMMEDIATE")
            if con.execute("PRAGMA user_version").fetchone()[0] >= version:
                con.execute("COMMIT")      # another process set the file up meanwhile
                continue
            for stmt in _split_sql(_MIGRATIONS[version]):
                con.execute(stmt)
            con.execute(f"PRAGMA application_id = {_APP_ID}")
            con.execute(f"PRAGMA user_version = {version}")
            con.execute("INSERT INTO schema_versions (version, applied, app_version) VALUES (?, ?, ?)",
                        (version, time.time(), __version__))
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise UserError(_("cannot set up the hand log {path}: {why}", path=path, why=_describe(exc))) from None


def _split_sql(script: str) -> list[str]:
    """Statements of a schema script (no semicolons inside strings in ours)."""
    lines = [ln.split("--", 1)[0] for ln in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _check_folder(path: str, *, for_writing: bool) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UserError(_("cannot open the hand log {path}: the folder {folder} does not exist",
                          path=path, folder=folder))
    if os.path.isdir(path):
        raise UserError(_("the hand log {path} is a folder; give a file name such as {path}/hand-log.sqlite",
                          path=path))
    if for_writing:
        # WAL mode keeps two side files (-wal, -shm) next to the log: the folder must be writable.
        if not os.access(folder, os.W_OK | os.X_OK):
            raise UserError(_("cannot write the hand log {path}: the folder {folder} is read-only",
                              path=path, folder=folder))
        if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
            raise UserError(_("cannot write the hand log {path}: the file is read-only", path=path))


def _json(obj: Any, what: str) -> str:
    try:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise TypeError(f"the hand log stores JSON; this {what} is not JSON-ready: {exc}") from None


def _num(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return int(value)


class HandLog:
    """The writer: one session of one ``run``. Every call commits before it returns.

    ``source`` and ``game`` describe the session; ``calibration`` (a name or path) and ``models``
    (model name -> version) are kept with it so a dispute can tell what recognised the cards.
    ``check_same_thread=False`` lets the thread that opened the log hand it to one other thread
    (the desk display opens it, its worker thread writes): one thread at a time, never both.
    Raises :class:`UserError` when the file cannot be a hand log (not SQLite, corrupt, another
    program's database, a newer schema) or its folder is missing or read-only; such a file is
    never modified.
    """

    def __init__(self, path: str | os.PathLike, source: str = "", game: str = "joker-holdem", *,
                 calibration: Optional[str] = None, models: Optional[Mapping[str, Any]] = None,
                 check_same_thread: bool = True):
        self.path = os.fspath(path)
        _check_folder(self.path, for_writing=True)
        existed = os.path.exists(self.path) and os.path.getsize(self.path) > 0
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per record.
            self._con: Optional[sqlite3.Connection] = sqlite3.connect(
                self.path, timeout=10.0, isolation_level=None, check_same_thread=check_same_thread)
        except sqlite3.Error as exc:
            raise UserError(_("cannot open the hand log {path}: {why}", path=self.path, why=_describe(exc))) from None
        try:
            version = _check_schema(self._con, self.path)
            _check_known(self.path, version)      # before journal_mode: that may write the header
            if existed:
                try:
                    ok = self._con.execute("PRAGMA quick_check").fetchone()[0]
                except sqlite3.DatabaseError as exc:
                    ok = _describe(exc)
                if ok != "ok":
                    raise _not_a_log(self.path, _("damaged: {why}", why=ok))
            try:
                mode = self._con.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                self._con.execute("PRAGMA synchronous = FULL")
                self._con.execute("PRAGMA foreign_keys = ON")
            except sqlite3.Error as exc:
                raise UserError(_("cannot write the hand log {path}: {why}", path=self.path,
                                  why=_describe(exc))) from None
            if str(mode).lower() != "wal":
                raise UserError(_("cannot write the hand log {path}: the file system refuses "
                                  "SQLite's write-ahead log (journal mode {mode})", path=self.path, mode=mode))
            _migrate(self._con, self.path, version)
            self._session = self._insert(
                "INSERT INTO sessions (started, source, game, calibration, models, app_version, pid, host) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (time.time(), str(source), str(game), None if calibration is None else str(calibration),
                 _json(dict(models or {}), "models mapping"), __version__, os.getpid(), _host()))
        except BaseException:
            self._con.close()
            raise
        self._seq = 0
        self._hands: dict[int, int] = {}        # hand number -> hands.id, this session
        self._last_jpeg: Optional[tuple[bytes, Optional[int], int]] = None   # (bytes, frame, snapshot id)

    # -- plumbing ---------------------------------------------------------------------------------
    @property
    def session(self) -> int:
        """This session's id in the log."""
        return self._session

    def _insert(self, sql: str, params: tuple) -> int:
        with self._tx():
            return int(self._con.execute(sql, params).lastrowid)

    @contextmanager
    def _tx(self) -> Iterator[None]:
        """One committed transaction; an SQLite failure becomes a UserError (nothing half-written)."""
        if self._con is None:
            raise ValueError("the hand log is closed")
        con = self._con
        try:
            con.execute("BEGIN IMMEDIATE")
            yield
            con.execute("COMMIT")
        except BaseException as exc:
            if con.in_transaction:
                con.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise UserError(_("cannot write the hand log {path}: {why}", path=self.path,
                                  why=_describe(exc))) from None
            raise

    def _hand_for(self, number: Optional[int], ev: Mapping[str, Any], wall: float
                  ) -> tuple[Optional[int], Optional[int]]:
        """(hands.id or None, the id if this call created the row): inside a transaction; the
        caller caches a new row only once its transaction has committed."""
        if number is None:
            return None, None
        row = self._hands.get(number)
        if row is not None:
            return row, None
        row = self._hand_row(number, ev, wall)
        return row, row

    def _hand_row(self, number: int, ev: Mapping[str, Any], wall: float) -> int:
        """The hands.id of hand ``number`` of this session, created if new (inside a transaction)."""
        row = self._hands.get(number)
        if row is not None:
            return row
        cur = self._con.execute(
            "INSERT INTO hands (session, hand, started_t, started_frame, started_wall) VALUES (?, ?, ?, ?, ?)",
            (self._session, number, _num(ev.get("t")), _int(ev.get("frame")), wall))
        row = int(cur.lastrowid)
        return row

    # -- writing ----------------------------------------------------------------------------------
    def record(self, event: "TableEvent | Mapping[str, Any]", snapshot_jpeg: Optional[bytes] = None) -> int:
        """Commit one event (and the JPEG of its frame); returns its sequence number in the session.

        ``event`` is the table's :class:`~dealer_assist.live.events.TableEvent` (stored as its
        ``to_json()``, the event line) or an event line already (a tool's, a test's).
        ``hand_start`` opens the hand's row, ``board`` and ``showdown`` update its board and ruling,
        ``hand_end`` closes it with the final ruling.
        """
        if isinstance(event, TableEvent):
            event = event.to_json()
        if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
            raise TypeError("an event is a mapping with a string \"type\"")
        if snapshot_jpeg is not None:
            snapshot_jpeg = bytes(snapshot_jpeg)
            if not snapshot_jpeg.startswith(b"\xff\xd8"):
                raise ValueError("snapshot_jpeg must be JPEG bytes (starting FF D8)")
        text = _json(dict(event), f"{event['type']} event")
        kind = event["type"]
        number = _int(event.get("hand"))
        t, frame = _num(event.get("t")), _int(event.get("frame"))
        wall = time.time()
        seq = self._seq + 1
        with self._tx():
            hand_row, new_hand = self._hand_for(number, event, wall)
            con = self._con
            if kind == "hand_start" and hand_row is not None:
                con.execute("UPDATE hands SET seats = ?, button = ?, started_t = ?, started_frame = ? "
                            "WHERE id = ?", (_json(list(event.get("seats") or []), "seats list"),
                                             _int(event.get("button")), t, frame, hand_row))
            elif kind == "button" and hand_row is not None and _int(event.get("seat")) is not None:
                # the dealer moved this hand's button: the hand is ruled, and shown, with it
                con.execute("UPDATE hands SET button = ? WHERE id = ?", (_int(event.get("seat")), hand_row))
            elif kind == "board" and hand_row is not None and isinstance(event.get("cards"), list):
                con.execute("UPDATE hands SET board = ? WHERE id = ?",
                            (_json(event["cards"], "board"), hand_row))
            elif kind == "showdown" and hand_row is not None and event.get("ruling") is not None:
                con.execute("UPDATE hands SET ruling = ? WHERE id = ?",
                            (_json(event["ruling"], "ruling"), hand_row))
            elif kind == "hand_end" and hand_row is not None:
                sets = ["status = 'ended'", "ended_t = ?", "ended_frame = ?", "ended_wall = ?",
                        "won_without_showdown = ?"]
                params: list[Any] = [t, frame, wall, _int(event.get("won_without_showdown"))]
                if event.get("ruling") is not None:
                    sets.append("ruling = ?")
                    params.append(_json(event["ruling"], "ruling"))
                if isinstance(event.get("board"), list):
                    sets.append("board = ?")
                    params.append(_json(event["board"], "board"))
                con.execute(f"UPDATE hands SET {', '.join(sets)} WHERE id = ?", (*params, hand_row))
            ev_id = int(con.execute(
                "INSERT INTO events (session, hand, seq, t, frame, type, wall, json) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (self._session, hand_row, seq, t, frame, kind, wall, text)).lastrowid)
            last = self._last_jpeg
            snap = None
            if snapshot_jpeg is not None:
                if last is not None and last[1] == frame and last[0] == snapshot_jpeg:
                    con.execute("INSERT INTO snapshots (event, frame, t, jpeg, same_as) VALUES (?, ?, ?, NULL, ?)",
                                (ev_id, frame, t, last[2]))
                else:
                    snap = int(con.execute("INSERT INTO snapshots (event, frame, t, jpeg, sha256) VALUES (?, ?, ?, ?, ?)",
                                           (ev_id, frame, t, sqlite3.Binary(snapshot_jpeg),
                                            hashlib.sha256(snapshot_jpeg).hexdigest())).lastrowid)
        # committed: only now advance the in-memory state
        self._seq = seq
        if new_hand is not None:
            self._hands[number] = new_hand
        if snap is not None:
            self._last_jpeg = (snapshot_jpeg, frame, snap)
        return seq

    def record_correction(self, action: Mapping[str, Any], frame: int, t: float,
                          hand: Optional[int]) -> None:
        """Commit a dealer's correction (``{"type": "correct", "zone", "card", "to"}``) of hand ``hand``."""
        if not isinstance(action, Mapping):
            raise TypeError("a correction is a mapping such as {\"type\": \"correct\", \"zone\": ...}")
        text = _json(dict(action), "correction")
        wall = time.time()
        number = _int(hand)
        with self._tx():
            hand_row, new_hand = self._hand_for(number, {"t": t, "frame": frame}, wall)
            to = action.get("to")
            self._con.execute(
                "INSERT INTO corrections (session, hand, t, frame, zone, card, to_card, after_seq, wall, json) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self._session, hand_row, _num(t), _int(frame),
                 None if action.get("zone") is None else str(action.get("zone")),
                 None if action.get("card") is None else str(action.get("card")),
                 None if to is None else str(to), self._seq, wall, text))
        if new_hand is not None:
            self._hands[number] = new_hand

    def close(self) -> None:
        """Mark the session ended and close the file (safe to call twice)."""
        if self._con is None:
            return
        try:
            with self._tx():
                self._con.execute("UPDATE sessions SET ended = ? WHERE id = ?", (time.time(), self._session))
        finally:
            self._con.close()
            self._con = None

    def __enter__(self) -> "HandLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# -- reading ---------------------------------------------------------------------------------------
def _reader(path: str | os.PathLike) -> sqlite3.Connection:
    path = os.fspath(path)
    _check_folder(path, for_writing=False)
    if not os.path.isfile(path):
        raise UserError(_("no hand log at {path} (dealer-assist run writes one; give --db FILE)", path=path))
    if os.path.getsize(path) == 0:
        raise _not_a_log(path, _("the file is empty"))
    try:
        con = sqlite3.connect(f"file:{_uri_path(path)}?mode=ro", uri=True, timeout=10.0,
                              isolation_level=None)
    except sqlite3.Error as exc:
        raise UserError(_("cannot open the hand log {path}: {why}", path=path, why=_describe(exc))) from None
    try:
        version = _check_schema(con, path)
        if version == 0:
            raise _not_a_log(path, _("an empty SQLite database"))
    except BaseException:
        con.close()
        raise
    con.row_factory = sqlite3.Row
    return con


def _uri_path(path: str) -> str:
    from urllib.parse import quote

    return quote(os.path.abspath(path), safe="/")


#: A stored value that is no time is shown as stored, cut to this many characters (it is one field of a line).
_AS_STORED = 64


def _iso(ts: Any) -> Optional[str]:
    """Unix time -> local ISO 8601 with offset, to the second (what a floor manager reads).

    A damaged or hand-edited log can hold anything there (text, a number no clock reaches): that
    is given as it is stored, so the reader shows it beside the rest instead of failing on it.

    >>> _iso(None), _iso("yesterday"), _iso(1e300), _iso(b"\\xff1") == "\\ufffd1"
    (None, 'yesterday', '1e+300', True)
    """
    if ts is None:
        return None
    if isinstance(ts, (int, float)) and not isinstance(ts, bool):
        try:
            return _dt.datetime.fromtimestamp(ts).astimezone().isoformat(timespec="seconds")
        except (OverflowError, OSError, ValueError):
            pass                     # out of the clock's range, or NaN: shown as stored
    text = ts.decode("utf-8", "replace") if isinstance(ts, bytes) else str(ts)
    return text[:_AS_STORED]


def ruling_winners(ruling: Optional[Mapping[str, Any]]) -> list[int]:
    """Seats that won something in a stored ruling: the pots' winners (Half Texas: the ruling's
    own ``winners``; Daifugo: the seat that went out); none for a ruling that cannot be read.

    >>> ruling_winners({"pots": [{"winners": [2]}, {"winners": [3, 2]}]})
    [2, 3]
    >>> ruling_winners(None), ruling_winners({"pots": "all of it"})
    ([], [])
    """
    typed = ruling_or_none(ruling)
    return [] if typed is None else list(typed.winners_of_pots())


def stored_ruling(text: Optional[str]) -> tuple[Optional[dict], bool]:
    """A hand's stored ruling as a reader hands it on: ``(its JSON, False)``, ``(None, False)``
    where none was stored, or ``(None, True)`` where the stored one cannot be read as a ruling (a
    damaged log: the reader says so instead of failing on it).

    >>> stored_ruling('{"game": "holdem", "payouts": {"2": 40}}')[0]["payouts"], stored_ruling(None)
    ({'2': 40}, (None, False))
    >>> stored_ruling('{"game": "holdem", "pots": "all of it"}'), stored_ruling("{not json")
    ((None, True), (None, True))
    """
    if text is None:
        return None, False
    try:
        obj = json.loads(text)
    except ValueError:
        return None, True
    if obj is not None and ruling_or_none(obj) is None:
        return None, True
    return obj, False


def stored_line(text: Optional[str]) -> dict:
    """A stored event or correction line as a hand's account reads it: its JSON object, or
    ``{"type": "damaged_line"}`` where the log is damaged there (the rest of the hand still reads).

    >>> stored_line('{"type": "board", "cards": ["Ks"]}')["cards"], stored_line("{not json"), stored_line("[1]")
    (['Ks'], {'type': 'damaged_line'}, {'type': 'damaged_line'})
    """
    try:
        obj = json.loads(text) if text is not None else None
    except ValueError:
        obj = None
    return obj if isinstance(obj, dict) else {"type": DAMAGED_LINE}


def _is_card(value: Any) -> bool:
    return isinstance(value, str)


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def stored_list(text: Any, item: Callable[[Any], bool]) -> tuple[list, bool]:
    """A hand's stored JSON list (its board: cards; its seats: numbers) as a reader hands it on:
    ``(the list, False)``, ``([], False)`` where none was stored, or ``([], True)`` where what is
    stored is no such list (a damaged or hand-edited log: the reader says so instead of failing
    on it, and the hand's events still tell it).

    >>> stored_list('["Ks", "Js"]', _is_card), stored_list(None, _is_card)
    ((['Ks', 'Js'], False), ([], False))
    >>> stored_list("123", _is_card), stored_list('[1, "x"]', _is_seat), stored_list("{not json", _is_seat)
    (([], True), ([], True), ([], True))
    """
    if text is None:
        return [], False
    try:
        obj = json.loads(text)
    except (TypeError, ValueError):
        return [], True
    if not isinstance(obj, list) or not all(item(v) for v in obj):
        return [], True
    return obj, False


def _stored_models(text: Any) -> dict:
    """A session's models (name -> version); {} where they cannot be read (a damaged log)."""
    try:
        obj = json.loads(text) if text is not None else {}
    except (TypeError, ValueError):
        return {}
    return obj if isinstance(obj, dict) else {}


_HAND_SQL = """
SELECT h.*, s.id AS session_row, s.source, s.game, s.calibration, s.models, s.app_version, s.started AS session_started,
       s.ended AS session_ended, {writer}, (SELECT MAX(id) FROM sessions) AS last_session,
       (SELECT COUNT(*) FROM events e WHERE e.hand = h.id) AS n_events,
       (SELECT COUNT(*) FROM corrections c WHERE c.hand = h.id) AS n_corrections
FROM hands h LEFT JOIN sessions s ON s.id = h.session
"""
# LEFT JOIN: a hand whose session row is gone (a damaged log) is still listed and read, its
# session columns NULL and ``session_row`` NULL to say so; an inner join silently dropped it.


def _columns(con: sqlite3.Connection, table: str) -> set[str]:
    """The columns ``table`` has in this file (an older schema has fewer)."""
    return {r[1] for r in con.execute(f'PRAGMA table_info("{table}")')}


def _hand_sql(con: sqlite3.Connection) -> str:
    """The hand query for this file: a schema-1 log has no writer columns (pid, host)."""
    cols = _columns(con, "sessions")
    writer = "s.pid AS pid, s.host AS host" if {"pid", "host"} <= cols else "NULL AS pid, NULL AS host"
    return _HAND_SQL.format(writer=writer)


def _host() -> str:
    try:
        return socket.gethostname()
    except OSError:  # pragma: no cover - no host name
        return ""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` of this machine is still running."""
    if pid == os.getpid():
        return True
    if os.name == "nt":  # pragma: no cover - Windows: os.kill(pid, 0) would end the process
        import ctypes

        k32 = ctypes.windll.kernel32
        handle = k32.OpenProcess(0x1000, False, pid)     # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        try:
            ok = k32.GetExitCodeProcess(handle, ctypes.byref(code))
        finally:
            k32.CloseHandle(handle)
        return bool(ok) and code.value == 259               # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _status(row: sqlite3.Row) -> str:
    """``ended``; ``open`` (its process is still playing it); ``interrupted`` (it never ended and
    never will: the process was killed or closed during the hand)."""
    if row["status"] == "ended":
        return "ended"
    if row["session_ended"] is not None:
        return "interrupted"
    pid, host = row["pid"], row["host"]
    if isinstance(pid, int) and host == _host():
        return "open" if _alive(pid) else "interrupted"
    # another machine's process, or a log older than schema 2: a later session means this one is over
    last, session = row["last_session"], row["session"]
    if _int(last) is None or _int(session) is None:    # a damaged session number: no later one to tell
        return "open"
    return "interrupted" if session < last else "open"


def _ref(session: Any, hand: Any) -> str:
    return f"{session}:{hand}"


def _corrections(rows: Iterable, seqs: Sequence[int]) -> list[dict]:
    """A hand's corrections as :func:`load_hand` gives them, from their rows (``corrections`` columns,
    in order) and the seqs of the hand's events, in order; each with the other name the reader
    had offered for the card (``"or"``) where the stored action has one."""
    out = []
    for r in rows:
        action = stored_line(r["json"])
        other = card_or_none(action.get("or"))
        out.append({"t": r["t"], "frame": r["frame"], "zone": r["zone"], "card": r["card"], "to": r["to_card"],
                    "action": action, "wall": _iso(r["wall"]),
                    "before_event": bisect.bisect_right(seqs, r["after_seq"]), **({"or": other} if other else {})})
    return out


def _confirmations(events: Sequence[dict]) -> list[dict]:
    """The cards the dealer confirmed as read (``confirm`` events), in order, each with the other
    name the reader had offered for it (``"or"``) where it had."""
    return [
        {"t": ev.get("t"), "frame": ev.get("frame"), "zone": c.get("zone"), "card": c.get("card"),
         "event_index": i, **({"or": other} if (other := card_or_none(c.get("or"))) else {})}
        for i, ev in enumerate(events) if ev.get("type") == "confirm"
        for c in ev.get("cards") or () if isinstance(c, dict)]


def _summary(row: sqlite3.Row) -> dict:
    ruling, damaged = stored_ruling(row["ruling"])
    payouts = dict((ruling or {}).get("payouts") or {})
    seats, seats_damaged = stored_list(row["seats"], _is_seat)
    board, board_damaged = stored_list(row["board"], _is_card)
    return {
        "ref": _ref(row["session"], row["hand"]),
        "id": row["id"], "session": row["session"], "hand": row["hand"],
        "started": _iso(row["started_wall"]), "ended": _iso(row["ended_wall"]),
        "status": _status(row),
        "t_start": row["started_t"], "t_end": row["ended_t"],
        "frame_start": row["started_frame"], "frame_end": row["ended_frame"],
        "seats": seats, "button": row["button"],
        "board": board,
        "winners": ruling_winners(ruling), "payouts": payouts,
        "won_without_showdown": row["won_without_showdown"],
        "events": row["n_events"], "corrections": row["n_corrections"],
        "source": row["source"], "game": row["game"], "ruling_unreadable": damaged,
        # a damaged log: what cannot be read is said, never guessed (the events still tell the hand)
        "board_unreadable": board_damaged, "seats_unreadable": seats_damaged,
        "session_missing": row["session_row"] is None,
        "unconfirmed": paid_unconfirmed(ruling, _status(row)),
    }


def paid_unconfirmed(ruling: Optional[dict], status: str) -> bool:
    """Whether a hand ended on a provisional ruling: paid on doubtful cards the dealer never confirmed.

    >>> paid_unconfirmed({"provisional": True}, "ended"), paid_unconfirmed({"provisional": True}, "open")
    (True, False)
    >>> paid_unconfirmed({"provisional": False, "unsure": [{"zone": "seat4", "card": "8c"}]}, "ended")
    False
    """
    return status == "ended" and isinstance(ruling, dict) and ruling.get("provisional") is True


def _read(path: str | os.PathLike, work):
    con = _reader(path)
    try:
        con.execute("BEGIN")          # one snapshot of the file while run keeps writing
        try:
            return work(con)
        finally:
            if con.in_transaction:
                con.execute("COMMIT")
    except sqlite3.DatabaseError as exc:
        raise _not_a_log(os.fspath(path), _("damaged: {why}", why=_describe(exc))) from None
    finally:
        con.close()


def list_hands(path: str | os.PathLike, session: Optional[int] = None) -> list[dict]:
    """Every hand in the log, oldest first (one dict per hand; ``ref`` is ``"SESSION:HAND"``,
    ``status`` is ``ended``, ``open`` or ``interrupted``; ``events``/``corrections`` are counts)."""
    def work(con):
        sql = _hand_sql(con) + (" WHERE h.session = ?" if session is not None else "") + " ORDER BY h.id"
        return [_summary(r) for r in con.execute(sql, () if session is None else (session,))]
    return _read(path, work)


def parse_hand_ref(text: Any) -> tuple[Optional[int], int]:
    """``"2:3"`` -> ``(2, 3)`` (session 2, hand 3); ``"4"`` or ``4`` -> ``(None, 4)`` (row id 4).

    >>> parse_hand_ref("2:3"), parse_hand_ref(" 4 "), parse_hand_ref(7)
    ((2, 3), (None, 4), (None, 7))
    >>> parse_hand_ref("2:x")
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: a hand is SESSION:HAND as dealer-assist review lists it (such as 2:3), or its row id; not '2:x'
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 1:
            raise UserError(_("a hand's row id is a whole number >= 1, not {text}", text=text))
        return None, text
    bad = UserError(_("a hand is SESSION:HAND as dealer-assist review lists it (such as 2:3), "
                      "or its row id; not {text}", text=typed(str(text)[:40])))
    if not isinstance(text, str):
        raise bad
    parts = text.strip().split(":")
    if len(parts) > 2 or not all(p.strip().isdigit() and len(p.strip()) <= 18 for p in parts):
        raise bad
    nums = [int(p) for p in parts]
    if min(nums) < 1:
        raise bad
    return (None, nums[0]) if len(nums) == 1 else (nums[0], nums[1])


def _find(con: sqlite3.Connection, path: str | os.PathLike, ref: Any) -> int:
    session, number = parse_hand_ref(ref)
    where = os.fspath(path)
    if session is None:
        if con.execute("SELECT 1 FROM hands WHERE id = ?", (number,)).fetchone() is None:
            last = con.execute("SELECT MAX(id) FROM hands").fetchone()[0]
            if last:
                raise UserError(_("no hand with id {number} in {path} (ids 1..{last}; dealer-assist review "
                                  "lists them)", number=number, path=where, last=last))
            raise UserError(_("no hand with id {number} in {path} (no hands yet; dealer-assist review "
                              "lists them)", number=number, path=where))
        return number
    row = con.execute("SELECT id FROM hands WHERE session = ? AND hand = ?", (session, number)).fetchone()
    if row is not None:
        return int(row[0])
    span = con.execute("SELECT MIN(hand), MAX(hand) FROM hands WHERE session = ?", (session,)).fetchone()
    if span[0] is not None:
        known = _("session {session} has hands {first}..{last}", session=session, first=span[0], last=span[1])
    else:
        last = con.execute("SELECT MAX(id) FROM sessions").fetchone()[0]
        known = (_("session {session} has no hands", session=session) if last and session <= last
                 else _("no session {session}: sessions 1..{last}", session=session, last=last) if last
                 else _("no sessions yet"))
    raise UserError(_("no hand {session}:{number} in {path} ({known}; dealer-assist review lists them)",
                      session=session, number=number, path=where, known=known))


def find_hand(path: str | os.PathLike, ref: Any) -> int:
    """The row id of the hand ``ref`` names (``"2:3"``, or a row id); UserError if there is none."""
    return _read(path, lambda con: _find(con, path, ref))


def load_hand(path: str | os.PathLike, hand_id: Any) -> dict:
    """One hand for a dispute: its summary plus ``events`` (in order, as emitted), ``corrections``,
    ``confirmations`` (each card the dealer confirmed as read: ``{"t", "frame", "zone", "card",
    "event_index"}``, from the ``confirm`` events), ``ruling`` (the final one, or the latest for an
    open hand; ``provisional`` when its cards were not all sure nor confirmed and could change its
    chips, ``unsure`` naming them, or the doubtful cards that could not), ``snapshots`` and
    ``session``.
    ``hand_id`` is ``"SESSION:HAND"`` (``"2:3"``) or the hand's row id."""
    parse_hand_ref(hand_id)        # a bad reference is refused before the file is opened

    def work(con):
        hand_id_ = _find(con, path, hand_id)
        row = con.execute(_hand_sql(con) + " WHERE h.id = ?", (hand_id_,)).fetchone()
        out = _summary(row)
        ev_rows = con.execute("SELECT id, seq, json FROM events WHERE hand = ? ORDER BY seq", (hand_id_,)).fetchall()
        out["events"] = [stored_line(r["json"]) for r in ev_rows]
        index = {r["id"]: (i, r["seq"], out["events"][i]) for i, r in enumerate(ev_rows)}
        seqs = [r["seq"] for r in ev_rows]
        # "before_event": index in "events" of the first event recorded after the correction
        # (len(events) if none), so a reader can put it in the hand's timeline.
        out["corrections"] = _corrections(
            con.execute("SELECT * FROM corrections WHERE hand = ? ORDER BY id", (hand_id_,)), seqs)
        out["confirmations"] = _confirmations(out["events"])
        snaps = []
        for r in con.execute(
                "SELECT sn.id, sn.event, sn.frame, sn.t FROM snapshots sn JOIN events e ON e.id = sn.event "
                "WHERE e.hand = ? ORDER BY e.seq, sn.id", (hand_id_,)):
            i, seq, ev = index[r["event"]]
            snaps.append({"id": r["id"], "frame": r["frame"], "t": r["t"], "event_seq": seq,
                          "event_index": i, "event_type": ev.get("type")})
        out["snapshots"] = snaps
        out["ruling"] = stored_ruling(row["ruling"])[0]
        out["session"] = {"id": row["session"], "started": _iso(row["session_started"]),
                          "ended": _iso(row["session_ended"]),
                          "source": row["source"], "game": row["game"], "calibration": row["calibration"],
                          "models": _stored_models(row["models"]), "app_version": row["app_version"]}
        return out
    return _read(path, work)


def snapshot_changed(jpeg: bytes, kept: object) -> bool:
    """Whether a snapshot's bytes are no longer those recorded: a SHA-256 (hex) was kept beside
    them (``kept``; None in files before schema 3 and where ``same_as`` holds the image) and they
    no longer have it. The hand log, the forwarder and the central log judge a snapshot so.

    >>> snapshot_changed(b"jpeg", hashlib.sha256(b"jpeg").hexdigest()), snapshot_changed(b"jpeg", "00")
    (False, True)
    >>> snapshot_changed(b"jpeg", None)
    False
    """
    return isinstance(kept, str) and hashlib.sha256(jpeg).hexdigest() != kept


def load_snapshot(path: str | os.PathLike, snapshot_id: int) -> bytes:
    """The JPEG bytes of one snapshot, as they were recorded: :class:`UserError` where the disk has
    changed them since (their SHA-256 is no longer the one written beside them; files of schema 3
    on), so a garbled image is never shown or exported as a hand's evidence."""
    def work(con):
        cols = "jpeg, same_as" + (", sha256" if "sha256" in _columns(con, "snapshots") else "")
        row = con.execute(f"SELECT {cols} FROM snapshots WHERE id = ?", (snapshot_id,)).fetchone()
        if row is not None and row["jpeg"] is None and row["same_as"] is not None:
            row = con.execute(f"SELECT {cols} FROM snapshots WHERE id = ?", (row["same_as"],)).fetchone()
        if row is None or row["jpeg"] is None:
            raise UserError(_("no snapshot with id {id} in {path}", id=snapshot_id, path=os.fspath(path)))
        jpeg = bytes(row["jpeg"])
        kept = row["sha256"] if "sha256" in row.keys() else None
        if snapshot_changed(jpeg, kept):
            raise UserError(_("snapshot {id} of {path} is damaged: its bytes are no longer those recorded (the "
                              "disk changed them), so it is not shown", id=snapshot_id, path=os.fspath(path)))
        return jpeg
    return _read(path, work)



# -- salvage ---------------------------------------------------------------------------------------
#: Copy order: parents before the rows that name them.
_SALVAGE_TABLES = ("sessions", "hands", "events", "corrections", "snapshots")
_BACKFILL = 100_000     # rows looked up one by one in a gap the damage left between readable rows
_GIVE_UP_MISSES = 2_000  # ... and past the last readable row, until this many in a row are missing


def _readable_rows(con: sqlite3.Connection, table: str, cols: list[str]) -> tuple[list[tuple], int]:
    """Every row of ``table`` SQLite itself can still read, in rowid order, and how many times the
    damage stopped the scan. SQLite does the reading: a scan in rowid order runs until it meets a
    damaged page; the next readable row past it is found by looking further and further on
    (``rowid >= n``), and the rows in between are looked up one by one. No page is parsed here."""
    # "*" renamed by place (a CTE's column list), not the column names: a name the damage garbled
    # (no UTF-8) can neither be spelt in SQL nor read back as a result column's name, which
    # fails the whole read; its values can still be read. "*" gives the columns in the order of
    # PRAGMA table_info (``cols``).
    cells = ", ".join(f"c{i}" for i in range(len(cols)))
    scan = (f'WITH t(r, {cells}) AS (SELECT rowid, * FROM "{table}" WHERE rowid >= ? ORDER BY rowid) '
            'SELECT * FROM t ORDER BY r')
    first = f'SELECT rowid FROM "{table}" WHERE rowid >= ? ORDER BY rowid LIMIT 1'
    one = f'WITH t(r, {cells}) AS (SELECT rowid, * FROM "{table}" WHERE rowid = ?) SELECT * FROM t'
    rows: dict[int, tuple] = {}
    start, breaks = 1, 0
    while True:
        last = None
        try:
            for r in con.execute(scan, (start,)):
                rows[r[0]] = tuple(r)
                last = r[0]
            break                                  # read to the end
        except sqlite3.DatabaseError:
            breaks += 1
        base = start if last is None else last + 1
        nxt, jump = None, 1
        while base + jump < 2 ** 62:
            try:
                hit = con.execute(first, (base + jump,)).fetchone()
            except sqlite3.DatabaseError:
                jump *= 2
                continue
            nxt = None if hit is None else int(hit[0])
            break
        # the rows between: one by one (past the last readable row, until a long run of misses)
        upto = nxt if nxt is not None else base + _BACKFILL
        misses = 0
        for rowid in range(base, min(upto, base + _BACKFILL)):
            try:
                r = con.execute(one, (rowid,)).fetchone()
            except sqlite3.DatabaseError:
                r = None
            if r is not None:
                rows[r[0]] = tuple(r)
                misses = 0
            else:
                misses += 1
                if nxt is None and misses >= _GIVE_UP_MISSES:
                    break
        if nxt is None:
            break
        start = nxt
    return [rows[k][1:] for k in sorted(rows)], breaks


def _salvage_text(data: bytes) -> str:
    """Text as salvage reads it from a damaged log: bytes that are no UTF-8 become U+FFFD. The
    default (a strict decode) fails the whole read ("Could not decode to UTF-8") on one damaged
    byte of a value or of the schema text, and salvage is there to keep what it can."""
    return data.decode("utf-8", errors="replace")


@functools.cache
def _our_columns() -> dict[str, tuple[str, ...]]:
    """The columns of each table of the schema this code writes, in order (made in memory)."""
    con = sqlite3.connect(":memory:")
    try:
        for version in sorted(_MIGRATIONS):
            for stmt in _split_sql(_MIGRATIONS[version]):
                con.execute(stmt)
        return {t: tuple(r[1] for r in con.execute(f'PRAGMA table_info("{t}")')) for t in _TABLES}
    finally:
        con.close()


def _column_names(con: sqlite3.Connection, table: str) -> list[str]:
    """The columns of ``table`` in the damaged log, in order. A name the damage garbled (a byte of
    the schema text that is no UTF-8, read as U+FFFD) is given the name our schema has at the
    same place where the rest of the name matches: our tables only grow at their end (ALTER TABLE
    ADD COLUMN), so the place tells the column and its values are copied, not dropped.

    >>> con = sqlite3.connect(":memory:")
    >>> _ = con.execute('CREATE TABLE events (id INTEGER PRIMARY KEY, "s\ufffdssion" INTEGER, hand, "x\ufffd")')
    >>> _column_names(con, "events")
    ['id', 'session', 'hand', 'x\ufffd']
    """
    names = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
    ours = _our_columns().get(table, ())
    for i, name in enumerate(names):
        if "\ufffd" in name and i < len(ours):
            pattern = ".+".join(re.escape(part) for part in re.split("\ufffd+", name))
            if re.fullmatch(pattern, ours[i]):
                names[i] = ours[i]
    return names


#: Columns whose value must read back whole: SQLite gives a value that ran onto pages the damage
#: took as zeros, not as an error, so a row is kept only if these still parse.
_JSON_COLS = {"sessions": ("models",), "hands": ("seats", "ruling", "board"), "events": ("json",),
              "corrections": ("json",)}


def _whole(table: str, cols: list[str], row: tuple) -> bool:
    """Whether a salvaged row reads back whole (its JSON parses, its JPEG has both ends)."""
    for name in _JSON_COLS.get(table, ()):
        if name in cols:
            value = row[cols.index(name)]
            if value is None:
                continue
            try:
                json.loads(value)
            except (TypeError, ValueError):
                return False
    if table == "snapshots" and "jpeg" in cols:
        blob = row[cols.index("jpeg")]
        if blob is not None and not (bytes(blob[:2]) == b"\xff\xd8" and bytes(blob[-2:]) == b"\xff\xd9"):
            return False
    return True


def _rebuild_hand(con: sqlite3.Connection, hand_row: int) -> bool:
    """A hands row whose events survived but whose own row did not: rebuilt from its events."""
    evs = con.execute("SELECT session, json, wall FROM events WHERE hand = ? ORDER BY seq", (hand_row,)).fetchall()
    parsed = []
    for session, text, wall in evs:
        try:
            ev = json.loads(text)
        except ValueError:
            continue
        if isinstance(ev, dict):
            parsed.append((session, ev, wall))
    numbers = [_int(ev.get("hand")) for _, ev, _ in parsed if _int(ev.get("hand")) is not None]
    if not parsed or not numbers:
        return False
    session, first, wall0 = parsed[0]
    start = next(((ev, w) for _, ev, w in parsed if ev.get("type") == "hand_start"), (first, wall0))
    end = next(((ev, w) for _, ev, w in reversed(parsed) if ev.get("type") == "hand_end"), None)
    board, ruling, button = [], None, _int(start[0].get("button"))
    for _at, ev, _n in parsed:
        if ev.get("type") == "board" and isinstance(ev.get("cards"), list):
            board = ev["cards"]
        if ev.get("type") == "button" and _int(ev.get("seat")) is not None:
            button = _int(ev.get("seat"))          # the dealer moved it during the hand
        if ev.get("type") in ("showdown", "hand_end") and ev.get("ruling") is not None:
            ruling = ev["ruling"]
    if end is not None and isinstance(end[0].get("board"), list):
        board = end[0]["board"]
    cur = con.execute(
        "INSERT OR IGNORE INTO hands (id, session, hand, started_t, ended_t, started_frame, ended_frame, "
        "started_wall, ended_wall, status, seats, button, ruling, board, won_without_showdown) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (hand_row, session, numbers[0], _num(start[0].get("t")), None if end is None else _num(end[0].get("t")),
         _int(start[0].get("frame")), None if end is None else _int(end[0].get("frame")), start[1],
         None if end is None else end[1], "open" if end is None else "ended",
         _json(list(start[0].get("seats") or []), "seats"), button,
         None if ruling is None else _json(ruling, "ruling"), _json(board, "board"),
         None if end is None else _int(end[0].get("won_without_showdown"))))
    return cur.rowcount == 1


def salvage(damaged: str | os.PathLike, new: str | os.PathLike) -> dict:
    """Copy everything SQLite can still read out of the damaged hand log ``damaged`` into a new
    hand log ``new`` (which must not exist yet); ``damaged`` is only read.

    Each table is read row by row in rowid order (:func:`_readable_rows`); a hand whose own row
    was lost but whose events were not is rebuilt from its events, and a session lost the same
    way gets a stand-in row ("lost in the damage"). Returns what was kept: ``{"tables": {name:
    rows}, "damaged_at": {name: breaks}, "hands": [refs], "rebuilt_hands": n, ...}``.
    """
    src, dst = os.fspath(damaged), os.fspath(new)
    if not os.path.isfile(src):
        raise UserError(_("--salvage: no file at {path}", path=src))
    if os.path.getsize(src) == 0:
        raise UserError(_("--salvage: {path} is empty: nothing to salvage", path=src))
    if os.path.lexists(dst):
        raise UserError(_("--salvage: {path} already exists; give a new file name for the salvaged log", path=dst))
    if os.path.abspath(src) == os.path.abspath(dst):
        raise UserError(_("--salvage: the new log must be another file than the damaged one"))
    _check_folder(dst, for_writing=True)
    try:
        old = sqlite3.connect(f"file:{_uri_path(src)}?mode=ro", uri=True, timeout=10.0, isolation_level=None)
    except sqlite3.Error as exc:
        raise UserError(_("--salvage: cannot open {path}: {why}", path=src, why=_describe(exc))) from None
    old.text_factory = _salvage_text
    try:
        try:
            # a cut file is shorter than its header says: SQLite refuses it unless told to go on
            # with the pages there are (this connection writes nothing)
            old.execute("PRAGMA writable_schema = ON")
            tables = {r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise UserError(_("--salvage: nothing in {path} can be read: its table list (the first page) "
                              "is damaged or it is not SQLite ({why})", path=src, why=_describe(exc))) from None
        if not {"sessions", "hands", "events"} <= tables:
            if tables:
                raise UserError(_("--salvage: {path} is not a dealer-assist hand log (its tables: {tables})",
                                  path=src, tables=", ".join(sorted(tables)[:5])))
            raise UserError(_("--salvage: {path} is not a dealer-assist hand log (its tables: none)", path=src))
        read: dict[str, tuple[list[str], list[tuple]]] = {}
        breaks: dict[str, int] = {}
        for table in _SALVAGE_TABLES:
            if table not in tables:
                continue
            try:
                cols = _column_names(old, table)
            except sqlite3.DatabaseError:
                breaks[table] = 1         # its schema cannot be read: none of its rows can
                continue
            rows, n = _readable_rows(old, table, cols)
            good = [r for r in rows if _whole(table, cols, r)]
            read[table] = (cols, good)
            breaks[table] = n + (len(rows) - len(good))
    finally:
        old.close()

    made = False
    try:
        con = sqlite3.connect(dst, timeout=10.0, isolation_level=None)
        made = True
        try:
            con.execute("PRAGMA journal_mode = WAL")
            _migrate(con, dst, 0)
            have = {t: _columns(con, t) for t in _SALVAGE_TABLES}
            con.execute("BEGIN IMMEDIATE")
            kept: dict[str, int] = {}
            for table, (cols, rows) in read.items():
                keep = [i for i, c in enumerate(cols) if c in have[table]]
                names = ", ".join(f'"{cols[i]}"' for i in keep)
                marks = ", ".join("?" for _ in keep)
                n = 0
                for r in rows:
                    try:
                        con.execute(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', [r[i] for i in keep])
                        n += 1
                    except sqlite3.Error:
                        pass                  # a row that breaks the schema (a damaged value)
                kept[table] = n
            rebuilt = 0
            for (hand_row,) in con.execute("SELECT DISTINCT hand FROM events WHERE hand IS NOT NULL AND hand "
                                           "NOT IN (SELECT id FROM hands)").fetchall():
                rebuilt += _rebuild_hand(con, hand_row)
            stand_ins = 0
            for (sid,) in con.execute("SELECT session FROM hands UNION SELECT session FROM events "
                                      "EXCEPT SELECT id FROM sessions").fetchall():
                wall = con.execute("SELECT MIN(wall) FROM events WHERE session = ?", (sid,)).fetchone()[0]
                if wall is None:
                    wall = con.execute("SELECT MIN(started_wall) FROM hands WHERE session = ?", (sid,)).fetchone()[0]
                con.execute("INSERT INTO sessions (id, started, ended, source, game, app_version) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            (sid, wall if wall is not None else 0.0, None, "(lost in the damage)", "unknown",
                             "unknown"))
                stand_ins += 1
            con.execute("COMMIT")
            check = con.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":  # pragma: no cover - a fresh file
                raise UserError(_("--salvage: the new log {path} failed SQLite's integrity check: {why}",
                                  path=dst, why=check))
            hands = [_ref(s, h) for s, h in con.execute("SELECT session, hand FROM hands ORDER BY id")]
        finally:
            if con.in_transaction:
                con.execute("ROLLBACK")
            con.close()
    except sqlite3.Error as exc:
        if made:
            for suffix in ("", "-wal", "-shm"):
                try:
                    os.remove(dst + suffix)
                except OSError:
                    pass
        raise UserError(_("--salvage: cannot write {path}: {why}", path=dst, why=_describe(exc))) from None
    return {"from": src, "to": dst, "tables": kept, "damaged_at": breaks, "hands": hands,
            "rebuilt_hands": rebuilt, "stand_in_sessions": stand_ins}
