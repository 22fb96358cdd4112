"""The floor view: every table of the event at a glance in a browser, pushed live from the central log.

A Starlette application (served by uvicorn, ``dealer-assist floor``). The page lists every table
(its game, hand number, street, red and amber alerts first, corrections made, disputes opened);
a click opens a hand as the desk's dispute mode shows it (board, seats, ruling and explanation,
snapshots, events). The page gets the overview once and then every change as a server-sent event:
the tables' forwarders ``NOTIFY`` the central log on each commit and this server ``LISTEN``\\ s, so
a new alert is on the page a few tens of milliseconds after it reached the central log (no reload,
no polling). Japanese by default, English on a switch; every word from the message catalogues.

Every request needs the event's access token (``?token=``, or the ``X-Floor-Token`` header);
without it the answer is 401 and nothing of the log. The server listens on 127.0.0.1 unless told
otherwise. It reads only the central log, which holds no seat's cards before the showdown.

Needs the ``floor`` extra (Starlette, uvicorn) and the ``central`` one (psycopg).
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import threading
import time
from pathlib import Path
from typing import Any, Optional

from dealer_assist.central.schema import connect, describe_error
from dealer_assist.central.staff import staff_name  # noqa: F401  (the floor's API)
from dealer_assist.commands.review import GAME_NAMES as _GAME_NAMES    # the games' names
from dealer_assist.commands.review import dealer_named, hand_dealer
from dealer_assist.desk.texts import SEVERITY    # alert loudness as the desk's banner has it (pure: no Qt)
from dealer_assist.errors import UserError
from dealer_assist.i18n import LANGS, _, message_of, render, street
from dealer_assist.live.handlog import paid_unconfirmed, stored_ruling
from dealer_assist.live.words import alert_title, describe, placed_cards

__all__ = ["create_app", "overview", "hand_view", "ready_schema", "record_check", "record_dispute", "staff_name",
           "FLOOR_TEXTS"]

PAGE = Path(__file__).resolve().parent / "static" / "floor.html"

#: Every text of the page; JavaScript fills the ``{name}`` fields.
FLOOR_TEXTS = {
    "title": _("Floor: every table"),
    "this_language": _("English"),   # each language's own name: the switch shows the other one's
    "connected": _("live"),
    "disconnected": _("connection lost: reconnecting"),
    "table": _("table"),
    "game": _("game"),
    "hand": _("hand"),
    "street": _("street"),
    "alerts": _("alerts"),
    "corrections": _("corrections"),
    "disputes": _("disputes"),
    "unconfirmed": _("paid unconfirmed"),
    "open_unconfirmed": _("the latest hand paid on a provisional ruling"),
    "mark_checked": _("cards checked by the floor: take it off the count"),
    "checked": _("cards checked by the floor ({when})"),
    "checked_by": _("cards checked by {staff} ({when})"),
    "staff": _("your name"),
    "staff_needed": _("type your name first: it is recorded with a check or a dispute"),
    "disputed": _("dispute recorded ({when})"),
    "disputed_by": _("dispute recorded by {staff} ({when})"),
    "checked_signed": _("cards checked by {staff}, signed in ({when})"),
    "disputed_signed": _("dispute recorded by {staff}, signed in ({when})"),
    "signed_in": _("signed in as {staff}: checks and disputes are recorded in this name"),
    "own_address_needed": _("this address only views: record checks and disputes from your own floor address "
                            "(the floor manager gives each person one)"),
    "not_recorded": _("not recorded (the server answered {status}): open the hand again"),
    "no_alerts": _("no alerts"),
    "no_tables": _("no table has sent anything yet"),
    "hand_title": _("table {table}, hand {ref}"),
    "board": _("board"),
    "seats": _("seats"),
    "dealt_by": _("dealt by {name}"),
    "seat": _("seat {seat}"),
    "button": _("button"),
    "payout": _("wins {amount}"),
    "ruling": _("ruling and explanation"),
    "no_ruling": _("no ruling yet"),
    "snapshots": _("snapshots"),
    "events": _("events"),
    "withheld": _("cards withheld until the showdown"),
    "record_dispute": _("record a dispute for this hand"),
    "close": _("close"),
    "export_phh": _("hand history (PHH)"),
    "previous_hand": _("previous hand"),
    "next_hand": _("next hand"),
    "session_ended": _("table stopped"),
    "status_ended": _("hand ended"),
    "status_open": _("in play"),
    "status_interrupted": _("interrupted"),
    "showdown": _("showdown"),
    "ended": _("between hands"),
}



def _game_title(name: Any) -> Any:
    """A game's name for people (as ``review`` names it), or the name as sent."""
    return _GAME_NAMES.get(name, name)


def _both(msg: Any) -> dict:
    return {lang: render(msg, lang) for lang in LANGS}


def page_texts() -> dict:
    """``{lang: {key: text}}`` for the page."""
    return {lang: {k: render(v, lang) for k, v in FLOOR_TEXTS.items()} for lang in LANGS}


def _street_words(name: Optional[str]) -> dict:
    if name in ("showdown", "ended"):
        return _both(FLOOR_TEXTS[name])
    return _both(street(name or "preflop"))


# -- what the page shows ------------------------------------------------------------------------
_OVERVIEW = """
WITH last_s AS (
    SELECT DISTINCT ON (table_name) id, table_name, number, game, ended
    FROM sessions ORDER BY table_name, number DESC)
SELECT ls.id AS session_id, ls.table_name, ls.game, ls.number, ls.ended, lh.id AS hand_id, lh.hand,
       lh.street, lh.status, lh.board,
       (SELECT h4.ruling FROM hands h4 WHERE h4.id = lh.id AND lh.unconfirmed
          AND NOT EXISTS (SELECT 1 FROM checks k WHERE k.hand_id = lh.id)) AS left_ruling,
       (SELECT MIN(seq) FROM events e WHERE e.hand_id = lh.id) AS hand_first,
       (SELECT MAX(seq) FROM events e WHERE e.hand_id = lh.id) AS hand_last,
       (SELECT COUNT(*) FROM corrections c JOIN sessions s ON s.id = c.session_id
         WHERE s.table_name = ls.table_name) AS corrections,
       (SELECT COUNT(*) FROM disputes d JOIN hands h2 ON h2.id = d.hand_id JOIN sessions s ON s.id = h2.session_id
         WHERE s.table_name = ls.table_name) AS disputes,
       (SELECT MAX(seq) FROM events e WHERE e.session_id = ls.id) AS last_seq,
       -- who deals now: the latest dealer change, or the dealer the latest hand started with
       (SELECT e.json FROM events e WHERE e.session_id = ls.id AND e.type IN ('dealer', 'hand_start')
          ORDER BY e.seq DESC LIMIT 1) AS dealer_line,
       (SELECT MAX(wall) FROM events e WHERE e.session_id = ls.id) AS last_wall,
       u.unconfirmed, u.unconfirmed_hand
FROM last_s ls
LEFT JOIN LATERAL (
    -- the session's latest hand (by the index on session and hand: no sort of a long day's hands)
    SELECT h.id, h.hand, h.street, h.status, h.board, h.unconfirmed FROM hands h
    WHERE h.session_id = ls.id ORDER BY h.hand DESC LIMIT 1) lh ON TRUE
LEFT JOIN LATERAL (
    -- the table's hands that ended on a provisional ruling: chips paid on cards nobody confirmed
    -- (and that the floor has not checked since)
    SELECT COUNT(*) AS unconfirmed, MAX(h3.id) AS unconfirmed_hand
    FROM hands h3 JOIN sessions s3 ON s3.id = h3.session_id
    WHERE s3.table_name = ls.table_name AND h3.unconfirmed
      AND NOT EXISTS (SELECT 1 FROM checks k WHERE k.hand_id = h3.id)) u ON TRUE
"""

_RANK = {"stop": 0, "warn": 1}


def _dealer_now(line: Any) -> Optional[str]:
    """The dealer a table's latest ``dealer`` or ``hand_start`` event line (stored JSON) names
    (:func:`~dealer_assist.commands.review.dealer_named`), or None.

    >>> _dealer_now('{"type": "dealer", "name": "佐藤"}'), _dealer_now('{"type": "hand_start"}'), _dealer_now("x")
    ('佐藤', None, None)
    """
    try:
        return dealer_named(json.loads(line) if isinstance(line, str) else None)
    except ValueError:
        return None


def overview(con) -> list[dict]:
    """Every table, the loudest alerts first: one dict per table (JSON-ready, words in both languages)."""
    from psycopg.rows import dict_row, tuple_row

    cur = con.cursor(row_factory=dict_row)
    rows = cur.execute(_OVERVIEW).fetchall()
    # the alerts that matter now: of the hand in play (or, between hands, since the last one ended)
    sids, starts = [], []
    for r in rows:
        sids.append(r["session_id"])
        if r["hand_id"] is None:
            starts.append(0)
        elif r["status"] == "ended":
            starts.append((r["hand_last"] or 0) + 1)
        else:
            starts.append(r["hand_first"] or 0)
    alerts: dict[int, list[dict]] = {}
    showdown: dict[int, dict] = {}      # per session, the latest showdown's ruling of the hand in play
    if sids:
        for sid, kind, text in con.cursor(row_factory=tuple_row).execute(
                "SELECT e.session_id, e.type, e.json FROM events e JOIN unnest(%s::bigint[], %s::int[]) AS w(sid, start) "
                "ON e.session_id = w.sid AND e.seq >= w.start WHERE e.type IN ('alert', 'showdown') "
                "ORDER BY e.session_id, e.seq", (sids, starts)).fetchall():  # tuples: a plain cursor
            event = json.loads(text)
            if not isinstance(event, dict):          # anything else is not an event the page can show
                continue
            if kind == "alert":
                alerts.setdefault(sid, []).append(event)
            elif isinstance(event.get("ruling"), dict):
                showdown[sid] = event["ruling"]
    out = []
    for r in rows:
        active: dict[tuple, dict] = {}
        for a in alerts.get(r["session_id"], ()):
            code = str(a.get("code"))
            key = (code, a.get("zone"))
            if a.get("cleared") or code == "camera_back":
                active.pop(key, None)
                if code == "camera_back":
                    active = {k: v for k, v in active.items() if k[0] != "camera_lost"}
                continue
            if SEVERITY.get(code, "info") in _RANK:
                active[key] = a
        ruled = showdown.get(r["session_id"])
        if ruled is not None and ruled.get("provisional") is True and r["status"] != "ended":
            # the showdown waits for the dealer to confirm its doubtful cards: said as the desk's
            # banner says it, with what each card may be
            active[("provisional_ruling", None)] = {"code": "provisional_ruling",
                                                    "message": _provisional(ruled, "en"),
                                                    "message_ja": _provisional(ruled, "ja")}
        left = stored_ruling(r["left_ruling"])[0] if r["status"] == "ended" else None
        if left is not None:
            # between hands: the hand just over was paid on cards the dealer never confirmed
            active[("ruling_unconfirmed", None)] = {"code": "ruling_unconfirmed",
                                                    "message": _unconfirmed(left, r["hand"], "en"),
                                                    "message_ja": _unconfirmed(left, r["hand"], "ja")}
        shown = sorted(active.values(), key=lambda a: _RANK[SEVERITY.get(str(a.get("code")), "warn")])
        level = SEVERITY.get(str(shown[0].get("code"))) if shown else ""
        out.append({
            "table": r["table_name"], "game": r["game"], "game_name": _both(_game_title(r["game"])),
            "session": r["number"], "hand": r["hand"], "hand_id": r["hand_id"],
            "street": r["street"] if r["status"] != "ended" else "ended",
            "street_name": _street_words(r["street"] if r["status"] != "ended" else "ended"),
            "status": r["status"], "board": json.loads(r["board"]) if r["board"] else [],
            "stopped": r["ended"] is not None,
            "alerts": [{"code": a.get("code"), "severity": SEVERITY.get(str(a.get("code")), "warn"),
                        "title": {lang: alert_title(str(a.get("code")), lang, a.get("sure", True)) for lang in LANGS},
                        "message": {"en": str(a.get("message") or ""), "ja": str(a.get("message_ja") or a.get("message") or "")}}
                       for a in shown],
            "level": level or "", "corrections": r["corrections"], "disputes": r["disputes"],
            "dealer": _dealer_now(r["dealer_line"]),
            "unconfirmed": r["unconfirmed"] or 0, "unconfirmed_hand": r["unconfirmed_hand"],
            "last_seq": r["last_seq"], "last_wall": r["last_wall"],
        })
    out.sort(key=lambda t: (_RANK.get(t["level"], 2), t["table"]))
    return out


def _provisional(ruling: dict, lang: str) -> str:
    """A provisional ruling's doubtful cards in words, each with the reader's other name for it:
    what the dealer is asked to confirm."""
    return render(_("the dealer confirms {cards}", cards=placed_cards(ruling.get("unsure"), offered=True)), lang)


def _unconfirmed(ruling: dict, hand: Any, lang: str) -> str:
    """A hand that ended on a provisional ruling: which of its cards the dealer never confirmed."""
    return render(_("hand {hand} ended with {cards} not confirmed", hand=hand,
                    cards=placed_cards(ruling.get("unsure"), offered=True)), lang)


def _hand_words(h: dict) -> dict:
    """A seat's hand as the commentary names it (its five cards' words, else its category)."""
    en = h.get("description") or str(h.get("category") or "").replace("_", " ")
    return {"en": str(en), "ja": str(h.get("description_ja") or h.get("category_ja") or en)}


def _doubt(ruling: dict, status: Any, ref: Any) -> dict:
    """What the hand page says of a provisional ruling (both languages; empty when it is final):
    in play, what the dealer is asked to confirm; over, what was paid without being confirmed."""
    if paid_unconfirmed(ruling, status):
        return {lang: _unconfirmed(ruling, ref, lang) for lang in LANGS}
    if isinstance(ruling, dict) and ruling.get("provisional") is True:
        return {lang: _provisional(ruling, lang) for lang in LANGS}
    return {lang: "" for lang in LANGS}


def record_dispute(con, hand_id: int, staff: str, staff_id: Optional[int] = None) -> bool:
    """A floor manager (``staff``, :func:`staff_name`; ``staff_id``: their account, when they
    signed in with their own token) opened a dispute on the hand: recorded. False when there is no
    such hand, nothing recorded."""
    return con.execute("INSERT INTO disputes (hand_id, staff, staff_id) SELECT id, %s, %s FROM hands WHERE id = %s "
                       "RETURNING id", (staff_name(staff), staff_id, hand_id)).fetchone() is not None


def record_check(con, hand_id: int, staff: str, staff_id: Optional[int] = None) -> bool:
    """The floor (``staff``, :func:`staff_name`; ``staff_id`` as :func:`record_dispute`) checked
    the cards of a hand paid on a provisional ruling: recorded (the hand leaves the table's count
    of hands paid unconfirmed). False when there is no such hand, nothing recorded."""
    return con.execute("INSERT INTO checks (hand_id, staff, staff_id) SELECT id, %s, %s FROM hands WHERE id = %s "
                       "AND unconfirmed RETURNING id", (staff_name(staff), staff_id, hand_id)).fetchone() is not None


def ready_schema(url: str) -> str:
    """The central log at the schema this floor view reads (:data:`HEAD`): one made by an older
    release is upgraded now, where ``url``'s role may; else UserError in one line saying what to do.
    Returns the revision."""
    from dealer_assist.central.schema import HEAD, revision, upgrade

    with connect(url, autocommit=True) as con:
        rev = revision(con)
    if rev is None or rev >= HEAD:
        return rev or ""
    try:
        return upgrade(url)
    except UserError as exc:
        raise UserError(_("the central log has schema {rev}; this floor view needs {head} and could not "
                          "upgrade it ({why}): run it once with an administrator's role (dealer-assist floor "
                          "or run --central with that role's URL)", rev=rev, head=HEAD,
                          why=message_of(exc))) from None


def hand_view(log, hand_id: int) -> dict:
    """One hand for the page: what ``review`` tells, with the words in both languages."""
    hand = log.hand_by_id(hand_id)
    ruling = hand.get("ruling") or {}
    holes: dict[int, list] = {}
    for ev in hand["events"]:
        if ev.get("type") == "hole" and isinstance(ev.get("seat"), int):
            holes[ev["seat"]] = ev.get("cards") or []
    hands = ruling.get("hands") or {}
    seats = []
    for s in hand.get("seats") or sorted(holes):
        h = hands.get(str(s)) or {}
        seats.append({"seat": s, "cards": holes.get(s, []), "button": s == hand.get("button"),
                      "payout": (hand.get("payouts") or {}).get(str(s)),
                      "category": _hand_words(h)})
    order = log.hand_ids(hand["table"])
    at = order.index(hand["central_id"]) if hand["central_id"] in order else -1
    return {
        "prev_id": order[at - 1] if at > 0 else None,
        "next_id": order[at + 1] if 0 <= at < len(order) - 1 else None,
        "table": hand["table"], "ref": hand["ref"], "central_id": hand["central_id"], "status": hand["status"],
        "board": hand["board"], "button": hand.get("button"), "seats": seats, "dealer": hand_dealer(hand),
        "explanation": {"en": list(ruling.get("explanation") or []), "ja": list(ruling.get("explanation_ja") or [])},
        "doubt": _doubt(ruling, hand["status"], hand["ref"]),
        "checked": log.checked(hand["central_id"]),
        "disputes": log.disputes(hand["central_id"]),
        "events": [{"t": ev.get("t"), "type": ev.get("type"), "withheld": bool(ev.get("withheld")),
                    "text": {lang: describe(ev, lang) for lang in LANGS}} for ev in hand["events"]],
        "snapshots": [{"id": s["id"], "event_type": s["event_type"], "frame": s["frame"]} for s in hand["snapshots"]],
        "withheld": hand["withheld"],
    }


# -- the application ----------------------------------------------------------------------------
class _Accounts:
    """The floor's own tokens (:func:`dealer_assist.central.staff.accounts`), read from the log
    again at most every ``every`` seconds: an account revoked stops working within that. Kept as
    they were while the log is out of reach."""

    def __init__(self, url: str, every: float):
        self.url, self.every = url, every
        self.digests: dict[str, tuple[int, str]] = {}
        self.at = -float("inf")

    def _read(self) -> dict[str, tuple[int, str]]:
        from dealer_assist.central.staff import accounts

        try:
            with connect(self.url, autocommit=True) as con:
                self.digests = accounts(con)
        except Exception:       # out of reach: the page says so from the overview; keep the last known
            pass
        self.at = time.monotonic()
        return self.digests

    async def current(self) -> dict[str, tuple[int, str]]:
        if time.monotonic() - self.at >= self.every:
            return await asyncio.to_thread(self._read)
        return self.digests


class _Hub:
    """The overview, recomputed when the central log says something changed, pushed to every page."""

    def __init__(self, url: str):
        self.url = url
        self.clients: set[asyncio.Queue] = set()
        self.last: Optional[str] = None
        self.changed: Optional[asyncio.Event] = None
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.stop = threading.Event()
        self._con = None
        self.error: Optional[str] = None
        self.latest: Optional[str] = None      # the last overview pushed (a new page starts from it)

    def compute(self) -> str:
        from psycopg.rows import dict_row

        try:
            if self._con is None or self._con.closed:
                self._con = connect(self.url, autocommit=True)
                self._con.row_factory = dict_row
            tables = overview(self._con)
            self.error = None
        except Exception as exc:     # the central log out of reach: say so on the page, keep going
            self._con = None
            self.error = describe_error(exc)
            tables = None
        return json.dumps({"tables": tables, "error": self.error, "sent": time.time()}, ensure_ascii=False)

    def poke(self, *_a) -> None:
        if self.loop is not None and self.changed is not None:
            try:
                self.loop.call_soon_threadsafe(self.changed.set)
            except RuntimeError:          # the server is shutting down
                self.stop.set()

    def listen(self) -> None:
        """(thread) LISTEN for the forwarders' NOTIFY; poke on each."""
        while not self.stop.is_set():
            try:
                with connect(self.url, autocommit=True) as con:
                    con.execute("LISTEN dealer_assist")
                    self.poke()
                    while not self.stop.is_set():
                        for _n in con.notifies(timeout=1.0):
                            self.poke()
            except Exception:
                self.poke()
                self.stop.wait(1.0)

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.changed = asyncio.Event()
        threading.Thread(target=self.listen, daemon=True, name="floor-listen").start()
        self.changed.set()
        while True:
            await self.changed.wait()
            self.changed.clear()
            await asyncio.sleep(0.01)            # one recompute for a burst of commits
            self.changed.clear()
            text = await asyncio.to_thread(self.compute)
            body = json.loads(text)
            key = json.dumps([body["tables"], body["error"]])
            if key != self.last:
                self.last = key
                self.latest = text
                for q in list(self.clients):
                    q.put_nowait(text)


def create_app(url: str, token: str, accounts_every: float = 5.0):
    """The floor view's Starlette application for the central log at ``url``: ``token`` is the
    event's shared access token; each person's own token (``dealer-assist floor-staff add``) opens
    it too, and the accounts are read again every ``accounts_every`` seconds."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
    from starlette.routing import Route

    from dealer_assist.central.reader import CentralLog

    hub = _Hub(url)
    refused = " / ".join(render(_("floor view: the access token is missing or wrong; open the address "
                                  "dealer-assist floor printed (with ?token=...)"), lang) for lang in ("ja", "en"))

    from dealer_assist.central.staff import who

    people = _Accounts(url, accounts_every)

    async def allowed(request: Request) -> bool:
        """The event's token, or a person's own (then ``request.state.account`` is (id, name))."""
        given = request.query_params.get("token") or request.headers.get("x-floor-token") or ""
        request.state.account = None
        if hmac.compare_digest(given.encode(), token.encode()):
            return True
        request.state.account = who(await people.current(), given)
        return request.state.account is not None

    def guard(handler):
        async def wrapped(request: Request):
            if not await allowed(request):
                return PlainTextResponse(refused, status_code=401)
            return await handler(request)
        return wrapped

    async def me(request: Request):
        """Who this page records in the name of (None: it asks for a name), and whether the event
        has accounts (then the shared token only views)."""
        account = request.state.account
        return JSONResponse({"staff": account[1] if account else None, "accounts": bool(await people.current())})

    async def page(request: Request):
        html = PAGE.read_text(encoding="utf-8").replace("__TEXTS__", json.dumps(page_texts(), ensure_ascii=False))
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def tables(request: Request):
        return Response(await asyncio.to_thread(hub.compute), media_type="application/json")

    async def stream(request: Request):
        q: asyncio.Queue = asyncio.Queue()
        hub.clients.add(q)
        first = hub.latest or await asyncio.to_thread(hub.compute)

        async def events():
            try:
                yield f"data: {first}\n\n"
                while True:
                    try:
                        text = await asyncio.wait_for(q.get(), timeout=15)
                        yield f"data: {text}\n\n"
                    except asyncio.TimeoutError:
                        yield ": keep-alive\n\n"
            finally:
                hub.clients.discard(q)
        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def refusal(why: Any, status: int) -> JSONResponse:
        """An answer the page does not take: ``error`` in English (as it always was) and
        ``error_ja`` beside it."""
        return JSONResponse({"error": render(why, "en"), "error_ja": render(why, "ja")}, status_code=status)

    def _with_log(work):
        try:
            with CentralLog(url) as log:
                return work(log)
        except UserError as exc:
            return refusal(message_of(exc), 404)

    async def hand(request: Request):
        hid = request.path_params["hid"]
        got = await asyncio.to_thread(_with_log, lambda log: hand_view(log, hid))
        return got if isinstance(got, Response) else JSONResponse(got)

    def recorder(record, missing, note: str):
        """A POST that records something of a hand for the floor (``record(con, hid, staff,
        staff_id)``) in the name of who does it, tells every page, or answers 404 with
        ``missing(hid)`` where there was nothing to record. Who: the person whose own token it came
        with (whatever the body says); with the event's token, the name the body gives (``{"staff": NAME}``,
        :func:`staff_name`; 400 without one), unless the event has accounts (403: that token
        only views)."""
        async def endpoint(request: Request):
            hid = request.path_params["hid"]
            account = request.state.account
            if account is not None:
                staff_id, staff = account
            elif await people.current():
                return refusal(_("this token only views: record it from your own floor address "
                                 "(dealer-assist floor-staff add)"), 403)
            else:
                staff_id = None
                raw = await request.body()
                try:
                    body = json.loads(raw.decode("utf-8")) if 0 < len(raw) <= 4096 else None
                    staff = staff_name(body.get("staff") if isinstance(body, dict) else None)
                except (ValueError, UserError) as exc:      # not JSON, not UTF-8, no name
                    msg = message_of(exc) if isinstance(exc, UserError) else _("the body is not JSON")
                    return refusal(_("{why}: send {body}", why=msg, body='{"staff": "your name"}'), 400)

            def work(log):
                if not record(log.con, hid, staff, staff_id):    # nothing recorded, and the page is told so
                    return refusal(missing(hid), 404)
                log.con.execute("SELECT pg_notify('dealer_assist', %s)", (note,))
                return {"ok": True}
            got = await asyncio.to_thread(_with_log, work)
            return got if isinstance(got, Response) else JSONResponse(got)
        return endpoint

    dispute = recorder(record_dispute, lambda hid: _("no hand with central id {id}", id=hid), "dispute")
    check = recorder(record_check, lambda hid: _("no hand paid on a provisional ruling with central id {id}",
                                                 id=hid), "check")

    async def phh(request: Request):
        from dealer_assist.phh import hand_phh, phh_name

        hid = request.path_params["hid"]

        def work(log):
            hand = log.hand_by_id(hid)
            return phh_name(hand), hand_phh(hand)
        got = await asyncio.to_thread(_with_log, work)
        if isinstance(got, Response):
            return got
        name, text = got
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def snapshot(request: Request):
        hid, sid = request.path_params["hid"], request.path_params["sid"]

        def work(log):
            return log.load_snapshot({"central_id": hid, "ref": str(hid)}, sid)
        got = await asyncio.to_thread(_with_log, work)
        return got if isinstance(got, Response) else Response(got, media_type="image/jpeg")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(hub.run())
        try:
            yield
        finally:
            hub.stop.set()
            task.cancel()

    routes = [Route("/", guard(page)), Route("/api/tables", guard(tables)), Route("/api/stream", guard(stream)),
              Route("/api/me", guard(me)),
              Route("/api/hand/{hid:int}", guard(hand)),
              Route("/api/hand/{hid:int}/dispute", guard(dispute), methods=["POST"]),
              Route("/api/hand/{hid:int}/checked", guard(check), methods=["POST"]),
              Route("/api/hand/{hid:int}/phh", guard(phh)),
              Route("/api/snapshot/{hid:int}/{sid:int}", guard(snapshot))]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app
