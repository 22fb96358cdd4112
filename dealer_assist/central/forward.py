"""Forwarding a table's hand log to the central log: in order, once, and after any outage.

The table's SQLite hand log is the outbox: every event already has its session and its ``seq``
(1, 2, ... in the session), every correction and snapshot its row id. The forwarder asks the
central log how far each of this log's sessions has arrived (the highest ``seq``) and sends the
rest in ``seq`` order, a batch per transaction; each row goes in under a unique key of those ids
(``ON CONFLICT DO NOTHING``), so a batch sent twice (the answer to a commit lost in an outage)
changes nothing. With the network down the table plays on and its log fills; when it is back
(or at the next start with ``--central``, for a run that ended offline) the forwarder catches up
from where the central log stopped, nothing lost, nothing doubled.

Cards are filtered here, at the table (:mod:`dealer_assist.central.privacy`): before a hand's
showdown no seat's cards are sent, at the showdown those of the seats that showed, at the hand's
end the rest, together with its snapshots (a snapshot is a photograph of the table). Each
snapshot goes with the SHA-256 its hand log wrote beside it (hand-log schema 3; none from an
older log), so the central log refuses bytes changed since; one whose bytes already differ from
it on the table's disk is sent as it is (the central log then refuses it) and said once.

Runs in its own thread with its own connections (a read-only SQLite one, a psycopg one); the
table's thread only calls :meth:`Forwarder.poke`. Needs psycopg (the ``central`` extra).
"""
from __future__ import annotations

import json
import os
import socket
import sqlite3
import sys
import threading
import time
from typing import Any, Callable, Optional

from dealer_assist.central import privacy
from dealer_assist.central.schema import connect, describe_error, shown_url, upgrade
from dealer_assist.errors import UserError
from dealer_assist.i18n import Text, _, message_of

__all__ = ["Forwarder", "sync_log"]

BATCH = 200          # events per transaction
NOTIFY_CHANNEL = "dealer_assist"


def _host() -> str:
    try:
        return socket.gethostname()
    except OSError:  # pragma: no cover
        return ""


def _open_local(path: str) -> sqlite3.Connection:
    from dealer_assist.live.handlog import _uri_path

    con = sqlite3.connect(f"file:{_uri_path(path)}?mode=ro", uri=True, timeout=10.0, isolation_level=None)
    con.row_factory = sqlite3.Row
    return con


class _HandState:
    """What the forwarder knows of one local hand: its number, its central row, its seats' cards
    and where (by seq) its showdown and its end are in the local log."""

    def __init__(self, local: sqlite3.Connection, hand_row: int):
        self.local_id = hand_row
        row = local.execute("SELECT hand, started_wall FROM hands WHERE id = ?", (hand_row,)).fetchone()
        self.number = int(row["hand"])
        self.started_wall = float(row["started_wall"])
        self.cards = privacy.SeatCards()
        self.showdown_seq: Optional[int] = None
        self.end_seq: Optional[int] = None
        self.shown: set[int] = set()
        self.refresh(local)

    def refresh(self, local: sqlite3.Connection) -> None:
        cards = privacy.SeatCards()
        for r in local.execute("SELECT seq, type, json FROM events WHERE hand = ? ORDER BY seq", (self.local_id,)):
            ev = json.loads(r["json"])
            cards.add_event(ev)
            if r["type"] == "showdown" and self.showdown_seq is None:
                self.showdown_seq = int(r["seq"])
                self.shown = privacy.shown_seats(ev)
            if r["type"] == "hand_end" and self.end_seq is None:
                self.end_seq = int(r["seq"])
        for r in local.execute("SELECT json FROM corrections WHERE hand = ?", (self.local_id,)):
            cards.add_correction(json.loads(r["json"]))
        self.cards = cards

    def hidden_at(self, seq: float) -> privacy.Hidden:
        """What stays hidden for a row recorded after event ``seq`` was sent (its stage)."""
        if self.end_seq is not None and seq >= self.end_seq:
            return self.cards.hidden(None)
        if self.showdown_seq is not None and seq >= self.showdown_seq:
            return self.cards.hidden(self.shown)
        return self.cards.hidden(set())


class _Session:
    def __init__(self, row: sqlite3.Row, central_id: int):
        self.local_id = int(row["id"])
        self.central_id = central_id
        self.ev_cursor: Optional[int] = None     # highest seq the central log holds
        self.corr_cursor: Optional[int] = None   # highest local correction id it holds
        self.done = False                        # ended and all sent
        self.known = 0                           # ... the highest seq it was last known to hold


class _Sync:
    """One pass of forwarding over a local log (used by the thread and by :func:`sync_log`)."""

    def __init__(self, db_path: str, table: str, tell: Optional[Callable[[Any], None]] = None):
        self.db_path = os.fspath(db_path)
        self.table = table
        self.tell = tell or (lambda msg: None)   # news for the person at the table (a catalogue message)
        self.damaged_told: set[int] = set()      # local snapshot ids already said damaged
        self.origin_base = f"{_host()}|{os.path.abspath(self.db_path)}"
        self.sessions: dict[int, _Session] = {}
        self.hands: dict[int, _HandState] = {}
        self.central_hands: dict[tuple[int, int], int] = {}   # (central session, hand number) -> id

    def forget_cursors(self) -> None:
        """After a lost connection: ask the central log again how far it got."""
        for s in self.sessions.values():
            s.ev_cursor = s.corr_cursor = None
        self.central_hands.clear()

    def pending(self) -> int:
        """Events of this log the central log does not hold yet (as far as last known)."""
        try:
            local = _open_local(self.db_path)
        except sqlite3.Error:
            return 0
        try:
            n = 0
            for r in local.execute("SELECT session, MAX(seq) AS top FROM events GROUP BY session"):
                s = self.sessions.get(int(r["session"]))
                n += int(r["top"]) - (s.known if s is not None else 0)
            return max(0, n)
        finally:
            local.close()

    # -- one pass -------------------------------------------------------------------------------
    def run(self, pg) -> int:
        """Send everything not yet in the central log; returns the number of events sent."""
        local = _open_local(self.db_path)
        try:
            sent = 0
            for row in local.execute("SELECT * FROM sessions ORDER BY id").fetchall():
                sess = self.sessions.get(int(row["id"]))
                if sess is not None and sess.done:
                    continue
                if sess is None:
                    sess = self.sessions[int(row["id"])] = _Session(row, self._register(pg, row))
                sent += self._session(pg, local, sess, row)
            return sent
        finally:
            local.close()

    def _register(self, pg, row: sqlite3.Row) -> int:
        """The central id of a local session (created on first sight; its number is the local
        one unless this table name already used it for another log)."""
        origin = f"{self.origin_base}|{row['id']}|{row['started']!r}"
        with pg.transaction():
            got = pg.execute("SELECT id FROM sessions WHERE origin = %s", (origin,)).fetchone()
            if got is not None:
                return int(got[0])
            pg.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.table,))
            taken = pg.execute("SELECT 1 FROM sessions WHERE table_name = %s AND number = %s",
                               (self.table, row["id"])).fetchone()
            number = int(row["id"])
            if taken is not None:
                number = int(pg.execute("SELECT MAX(number) + 1 FROM sessions WHERE table_name = %s",
                                        (self.table,)).fetchone()[0])
            keys = row.keys()
            got = pg.execute(
                "INSERT INTO sessions (table_name, number, origin, started, ended, source, game, calibration, "
                "models, app_version) VALUES (%s, %s, %s, %s, NULL, %s, %s, %s, %s, %s) RETURNING id",
                (self.table, number, origin, row["started"], row["source"], row["game"], row["calibration"],
                 row["models"] if "models" in keys else "{}", row["app_version"])).fetchone()
            pg.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, self.table))
            return int(got[0])

    def _hand(self, local: sqlite3.Connection, hand_row: Optional[int]) -> Optional[_HandState]:
        if hand_row is None:
            return None
        st = self.hands.get(hand_row)
        if st is None:
            st = self.hands[hand_row] = _HandState(local, hand_row)
        return st

    def _central_hand(self, pg, sess: _Session, st: _HandState, t: Any, frame: Any) -> int:
        key = (sess.central_id, st.number)
        hid = self.central_hands.get(key)
        if hid is None:
            hid = int(pg.execute(
                "INSERT INTO hands (session_id, hand, local_id, started_t, started_frame, started_wall) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (session_id, hand) DO UPDATE SET hand = EXCLUDED.hand "
                "RETURNING id", (sess.central_id, st.number, st.local_id, t, frame, st.started_wall)).fetchone()[0])
            self.central_hands[key] = hid
        return hid

    def _session(self, pg, local: sqlite3.Connection, sess: _Session, row: sqlite3.Row) -> int:
        cs = sess.central_id
        if sess.ev_cursor is None:
            sess.ev_cursor = int(pg.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = %s",
                                            (cs,)).fetchone()[0])
            sess.known = sess.ev_cursor
            sess.corr_cursor = int(pg.execute("SELECT COALESCE(MAX(local_id), 0) FROM corrections "
                                              "WHERE session_id = %s", (cs,)).fetchone()[0])
        sent = 0
        while True:
            local.execute("BEGIN")    # one consistent view of the local log for this batch
            try:
                evs = local.execute("SELECT * FROM events WHERE session = ? AND seq > ? ORDER BY seq LIMIT ?",
                                    (sess.local_id, sess.ev_cursor, BATCH)).fetchall()
                top = evs[-1]["seq"] if evs else sess.ev_cursor
                corrs = local.execute("SELECT * FROM corrections WHERE session = ? AND id > ? AND after_seq <= ? "
                                      "ORDER BY id", (sess.local_id, sess.corr_cursor, top)).fetchall()
                ended = local.execute("SELECT ended FROM sessions WHERE id = ?", (sess.local_id,)).fetchone()[0]
                more = local.execute("SELECT COUNT(*) FROM events WHERE session = ? AND seq > ?",
                                     (sess.local_id, top)).fetchone()[0]
                for st in {self._hand(local, r["hand"]) for r in list(evs) + list(corrs)} - {None}:
                    st.refresh(local)
                if evs or corrs:
                    with pg.transaction():
                        self._send(pg, local, sess, evs, corrs)
                    sess.ev_cursor = sess.known = int(top)
                    if corrs:
                        sess.corr_cursor = int(corrs[-1]["id"])
                    sent += len(evs)
            finally:
                if local.in_transaction:
                    local.execute("COMMIT")
            if more == 0:
                break
        if ended is not None and more == 0:
            with pg.transaction():
                pg.execute("UPDATE sessions SET ended = %s WHERE id = %s AND ended IS NULL", (ended, cs))
                pg.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, self.table))
            sess.done = True
        return sent

    def _send(self, pg, local, sess: _Session, evs, corrs) -> None:
        """One transaction: the events in seq order, each correction after the event it followed."""
        corrs = list(corrs)
        for r in evs:
            while corrs and corrs[0]["after_seq"] < r["seq"]:
                self._send_correction(pg, local, sess, corrs.pop(0))
            self._send_event(pg, local, sess, r)
        for c in corrs:
            self._send_correction(pg, local, sess, c)
        pg.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, self.table))

    def _send_event(self, pg, local, sess: _Session, r: sqlite3.Row) -> None:
        cs = sess.central_id
        ev = json.loads(r["json"])
        st = self._hand(local, r["hand"])
        seq = int(r["seq"])
        hid = None
        if st is not None:
            hid = self._central_hand(pg, sess, st, r["t"], r["frame"])
            public, withheld = privacy.public_event(ev, st.hidden_at(seq))
        else:
            public, withheld = ev, False
        got = pg.execute(
            "INSERT INTO events (session_id, seq, hand_id, t, frame, type, wall, json, withheld) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (session_id, seq) DO NOTHING RETURNING arrival",
            (cs, seq, hid, r["t"], r["frame"], r["type"], r["wall"], _dump(public), withheld)).fetchone()
        if got is None:
            return                       # sent before: its effects are in already
        if st is None:
            self._send_snapshots(pg, local, sess, "e.session = ? AND e.seq = ?", (sess.local_id, seq))
            return
        self._update_hand(pg, hid, public, r)
        if r["type"] == "showdown" or r["type"] == "hand_end":
            self._reveal(pg, local, sess, st, hid, seq)
        if st.end_seq is not None and seq >= st.end_seq:
            self._send_snapshots(pg, local, sess, "e.hand = ? AND e.seq <= ?", (st.local_id, seq))

    def _update_hand(self, pg, hid: int, ev: dict, r: sqlite3.Row) -> None:
        """The central hand row follows the public events, as the local one follows the events."""
        kind, t, frame = r["type"], r["t"], r["frame"]
        if kind == "hand_start":
            pg.execute("UPDATE hands SET seats = %s, button = %s, started_t = %s, started_frame = %s WHERE id = %s",
                       (_dump(list(ev.get("seats") or [])), _int(ev.get("button")), t, frame, hid))
        elif kind == "button" and _int(ev.get("seat")) is not None:
            pg.execute("UPDATE hands SET button = %s WHERE id = %s", (_int(ev.get("seat")), hid))
        elif kind == "board" and isinstance(ev.get("cards"), list):
            pg.execute("UPDATE hands SET board = %s, street = %s WHERE id = %s",
                       (_dump(ev["cards"]), str(ev.get("street") or "board"), hid))
        elif kind == "showdown" and ev.get("ruling") is not None:
            pg.execute("UPDATE hands SET ruling = %s, street = 'showdown', revealed = TRUE WHERE id = %s",
                       (_dump(ev["ruling"]), hid))
        elif kind == "hand_end":
            sets = ["status = 'ended'", "street = 'ended'", "revealed = TRUE", "ended_t = %s", "ended_frame = %s",
                    "ended_wall = %s", "won_without_showdown = %s", "unconfirmed = %s"]
            ruling = ev.get("ruling")
            # paid on a provisional ruling: doubtful cards the dealer never confirmed
            unconfirmed = ev.get("provisional") is True or (isinstance(ruling, dict) and ruling.get("provisional") is True)
            params: list = [t, frame, r["wall"], _int(ev.get("won_without_showdown")), unconfirmed]
            if ev.get("ruling") is not None:
                sets.append("ruling = %s")
                params.append(_dump(ev["ruling"]))
            if isinstance(ev.get("board"), list):
                sets.append("board = %s")
                params.append(_dump(ev["board"]))
            pg.execute(f"UPDATE hands SET {', '.join(sets)} WHERE id = %s", (*params, hid))

    def _reveal(self, pg, local, sess: _Session, st: _HandState, hid: int, seq: int) -> None:
        """The hand reached its showdown or its end: what was withheld and may now be seen goes in whole."""
        hidden = st.hidden_at(seq)
        held = {int(x[0]) for x in pg.execute("SELECT seq FROM events WHERE hand_id = %s AND withheld", (hid,))}
        for r in local.execute("SELECT seq, json FROM events WHERE hand = ? AND seq < ? ORDER BY seq",
                               (st.local_id, seq)):
            if int(r["seq"]) in held:
                public, withheld = privacy.public_event(json.loads(r["json"]), hidden)
                if not withheld:
                    pg.execute("UPDATE events SET json = %s, withheld = FALSE WHERE session_id = %s AND seq = %s",
                               (_dump(public), sess.central_id, r["seq"]))
        held = {int(x[0]) for x in pg.execute("SELECT local_id FROM corrections WHERE hand_id = %s AND withheld",
                                              (hid,))}
        for r in local.execute("SELECT * FROM corrections WHERE hand = ?", (st.local_id,)):
            if int(r["id"]) in held:
                action, withheld = privacy.public_correction(json.loads(r["json"]), hidden)
                if not withheld:
                    pg.execute("UPDATE corrections SET json = %s, card = %s, to_card = %s, withheld = FALSE "
                               "WHERE session_id = %s AND local_id = %s",
                               (_dump(action), r["card"], r["to_card"], sess.central_id, r["id"]))

    def _send_correction(self, pg, local, sess: _Session, r: sqlite3.Row) -> None:
        st = self._hand(local, r["hand"])
        action = json.loads(r["json"])
        hid, withheld, card, to = None, False, r["card"], r["to_card"]
        if st is not None:
            hid = self._central_hand(pg, sess, st, r["t"], r["frame"])
            action, withheld = privacy.public_correction(action, st.hidden_at(int(r["after_seq"]) + 0.5))
            if withheld:
                card = None if card is None else privacy.HIDDEN
                to = None if to is None else privacy.HIDDEN
        pg.execute(
            "INSERT INTO corrections (session_id, local_id, hand_id, t, frame, zone, card, to_card, after_seq, wall, "
            "json, withheld) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (session_id, local_id) DO NOTHING",
            (sess.central_id, r["id"], hid, r["t"], r["frame"], r["zone"], card, to, r["after_seq"], r["wall"],
             _dump(action), withheld))

    def _send_snapshots(self, pg, local, sess: _Session, where: str, params: tuple) -> None:
        from dealer_assist.live.handlog import _columns, snapshot_changed

        digest = "sn.sha256" if "sha256" in _columns(local, "snapshots") else "NULL"   # NULL: before schema 3
        for s in local.execute(
                f"SELECT sn.id, sn.frame, sn.t, sn.jpeg, sn.same_as, {digest} AS sha256, e.seq FROM snapshots sn "
                f"JOIN events e ON e.id = sn.event WHERE {where} ORDER BY sn.id", params):
            jpeg = None if s["jpeg"] is None else bytes(s["jpeg"])
            kept = s["sha256"] if isinstance(s["sha256"], str) else None
            pg.execute("INSERT INTO snapshots (session_id, local_id, event_seq, frame, t, jpeg, same_as, sha256) "
                       "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (session_id, local_id) DO NOTHING",
                       (sess.central_id, s["id"], s["seq"], s["frame"], s["t"], jpeg, s["same_as"], kept))
            if jpeg is not None and s["id"] not in self.damaged_told and snapshot_changed(jpeg, kept):
                # sent as it is: its digest tells the central log, which will not show it
                self.damaged_told.add(s["id"])
                self.tell(_("snapshot {id} of {path} is damaged: its bytes are no longer those recorded (the disk "
                            "changed them); it goes to the central log as it is, which will not show it",
                            id=s["id"], path=self.db_path))


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _int(v: Any) -> Optional[int]:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _network_errors():
    import psycopg

    return (psycopg.OperationalError, psycopg.InterfaceError)


def sync_log(db_path: str, url: str, table: str, *, lang: str = "ja",
             say: Optional[Callable[[str], None]] = None) -> int:
    """Send everything of the local log ``db_path`` that the central log lacks, now (one pass,
    no thread); returns the number of events sent. UserError when the central log is out of reach.
    ``say(line)`` gets the news of what was sent (a damaged snapshot), as :class:`Forwarder`'s."""
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    upgrade(url)
    try:
        with connect(url, autocommit=True) as pg:
            return _Sync(db_path, table, lambda msg: say(msg.render(lang))).run(pg)
    except _network_errors() as exc:
        raise UserError(_("the central log {url} is out of reach: {why}", url=shown_url(url),
                          why=describe_error(exc))) from None
    except Exception as exc:                  # psycopg.Error: refused (rights, row-level security)
        if not type(exc).__module__.startswith("psycopg"):
            raise
        raise UserError(_("the central log {url} refused the rows: {why}", url=shown_url(url),
                          why=describe_error(exc))) from None


class Forwarder:
    """The table's forwarding thread. ``poke()`` after recording; ``close()`` at the end.

    ``say(line)`` gets the one-line news of the connection (lost, back, what is left unsent at
    the end) and of what was sent (a snapshot whose bytes its hand log no longer vouches for);
    by default standard error, in ``lang``.
    """

    def __init__(self, db_path: str, url: str, table: str, *, lang: str = "ja",
                 say: Optional[Callable[[str], None]] = None, poll_s: float = 0.1, retry_max_s: float = 2.0):
        self.url = url
        self.table = table
        self.lang = lang
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.poll_s = poll_s
        self.retry_max_s = retry_max_s
        self._sync = _Sync(db_path, table, self._tell)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._pg = None
        self._schema_ok = False
        self.down_since: Optional[float] = None   # when the central log was lost (None: reachable)
        self.sent = 0
        self.outages = 0

    def start(self) -> "Forwarder":
        self._thread = threading.Thread(target=self._loop, name=f"central-{self.table}", daemon=True)
        self._thread.start()
        return self

    def poke(self, *_args) -> None:
        """Something was recorded: send it soon."""
        self._wake.set()

    def _tell(self, msg) -> None:
        try:
            self.say(msg.render(self.lang))
        except Exception:  # pragma: no cover - a closed stream must not stop the table
            pass

    def _drop(self) -> None:
        if self._pg is not None:
            try:
                self._pg.close()
            except Exception:
                pass
        self._pg = None
        self._sync.forget_cursors()

    def step(self) -> bool:
        """One attempt: connect if needed and send what is new. False when the central log is out of reach."""
        try:
            if self._pg is None:
                if not self._schema_ok:
                    upgrade(self.url)
                    self._schema_ok = True
                self._pg = connect(self.url, autocommit=True)
            self.sent += self._sync.run(self._pg)
        except _network_errors() as exc:
            self._lost(describe_error(exc))
            return False
        except UserError as exc:          # cannot set up the schema (out of reach, no rights, newer)
            self._lost(message_of(exc))
            return False
        except Exception as exc:          # psycopg.DatabaseError and the like: keep the table playing
            self._lost(f"{type(exc).__name__}: {describe_error(exc)}")
            return False
        if self.down_since is not None:
            self._tell(_("central log {url} back after {s} s: caught up, {n} events sent in all",
                         url=shown_url(self.url), s=round(time.monotonic() - self.down_since, 1), n=self.sent))
            self.down_since = None
        return True

    def _lost(self, why: Text) -> None:
        self._drop()
        if self.down_since is None:
            self.down_since = time.monotonic()
            self.outages += 1
            self._tell(_("central log {url} out of reach ({why}); the table plays on and its hand log keeps "
                         "everything for when it is back", url=shown_url(self.url),
                         why=why[:200] if isinstance(why, str) else why))

    def _loop(self) -> None:
        delay = self.poll_s
        while not self._stop.is_set():
            ok = self.step()
            delay = self.poll_s if ok else min(self.retry_max_s, max(0.2, delay * 2))
            self._wake.wait(delay)
            self._wake.clear()

    def close(self, timeout_s: float = 10.0) -> None:
        """Stop the thread after a last attempt to send everything (for up to ``timeout_s``)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        deadline = time.monotonic() + timeout_s
        while not self.step() and time.monotonic() < deadline:
            time.sleep(0.3)
        left = self._sync.pending() if self.down_since is not None else 0
        if left:
            self._tell(_("{n} events of table {table} are not in the central log yet; they stay in {db} and go "
                         "at the next start with --central", n=left, table=self.table, db=self._sync.db_path))
        self._drop()
