"""The central event log on a real, throwaway PostgreSQL (the pgserver wheel of the test extra):
three tables playing the sample clip at once through a network cable that is pulled mid-hand,
each event arriving once and in order, ``review --central`` telling the same hands as each
table's own log, and no seat's cards in the central log before its showdown."""
from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg", reason="the central log needs the test extra (psycopg)")
pytest.importorskip("pgserver", reason="the throwaway PostgreSQL needs the test extra (pgserver)")

from dealer_assist.central.forward import Forwarder, _Sync, sync_log  # noqa: E402
from dealer_assist.central.privacy import shown_seats  # noqa: E402
from dealer_assist.central.reader import CentralLog  # noqa: E402
from dealer_assist.central.throwaway import CutProxy, new_database, socket_of  # noqa: E402
from dealer_assist.cli import main  # noqa: E402
from dealer_assist.commands.review import format_hand, format_list  # noqa: E402
from dealer_assist.live.handlog import HandLog, list_hands, load_hand  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT / "sample_frames" / "clip"
needs_clip = pytest.mark.skipif(not (CLIP / "joker-nlh.mp4").is_file(), reason="no sample clip")
EXE = [sys.executable, "-m", "dealer_assist"]


@pytest.fixture
def central(pg_server):
    return new_database(pg_server)


def local_events(db: Path) -> dict[int, list[tuple[int, dict]]]:
    con = sqlite3.connect(db)
    try:
        out: dict[int, list] = {}
        for s, seq, text in con.execute("SELECT session, seq, json FROM events ORDER BY session, seq"):
            out.setdefault(s, []).append((seq, json.loads(text)))
        return out
    finally:
        con.close()


def central_events(url: str, table: str) -> dict[int, list[tuple[int, int, dict]]]:
    with psycopg.connect(url) as con:
        rows = con.execute("SELECT s.number, e.seq, e.arrival, e.json FROM events e JOIN sessions s "
                           "ON s.id = e.session_id WHERE s.table_name = %s ORDER BY e.arrival", (table,)).fetchall()
    out: dict[int, list] = {}
    for number, seq, arrival, text in rows:
        out.setdefault(number, []).append((seq, arrival, json.loads(text)))
    return out


def hole_cards(db: Path) -> dict[tuple[int, int], dict[int, set[str]]]:
    """(session, hand) -> seat -> the cards the table's own log saw in that seat; the seats that
    showed at the showdown under the key ``"shown"``."""
    out: dict = {}
    for s, evs in local_events(db).items():
        for _, ev in evs:
            if ev.get("type") == "hole":
                out.setdefault((s, ev["hand"]), {}).setdefault(ev["seat"], set()).update(ev["cards"])
            if ev.get("type") == "showdown":
                out.setdefault((s, ev["hand"]), {})["shown"] = shown_seats(ev)
    return out


def dump_central(url: str) -> list[tuple[str, int, int, str, bool, bool]]:
    """Everything the central log holds about each hand, as text: (table, session, hand, text,
    showdown seen, hand ended) per row that names a hand."""
    with psycopg.connect(url) as con:
        rows = con.execute(
            "SELECT s.table_name, s.number, h.hand, h.board || coalesce(h.ruling, '') || coalesce(h.seats, '') "
            "|| coalesce((SELECT string_agg(e.json, ' ') FROM events e WHERE e.hand_id = h.id), '') "
            "|| coalesce((SELECT string_agg(c.json || coalesce(c.card, '') || coalesce(c.to_card, ''), ' ') "
            "             FROM corrections c WHERE c.hand_id = h.id), ''), "
            "EXISTS (SELECT 1 FROM events e WHERE e.hand_id = h.id AND e.type = 'showdown'), "
            "h.status = 'ended' FROM hands h JOIN sessions s ON s.id = h.session_id").fetchall()
    return [tuple(r) for r in rows]


def leaks(dumps, holes: dict, table: str) -> list[str]:
    """Hole cards found in a hand's central rows before that hand's showdown (or, after it, the
    cards of the seats that did not show, before the hand's end)."""
    found = []
    for tname, session, hand, text, showdown, ended in dumps:
        if tname != table or ended:
            continue
        hand_holes = holes.get((session, hand), {})
        for seat, cards in hand_holes.items():
            if seat == "shown" or (showdown and seat in hand_holes.get("shown", ())):
                continue              # shown at the showdown
            for card in cards:
                if re.search(rf'(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])', text):
                    found.append(f"{table} {session}:{hand} seat {seat} card {card}")
    return found


@needs_clip
def test_three_tables_through_a_cut_cable_arrive_once_in_order_and_review_alike(central, tmp_path):
    from dealer_assist.central.schema import upgrade
    upgrade(central)                 # as the venue's IT would, before the event
    proxy = CutProxy(socket_of(central))
    url = proxy.url(central.split("?")[0].rsplit("/", 1)[1])
    tables = ["t1", "t2", "t3"]
    procs, outs = {}, {}
    dumps: list = []
    stop = threading.Event()

    early_snapshots = []

    def watch():                     # every query a floor could make, all through the run
        while not stop.is_set():
            try:
                dumps.append(dump_central(central))
                with psycopg.connect(central) as con:      # a photograph of the table: at the hand's end only
                    early_snapshots.append(con.execute(
                        "SELECT COUNT(*) FROM snapshots sn JOIN events e ON e.session_id = sn.session_id "
                        "AND e.seq = sn.event_seq JOIN hands h ON h.id = e.hand_id "
                        "WHERE h.status <> 'ended'").fetchone()[0])
            except psycopg.Error:
                pass
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    try:
        for name in tables:
            db = tmp_path / f"{name}.sqlite"
            procs[name] = subprocess.Popen(
                # the reader's second looks are off: the same pipeline and hand flow, 30 % less CPU
                EXE + ["run", "--headless", "--events", str(tmp_path / f"{name}.jsonl"), "--db", str(db),
                       "--central", url, "--table", name, "--lang", "en", "--no-search", "--no-look",
                       "--no-rescue"],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        watcher.start()
        # pull the cable once every table is in the middle of its first hand in the central log
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with psycopg.connect(central) as con:
                started = {r[0] for r in con.execute(
                    "SELECT DISTINCT s.table_name FROM events e JOIN sessions s ON s.id = e.session_id "
                    "WHERE e.type = 'hand_start'")}
            if started == set(tables):
                break
            time.sleep(0.05)
        assert started == set(tables), "the tables never reached the central log"
        proxy.cut()
        with psycopg.connect(central) as con:
            open_hands = con.execute("SELECT COUNT(*) FROM hands WHERE status = 'open'").fetchone()[0]
        at_cut = {n: sum(len(v) for v in central_events(central, n).values()) for n in tables}
        time.sleep(2.5)
        local_then = {n: sum(len(v) for v in local_events(tmp_path / f"{n}.sqlite").values()) for n in tables}
        proxy.restore()
        for name, p in procs.items():
            outs[name] = p.communicate(timeout=120)[1]
            assert p.returncode == 0, outs[name]
    finally:
        stop.set()
        for p in procs.values():
            if p.poll() is None:
                p.kill()
        proxy.close()
    watcher.join()

    assert open_hands >= 3, "the cable was not cut mid-hand"
    for name in tables:
        db = tmp_path / f"{name}.sqlite"
        # the outage was real: the table played on and its log went past what the central log had
        assert local_then[name] > at_cut[name], name
        assert "out of reach" in outs[name] and "back after" in outs[name], outs[name]
        # every event once, in the order of the table's log
        mine, theirs = local_events(db), central_events(central, name)
        assert set(mine) == set(theirs)
        for session, evs in mine.items():
            got = theirs[session]
            assert [s for s, _, _ in got] == [s for s, _ in evs], "an event missing, doubled or out of order"
            assert [a for _, a, _ in got] == sorted(a for _, a, _ in got)
            assert [e for _, _, e in got] == [e for _, e in evs], "an event differs from the table's log"
        # review against the central log tells the same hands as the table's own
        with CentralLog(central) as log:
            assert format_list(log.list_hands(name), "en") == format_list(list_hands(db), "en")
            for h in list_hands(db):
                for lang in ("en", "ja"):
                    assert format_hand(log.load_hand(h["ref"], name), lang) == format_hand(load_hand(db, h["ref"]), lang)
        # and no dump taken during the run held a seat's cards before its showdown
        holes = hole_cards(db)
        assert holes
        bad = sorted({x for d in dumps for x in leaks(d, holes, name)})
        assert not bad, bad
    assert len(dumps) > 20
    assert early_snapshots and not any(early_snapshots)
    # the snapshots arrived whole: review --central writes the same JPEGs as the table's own review
    assert main(["review", "--central", central, "--table", "t2", "1:2", "--snapshots", str(tmp_path / "c")]) == 0
    assert main(["review", "--db", str(tmp_path / "t2.sqlite"), "1:2", "--snapshots", str(tmp_path / "l")]) == 0
    central_jpegs = {p.name: p.read_bytes() for p in (tmp_path / "c").iterdir()}
    assert central_jpegs and central_jpegs == {p.name: p.read_bytes() for p in (tmp_path / "l").iterdir()}

    # a resend changes nothing: send every event of t1 again
    before = central_events(central, "t1")
    sync = _Sync(str(tmp_path / "t1.sqlite"), "t1")
    with psycopg.connect(central, autocommit=True) as con:
        sync.run(con)
        for s in sync.sessions.values():
            s.ev_cursor = s.corr_cursor = 0
            s.done = False
        sync.run(con)
    assert central_events(central, "t1") == before


CLIP_EVENTS = [json.loads(x) for x in (CLIP / "expected-events.jsonl").read_text().splitlines() if x.strip()]


def test_no_query_of_the_central_log_holds_a_seats_cards_before_its_showdown(central, tmp_path):
    db = tmp_path / "t.sqlite"
    log = HandLog(db, source="test", game="joker-holdem")
    sync = _Sync(str(db), "t9")
    seen_withheld = 0
    with psycopg.connect(central, autocommit=True) as pg:
        from dealer_assist.central.schema import upgrade
        upgrade(central)

        def step():
            sync.run(pg)
            return dump_central(central)

        for ev in CLIP_EVENTS:
            log.record(ev)
            if ev["type"] == "hole" and ev["hand"] == 2 and ev["seat"] == 4:
                # the dealer corrects a seat's card, and an alert names a seat's card
                log.record_correction({"type": "correct", "zone": "seat4", "card": "Kc", "to": "Ac"},
                                      ev["frame"], ev["t"], 2)
                log.record({"type": "alert", "hand": 2, "t": ev["t"], "frame": ev["frame"], "code": "duplicate_card",
                            "zone": "seat4", "card": "Kc", "message": "Kc seen twice (seat 4)",
                            "message_ja": "Kcが2回", "cleared": False})
            d = step()
            with psycopg.connect(central) as con:
                seen_withheld += con.execute("SELECT COUNT(*) FROM events WHERE withheld").fetchone()[0]
            holes = hole_cards(db)
            holes.setdefault((1, 2), {}).setdefault(4, set()).add("Kc")
            assert not leaks(d, holes, "t9"), (ev, leaks(d, holes, "t9"))
        log.close()
        step()
    assert seen_withheld > 0, "no event was ever withheld: the test saw nothing"
    # once every hand has ended, the central log holds every event whole
    with CentralLog(central) as clog:
        for h in list_hands(db):
            assert clog.load_hand(h["ref"], "t9")["events"] == load_hand(db, h["ref"])["events"]
            assert clog.load_hand(h["ref"], "t9")["withheld"] == 0
        corr = clog.load_hand("1:2", "t9")["corrections"]
        assert [(c["card"], c["to"]) for c in corr] == [("Kc", "Ac")]


def test_an_unreachable_central_log_is_one_line_and_the_table_keeps_everything(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    log = HandLog(db, source="test")
    lines: list[str] = []
    fw = Forwarder(str(db), "postgresql://nobody@127.0.0.1:9/none", "t1", lang="en", say=lines.append,
                   poll_s=0.05, retry_max_s=0.1)
    fw.start()
    for ev in CLIP_EVENTS[:5]:
        log.record(ev)
        fw.poke()
    time.sleep(0.3)
    log.close()
    fw.close(timeout_s=0.2)
    assert len(local_events(db)[1]) == 5
    assert lines and all("\n" not in x for x in lines)
    assert "out of reach" in lines[0] and "the table plays on" in lines[0]
    assert "5 events of table t1 are not in the central log yet" in lines[-1]

    assert main(["review", "--central", "postgresql://nobody@127.0.0.1:9/none", "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot read the central log" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        main(["review", "--central", "mysql://x", "--lang", "en"])
    assert "PostgreSQL URL" in capsys.readouterr().err


def test_a_table_that_ended_offline_is_caught_up_at_the_next_start(central, tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    log = HandLog(db, source="test")
    for ev in CLIP_EVENTS:
        log.record(ev)
    log.close()
    assert sync_log(str(db), central, "late") == len(CLIP_EVENTS)
    assert sync_log(str(db), central, "late") == 0
    assert main(["review", "--central", central, "--table", "late", "--lang", "en", "1:2"]) == 0
    assert "pays seat 2 320, seat 4 400" in capsys.readouterr().out
    assert main(["review", "--central", central, "--lang", "en"]) == 0
    listing = capsys.readouterr().out
    assert listing.startswith("table late (3 hands") and "1:3" in listing
    # the central log's hands as hand histories too (pokerkit reads them: tests/test_phh.py)
    from pokerkit import HandHistory

    out = tmp_path / "phh"
    assert main(["review", "--central", central, "--export-phh", str(out)]) == 0
    files = sorted(out.glob("*.phh"))
    assert [f.name for f in files] == ["late-1-1.phh", "late-1-2.phh", "late-1-3.phh"]
    assert HandHistory.loads(files[1].read_text()).user_defined_fields["_dealer_assist_table"] == "late"


def test_a_tables_database_role_writes_only_its_own_tables_rows(central, tmp_path):
    import uuid

    from dealer_assist.central.schema import upgrade
    from dealer_assist.errors import UserError

    upgrade(central)
    role = "tbl_" + uuid.uuid4().hex[:8]
    with psycopg.connect(central, autocommit=True) as con:
        con.execute(f"CREATE ROLE {role} LOGIN IN ROLE dealer_assist_table")
        con.execute("INSERT INTO table_roles (role_name, table_name) VALUES (%s, 'T5')", (role,))
    as_t5 = central.replace("postgresql://postgres:@", f"postgresql://{role}:@", 1)
    assert as_t5 != central

    mine, other = tmp_path / "t5.sqlite", tmp_path / "t6.sqlite"
    for db in (mine, other):
        with HandLog(db, source="test") as log:
            for ev in CLIP_EVENTS:
                log.record(ev)
    assert sync_log(str(other), central, "T6") == len(CLIP_EVENTS)       # T6 through the owner's role
    assert sync_log(str(mine), as_t5, "T5") == len(CLIP_EVENTS)          # T5's role sends T5
    with pytest.raises(UserError, match="refused"):
        sync_log(str(other), as_t5, "T6b")                               # ... and nothing else
    with psycopg.connect(as_t5, autocommit=True) as con:
        assert {r[0] for r in con.execute("SELECT DISTINCT table_name FROM sessions")} == {"T5"}
        assert con.execute("SELECT COUNT(*) FROM events").fetchone()[0] == len(CLIP_EVENTS)
        assert con.execute("UPDATE events SET json = '{}'").rowcount == len(CLIP_EVENTS)   # its own only
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("SELECT * FROM disputes")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):     # the floor's checks are the floor's
            con.execute("INSERT INTO checks (hand_id) SELECT id FROM hands LIMIT 1")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("DELETE FROM events")
    with psycopg.connect(central) as con:
        untouched = con.execute("SELECT COUNT(*) FROM events e JOIN sessions s ON s.id = e.session_id "
                                "WHERE s.table_name = 'T6' AND e.json <> '{}'").fetchone()[0]
    assert untouched == len(CLIP_EVENTS)
    with CentralLog(central) as log:                    # the floor's role reads every table, untouched
        assert {h["table"] for h in log.list_hands()} == {"T5", "T6"}
        assert log.load_hand("1:2", "T6")["events"] == load_hand(other, "1:2")["events"]


def test_a_row_someone_else_wrote_is_one_line_not_a_traceback(central, tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    with HandLog(db, source="test") as log:
        for ev in CLIP_EVENTS[:3]:
            log.record(ev)
    sync_log(str(db), central, "T1")
    with psycopg.connect(central) as con:
        con.execute("UPDATE events SET json = '{not json' WHERE seq = 2")
        con.execute("UPDATE hands SET board = '[\"Ks\", ' WHERE hand = 1")
    for argv in (["review", "--central", central, "--lang", "en"],
                 ["review", "--central", central, "--table", "T1", "--lang", "en", "1:1"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "did not write" in err, err


def test_an_event_log_from_before_the_unconfirmed_mark_is_migrated_with_its_hands_marked(central):
    """A central log made by the previous release (schema 0003): upgrading it marks the hands that
    already ended on a provisional ruling, and no other, so the floor counts them from the start;
    a stored ruling that cannot be read is left unmarked, not a failed migration."""
    from dealer_assist.central.floor import overview
    from dealer_assist.central.schema import HEAD, connect, revision, upgrade

    assert upgrade(central, to="0003") == "0003"
    doubt = [{"zone": "seat4", "card": "8c", "or": "8s"}]
    rulings = [json.dumps({"payouts": {"2": 100}, "provisional": True, "unsure": doubt}, separators=(",", ":")),
               json.dumps({"payouts": {"2": 100}, "provisional": False, "unsure": doubt}, separators=(",", ":")),
               '{"provisional": tru',                                      # damaged
               json.dumps({"payouts": {"4": 100}, "provisional": True, "unsure": doubt}, separators=(",", ":"))]
    with connect(central) as con:
        assert revision(con) == "0003"
        sid = con.execute("INSERT INTO sessions (table_name, number, origin, started) VALUES ('T8', 1, 'o8', 0) "
                          "RETURNING id").fetchone()[0]
        for n, text in enumerate(rulings, 1):
            status = "ended" if n < 4 else "open"                 # hand 4 is still in play
            con.execute("INSERT INTO hands (session_id, hand, started_wall, status, ruling) VALUES (%s, %s, 0, %s, %s)",
                        (sid, n, status, text))
        con.commit()
    assert upgrade(central) == HEAD
    with connect(central) as con:
        marked = [n for (n,) in con.execute("SELECT hand FROM hands WHERE unconfirmed ORDER BY hand")]
        (row,) = overview(con)
    assert marked == [1]
    assert row["unconfirmed"] == 1


def test_the_floors_checks_and_disputes_from_before_names_were_kept_stay_without_one(central, capsys):
    """A log at schema 0004 holds a check and a dispute that say no one's name: upgraded, they stay,
    nameless (the page then says "checked by the floor"), and the next ones carry the name given."""
    import uuid

    from dealer_assist.central.floor import record_check, record_dispute
    from dealer_assist.central.reader import CentralLog
    from dealer_assist.central.schema import HEAD, connect, upgrade
    from dealer_assist.errors import UserError

    assert upgrade(central, to="0004") == "0004"
    with connect(central) as con:
        sid = con.execute("INSERT INTO sessions (table_name, number, origin, started) VALUES ('T9', 1, 'o9', 0) "
                          "RETURNING id").fetchone()[0]
        hid = con.execute("INSERT INTO hands (session_id, hand, started_wall, status, unconfirmed) "
                          "VALUES (%s, 1, 0, 'ended', TRUE) RETURNING id", (sid,)).fetchone()[0]
        con.execute("INSERT INTO checks (hand_id) VALUES (%s)", (hid,))
        con.execute("INSERT INTO disputes (hand_id) VALUES (%s)", (hid,))
        con.commit()
    assert upgrade(central) == HEAD
    with CentralLog(central) as log:
        assert log.checked(hid)["staff"] is None and [d["staff"] for d in log.disputes(hid)] == [None]
        assert log.checked(hid)["signed"] is False
    with connect(central) as con:
        assert record_dispute(con, hid, "鈴木") and record_check(con, hid, "鈴木")
        with pytest.raises(UserError, match="say who records it"):
            record_check(con, hid, " ")
        con.commit()
    with CentralLog(central) as log:
        assert log.checked(hid)["staff"] is None                         # the first check stands
        assert [d["staff"] for d in log.disputes(hid)] == [None, "鈴木"]
    # review --central tells the hand with the floor's records; a table's role, which may not read
    # them, gets the hand as its table logged it
    from dealer_assist.cli import main

    assert main(["review", "--central", central, "--table", "T9", "--lang", "en", "1:1"]) == 0
    told = capsys.readouterr().out
    floor = told[told.index("The floor:"):].splitlines()
    assert re.fullmatch(r"  cards checked by the floor \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)", floor[1])
    assert floor[2].startswith("  dispute recorded (") and floor[3].startswith("  dispute recorded by 鈴木 (")
    assert main(["review", "--central", central, "--table", "T9", "1:1"]) == 0
    assert "フロアの記録:" in capsys.readouterr().out
    role = "tbl_" + uuid.uuid4().hex[:8]
    with psycopg.connect(central, autocommit=True) as con:
        con.execute(f"CREATE ROLE {role} LOGIN IN ROLE dealer_assist_table")
        con.execute("INSERT INTO table_roles (role_name, table_name) VALUES (%s, 'T9')", (role,))
    as_table = central.replace("postgresql://postgres:@", f"postgresql://{role}:@", 1)
    assert main(["review", "--central", as_table, "--table", "T9", "--lang", "en", "1:1"]) == 0
    told = capsys.readouterr().out
    assert "hand 1:1" in told.lower() and "The floor:" not in told


def test_the_floor_view_upgrades_a_log_from_an_older_release_or_says_in_one_line_why_it_cannot(central):
    """The floor view reads the newest schema: started on a log an older release made (0003), it upgrades
    it with a role that may; a table's role may not, and the floor then says what to do instead of
    serving a page whose every query fails."""
    import uuid

    from dealer_assist.central.floor import ready_schema
    from dealer_assist.central.schema import HEAD, upgrade
    from dealer_assist.errors import UserError

    assert upgrade(central, to="0003") == "0003"
    role = "tbl_" + uuid.uuid4().hex[:8]
    with psycopg.connect(central, autocommit=True) as con:
        con.execute(f"CREATE ROLE {role} LOGIN IN ROLE dealer_assist_table")
    as_table = central.replace("postgresql://postgres:@", f"postgresql://{role}:@", 1)
    with pytest.raises(UserError, match=rf"schema 0003; this floor view needs {HEAD} .*administrator's role"):
        ready_schema(as_table)
    assert ready_schema(central) == HEAD               # the owner's role upgrades it
    assert ready_schema(as_table) == HEAD              # and then any role reads it as it is


# -- snapshots: each with the digest its hand log wrote, bytes changed since never shown ------------
SHOTS = {"start": b"\xff\xd8 frame zero \xff\xd9", "flop": b"\xff\xd8 frame thirty \xff\xd9",
         "end": b"\xff\xd8 frame sixty \xff\xd9"}


def snapshot_log(path: Path) -> Path:
    """One ended hand with four snapshots: at its start, at the flop, at the turn (the flop's frame:
    the log keeps that image once, ``same_as``) and at its end."""
    with HandLog(path, source="test", game="holdem") as log:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1},
                   snapshot_jpeg=SHOTS["start"])
        log.record({"t": 1.0, "frame": 30, "type": "board", "hand": 1, "street": "flop",
                    "cards": ["Ks", "Js", "6s"]}, snapshot_jpeg=SHOTS["flop"])
        log.record({"t": 1.0, "frame": 30, "type": "board", "hand": 1, "street": "turn",
                    "cards": ["Ks", "Js", "6s", "2d"]}, snapshot_jpeg=SHOTS["flop"])
        log.record({"t": 2.0, "frame": 60, "type": "hand_end", "hand": 1, "board": ["Ks", "Js", "6s", "2d"],
                    "won_without_showdown": 1, "corrections": 0}, snapshot_jpeg=SHOTS["end"])
    return path


def flipped(jpeg: bytes) -> bytes:
    """``jpeg`` with one byte of its middle flipped (still a JPEG's start and end)."""
    i = len(jpeg) // 2
    return jpeg[:i] + bytes([jpeg[i] ^ 0xFF]) + jpeg[i + 1:]


def test_a_snapshot_changed_before_or_after_it_was_sent_is_never_shown_from_the_central_log(central, tmp_path,
                                                                                             capsys):
    """A snapshot goes to the central log with the SHA-256 its hand log wrote beside it. One whose
    bytes the table's disk changed is still sent (said once by the forwarder), and the central log
    refuses it, as it refuses one changed in PostgreSQL since; the others come back byte for byte,
    and review --central --snapshots writes those and names the rest."""
    from dealer_assist.errors import UserError, says

    db = snapshot_log(tmp_path / "t.sqlite")
    start, flop, turn, end = [s["id"] for s in load_hand(db, "1:1")["snapshots"]]
    con = sqlite3.connect(db)          # the table's disk changes the end's snapshot after it was written
    con.execute("UPDATE snapshots SET jpeg = ? WHERE id = ?", (flipped(SHOTS["end"]), end))
    con.commit()
    con.close()
    said: list[str] = []
    assert sync_log(str(db), central, "T1", lang="en", say=said.append) == 4
    assert len(said) == 1 and f"snapshot {end} of {db} is damaged" in said[0], said
    assert "goes to the central log as it is" in said[0]
    assert sync_log(str(db), central, "T1", lang="en", say=said.append) == 0 and len(said) == 1

    with CentralLog(central) as log:
        hand = log.load_hand("1:1", "T1")
        assert [s["id"] for s in hand["snapshots"]] == [start, flop, turn, end]     # every one was sent
        assert [log.load_snapshot(hand, i) for i in (start, flop, turn)] == \
            [SHOTS["start"], SHOTS["flop"], SHOTS["flop"]]
        with pytest.raises(UserError, match=f"snapshot {end} of hand 1:1 in the central log is damaged") as got:
            log.load_snapshot(hand, end)
        assert "壊れています" in says(got.value, "ja")
    out = tmp_path / "from-central"
    assert main(["review", "--central", central, "--table", "T1", "1:1", "--snapshots", str(out),
                 "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert f"snapshot {end} of hand 1:1 is damaged" in err and "Traceback" not in err
    assert sorted(p.read_bytes() for p in out.iterdir()) == sorted([SHOTS["start"], SHOTS["flop"], SHOTS["flop"]])

    # the flop's image is changed in PostgreSQL after it arrived: it, and the turn that shares it, are refused
    with psycopg.connect(central) as con:
        con.execute("UPDATE snapshots SET jpeg = %s WHERE local_id = %s", (flipped(SHOTS["flop"]), flop))
    with CentralLog(central) as log:
        hand = log.load_hand("1:1", "T1")
        for i in (flop, turn):
            with pytest.raises(UserError, match=f"snapshot {i} of hand 1:1 in the central log is damaged"):
                log.load_snapshot(hand, i)
        assert log.load_snapshot(hand, start) == SHOTS["start"]


def test_a_hand_log_from_before_snapshot_digests_still_sends_snapshots_that_load(central, tmp_path):
    """A hand log of schema 2 keeps no digest beside its snapshots: they are sent without one and
    load from the central log as they were (there is nothing to check them against)."""
    db = snapshot_log(tmp_path / "v2.sqlite")
    con = sqlite3.connect(db)          # the same file as schema 2 wrote it: no sha256 column
    con.execute("ALTER TABLE snapshots DROP COLUMN sha256")
    con.execute("DELETE FROM schema_versions WHERE version = 3")
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()
    said: list[str] = []
    assert sync_log(str(db), central, "old", lang="en", say=said.append) == 4
    assert said == []
    with CentralLog(central) as log:
        hand = log.load_hand("1:1", "old")
        assert [log.load_snapshot(hand, s["id"]) for s in hand["snapshots"]] == \
            [SHOTS["start"], SHOTS["flop"], SHOTS["flop"], SHOTS["end"]]


def test_a_button_the_dealer_moved_during_a_hand_is_the_hands_button_on_the_floor_too(central, tmp_path):
    """The desk's B key mid-hand: the local hand log and the central one keep the seat the dealer
    gave as the hand's button, not the one its start named."""
    db = tmp_path / "t.sqlite"
    log = HandLog(db, source="test")
    log.record({"t": 0.1, "frame": 1, "type": "hand_start", "hand": 1, "seats": [2, 4, 5], "button": 4})
    log.record({"t": 2.0, "frame": 30, "type": "button", "hand": 1, "seat": 5, "was": 4})
    log.close()
    assert sync_log(str(db), central, "b1") == 2
    assert [h["button"] for h in list_hands(db)] == [5]
    with CentralLog(central) as reader:
        (hand,) = [reader.hand_by_id(i) for i in reader.hand_ids("b1")]
    assert hand["button"] == 5
    assert [e["type"] for e in hand["events"]] == ["hand_start", "button"]
