"""Reading the central log back: the hands of every table in the shapes ``review`` reads a table's
own log in (:func:`dealer_assist.live.handlog.list_hands` / ``load_hand``), plus the floor's
overview of every table.

A hand is named as the table's own review names it, ``SESSION:HAND`` (its ``id`` is the table's
own row id too), with the table's name beside it (``table``). What the central log holds is
what the tables sent: before a hand's showdown no seat's cards (``"withheld": true`` marks an
event sent without them).
"""
from __future__ import annotations

import json
from datetime import timezone
from typing import Any, Optional

from dealer_assist.central.schema import connect, describe_error, shown_url
from dealer_assist.errors import UserError
from dealer_assist.i18n import _
from dealer_assist.live.handlog import _confirmations, _corrections, _iso, paid_unconfirmed, parse_hand_ref, \
    ruling_winners, snapshot_changed, stored_ruling

__all__ = ["CentralLog", "list_hands", "load_hand", "load_snapshot", "tables"]

_HANDS = """
SELECT h.*, s.number AS session_number, s.table_name, s.source, s.game, s.calibration, s.models,
       s.app_version, s.started AS session_started, s.ended AS session_ended,
       (SELECT MAX(number) FROM sessions s2 WHERE s2.table_name = s.table_name) AS last_session,
       (SELECT COUNT(*) FROM events e WHERE e.hand_id = h.id) AS n_events,
       (SELECT COUNT(*) FROM corrections c WHERE c.hand_id = h.id) AS n_corrections
FROM hands h JOIN sessions s ON s.id = h.session_id
"""


def _loads(text: Optional[str], default: Any = None) -> Any:
    return default if text is None else json.loads(text)


def _status(r: dict) -> str:
    if r["status"] == "ended":
        return "ended"
    if r["session_ended"] is not None:
        return "interrupted"
    return "interrupted" if r["last_session"] is not None and r["session_number"] < r["last_session"] else "open"


def _summary(r: dict) -> dict:
    ruling, damaged = stored_ruling(r["ruling"])
    return {
        "ref": f"{r['session_number']}:{r['hand']}", "table": r["table_name"],
        "id": r["local_id"], "session": r["session_number"], "hand": r["hand"],
        "started": _iso(r["started_wall"]), "ended": _iso(r["ended_wall"]), "status": _status(r),
        "t_start": r["started_t"], "t_end": r["ended_t"],
        "frame_start": r["started_frame"], "frame_end": r["ended_frame"],
        "seats": _loads(r["seats"], []), "button": r["button"], "board": _loads(r["board"], []),
        "winners": ruling_winners(ruling), "payouts": dict((ruling or {}).get("payouts") or {}),
        "won_without_showdown": r["won_without_showdown"],
        "events": r["n_events"], "corrections": r["n_corrections"],
        "source": r["source"], "game": r["game"], "ruling_unreadable": damaged,
        "unconfirmed": paid_unconfirmed(ruling, _status(r)),
    }


class CentralLog:
    """A reading connection to the central log (``with CentralLog(url) as log: ...``)."""

    def __init__(self, url: str):
        import psycopg
        from psycopg.rows import dict_row

        self.url = url
        try:
            self.con = connect(url, autocommit=True)
        except psycopg.Error as exc:
            raise UserError(_("cannot read the central log {url}: {why}", url=shown_url(url),
                              why=describe_error(exc))) from None
        self.con.row_factory = dict_row
        self._digests: Optional[bool] = None   # whether snapshots keep their SHA-256 (revision 0007 on)
        try:
            ok = self.con.execute("SELECT to_regclass('central_schema_version') AS v").fetchone()["v"]
        except psycopg.Error as exc:
            self.con.close()
            raise UserError(_("cannot read the central log {url}: {why}", url=shown_url(url),
                              why=describe_error(exc))) from None
        if ok is None:
            self.con.close()
            raise UserError(_("{url} holds no central log yet (a table run with --central sets it up)",
                              url=shown_url(url)))

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> "CentralLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _q(self, sql: str, params: tuple = ()) -> list[dict]:
        import psycopg

        try:
            return self.con.execute(sql, params).fetchall()
        except psycopg.Error as exc:
            raise UserError(_("cannot read the central log {url}: {why}", url=shown_url(self.url),
                              why=describe_error(exc))) from None

    # -- tables and hands ---------------------------------------------------------------------
    def tables(self) -> list[str]:
        return [r["table_name"] for r in self._q("SELECT DISTINCT table_name FROM sessions ORDER BY table_name")]

    def list_hands(self, table: Optional[str] = None) -> list[dict]:
        """Every hand (of ``table``, or of every table), by table then in the order played."""
        where = " WHERE s.table_name = %s" if table is not None else ""
        rows = self._q(_HANDS + where + " ORDER BY s.table_name, s.number, h.hand", (table,) if table else ())
        return self._parsed(lambda: [_summary(r) for r in rows])

    def _parsed(self, work):
        """``work()``, with a row that is not JSON (written by something else than a table) said in one line."""
        try:
            return work()
        except (ValueError, TypeError, KeyError) as exc:
            raise UserError(_("the central log {url} holds a row dealer-assist did not write (not its JSON: {why})",
                              url=shown_url(self.url), why=str(exc)[:80])) from None

    def hand_ids(self, table: str) -> list[int]:
        """The central ids of ``table``'s hands, in the order played."""
        return [r["id"] for r in self._q("SELECT h.id FROM hands h JOIN sessions s ON s.id = h.session_id "
                                         "WHERE s.table_name = %s ORDER BY s.number, h.hand", (table,))]

    def _find(self, table: Optional[str], ref: Any) -> dict:
        session, number = parse_hand_ref(ref)
        if session is None:
            raise UserError(_("in the central log a hand is SESSION:HAND as review --central lists it (such as 2:3)"))
        params: tuple = (session, number)
        where = " WHERE s.number = %s AND h.hand = %s"
        if table is not None:
            where += " AND s.table_name = %s"
            params += (table,)
        rows = self._q(_HANDS + where + " ORDER BY s.table_name", params)
        if not rows:
            if table:
                raise UserError(_("no hand {session}:{number} of table {table} in the central log "
                                  "(dealer-assist review --central URL lists them)", session=session,
                                  number=number, table=table))
            raise UserError(_("no hand {session}:{number} in the central log "
                              "(dealer-assist review --central URL lists them)", session=session, number=number))
        if len(rows) > 1:
            names = ", ".join(r["table_name"] for r in rows)
            raise UserError(_("tables {names} each have a hand {session}:{number}: give --table NAME",
                              names=names, session=session, number=number))
        return rows[0]

    def load_hand(self, ref: Any, table: Optional[str] = None) -> dict:
        """One hand for a dispute, as :func:`dealer_assist.live.handlog.load_hand` gives a local one."""
        row = self._find(table, ref)
        return self._hand(row)

    def hand_by_id(self, hand_id: int) -> dict:
        rows = self._q(_HANDS + " WHERE h.id = %s", (hand_id,))
        if not rows:
            raise UserError(_("no hand with central id {id}", id=hand_id))
        return self._hand(rows[0])

    def _hand(self, row: dict) -> dict:
        return self._parsed(lambda: self._hand_of(row))

    def _hand_of(self, row: dict) -> dict:
        out = _summary(row)
        out["central_id"] = row["id"]
        evs = self._q("SELECT seq, json, withheld FROM events WHERE hand_id = %s ORDER BY seq", (row["id"],))
        out["events"] = [json.loads(r["json"]) for r in evs]
        seqs = [r["seq"] for r in evs]
        index = {r["seq"]: i for i, r in enumerate(evs)}
        out["corrections"] = _corrections(
            self._q("SELECT * FROM corrections WHERE hand_id = %s ORDER BY local_id", (row["id"],)), seqs)
        out["confirmations"] = _confirmations(out["events"])
        snaps = []
        for r in self._q("SELECT local_id, frame, t, event_seq FROM snapshots WHERE session_id = %s AND event_seq "
                         "= ANY(%s) ORDER BY event_seq, local_id", (row["session_id"], seqs)):
            i = index[r["event_seq"]]
            snaps.append({"id": r["local_id"], "frame": r["frame"], "t": r["t"], "event_seq": r["event_seq"],
                          "event_index": i, "event_type": out["events"][i].get("type")})
        out["snapshots"] = snaps
        out["ruling"] = stored_ruling(row["ruling"])[0]
        out["withheld"] = sum(1 for r in evs if r["withheld"])
        out["session"] = {"id": row["session_number"], "started": _iso(row["session_started"]),
                          "ended": _iso(row["session_ended"]), "source": row["source"], "game": row["game"],
                          "calibration": row["calibration"], "models": _loads(row["models"], {}),
                          "app_version": row["app_version"], "table": row["table_name"]}
        return out

    def checked(self, hand_id: int) -> Optional[dict]:
        """The floor's first check of the cards of a hand paid on a provisional ruling:
        ``{"when": ISO 8601 UTC, "staff": the name given, or None before names were kept,
        "signed": True when it came from that person's own token, not a typed name}``, or None.
        The floor's: a table's role cannot read the checks."""
        rows = self._q("SELECT checked, staff, staff_id FROM checks WHERE hand_id = %s ORDER BY checked, id LIMIT 1",
                       (hand_id,))
        return ({"when": _iso_utc(rows[0]["checked"]), "staff": rows[0]["staff"],
                 "signed": rows[0]["staff_id"] is not None} if rows else None)

    def disputes(self, hand_id: int) -> list[dict]:
        """The disputes the floor recorded on a hand, oldest first: ``{"when", "staff"}`` each, as
        :meth:`checked`. The floor's: a table's role cannot read them."""
        return [{"when": _iso_utc(r["opened"]), "staff": r["staff"], "signed": r["staff_id"] is not None}
                for r in self._q("SELECT opened, staff, staff_id FROM disputes WHERE hand_id = %s ORDER BY opened, id",
                                 (hand_id,))]

    def load_snapshot(self, hand: dict, snapshot_id: int) -> bytes:
        """The JPEG of one snapshot of ``hand`` (as :meth:`load_hand` returned it), as the table
        recorded it: :class:`UserError` where its bytes no longer match the SHA-256 the table's
        hand log wrote beside them (changed on the table's disk before they were sent, or here
        since), so a garbled image is never shown as a hand's evidence. Snapshots sent without a
        digest (from a hand log older than schema 3) are not checked."""
        if self._digests is None:      # a log not yet at revision 0007 keeps no digests
            self._digests = bool(self._q("SELECT 1 FROM pg_attribute WHERE attrelid = 'snapshots'::regclass "
                                         "AND attname = 'sha256' AND NOT attisdropped"))
        hands = self._q("SELECT session_id FROM hands WHERE id = %s", (hand["central_id"],))
        sql = (f"SELECT jpeg, same_as, {'sha256' if self._digests else 'NULL AS sha256'} FROM snapshots "
               "WHERE session_id = %s AND local_id = %s")
        row = self._q(sql, (hands[0]["session_id"], snapshot_id)) if hands else []
        if row and row[0]["jpeg"] is None and row[0]["same_as"] is not None:
            row = self._q(sql, (hands[0]["session_id"], row[0]["same_as"]))
        if not row or row[0]["jpeg"] is None:
            raise UserError(_("no snapshot {id} of hand {ref} in the central log", id=snapshot_id, ref=hand["ref"]))
        jpeg = bytes(row[0]["jpeg"])
        if snapshot_changed(jpeg, row[0]["sha256"]):
            raise UserError(_("snapshot {id} of hand {ref} in the central log is damaged: its bytes are no longer "
                              "those the table recorded, so it is not shown", id=snapshot_id, ref=hand["ref"]))
        return jpeg


def _iso_utc(t) -> str:
    """A stored time as ISO 8601 in UTC, to the second."""
    return t.astimezone(timezone.utc).isoformat(timespec="seconds")


def tables(url: str) -> list[str]:
    with CentralLog(url) as log:
        return log.tables()


def list_hands(url: str, table: Optional[str] = None) -> list[dict]:
    with CentralLog(url) as log:
        return log.list_hands(table)


def load_hand(url: str, ref: Any, table: Optional[str] = None) -> dict:
    with CentralLog(url) as log:
        return log.load_hand(ref, table)


def load_snapshot(url: str, hand: dict, snapshot_id: int) -> bytes:
    with CentralLog(url) as log:
        return log.load_snapshot(hand, snapshot_id)
