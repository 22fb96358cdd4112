"""Hand logs damaged in ways SQLite itself does not notice (a hand-edit, another tool, a bad disk):
a hand whose session row is gone, a time that is no time, a JSON column holding a number, a
schema version no dealer-assist wrote, a schema text with a byte that is no UTF-8. A reader shows
what is there and says what is not; a writer refuses the file in one clear line and writes
nothing; salvage keeps what it can read. Never a traceback, never a lost hand."""
from __future__ import annotations

import os
import re
import sqlite3
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")     # the dispute window below, without a screen

from dealer_assist.cli import main
from dealer_assist.errors import UserError
from dealer_assist.live.handlog import HandLog, list_hands, load_hand

JPEG = b"\xff\xd8 a frame \xff\xd9"


def make_log(path: Path) -> Path:
    """One session of two ended hands, as run logs them (hand 2 with a snapshot)."""
    with HandLog(path, source="table-3 camera", game="joker-holdem") as log:
        for n, board in ((1, ["Ks", "Js", "6s"]), (2, ["9h", "8h", "2d"])):
            log.record({"t": 10.0 * n, "frame": 100 * n, "type": "hand_start", "hand": n, "seats": [1, 2],
                        "button": 1})
            log.record({"t": 10.0 * n + 2, "frame": 100 * n + 30, "type": "board", "hand": n, "street": "flop",
                        "cards": board}, snapshot_jpeg=JPEG if n == 2 else None)
            log.record({"t": 10.0 * n + 5, "frame": 100 * n + 60, "type": "hand_end", "hand": n, "board": board,
                        "won_without_showdown": None, "corrections": 0})
    return path


def damage(path: Path, *sql: str) -> None:
    con = sqlite3.connect(path)
    for stmt in sql:
        con.execute(stmt)
    con.commit()
    con.close()


@pytest.fixture()
def db(tmp_path) -> Path:
    return make_log(tmp_path / "hand-log.sqlite")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def clean(code: int, err: str) -> bool:
    return code == 0 and "Traceback" not in err and "Error" not in err


# -- 1. a hand whose session row is gone ----------------------------------------------------------
def test_a_hand_whose_session_row_is_gone_is_listed_and_told_with_a_note(db, capsys, tmp_path):
    damage(db, "UPDATE hands SET session = 42 WHERE hand = 2")
    code, out, err = cli(capsys, "review", "--db", str(db), "--lang", "en")
    assert clean(code, err)
    row = next(ln for ln in out.splitlines() if ln.startswith("42:2"))
    assert "ended, session lost" in row and "9h 8h 2d" in row
    assert "(session lost: the hand log has no row for that hand's session" in out
    code, out, err = cli(capsys, "review", "--db", str(db), "--lang", "ja")
    assert clean(code, err) and "終了・セッション不明" in out
    code, out, err = cli(capsys, "review", "--db", str(db), "42:2", "--lang", "en")
    assert clean(code, err)
    assert "session 42: its row is missing from the hand log (the log is damaged there)" in out
    assert "board 9h 8h 2d" in out and "flop: board 9h 8h 2d" in out
    code, out, err = cli(capsys, "review", "--db", str(db), "2", "--lang", "ja")
    assert clean(code, err) and "セッション42: ハンドログにこのセッションの行がありません" in out
    export = tmp_path / "hand.json"
    assert cli(capsys, "review", "--db", str(db), "2", "--export", str(export), "--lang", "en")[0] == 0
    assert '"session_missing": true' in export.read_text()


def test_the_dispute_window_shows_a_hand_whose_session_row_is_gone(db, qtbot):
    pytest.importorskip("PySide6")
    from dealer_assist.desk.dispute import DisputeWindow

    damage(db, "UPDATE hands SET session = 42 WHERE hand = 2")
    d = DisputeWindow(str(db), lang="ja", hand_id=2)
    qtbot.addWidget(d)
    assert d.error is None and d.hand is not None and d.hand["ref"] == "42:2"
    assert [d.hand_list.item(i).text().split()[0] for i in range(d.hand_list.count())] == ["1:1", "42:2"]
    assert "セッション不明" in d.hand_list.item(1).text()
    assert "セッション42: ハンドログにこのセッションの行がありません" in d.session_text.text()


# -- 2. a time that is no time ------------------------------------------------------------------
def test_a_session_time_that_is_no_time_is_shown_as_stored(db, capsys, tmp_path):
    damage(db, "UPDATE sessions SET started = 'yesterday'", "UPDATE hands SET started_wall = 'noon' WHERE hand = 1")
    code, out, err = cli(capsys, "review", "--db", str(db), "1:1", "--lang", "en")
    assert clean(code, err) and "started noon," in out and "flop: board Ks Js 6s" in out
    export = tmp_path / "hand.json"
    code, _, err = cli(capsys, "review", "--db", str(db), "1:1", "--export", str(export), "--lang", "en")
    assert clean(code, err) and '"started": "yesterday"' in export.read_text()
    phh = tmp_path / "phh"
    code, _, err = cli(capsys, "review", "--db", str(db), "--export-phh", str(phh), "--lang", "en")
    assert clean(code, err) and len(list(phh.iterdir())) == 2
    assert load_hand(db, "1:2")["session"]["started"] == "yesterday"


def test_the_dispute_window_shows_a_hand_whose_session_time_is_no_time(db, qtbot):
    pytest.importorskip("PySide6")
    from dealer_assist.desk.dispute import DisputeWindow

    damage(db, "UPDATE sessions SET started = 'yesterday'")
    d = DisputeWindow(str(db), lang="en", hand_id="1:2")
    qtbot.addWidget(d)
    assert d.error is None and d.hand["ref"] == "1:2" and d.timeline.count() == 3
    assert "yesterday" in d.session_text.text()


# -- 3. a JSON column holding the wrong kind of value ---------------------------------------------
def test_a_board_that_is_no_list_is_said_unreadable_and_the_rest_shown(db, capsys, tmp_path):
    damage(db, "UPDATE hands SET board = '123'", "UPDATE hands SET seats = '{\"1\": 2}' WHERE hand = 2")
    hands = list_hands(db)
    assert [(h["board"], h["board_unreadable"]) for h in hands] == [([], True), ([], True)]
    code, out, err = cli(capsys, "review", "--db", str(db), "--lang", "en")
    assert clean(code, err) and len(re.findall(r"^1:\d .*\(unreadable\)", out, re.M)) == 2
    assert "(unreadable: the board stored for that hand is damaged" in out
    code, out, err = cli(capsys, "review", "--db", str(db), "--lang", "ja")
    assert clean(code, err) and "（読めません）" in out
    code, out, err = cli(capsys, "review", "--db", str(db), "1:2", "--lang", "en")
    assert clean(code, err) and "the board stored for this hand cannot be read" in out
    assert "the seats dealt in, as stored for this hand, cannot be read" in out and "flop: board 9h 8h 2d" in out
    code, out, err = cli(capsys, "review", "--db", str(db), "1:2", "--lang", "ja")
    assert clean(code, err) and "このハンドに保存されたボードが読めません（ログがここで壊れています）" in out
    phh = tmp_path / "phh"
    code, _, err = cli(capsys, "review", "--db", str(db), "--export-phh", str(phh), "--lang", "en")
    assert clean(code, err) and len(list(phh.iterdir())) == 2


def test_the_dispute_window_lists_hands_whose_board_is_no_list(db, qtbot):
    pytest.importorskip("PySide6")
    from dealer_assist.desk.dispute import DisputeWindow

    damage(db, "UPDATE hands SET board = '123'")
    d = DisputeWindow(str(db), lang="ja", hand_id="1:1")
    qtbot.addWidget(d)
    assert d.error is None and d.hand_list.count() == 2 and "（読めません）" in d.hand_list.item(0).text()


# -- 4. a schema version no dealer-assist wrote ---------------------------------------------------
def test_a_log_with_an_unknown_schema_version_is_refused_by_the_writer_and_left_untouched(db, capsys):
    damage(db, "PRAGMA user_version = -1")
    before = db.read_bytes()
    with pytest.raises(UserError, match=r"has hand-log schema version -1, which this dealer-assist .* does not know"):
        HandLog(db, source="x")
    code, _, err = cli(capsys, "run", "--headless", "--db", str(db), "--lang", "en")
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert f"{db} has hand-log schema version -1" in err and "it was left untouched" in err
    code, _, err = cli(capsys, "run", "--headless", "--db", str(db), "--lang", "ja")
    assert code == 2 and f"{db} のハンドログのスキーマバージョン -1 は" in err
    assert db.read_bytes() == before
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    code, out, err = cli(capsys, "review", "--db", str(db), "--lang", "en")   # its hands still read
    assert clean(code, err) and "1:2" in out


# -- 5. a schema text with a byte that is no UTF-8 --------------------------------------------------
def test_salvage_keeps_a_table_whose_schema_text_has_a_byte_that_is_no_utf8(db, capsys, tmp_path):
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode = DELETE")     # everything in the main file, no -wal beside it
    con.close()
    raw = bytearray(db.read_bytes())
    at = re.search(rb"type +TEXT", raw).start()      # the events table's column "type"
    raw[at] = 0xFF
    db.write_bytes(bytes(raw))
    new = tmp_path / "saved.sqlite"
    code, out, err = cli(capsys, "review", "--salvage", str(db), str(new), "--lang", "en")
    assert clean(code, err) and "2 hands (1:1 .. 1:2), 6 events" in out and "1 snapshot," in out
    hand = load_hand(new, "1:2")
    assert [e["type"] for e in hand["events"]] == ["hand_start", "board", "hand_end"]
    assert hand["board"] == ["9h", "8h", "2d"] and len(hand["snapshots"]) == 1
    con = sqlite3.connect(new)
    assert [r[0] for r in con.execute("SELECT type FROM events ORDER BY id")][:3] == \
        ["hand_start", "board", "hand_end"]
    con.close()


def test_a_snapshot_the_disk_changed_is_never_shown_or_exported_as_the_hands_evidence(tmp_path, capsys):
    """Each snapshot keeps its SHA-256 as written: bytes changed since (200 flipped bytes passed the
    file's integrity check and were exported as good JPEGs) are refused by the reader, and review
    --snapshots writes the others and says which it left out."""
    import sqlite3

    from dealer_assist.cli import main
    from dealer_assist.live.handlog import HandLog, load_hand, load_snapshot
    from dealer_assist.errors import UserError

    db = tmp_path / "hands.sqlite"
    with HandLog(str(db), source="test", game="holdem") as log:
        log.record({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1},
                   snapshot_jpeg=b"\xff\xd8 frame zero \xff\xd9")
        log.record({"t": 1.0, "frame": 30, "type": "board", "hand": 1, "street": "flop",
                    "cards": ["Ks", "Js", "6s"]}, snapshot_jpeg=b"\xff\xd8 frame thirty \xff\xd9")
    first, second = [s["id"] for s in load_hand(db, 1)["snapshots"]]
    assert load_snapshot(db, second) == b"\xff\xd8 frame thirty \xff\xd9"
    con = sqlite3.connect(db)
    con.execute("UPDATE snapshots SET jpeg = ? WHERE id = ?", (b"\xff\xd8 frame th1rty \xff\xd9", second))
    con.commit()
    con.close()
    with pytest.raises(UserError, match="is damaged"):
        load_snapshot(db, second)
    assert load_snapshot(db, first) == b"\xff\xd8 frame zero \xff\xd9"
    out = tmp_path / "snaps"
    assert main(["review", "--db", str(db), "1:1", "--snapshots", str(out), "--lang", "en"]) == 2
    said = capsys.readouterr()
    assert f"snapshot {second} of hand 1:1 is damaged" in said.err and "wrote 1 snapshot" in said.out
    assert [p.read_bytes() for p in out.iterdir()] == [b"\xff\xd8 frame zero \xff\xd9"]
