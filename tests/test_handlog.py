"""The hand log (SQLite, WAL) and ``dealer-assist review``: what a floor manager reads back when a
showdown is disputed, and that nothing recorded is lost when the process dies mid-hand."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")     # the dispute list test below, without a screen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.cli import main
from dealer_assist.errors import UserError
from dealer_assist.live.handlog import SCHEMA_VERSION, HandLog, list_hands, load_hand, load_snapshot
from dealer_assist.rules.settle import settle

ROOT = Path(__file__).resolve().parent.parent


def jpeg(shade: int) -> bytes:
    """A real, small JPEG (a flat grey frame) so snapshots can be decoded back."""
    img = np.full((24, 32, 3), shade, np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


# The disputed hand: seat 1 (10 chips, all in) holds As Ad, seats 2 and 3 (30 each) Kd Kc and Qd Qc.
# The river 2c was first read as 2s, which gave seat 1 a spade flush (As Ks Js 6s 2s) and the main
# pot; the dealer corrected board5 to 2c and seat 2's trip kings take both pots:
# main 3 x 10 = 30, side 2 x 20 = 40 -> seat 2 gets 70 (TDA 21; RULINGS.md, hold'em family).
MISREAD = {"game": "joker-holdem", "board": ["Ks", "Js", "6s", "4d", "2s"], "button": 3,
           "seats": [{"seat": 1, "hole": ["As", "Ad"], "committed": 10},
                     {"seat": 2, "hole": ["Kd", "Kc"], "committed": 30},
                     {"seat": 3, "hole": ["Qd", "Qc"], "committed": 30}]}
CORRECTED = dict(MISREAD, board=["Ks", "Js", "6s", "4d", "2c"])
# A hand won without a showdown: seat 1 folds on the flop, seat 2 takes 20 + 40.
FOLDED = {"game": "joker-holdem", "board": ["9h", "8h", "2d"], "button": 1,
          "seats": [{"seat": 1, "hole": ["7c", "2h"], "committed": 20, "folded": True},
                    {"seat": 2, "hole": ["Ac", "Kc"], "committed": 40}]}


def build_log(path: Path) -> dict:
    """One session as ``run`` would log it: an alert between hands, the disputed hand, a hand won
    without a showdown and a hand the process never finished. Returns what was recorded."""
    misread, corrected, folded = settle(MISREAD), settle(CORRECTED), settle(FOLDED)
    rec: dict = {"events": [], "snapshots": {}}
    log = HandLog(path, source="table-3 camera", game="joker-holdem", calibration="table.yaml",
                  models={"cards-obb": "2025.1"})

    def add(ev, shot=None):
        seq = log.record(ev, snapshot_jpeg=shot)
        rec["events"].append(ev)
        if shot is not None:
            rec["snapshots"].setdefault(ev.get("hand"), []).append((ev["frame"], ev["type"], shot))
        return seq

    add({"t": 0.2, "frame": 3, "type": "alert", "hand": None, "code": "camera_lost",
         "message": "camera lost, reconnecting", "message_ja": "カメラ切断、再接続中", "cleared": False})
    add({"t": 1.0, "frame": 15, "type": "hand_start", "hand": 1, "seats": [1, 2, 3], "button": 3}, jpeg(10))
    add({"t": 4.0, "frame": 60, "type": "board", "hand": 1, "street": "flop", "cards": ["Ks", "Js", "6s"]},
        jpeg(20))
    add({"t": 6.0, "frame": 90, "type": "board", "hand": 1, "street": "turn",
         "cards": ["Ks", "Js", "6s", "4d"]}, jpeg(30))
    add({"t": 7.0, "frame": 105, "type": "board", "hand": 1, "street": "river", "cards": MISREAD["board"]},
        jpeg(40))
    shot = jpeg(50)
    for seat, hole in ((2, ["Kd", "Kc"]), (3, ["Qd", "Qc"]), (1, ["As", "Ad"])):
        add({"t": 9.0, "frame": 135, "type": "hole", "hand": 1, "seat": seat, "cards": hole}, shot)
    add({"t": 9.1, "frame": 136, "type": "showdown", "hand": 1, "ruling": misread, "table": MISREAD}, jpeg(60))
    log.record_correction({"type": "correct", "zone": "board5", "card": "2s", "to": "2c"}, 150, 10.0, 1)
    add({"t": 10.0, "frame": 150, "type": "board", "hand": 1, "street": "river", "cards": CORRECTED["board"]},
        jpeg(70))
    add({"t": 10.0, "frame": 150, "type": "showdown", "hand": 1, "ruling": corrected, "table": CORRECTED},
        jpeg(70))
    add({"t": 12.0, "frame": 180, "type": "hand_end", "hand": 1, "ruling": corrected,
         "board": CORRECTED["board"], "won_without_showdown": None, "corrections": 1}, jpeg(80))
    add({"t": 14.0, "frame": 210, "type": "hand_start", "hand": 2, "seats": [1, 2], "button": 1}, jpeg(90))
    add({"t": 16.0, "frame": 240, "type": "board", "hand": 2, "street": "flop", "cards": FOLDED["board"]})
    add({"t": 18.0, "frame": 270, "type": "hand_end", "hand": 2, "ruling": folded, "board": FOLDED["board"],
         "won_without_showdown": 2, "corrections": 0}, jpeg(110))
    add({"t": 20.0, "frame": 300, "type": "hand_start", "hand": 3, "seats": [1, 2, 3], "button": 2})
    log.close()
    rec["rulings"] = {"misread": misread, "corrected": corrected, "folded": folded}
    return rec


@pytest.fixture()
def logged(tmp_path):
    db = tmp_path / "hand-log.sqlite"
    return db, build_log(db)


def review(capsys, *argv) -> tuple[int, str, str]:
    """``review`` with its arguments (English unless ``--lang`` is given: the default is Japanese)."""
    if "--lang" not in argv:
        argv = (*argv, "--lang", "en")
    code = main(["review", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# -- the rulings the fixture relies on, checked against the rulebook by hand ----------------------
def test_the_fixture_rulings_are_the_ones_worked_out_by_hand():
    misread, corrected = settle(MISREAD), settle(CORRECTED)
    assert misread["payouts"] == {"1": 30, "2": 40, "3": 0}      # As-high spade flush takes the main pot
    assert corrected["payouts"] == {"1": 0, "2": 70, "3": 0}     # trip kings take both
    assert settle(FOLDED)["payouts"] == {"1": 0, "2": 60}


# -- the read API -------------------------------------------------------------------------------
def test_hands_are_listed_with_status_board_winners_and_payouts(logged):
    db, _ = logged
    hands = list_hands(db)
    # hand 3 never ended and its session is closed: interrupted, not "open"
    assert [(h["ref"], h["status"]) for h in hands] == [("1:1", "ended"), ("1:2", "ended"),
                                                        ("1:3", "interrupted")]
    first, second, third = hands
    assert first["board"] == ["Ks", "Js", "6s", "4d", "2c"]          # the corrected board, not the misread
    assert first["winners"] == [2] and first["payouts"] == {"1": 0, "2": 70, "3": 0}
    assert first["corrections"] == 1 and first["events"] == 11
    assert second["won_without_showdown"] == 2 and second["winners"] == [2]
    assert third["winners"] == [] and third["ended"] is None


def test_a_hand_comes_back_with_its_events_in_order_and_the_final_ruling(logged):
    db, rec = logged
    hand = load_hand(db, list_hands(db)[0]["id"])
    assert hand["events"] == [e for e in rec["events"] if e.get("hand") == 1]
    assert hand["ruling"] == rec["rulings"]["corrected"]
    [c] = hand["corrections"]
    assert (c["zone"], c["card"], c["to"], c["frame"]) == ("board5", "2s", "2c", 150)
    # the correction came after the first showdown and before the restated river
    assert hand["events"][c["before_event"]]["cards"] == ["Ks", "Js", "6s", "4d", "2c"]
    assert hand["session"]["calibration"] == "table.yaml"
    assert hand["session"]["models"] == {"cards-obb": "2025.1"}


def test_an_alert_between_hands_is_kept_but_belongs_to_no_hand(logged):
    db, _ = logged
    con = sqlite3.connect(db)
    rows = con.execute("SELECT type, hand FROM events WHERE hand IS NULL").fetchall()
    con.close()
    assert rows == [("alert", None)]
    for h in list_hands(db):
        assert all(e.get("code") != "camera_lost" for e in load_hand(db, h["id"])["events"])


def test_snapshots_come_back_byte_for_byte_and_one_frame_is_stored_once(logged):
    db, rec = logged
    hand = load_hand(db, list_hands(db)[0]["id"])
    want = rec["snapshots"][1]
    assert [(s["frame"], s["event_type"]) for s in hand["snapshots"]] == [(f, k) for f, k, _ in want]
    assert [load_snapshot(db, s["id"]) for s in hand["snapshots"]] == [b for _, _, b in want]
    con = sqlite3.connect(db)
    stored = con.execute("SELECT COUNT(*) FROM snapshots WHERE jpeg IS NOT NULL").fetchone()[0]
    con.close()
    total = sum(len(v) for v in rec["snapshots"].values())
    assert stored == total - 3      # the 3 hole events of frame 135 share an image, as do frame 150's two


def test_the_file_is_a_wal_database_with_full_sync(tmp_path):
    db = tmp_path / "h.sqlite"
    log = HandLog(db, source="x")
    mode = log._con.execute("PRAGMA journal_mode").fetchone()[0]
    sync = log._con.execute("PRAGMA synchronous").fetchone()[0]
    log.close()
    con = sqlite3.connect(db)
    assert (mode, sync) == ("wal", 2)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    # a new file is set up one version at a time, as an older file is migrated
    assert con.execute("SELECT version FROM schema_versions").fetchall() == [
        (v,) for v in range(1, SCHEMA_VERSION + 1)]
    con.close()


def test_a_second_run_appends_a_session_and_hand_numbers_start_again(logged):
    db, _ = logged
    with HandLog(db, source="table-3 camera") as log:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1})
        log.record({"t": 1.0, "frame": 15, "type": "board", "hand": 1, "street": "flop",
                    "cards": ["Ah", "Kh", "Qh"]})
    hands = list_hands(db)
    assert [(h["session"], h["hand"]) for h in hands] == [(1, 1), (1, 2), (1, 3), (2, 1)]
    assert load_hand(db, hands[0]["id"])["board"] == ["Ks", "Js", "6s", "4d", "2c"]   # untouched
    assert load_hand(db, hands[3]["id"])["board"] == ["Ah", "Kh", "Qh"]
    assert [h["hand"] for h in list_hands(db, session=2)] == [1]


def test_a_reader_sees_every_committed_event_while_the_writer_is_still_open(tmp_path):
    db = tmp_path / "h.sqlite"
    log = HandLog(db, source="x")
    try:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1})
        log.record({"t": 2.0, "frame": 30, "type": "board", "hand": 1, "street": "flop",
                    "cards": ["2c", "3c", "4c"]})
        [h] = list_hands(db)          # the desk reads while run writes
        assert (h["status"], h["board"], h["events"]) == ("open", ["2c", "3c", "4c"], 2)
    finally:
        log.close()
    [h] = list_hands(db)              # the run closed during the hand: it will never end now
    assert h["status"] == "interrupted"


# -- property: whatever the interleaving, each hand reads back exactly what was recorded --------
event_st = st.tuples(st.sampled_from([None, 1, 2, 3]),
                     st.sampled_from(["board", "hole", "alert", "showdown", "hand_end"]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(event_st, min_size=1, max_size=14))
def test_every_recorded_event_reads_back_in_its_hand_in_order(plan):
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "h.sqlite")
        recorded: list[dict] = []
        with HandLog(db, source="prop") as log:
            for i, (hand, kind) in enumerate(plan):
                ev = {"t": i / 15, "frame": i, "type": kind, "hand": hand, "n": i}
                if kind == "board":
                    ev.update(street="flop", cards=["2c", "3c", f"{'456789'[i % 6]}c"])
                if kind == "hand_end":
                    ev.update(board=["Ah", "Kh", "Qh"], ruling={"payouts": {"1": i}, "pots": [{"winners": [1]}]})
                seq = log.record(ev)
                assert seq == i + 1
                recorded.append(ev)
        hands = list_hands(db)
        numbers = list(dict.fromkeys(e["hand"] for e in recorded if e["hand"] is not None))
        assert [h["hand"] for h in hands] == numbers           # rows in order of first appearance
        for h in hands:
            mine = [e for e in recorded if e["hand"] == h["hand"]]
            assert load_hand(db, h["id"])["events"] == mine
            ended = [e for e in mine if e["type"] == "hand_end"]
            assert h["status"] == ("ended" if ended else "interrupted")
            boards = [e for e in mine if e["type"] in ("board", "hand_end")]
            if boards:
                last = boards[-1]
                assert h["board"] == (last["board"] if last["type"] == "hand_end" else last["cards"])
            if ended:
                assert h["payouts"] == ended[-1]["ruling"]["payouts"] and h["winners"] == [1]


# -- killed mid-hand ----------------------------------------------------------------------------
CHILD = r"""
import sys
from dealer_assist.live.handlog import HandLog
log = HandLog(sys.argv[1], source="kill test", game="joker-holdem")
seq = log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2, 3], "button": 1})
print(seq, flush=True)
i = 0
while True:
    i += 1
    shot = b"\xff\xd8" + bytes([i % 251]) * 30000 + b"\xff\xd9" if i % 2 else None
    seq = log.record({"t": i / 15, "frame": i, "type": "alert", "hand": 1, "code": "unreadable_card",
                      "message": f"event {i}", "message_ja": f"イベント {i}", "cleared": False}, shot)
    print(seq, flush=True)
"""


@pytest.mark.parametrize("kill_after", [3, 17, 40])
def test_a_process_killed_mid_hand_leaves_every_recorded_event_readable(tmp_path, kill_after):
    db = tmp_path / "hand-log.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(db)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    printed: list[int] = []
    try:
        for line in proc.stdout:
            printed.append(int(line))
            if len(printed) >= kill_after:
                # the child is busy writing the next event (with its fsync) while we kill it
                os.kill(proc.pid, signal.SIGKILL)
                break
        # what the child reported after the line we acted on (still in the pipe) counts too
        printed += [int(line) for line in proc.stdout.read().split()]
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read()
    assert printed == list(range(1, len(printed) + 1)) and len(printed) >= kill_after
    assert (tmp_path / "hand-log.sqlite-wal").exists()      # died without a checkpoint
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    [hand] = list_hands(db)
    assert hand["status"] == "interrupted" and hand["ended"] is None      # its process is gone
    events = load_hand(db, hand["id"])["events"]
    # everything reported as written is there; at most the one in flight besides
    assert len(printed) <= len(events) <= len(printed) + 1
    assert [e["message"] for e in events[1:]] == [f"event {i}" for i in range(1, len(events))]
    # a new run on the same file carries on beside the dead session
    with HandLog(db, source="after the crash") as log:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 2})
    assert [(h["ref"], h["status"]) for h in list_hands(db)] == [("1:1", "interrupted"), ("2:1", "interrupted")]


# -- files that are not hand logs ---------------------------------------------------------------
def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path, capsys):
    bad = tmp_path / "notes.sqlite"
    data = "floor notes, table 3\n".encode() * 200
    bad.write_bytes(data)
    with pytest.raises(UserError, match="not a readable dealer-assist hand log"):
        HandLog(bad, source="x")
    assert bad.read_bytes() == data
    code, out, err = review(capsys, "--db", str(bad))
    assert code == 2 and "not a readable dealer-assist hand log" in err and "Traceback" not in err
    assert bad.read_bytes() == data


def test_another_programs_database_is_refused(tmp_path):
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE players (name TEXT)")
    con.commit()
    con.close()
    with pytest.raises(UserError, match="other tables: players"):
        HandLog(other, source="x")
    con = sqlite3.connect(other)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["players"]
    con.close()


def test_a_log_from_a_newer_version_is_refused(logged, capsys):
    db, _ = logged
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(UserError, match="newer dealer-assist"):
        HandLog(db, source="x")
    code, _, err = review(capsys, "--db", str(db))
    assert code == 2 and "newer dealer-assist" in err
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 1    # no session was added
    con.close()


def test_a_damaged_log_is_refused(logged, capsys):
    db, _ = logged
    raw = bytearray(db.read_bytes())
    raw[100:4096] = b"\x5a" * (4096 - 100)      # wipe page 1 (the schema) after the file header
    db.write_bytes(bytes(raw))
    with pytest.raises(UserError, match="hand log"):
        HandLog(db, source="x")
    code, _, err = review(capsys, "--db", str(db))
    assert code == 2 and "hand log" in err and "Traceback" not in err


def test_a_truncated_log_is_refused_by_the_writer(logged):
    db, _ = logged
    raw = db.read_bytes()
    db.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(UserError, match="hand log"):
        HandLog(db, source="x")


def test_a_missing_or_unwritable_folder_is_a_clear_error(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        HandLog(tmp_path / "no-such-folder" / "h.sqlite", source="x")
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        try:
            with pytest.raises(UserError, match="read-only"):
                HandLog(ro / "h.sqlite", source="x")
        finally:
            ro.chmod(0o755)
    elif os.path.isdir("/proc/self"):
        # root may write anywhere the file system lets it; /proc lets nobody create a file
        with pytest.raises(UserError, match=r"cannot (open|write) the hand log /proc/self"):
            HandLog("/proc/self/hand-log.sqlite", source="x")
    with pytest.raises(UserError, match="is a folder"):
        HandLog(tmp_path, source="x")


# -- dealer-assist review -----------------------------------------------------------------------
def test_review_lists_the_hands_a_floor_manager_would_look_for(logged, capsys):
    db, _ = logged
    code, out, err = review(capsys, "--db", str(db))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["hand", "id", "started", "status"]
    rows = {line.split()[0]: line for line in lines[1:4]}
    assert list(rows) == ["1:1", "1:2", "1:3"]    # session:hand, newest last
    assert [r.split()[1] for r in rows.values()] == ["1", "2", "3"]     # the row id beside it
    assert "ended" in rows["1:1"] and "Ks Js 6s 4d 2c" in rows["1:1"] and "2:70" in rows["1:1"]
    assert rows["1:1"].rstrip().endswith("1")     # one correction
    assert "no showdown" in rows["1:2"] and "2:60" in rows["1:2"] and "9h 8h 2d" in rows["1:2"]
    assert "interrupted" in rows["1:3"]
    assert "dealer-assist review 1:3" in lines[-1]


def test_review_of_a_disputed_hand_tells_the_correction_and_the_ruling(logged, capsys):
    db, _ = logged
    code, out, err = review(capsys, "--db", str(db), "1")
    assert code == 0, err
    assert "board Ks Js 6s 4d 2c" in out
    assert "winner seat 2; pays seat 2 70" in out
    # the timeline: misread river, first showdown, the correction, the corrected river, new showdown
    events = out.split("Events (time, frame, what happened):")[1].split("Dealer corrections")[0]
    order = [line.strip() for line in events.strip().splitlines()]
    i_first = next(i for i, s in enumerate(order) if "showdown:" in s)
    assert "seat 1 flush" in order[i_first] and "pays seat 1 30, seat 2 40" in order[i_first]
    assert "DEALER CORRECTION board 5: 2s corrected to 2c" in order[i_first + 1]
    assert "river: board Ks Js 6s 4d 2c" in order[i_first + 2]
    assert "pays seat 2 70" in order[i_first + 3]
    times = [float(s.split()[0]) for s in order]
    assert times == sorted(times)
    assert "board 5: 2s corrected to 2c" in out.split("Dealer corrections (1):")[1]
    ruling = out.split("Ruling:")[1]
    assert "Side pot 1 40 (seats 2 and 3): seat 2 wins" in ruling
    assert "Payouts: seat 2 70 (total 70)." in ruling


def test_review_in_japanese_uses_the_japanese_texts(logged, capsys):
    db, rec = logged
    code, out, err = review(capsys, "--db", str(db), "1", "--lang", "ja")
    assert code == 0, err
    assert "シート1 フラッシュ A-K-J-6-2" in out            # description_ja of the misread showdown
    assert "ボード5: 2s を 2c に訂正" in out
    for line in rec["rulings"]["corrected"]["explanation_ja"]:
        assert line in out
    assert "Payouts" not in out
    code, out, _ = review(capsys, "--db", str(db), "--lang", "ja")
    assert code == 0 and "ショーダウンなし" in out and "中断" in out and "進行中" not in out


def test_review_json_and_export_round_trip(logged, capsys, tmp_path):
    db, rec = logged
    code, out, _ = review(capsys, "--db", str(db), "1", "--json")
    assert code == 0
    printed = json.loads(out)
    export = tmp_path / "dispute.json"
    code, out, _ = review(capsys, "--db", str(db), "1", "--export", str(export))
    assert code == 0 and str(export) in out
    exported = json.loads(export.read_text(encoding="utf-8"))
    assert exported == printed == load_hand(db, 1)
    assert exported["events"] == [e for e in rec["events"] if e.get("hand") == 1]
    assert exported["ruling"]["payouts"] == {"1": 0, "2": 70, "3": 0}
    code, out, _ = review(capsys, "--db", str(db), "--json")
    assert code == 0 and [h["hand"] for h in json.loads(out)] == [1, 2, 3]


def test_review_writes_the_snapshots_named_by_frame_and_event(logged, capsys, tmp_path):
    db, rec = logged
    folder = tmp_path / "shots" / "hand1"
    code, out, err = review(capsys, "--db", str(db), "1", "--snapshots", str(folder))
    assert code == 0, err
    files = sorted(p.name for p in folder.iterdir())
    want = rec["snapshots"][1]
    assert len(files) == len(want)
    assert "frame000060-board.jpg" in files and "frame000180-hand_end.jpg" in files
    assert sum(name.startswith("frame000135-hole") for name in files) == 3
    img = cv2.imread(str(folder / "frame000060-board.jpg"))
    assert img is not None and img.shape == (24, 32, 3) and abs(int(img.mean()) - 20) <= 2
    assert (folder / "frame000060-board.jpg").read_bytes() == want[1][2]


@pytest.mark.parametrize("argv, message", [
    (["99"], "no hand with id 99"),
    (["two"], "a hand is SESSION:HAND"),
    (["1:0"], "a hand is SESSION:HAND"),
    (["1:2:3"], "a hand is SESSION:HAND"),
    (["1:9"], "no hand 1:9 in"),
    (["4:1"], "no session 4"),
    (["--export", "x.json"], "need a HAND"),
])
def test_review_bad_input_is_one_clear_line(logged, capsys, argv, message):
    db, _ = logged
    code, out, err = review(capsys, "--db", str(db), *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_review_without_a_log_says_where_it_looked(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = review(capsys)
    assert code == 2 and "no hand log at hand-log.sqlite" in err
    assert not (tmp_path / "hand-log.sqlite").exists()       # reading never creates a log


def test_review_export_to_a_missing_folder_is_a_clear_error(logged, capsys, tmp_path):
    db, _ = logged
    code, _, err = review(capsys, "--db", str(db), "1", "--export", str(tmp_path / "nope" / "x.json"))
    assert code == 2 and "cannot write" in err


# -- one way to name a hand: SESSION:HAND, the row id as an alias -----------------------------------
def test_a_hand_is_named_by_session_and_number_and_the_row_id_still_works(logged, capsys):
    db, _ = logged
    with HandLog(db, source="table-3 camera, after a restart") as log:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1})
    assert [h["ref"] for h in list_hands(db)] == ["1:1", "1:2", "1:3", "2:1"]   # two hands numbered 1
    assert load_hand(db, "2:1")["id"] == 4 and load_hand(db, "1:1")["id"] == 1
    code, by_ref, _ = review(capsys, "--db", str(db), "2:1")
    assert code == 0
    head = by_ref.splitlines()[:2]
    assert head[0].startswith("Hand 2:1: hand 1 of session 2 (id 4): interrupted")
    assert head[1].strip() == "open it with: dealer-assist review 2:1"      # the text and the command agree
    code, by_id, _ = review(capsys, "--db", str(db), "4")
    assert code == 0 and by_id == by_ref
    code, ja, _ = review(capsys, "--db", str(db), "2:1", "--lang", "ja")
    assert ja.splitlines()[0].startswith("ハンド 2:1（セッション2の第1ハンド、ID 4）: 中断")
    assert "dealer-assist review 2:1" in ja.splitlines()[1]


def test_an_older_log_without_writer_columns_is_read_and_migrated(tmp_path):
    from dealer_assist.live import handlog as hl

    db = tmp_path / "v1.sqlite"
    con = sqlite3.connect(db, isolation_level=None)
    for stmt in hl._split_sql(hl._MIGRATIONS[1]):
        con.execute(stmt)
    con.execute(f"PRAGMA application_id = {hl._APP_ID}")
    con.execute("PRAGMA user_version = 1")
    con.execute("INSERT INTO sessions (started, source, game, app_version) VALUES (1.0, 'cam', 'joker-holdem', '0')")
    con.execute("INSERT INTO hands (session, hand, started_wall) VALUES (1, 1, 1.0)")
    con.close()
    # schema 1 does not say which process wrote it: the last session's hand may still be playing
    assert [(h["ref"], h["status"]) for h in list_hands(db)] == [("1:1", "open")]
    with HandLog(db, source="new run") as log:          # migrates to the current schema
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1})
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.close()
    # a later session started: the old one is over, and its unfinished hand with it
    assert [(h["ref"], h["status"]) for h in list_hands(db)] == [("1:1", "interrupted"), ("2:1", "interrupted")]


# -- salvage: what a damaged log still holds, copied into a new one ----------------------------------
def noisy_jpeg(seed: int) -> bytes:
    """A JPEG of noise (about 4 KB: more than a page, like a real frame's snapshot)."""
    img = np.random.default_rng(seed).integers(0, 255, (48, 64, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def long_log(path: Path, hands: int = 30, shot=jpeg, moved: "dict[int, int] | None" = None) -> dict:
    """``hands`` ended hands, each with its events and two snapshots; returns them by hand number.
    ``moved``: hand -> the seat the dealer moved its button to after the flop (a ``button`` event)."""
    out: dict = {}
    with HandLog(path, source="table-5 camera", game="joker-holdem") as log:
        for n in range(1, hands + 1):
            f = n * 100
            evs = [{"t": f / 15, "frame": f, "type": "hand_start", "hand": n, "seats": [1, 2], "button": 1},
                   {"t": (f + 30) / 15, "frame": f + 30, "type": "board", "hand": n, "street": "flop",
                    "cards": ["9h", "8h", "2d"]},
                   {"t": (f + 60) / 15, "frame": f + 60, "type": "hand_end", "hand": n,
                    "ruling": {"payouts": {"1": 0, "2": 60 + n}, "pots": [{"winners": [2]}]},
                    "board": ["9h", "8h", "2d"], "won_without_showdown": 2, "corrections": 0}]
            shots = [shot(n), None, shot(n + 100)]
            if n in (moved or {}):
                evs.insert(2, {"t": (f + 40) / 15, "frame": f + 40, "type": "button", "hand": n,
                               "seat": moved[n], "was": 1})
                shots.insert(2, None)
            for ev, image in zip(evs, shots):
                log.record(ev, snapshot_jpeg=image)
            out[n] = {"events": evs, "shots": [s for s in shots if s is not None]}
    return out


def test_salvage_recovers_the_hands_before_the_damage_of_a_cut_log(tmp_path, capsys):
    db, new = tmp_path / "hand-log.sqlite", tmp_path / "saved.sqlite"
    played = long_log(db, hands=40, shot=noisy_jpeg)
    raw = db.read_bytes()
    db.write_bytes(raw[: len(raw) // 2 + 1234])             # the file cut in the middle
    damaged = db.read_bytes()
    code, _, err = review(capsys, "--db", str(db))
    assert code == 2 and "--salvage" in err                # the refusal says what to do
    code, out, err = review(capsys, "--salvage", str(db), str(new))
    assert code == 0, err
    assert out.startswith(f"salvaged what {db} still holds into {new}")
    assert db.read_bytes() == damaged                      # the damaged file is only read
    hands = list_hands(new)
    refs = [h["ref"] for h in hands]
    assert len(refs) >= 10 and refs == [f"1:{n}" for n in range(1, len(refs) + 1)]
    assert f"{len(refs)} hands (1:1 .. 1:{len(refs)})" in out
    # the earlier hands come back whole: status, payouts, every event and every snapshot
    whole = [h for h in hands if h["events"] == 3]
    assert len(whole) >= 10 and [h["ref"] for h in whole] == refs[:len(whole)]
    for h in whole:
        full = load_hand(new, h["ref"])
        want = played[h["hand"]]
        assert full["status"] == "ended" and full["payouts"] == {"1": 0, "2": 60 + h["hand"]}
        assert full["events"] == want["events"]
        shots = [load_snapshot(new, s["id"]) for s in full["snapshots"]]
        assert shots == want["shots"][:len(shots)]          # snapshots are kept up to the damage
        if h["hand"] <= 5:
            assert shots == want["shots"]
    code, out, _ = review(capsys, "--db", str(new), "1:1")
    assert code == 0 and "Hand 1:1" in out
    # the new file is a sound hand log that a run can go on writing
    con = sqlite3.connect(new)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    with HandLog(new, source="after the salvage") as log:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1})
    assert list_hands(new)[-1]["ref"] == "2:1"


def test_salvage_rebuilds_a_hand_whose_own_row_was_lost(tmp_path):
    from dealer_assist.live.handlog import salvage

    db, new = tmp_path / "h.sqlite", tmp_path / "saved.sqlite"
    played = long_log(db, hands=3, moved={2: 2})
    con = sqlite3.connect(db)                  # the row of hand 2 lost, its events kept
    con.execute("PRAGMA foreign_keys = OFF")
    con.execute("DELETE FROM hands WHERE hand = 2")
    con.commit()
    con.close()
    report = salvage(db, new)
    assert report["rebuilt_hands"] == 1 and report["hands"] == ["1:1", "1:2", "1:3"]
    hand = load_hand(new, "1:2")
    assert hand["status"] == "ended" and hand["board"] == ["9h", "8h", "2d"]
    assert hand["payouts"] == {"1": 0, "2": 62} and hand["events"] == played[2]["events"]
    # the button the dealer moved it to during the hand, not the one its start named
    assert [h["button"] for h in list_hands(new)] == [1, 2, 1]


@pytest.mark.parametrize("make, message", [
    ("missing", "no file at"),
    ("junk", "nothing in"),
    ("exists", "already exists"),
    ("other", "not a dealer-assist hand log"),
])
def test_salvage_bad_input_is_one_clear_line(tmp_path, capsys, make, message):
    damaged, new = tmp_path / "old.sqlite", tmp_path / "new.sqlite"
    if make == "junk":
        damaged.write_bytes(b"floor notes\n" * 500)
    elif make == "exists":
        long_log(damaged, hands=1)
        new.write_bytes(b"keep me")
    elif make == "other":
        con = sqlite3.connect(damaged)
        con.execute("CREATE TABLE players (name TEXT)")
        con.commit()
        con.close()
    code, _, err = review(capsys, "--salvage", str(damaged), str(new))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    if make == "exists":
        assert new.read_bytes() == b"keep me"
    else:
        assert not new.exists()


# -- the desk's dispute list names hands the same way -------------------------------------------------
def test_the_dispute_list_names_session_and_hand_and_shows_an_interrupted_hand(logged, qtbot):
    pytest.importorskip("PySide6")
    from dealer_assist.desk.dispute import DisputeWindow

    db, _ = logged
    with HandLog(db, source="after a restart") as log:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1})
    d = DisputeWindow(str(db), lang="ja")
    qtbot.addWidget(d)
    rows = [d.hand_list.item(i).text().splitlines()[0] for i in range(d.hand_list.count())]
    assert [r.split()[0] for r in rows] == ["1:1", "1:2", "1:3", "2:1"]
    assert "セッション1 第1ハンド" in rows[0] and "セッション2 第1ハンド" in rows[3]   # two hands 1, told apart
    assert "中断" in rows[2] and "進行中" not in rows[2] and "終了" in rows[0]
    assert d.open_hand("2:1") and d.hand["id"] == 4
    assert d.session_text.text().startswith("ハンド 2:1: セッション2の第1ハンド（ID 4）、中断")
    assert d.open_hand(2) and d.hand["ref"] == "1:2"              # the row id still works
    d.set_language("en")
    assert "session 1, hand 3" in d.hand_list.item(2).text() and "interrupted" in d.hand_list.item(2).text()
    bad = DisputeWindow(str(db), lang="en", hand_id="2:9")
    qtbot.addWidget(bad)
    assert bad.error and "no hand 2:9" in bad.error


def test_the_cards_the_dealer_confirmed_and_a_provisional_ruling_come_back_for_a_dispute(tmp_path, capsys, qtbot):
    """Issue 20 item 3: a showdown ruled on doubtful cards, the dealer's confirmation, the final
    ruling; read back by load_hand and told by review (both languages)."""
    table = {"game": "joker-holdem", "board": ["Ks", "Js", "6s", "4d", "2c"], "button": 2,
             "seats": [{"seat": 2, "hole": ["Qh", "Qd"], "committed": 50},
                       {"seat": 4, "hole": ["As", "8c"], "committed": 50}]}
    doubt = [{"zone": "seat4", "card": "8c"}]
    provisional = {**settle(table), "provisional": True, "unsure": [{**doubt[0], "or": "8s"}], "confirmed": []}
    final = {**settle(table), "provisional": False, "unsure": [], "confirmed": doubt}
    path = tmp_path / "hands.sqlite"
    with HandLog(path, source="test") as log:
        log.record({"t": 0.0, "frame": 1, "type": "hand_start", "hand": 1, "seats": [2, 4], "button": 2})
        log.record({"t": 5.0, "frame": 75, "type": "showdown", "hand": 1, "ruling": provisional, "table": table})
        log.record({"t": 6.0, "frame": 90, "type": "confirm", "hand": 1,
                    "cards": [{"zone": "seat4", "card": "8c", "or": "8s"}]})
        log.record({"t": 6.0, "frame": 90, "type": "showdown", "hand": 1, "ruling": final, "table": table})
        log.record({"t": 8.0, "frame": 120, "type": "hand_end", "hand": 1, "ruling": final, "board": table["board"],
                    "won_without_showdown": None, "corrections": 0, "provisional": False, "confirmed": doubt})
        log.record({"t": 9.0, "frame": 130, "type": "hand_start", "hand": 2, "seats": [2, 4], "button": 4})
        log.record({"t": 12.0, "frame": 180, "type": "hand_end", "hand": 2, "ruling": provisional,
                    "board": table["board"], "won_without_showdown": None, "corrections": 0,
                    "provisional": True, "confirmed": []})
    hand = load_hand(path, "1:1")
    assert hand["confirmations"] == [{"t": 6.0, "frame": 90, "zone": "seat4", "card": "8c", "event_index": 2,
                                      "or": "8s"}]
    assert hand["ruling"]["provisional"] is False and hand["ruling"]["confirmed"] == doubt
    assert load_hand(path, "1:2")["ruling"]["provisional"] is True
    assert main(["review", "--db", str(path), "1:1", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "the dealer confirmed seat 4 8c as read" in out and "PROVISIONAL showdown" in out
    assert "Cards the dealer confirmed as read (1):" in out and "1 card confirmed" in out
    assert "(the reader had asked: or 8s?)" in out
    assert main(["review", "--db", str(path), "1:2", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "仮の裁定: 確実でないカードで出され" in out and "シート4 8c（8s?）" in out and "仮のまま" in out
    # the list says which hand was paid on cards never confirmed (the confirmed one is plainly ended)
    assert main(["review", "--db", str(path), "--lang", "en"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:3]}
    assert "ended, unconfirmed" in rows["1:2"] and "unconfirmed" not in rows["1:1"]
    assert main(["review", "--db", str(path), "--lang", "ja"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:3]}
    assert "終了・未確認" in rows["1:2"] and "未確認" not in rows["1:1"]
    # and so does the dispute desk's list of hands
    from dealer_assist.desk.dispute import DisputeWindow

    d = DisputeWindow(str(path), lang="ja")
    qtbot.addWidget(d)
    items = [d.hand_list.item(i).text().splitlines()[0] for i in range(d.hand_list.count())]
    assert "終了・未確認" in items[1] and "未確認" not in items[0]
    d.set_language("en")
    assert "ended, unconfirmed" in d.hand_list.item(1).text()


def test_a_final_ruling_beside_cards_never_confirmed_is_told_as_such_in_review(tmp_path, capsys):
    """A showdown whose doubtful card could not change the chips (dealer_assist.live.doubt): the
    log keeps the card as not confirmed on a final ruling, and review says both (both languages)."""
    table = {"game": "joker-holdem", "board": ["Ks", "Js", "6s", "4d", "2c"], "button": 2,
             "seats": [{"seat": 2, "hole": ["Kh", "Kd"], "committed": 50},
                       {"seat": 4, "hole": ["9c", "8h"], "committed": 50}]}
    doubt = [{"zone": "seat4", "card": "9c"}]
    final = {**settle(table), "provisional": False, "unsure": doubt, "confirmed": []}
    path = tmp_path / "hands.sqlite"
    with HandLog(path, source="test") as log:
        log.record({"t": 0.0, "frame": 1, "type": "hand_start", "hand": 1, "seats": [2, 4], "button": 2})
        log.record({"t": 5.0, "frame": 75, "type": "showdown", "hand": 1, "ruling": final, "table": table})
        log.record({"t": 8.0, "frame": 120, "type": "hand_end", "hand": 1, "ruling": final, "board": table["board"],
                    "won_without_showdown": None, "corrections": 0, "provisional": False, "confirmed": []})
    hand = load_hand(path, "1:1")
    assert hand["ruling"]["provisional"] is False and hand["ruling"]["unsure"] == doubt
    assert main(["review", "--db", str(path), "1:1", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "PROVISIONAL" not in out
    assert "final: made on cards not all sure nor confirmed (seat 4 9c), but no card they could be changes the chips" in out
    assert "no card there could change the chips" in out            # the showdown's line
    assert main(["review", "--db", str(path), "1:1", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "確定: 確実でも確認済みでもないカード（シート4 9c）" in out and "仮" not in out
    assert main(["review", "--db", str(path), "--lang", "en"]) == 0       # a moot doubt: not paid unconfirmed
    assert "unconfirmed" not in capsys.readouterr().out


def test_an_event_or_correction_line_that_is_no_json_is_said_and_the_rest_of_the_hand_still_reads(logged, capsys):
    """A damaged log where an event line and a correction line are no JSON at all: ``review``
    tells the hand, says where the log cannot be read (both languages) and still lists the
    correction from its own columns, instead of a traceback."""
    db, _ = logged
    con = sqlite3.connect(db)
    (ev_id,) = con.execute("SELECT id FROM events WHERE type = 'board' ORDER BY id LIMIT 1").fetchone()
    con.execute("UPDATE events SET json = '{not json' WHERE id = ?", (ev_id,))
    con.execute("UPDATE corrections SET json = '{not json'")
    con.commit()
    con.close()
    hand = load_hand(db, "1")
    assert {"type": "damaged_line"} in hand["events"] and hand["corrections"][0]["to"] == "2c"
    code, out, err = review(capsys, "--db", str(db), "1")
    assert code == 0 and "Traceback" not in err
    assert "(a line of the hand log that cannot be read: the log is damaged there)" in out
    assert "board 5: 2s corrected to 2c" in out
    code, out, _ = review(capsys, "--db", str(db), "1", "--lang", "ja")
    assert code == 0 and "ハンドログのこの行は読めません" in out


def test_a_ruling_damaged_in_the_log_is_said_and_the_rest_of_the_hand_still_reads(logged, capsys):
    """A ruling row or event line that is no ruling (hand-edited or damaged): ``review`` tells the
    hand, says the ruling cannot be read and gives no winners for it, instead of a traceback."""
    db, _ = logged
    con = sqlite3.connect(db)
    con.execute("""UPDATE hands SET ruling = '{"game": "holdem", "pots": "all of it"}' WHERE hand = 1""")
    rows = con.execute("SELECT id, json FROM events WHERE type IN ('showdown', 'hand_end')").fetchall()
    for i, text in rows:
        line = json.loads(text)
        line["ruling"] = "garbage" if line["type"] == "showdown" else {"payouts": {"one": "lots"}}
        con.execute("UPDATE events SET json = ? WHERE id = ?", (json.dumps(line), i))
    con.commit()
    con.close()
    first = list_hands(db)[0]
    assert first["winners"] == [] and first["payouts"] == {} and first["ruling_unreadable"] is True
    assert load_hand(db, first["id"])["ruling"] is None
    code, out, err = review(capsys, "--db", str(db), "1")
    assert code == 0 and "Traceback" not in err
    assert "showdown (its ruling in the log cannot be read)" in out
    assert "the ruling stored for this hand cannot be read (the log is damaged)" in out.split("Ruling:")[1]
    code, out, _ = review(capsys, "--db", str(db), "1", "--lang", "ja")
    assert code == 0 and "ハンドログの裁定が読めません" in out
