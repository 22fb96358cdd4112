"""Shadowing a live table (issue 23): the trainee rules on each showdown of live play in a window of
their own, before seeing the ruling; the answer is judged by the engine and kept in the trainee
store; the dealer's screen shows the ruling as always, answered or not."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sqlite3  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QColor  # noqa: E402

from dealer_assist.cli import build_parser, main  # noqa: E402
from dealer_assist.desk.session import Tick  # noqa: E402
from dealer_assist.desk.shadow import ShadowWindow, attach  # noqa: E402
from dealer_assist.live.ruling import TableRuling  # noqa: E402
from dealer_assist.desk.widgets import DECIDING  # noqa: E402
from dealer_assist.live.events import HandEnd, HandStart, Showdown  # noqa: E402
from dealer_assist.trainer.drills import check, make_drill  # noqa: E402
from dealer_assist.trainer.shadow import Shadow, live_drill, shadowed  # noqa: E402
from dealer_assist.trainer.store import Store  # noqa: E402
from dealer_assist.trainer.typed import reply_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT / "sample_frames" / "clip"
PLAY_TIMEOUT_MS = 120_000


def answers_rows(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    rows = con.execute("SELECT t.name, a.drill, a.topic, a.right, a.seconds FROM answers a "
                       "JOIN trainees t ON t.id = a.trainee ORDER BY a.id").fetchall()
    con.close()
    return rows


def wrong_chips(drill) -> str:
    """The engine's answer as typed, with the chips of the first two paid seats swapped."""
    text = reply_text(drill)
    chips, bar, pots = text.partition(" | ")
    pairs = [p.split(":") for p in chips.split()]
    paid = [i for i, (_s, v) in enumerate(pairs) if v != "0"]
    a, b = (paid + [i for i in range(len(pairs)) if i not in paid])[:2]
    pairs[a][1], pairs[b][1] = pairs[b][1], pairs[a][1]
    return " ".join(f"{s}:{v}" for s, v in pairs) + bar + pots


def explanation_lines(w: ShadowWindow) -> list[str]:
    return [w.explanation.item(k).text() for k in range(w.explanation.count())]


# ----------------------------------------------------------------------------- the live clip

def open_desk_with_trainee(qtbot, db: Path, trainees: Path, now: list, stop_at: int):
    from PySide6.QtWidgets import QApplication

    from dealer_assist.commands.desk import pick_font
    from dealer_assist.commands.run import LiveParts
    from dealer_assist.desk.session import LiveSession
    from dealer_assist.desk.window import DeskWindow

    pick_font(QApplication.instance())
    args = build_parser().parse_args(["desk", "--fast", "--db", str(db), "--stop-at", str(stop_at),
                                      "--trainer", "佐藤", "--shadow", "--trainees", str(trainees)])
    args.realtime = False
    parts = LiveParts(args, lambda ev: None, log_thread_free=True)
    window = DeskWindow(LiveSession(parts.pipeline, parts.source, stop_at=args.stop_at),
                        calibration=parts.calibration, lang="ja", db=str(db), source_name="sample clip")
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    shadow = attach(window, args.trainer, args.trainees, lang="ja", session=parts.log.session,
                    clock=lambda: now[0])
    qtbot.addWidget(shadow)
    shadow.resize(900, 760)
    shadow.show()
    window.start()
    return window, shadow


def play_to(qtbot, window, frame: int) -> None:
    qtbot.waitUntil(lambda: window.is_paused and window._last_frame_index is not None
                    and window._last_frame_index >= frame, timeout=PLAY_TIMEOUT_MS)


def resume_to(qtbot, window, frame: int) -> None:
    window.session.stop_at = frame
    window.toggle_pause()
    play_to(qtbot, window, frame)


@pytest.mark.skipif(not (CLIP / "joker-nlh.mp4").is_file(), reason="no sample clip")
def test_shadowing_the_clip_one_showdown_right_one_wrong_while_the_desk_shows_each_ruling(qtbot, tmp_path):
    db, trainees = tmp_path / "hands.sqlite", tmp_path / "trainees.sqlite"
    now = [1000.0]
    desk, w = open_desk_with_trainee(qtbot, db, trainees, now, stop_at=82)
    play_to(qtbot, desk, 82)                   # hand 1's showdown: seat 5's three nines win 450
    qtbot.waitUntil(lambda: w.shadow.open, timeout=10_000)
    # the dealer sees the ruling at once, the trainee's window asks for it and shows none of it
    assert desk.seats[5].payout.text() == "獲得 450"
    assert w.shadow.drill.id == "shadow-1-1" and w.shadow.drill.topic == "showdown-joker"
    assert w.heading.text().startswith("ハンド1:1") and "あなたの裁定" in w.heading.text()
    assert w.question.text() and w.help.text() and not w.ruling_visible()
    assert len(w.tiles) >= 5 + 2 * 2           # the board and the hole cards are drawn
    assert "450" not in w.verdict.text() and w.entry.isEnabled()
    # an answer that cannot be read is refused on the spot, in Japanese, and not recorded
    qtbot.keyClicks(w.entry, "seat five")
    qtbot.keyClick(w.entry, Qt.Key.Key_Return)
    assert "読めません" in w.verdict.text() and w.shadow.open and answers_rows(trainees) == []
    w.entry.clear()
    now[0] += 6.5
    qtbot.keyClicks(w.entry, reply_text(w.shadow.drill))
    qtbot.keyClick(w.entry, Qt.Key.Key_Return)
    assert w.verdict.text().startswith("正解（6.5秒）") and "5:450" in w.verdict.text()
    assert w.ruling_visible() and explanation_lines(w)[0] == "正解です。"
    assert not w.entry.isEnabled()

    resume_to(qtbot, desk, 165)                # hand 2's showdown: the side pot the joker loses
    qtbot.waitUntil(lambda: w.shadow.open and w.shadow.drill_hand == 2, timeout=10_000)
    pots = desk.ruling.pot_texts()             # shown to the dealer before the trainee answers
    assert pots[0].startswith("メインポット 320") and pots[1].startswith("サイドポット1 400")
    assert w.shadow.drill.topic == "side-pots" and not w.ruling_visible()
    assert w.verdict.text() == "" and w.entry.text() == ""
    now[0] += 12.0
    qtbot.keyClicks(w.entry, wrong_chips(w.shadow.drill))
    qtbot.keyClick(w.entry, Qt.Key.Key_Return)
    assert w.verdict.text().startswith("不正解（12.0秒）")
    lines = explanation_lines(w)
    assert lines[0].startswith("不正解") and any("メインポット 320" in line for line in lines)
    highlighted = [k for k in range(w.explanation.count())
                   if w.explanation.item(k).background().color().name() == QColor(DECIDING).name()]
    assert len(highlighted) == 1
    assert desk.ruling.pot_texts()[0].startswith("メインポット 320")      # the desk's ruling is untouched

    resume_to(qtbot, desk, 185)                # hand 2 ends, hand 3 starts: nothing more is asked
    qtbot.waitUntil(lambda: w.shadow.hand == 3, timeout=10_000)
    assert not w.shadow.open and w.verdict.text().startswith("不正解")      # the last verdict stays
    desk.shutdown()
    w.finish()
    assert answers_rows(trainees) == [("佐藤", "shadow-1-1", "showdown-joker", 1, 6.5),
                                      ("佐藤", "shadow-1-2", "side-pots", 0, 12.0)]
    rows = shadowed(Store(str(trainees)), "佐藤")
    assert [(r["hand"], r["answered"], r["right"]) for r in rows] == [("1:1", True, True), ("1:2", True, False)]
    # the shadowed answers count in the trainer screen's progress like any drill
    prog = Store(str(trainees)).progress("佐藤")
    assert prog["showdown-joker"].right == 1 and prog["side-pots"].right == 0


# ----------------------------------------------------------------------------- recorded events

def showdown_event(drill, hand: int, **ruling) -> Showdown:
    return Showdown(1.0, 10 * hand, hand, table=dict(drill.table),
                    ruling=TableRuling.from_json({**drill.answer, **ruling}))


def test_a_showdown_that_passes_unanswered_is_kept_as_not_answered_and_then_revealed(qtbot, tmp_path):
    db = tmp_path / "trainees.sqlite"
    w = ShadowWindow("Ken", Store(str(db)), lang="ja", session=4)
    qtbot.addWidget(w)
    w.show()
    assert w.heading.text() == "最初のハンドを待っています"
    d = make_drill("side-pots", 2, seed=3, index=1)
    w.on_tick(Tick(events=[HandStart(0.0, 1, 7)]))
    assert "ハンド7" in w.heading.text() and not w.entry.isEnabled()
    w.on_tick(Tick(events=[showdown_event(d, 7)]))
    assert w.shadow.open and w.shadow.drill.id == "shadow-4-7" and not w.ruling_visible()
    w.on_tick(Tick(events=[HandEnd(2.0, 80, 7)]))
    assert not w.shadow.open and w.shadow.missed
    assert w.verdict.text().startswith("回答なし") and reply_text(d).split(" | ")[0] in w.verdict.text()
    assert w.ruling_visible() and "不正解" not in " ".join(explanation_lines(w))
    # typing now changes nothing: the question is closed
    qtbot.keyClicks(w.entry, reply_text(d))
    qtbot.keyClick(w.entry, Qt.Key.Key_Return)
    store = Store(str(db))
    assert store.answers("Ken") == [] and store.progress("Ken") == {}      # not counted as wrong
    assert [(r["hand"], r["topic"], r["answered"], r["right"], r["seconds"]) for r in shadowed(store, "Ken")] == \
        [("4:7", "side-pots", False, None, None)]


def test_a_correction_before_the_answer_moves_the_question_to_the_corrected_table(tmp_path):
    store = Store(str(tmp_path / "t.sqlite"))
    now = [5.0]
    sh = Shadow("Ken", store, session=1, clock=lambda: now[0])
    first = make_drill("showdown-holdem", 1, seed=2, index=0)
    assert sh.feed([showdown_event(first, 3)]) and sh.open
    sh.feed([showdown_event(first, 3)])
    assert sh.open and not sh.updated           # the same table again (a confirmation): nothing moves
    corrected = make_drill("showdown-holdem", 1, seed=2, index=1)      # the dealer corrected cards
    now[0] = 9.0
    assert sh.feed([showdown_event(corrected, 3)])
    assert sh.open and sh.updated and sh.drill.table == corrected.table
    result = sh.answer_text(reply_text(corrected))
    assert result.right
    assert [(a["drill"], a["right"], a["seconds"]) for a in store.answers("Ken")] == [("shadow-1-3", True, 4.0)]
    # after the answer, a later showdown event of the hand does not reopen it, nor is it asked twice
    assert sh.feed([showdown_event(first, 3)]) is False and not sh.open
    from dealer_assist.errors import UserError
    with pytest.raises(UserError):
        sh.answer_text(reply_text(first))
    assert len(store.answers("Ken")) == 1


def test_a_store_that_refuses_the_record_is_said_and_the_answer_still_judged(tmp_path):
    store = Store(str(tmp_path / "t.sqlite"))
    sh = Shadow("Ken", store, session=1)
    d = make_drill("odd-chips", 1, seed=4, index=0)
    sh.feed([showdown_event(d, 2)])
    store.db.close()                            # the file went away under the desk
    result = sh.answer_text(reply_text(d))
    assert result.right and sh.result is result and not sh.open
    assert "研修記録" in sh.store_error.render("ja") and "did not keep" in sh.store_error.render("en")


def test_the_live_drill_is_the_hand_s_topic_and_the_engine_s_answer():
    from dealer_assist.trainer.typed import read_reply

    for made, level, want in (("side-pots", 2, "side-pots"), ("odd-chips", 1, "odd-chips"),
                              ("showdown-joker", 1, "showdown-joker"), ("showdown-holdem", 1, "showdown-holdem"),
                              ("showdown-holdem", 2, "side-pots"), ("hilo", 1, "hilo"), ("stud", 1, "stud"),
                              ("half-texas", 1, "half-texas")):
        d = make_drill(made, level, seed=1, index=0)
        live = live_drill(showdown_event(d, 2), session=5)
        assert (live.id, live.topic) == ("shadow-5-2", want), made
        assert live.answer.get("payouts") == d.answer.get("payouts")        # the engine's, worked out again
        assert check(live, read_reply(live, reply_text(live))).right
    # no chips entered at the table: the payouts mean nothing, the showing order is asked
    d = make_drill("showdown-holdem", 2, seed=1, index=0)
    live = live_drill(showdown_event(d, 2, chips_entered=False))
    assert (live.id, live.topic) == ("shadow-live-2", "showing-order")
    from dealer_assist.errors import UserError
    with pytest.raises(UserError):
        live_drill(Showdown(1.0, 20, 2, table={"game": "holdem", "seats": "?"}))


def test_shadow_on_the_command_line_needs_a_trainee_and_a_live_table(capsys, tmp_path):
    assert main(["desk", "--shadow", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "--shadow" in capsys.readouterr().err
    assert main(["desk", "--trainer", "Ken", "--shadow", "--from-log", "hand-log.sqlite",
                 "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "--from-log" in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()
    assert main(["desk", "--trainer", "Ken", "--shadow", "--trainees", str(tmp_path / "no" / "t.sqlite"),
                 "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "t.sqlite" in err and "Traceback" not in err and not (tmp_path / "x.png").exists()


@pytest.mark.skipif(not (CLIP / "joker-nlh.mp4").is_file(), reason="no sample clip")
def test_desk_shadow_command_plays_the_clip_and_keeps_its_unanswered_showdowns(tmp_path):
    trainees, png = tmp_path / "t.sqlite", tmp_path / "desk.png"
    assert main(["desk", "--trainer", "佐藤", "--shadow", "--trainees", str(trainees), "--db",
                 str(tmp_path / "h.sqlite"), "--screenshot", str(png)]) == 0
    assert png.is_file()                        # the dealer's screen, played to the end
    store = Store(str(trainees))
    assert [(r["drill"], r["topic"], r["answered"]) for r in shadowed(store, "佐藤")] == [
        ("shadow-1-1", "showdown-joker", False), ("shadow-1-2", "side-pots", False)]
    assert store.answers("佐藤") == []
