"""The desk display (PySide6, off screen) driven by the real pipeline on the bundled sample clip:
the showdown and its payouts, a correction that changes the ruling, the joker alert and its
clearing, dispute mode on the hand log, the screenshot command, the two screen sizes."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import dataclasses  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtWidgets import QPushButton  # noqa: E402

from dealer_assist.cli import build_parser  # noqa: E402
from dealer_assist.commands.run import LiveParts  # noqa: E402
from dealer_assist.desk.session import LiveSession  # noqa: E402
from dealer_assist.desk.window import DeskWindow  # noqa: E402
from dealer_assist.rules.holdem import BURN_SWAP_JA  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT / "sample_frames" / "clip"
pytestmark = pytest.mark.skipif(not (CLIP / "joker-nlh.mp4").is_file(), reason="no sample clip")

PLAY_TIMEOUT_MS = 120_000


def open_desk(qtbot, db: Path, *extra: str, lang: str = "ja", size=(1280, 800),
              sure: float | None = None, doubt: dict[str, str] | None = None) -> DeskWindow:
    """The desk on the sample clip, as ``dealer-assist desk --fast --db DB ...`` opens it.
    ``sure``: the reader's sure threshold (0: every name sure, above 1: none; None: the measured
    one), so that what is provisional does not depend on the shipped models; ``doubt``: cards the
    reader reports not sure, each with the other name it offers (``{"Ks": "Kc"}``: ``--doubt Ks=Kc``)."""
    from PySide6.QtWidgets import QApplication

    from dealer_assist.commands.desk import pick_font

    pick_font(QApplication.instance())         # the desk's own font, as the command sets it
    doubts = [f"--doubt={card}={other}" for card, other in (doubt or {}).items()]
    args = build_parser().parse_args(["desk", "--fast", "--db", str(db), *doubts, *extra])
    args.realtime = False
    parts = LiveParts(args, lambda ev: None, log_thread_free=True)
    det = parts.pipeline.detector
    if sure is not None:
        det.settings = dataclasses.replace(det.settings, sure=sure)
    window = DeskWindow(LiveSession(parts.pipeline, parts.source, stop_at=args.stop_at),
                        calibration=parts.calibration, lang=lang, db=str(db), source_name="sample clip")
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    window.start()
    return window


def play_to(qtbot, window: DeskWindow, frame: int) -> None:
    """Let the worker run until it pauses at ``frame``."""
    qtbot.waitUntil(lambda: window.is_paused and window._last_frame_index is not None
                    and window._last_frame_index >= frame, timeout=PLAY_TIMEOUT_MS)


def resume_to(qtbot, window: DeskWindow, frame: int) -> None:
    window.session.stop_at = frame          # read by the worker between frames (it is paused)
    window.toggle_pause()
    play_to(qtbot, window, frame)


def tile_texts(tiles) -> list[str]:
    return [t.text() for t in tiles if t.isVisible() and t.code is not None]


@pytest.fixture
def desk_at_showdown(qtbot, tmp_path):
    """Hand 2 of the clip paused at its showdown (frame 160): the side pot the joker loses; no
    card read surely, so the ruling is provisional (the fullest screen)."""
    window = open_desk(qtbot, tmp_path / "hands.sqlite", "--stop-at", "160", sure=1.01)
    play_to(qtbot, window, 160)
    yield window
    window.shutdown()


def test_the_clips_side_pot_showdown_appears_with_the_right_payouts(qtbot, desk_at_showdown):
    w = desk_at_showdown
    snap = w.snapshot
    assert snap.live and snap.hand == 2 and snap.street == "showdown"
    pots = w.ruling.pot_texts()
    assert pots[0].startswith("メインポット 320") and "シート2 320" in pots[0]
    assert pots[1].startswith("サイドポット1 400") and "シート4 400" in pots[1]
    assert w.seats[2].payout.text() == "獲得 320" and w.seats[4].payout.text() == "獲得 400"
    assert w.seats[3].payout.text() == ""                      # the joker holder loses the tie
    assert "JOKER=A♠" in tile_texts(w.seats[3].five)           # its best five marks the stand-in
    assert "JOKER＝A♠" in w.seats[3].hand.text()
    assert tile_texts(w.board.tiles) == ["Q♦", "J♣", "10♥", "5♠", "5♥"]
    assert "特別ルール④" in w.ruling.why.text()                 # the engine's explanation, read aloud
    # English at a key press; the same ruling
    qtbot.keyClick(w, Qt.Key.Key_L)
    pots = w.ruling.pot_texts()
    assert pots[0].startswith("Main pot 320") and pots[1].startswith("Side pot 1 400")
    assert w.seats[4].payout.text() == "wins 400" and "loses ties" in w.ruling.why.text()


def test_the_winners_panels_are_framed_green_until_the_next_hand_is_dealt(qtbot, desk_at_showdown):
    # The panels are redrawn every frame but restyled only when their look changes: the green
    # frame must still come and go with the ruling.
    from dealer_assist.desk.widgets import WIN

    def framed(seat: int) -> bool:
        panel = w.seats[seat]
        edge = panel.grab().toImage().pixelColor(1, panel.height() // 2)
        return edge.name() == WIN

    w = desk_at_showdown
    assert [s for s in sorted(w.seats) if framed(s)] == [2, 4]
    resume_to(qtbot, w, 185)                                   # hand 3 is dealt
    assert w.snapshot.hand == 3
    assert not any(framed(s) for s in w.seats)


def corrections_logged(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    rows = con.execute("SELECT zone, card, to_card FROM corrections").fetchall()
    con.close()
    return rows


def test_a_payout_changing_correction_asks_first_then_marks_the_card(qtbot, tmp_path):
    db = tmp_path / "hands.sqlite"
    w = open_desk(qtbot, db, "--stop-at", "82", sure=0.0)
    play_to(qtbot, w, 82)                      # hand 1's showdown: seat 5's three nines win 450
    assert w.seats[5].payout.text() == "獲得 450" and w.seats[1].payout.text() == ""
    assert w.banner.codes() == [] and w.banner.text() == "異常なし"
    assert w.seats[1].reason.full_text() == "シート5のスリーカードに負け"   # why seat 1 takes nothing

    def pick_kc():
        tile = next(t for t in w.seats[1].tiles if t.code == "Qc")
        qtbot.mouseClick(tile, Qt.MouseButton.LeftButton)      # the dealer clicks the misread card
        assert w.picker is not None and w.picker.isVisible()
        qtbot.keyClicks(w.picker.entry, "Kc")
        qtbot.keyClick(w.picker.entry, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: w.confirm is not None and w.confirm.isVisible(), timeout=10_000)
        return w.confirm

    # it moves 450 chips from seat 5 to seat 1: the desk shows that and waits
    confirm = pick_kc()
    assert "シート1:  0 → 450" in confirm.text() and "シート5:  450 → 0" in confirm.text()
    qtbot.keyClick(confirm, Qt.Key.Key_Return)         # a stray Enter does not apply it
    assert confirm.isVisible() and w.seats[5].payout.text() == "獲得 450"
    qtbot.mouseClick(confirm.cancel_button, Qt.MouseButton.LeftButton)      # cancelled: nothing
    qtbot.wait(300)
    assert w.seats[5].payout.text() == "獲得 450" and w.session.table.corrections == 0
    confirm = pick_kc()
    qtbot.mouseClick(confirm.apply_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.seats[1].payout.text() == "獲得 450", timeout=10_000)
    assert w.seats[5].payout.text() == ""
    assert sorted(tile_texts(w.seats[1].tiles)) == ["K♠", "K♣"]
    assert w.seats[1].hand.text().startswith("スリーカード")
    # the corrected card carries its mark, the other does not; the banner says a correction stands
    marks = {t.code: t.corrected for t in w.seats[1].tiles}
    assert marks == {"Kc": "Qc", "Ks": None}
    assert "correction_stands" in w.banner.codes() and "異常なし" not in w.banner.text()
    assert "ディーラー訂正あり" in w.banner.text() and "シート1 Q♣ → K♣" in w.banner.text()
    assert w.seats[5].reason.full_text() == "シート1のスリーカードに負け"
    w.shutdown()
    assert corrections_logged(db) == [("seat1", "Qc", "Kc")]


def doubtful_tiles(w) -> list[str]:
    tiles = list(w.board.tiles) + [t for panel in w.seats.values() for t in panel.tiles]
    return sorted(t.text() for t in tiles if t.isVisible() and t.code is not None and t.doubtful)


def test_a_doubt_that_cannot_change_the_chips_shows_a_final_ruling_with_the_card_marked(qtbot, tmp_path):
    """Hand 1 of the clip: seat 1's K♠ read unsure (or K♣?) beside the Q♣ loses to seat 5's three
    nines whatever it is: the ruling is final at once, the K♠ stays marked, no banner asks for it;
    the hand log keeps the card as not confirmed on a ruling that is not provisional."""
    from dealer_assist.live.handlog import load_hand

    db = tmp_path / "hands.sqlite"
    w = open_desk(qtbot, db, "--stop-at", "84", sure=0.0, doubt={"Ks": "Kc"})
    play_to(qtbot, w, 84)
    snap = w.snapshot
    assert snap.street == "showdown" and snap.hand == 1
    assert not snap.provisional and snap.moot and snap.unsure == (("seat1", "Ks"),)
    assert w.ruling.title.text() == "裁定" and w.ruling.provisional.isVisible()
    assert w.ruling.provisional.full_text() == "確定: 印のカードが何であってもチップの配分は変わりません"
    assert "provisional_ruling" not in w.banner.codes()
    assert doubtful_tiles(w) == ["K♠"] and w.act_confirm.isEnabled()      # the dealer may still confirm it
    assert w.seats[5].payout.text() == "獲得 450"
    qtbot.keyClick(w, Qt.Key.Key_L)
    assert w.ruling.provisional.full_text() == "final: no name of the marked cards could change the chips"
    resume_to(qtbot, w, 95)                                    # the table is cleared: the hand ends
    assert w.snapshot.street == "showdown" and not w.snapshot.live
    assert w.snapshot.moot and doubtful_tiles(w) == ["K♠"]     # the hand over keeps its mark
    w.shutdown()
    hand = load_hand(db, "1:1")
    assert hand["ruling"]["provisional"] is False
    assert hand["ruling"]["unsure"] == [{"zone": "seat1", "card": "Ks", "or": "Kc"}] and hand["confirmations"] == []


def test_a_provisional_showdown_is_marked_and_one_key_confirms_it_into_the_hand_log(qtbot, tmp_path):
    from dealer_assist.live.handlog import load_hand

    db = tmp_path / "hands.sqlite"
    w = open_desk(qtbot, db, "--stop-at", "160", sure=1.01)     # the reader is sure of no card
    play_to(qtbot, w, 160)
    snap = w.snapshot
    assert snap.street == "showdown" and snap.provisional
    assert w.ruling.title.text() == "裁定（仮）" and w.ruling.provisional.isVisible()
    assert w.ruling.provisional.full_text() == "印のカードを確認すると確定（Enter）"
    assert w.ruling.pot_texts()[0].startswith("メインポット 320")          # the ruling stands, marked
    assert "provisional_ruling" in w.banner.codes() and "仮の裁定" in w.banner.text()
    assert "Enter（またはC）" in w.banner.text() and "シート3 K♥" in w.banner.text()
    shown = ["Q♦", "J♣", "10♥", "5♠", "5♥", "Q♥", "Q♠", "JOKER", "K♥", "K♣", "A♣"]
    assert doubtful_tiles(w) == sorted(shown)                   # every card read is marked
    assert w.act_confirm.isEnabled()
    qtbot.keyClick(w, Qt.Key.Key_Return)                        # one key confirms them all
    qtbot.waitUntil(lambda: not w.snapshot.provisional, timeout=10_000)
    assert w.ruling.title.text() == "裁定" and not w.ruling.provisional.isVisible()
    assert doubtful_tiles(w) == [] and "provisional_ruling" not in w.banner.codes()
    assert w.ruling.pot_texts()[0].startswith("メインポット 320") and not w.act_confirm.isEnabled()
    resume_to(qtbot, w, 185)                                   # the table is cleared: the hand ends
    w.shutdown()
    hand = load_hand(db, "1:2")
    confirmed = [(c["zone"], c["card"]) for c in hand["confirmations"]]
    assert len(confirmed) == 11 and ("seat3", "JK") in confirmed and ("board2", "Jc") in confirmed
    kinds = [e["type"] for e in hand["events"]]
    assert kinds.count("confirm") == 1 and kinds.index("confirm") < len(kinds) - 1
    showdowns = [e for e in hand["events"] if e["type"] == "showdown"]
    assert showdowns[0]["ruling"]["provisional"] and not showdowns[-1]["ruling"]["provisional"]
    end = hand["events"][-1]
    assert end["type"] == "hand_end" and end["provisional"] is False and len(end["confirmed"]) == 11
    assert hand["ruling"]["provisional"] is False and len(hand["ruling"]["confirmed"]) == 11


def test_a_click_on_a_doubtful_card_offers_to_confirm_it_or_correct_it(qtbot, desk_at_showdown):
    w = desk_at_showdown
    tile = next(t for t in w.seats[4].tiles if t.code == "Kc")
    assert tile.doubtful
    qtbot.mouseClick(tile, Qt.MouseButton.LeftButton)
    assert w.picker is not None and w.picker.isVisible() and w.picker.confirm_button.isVisible()
    assert w.picker.confirm_button.text() == "K♣ を読み取りどおりと確認（正しい）"
    qtbot.mouseClick(w.picker.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not next(t for t in w.seats[4].tiles if t.code == "Kc").doubtful, timeout=10_000)
    assert ("seat4", "Kc") in w.session.table.confirmed
    assert w.snapshot.provisional and "K♣" not in doubtful_tiles(w)       # the others still wait
    qtbot.mouseClick(next(t for t in w.seats[4].tiles if t.code == "Kc"), Qt.MouseButton.LeftButton)
    assert w.picker.isVisible() and not w.picker.confirm_button.isVisible()   # a sure card: correct only
    w.picker.reject()


def test_a_correction_that_pays_nobody_else_goes_straight_through_and_is_marked(qtbot, desk_at_showdown):
    w = desk_at_showdown                       # hand 2: seat 2's queens full of fives win the main pot
    before = w.ruling.pot_texts()
    w.correct("seat2", "Qh", "Qc")             # still queens full: no payout moves, nothing is asked
    qtbot.waitUntil(lambda: any(t.corrected for t in w.seats[2].tiles), timeout=10_000)
    assert w.confirm is None and w.ruling.pot_texts() == before
    assert [(t.code, t.corrected) for t in w.seats[2].tiles if t.corrected] == [("Qc", "Qh")]
    assert "correction_stands" in w.banner.codes()


def test_a_correction_that_puts_a_card_in_two_places_is_refused_with_its_reason(qtbot, desk_at_showdown):
    w = desk_at_showdown
    before = w.ruling.pot_texts()
    w.correct("seat4", "Kc", "Qd")             # Qd is the board's first card
    qtbot.waitUntil(lambda: "correction_refused" in w.banner.codes(), timeout=10_000)
    assert "Qdはすでにボード1にあります" in w.banner.text() and "2か所" in w.banner.text()
    assert w.confirm is None and w.ruling.pot_texts() == before
    assert [t.code for t in w.seats[4].tiles] == ["Kc", "Ac"] and not any(t.corrected for t in w.seats[4].tiles)
    qtbot.keyClick(w, Qt.Key.Key_L)
    assert "Qd is already read in board 1" in w.banner.text()
    w.correct("board2", "Jc", "JK")            # the joker is a card of seat 3
    qtbot.waitUntil(lambda: "seat 3" in w.banner.text(), timeout=10_000)
    assert w.session.table.corrections == 0 and "correction_stands" not in w.banner.codes()


def test_text_that_is_not_a_card_changes_nothing_and_says_why(qtbot, desk_at_showdown):
    w = desk_at_showdown
    board = tile_texts(w.board.tiles)
    qtbot.mouseClick(w.board.tiles[1], Qt.MouseButton.LeftButton)
    picker = w.picker
    assert (picker.zone, picker.card) == ("board2", "Jc")
    chosen = []
    picker.chosen.connect(chosen.append)
    for text in ("zz", "9x", "", "BACK", "??"):
        picker.entry.clear()
        qtbot.keyClicks(picker.entry, text)
        qtbot.keyClick(picker.entry, Qt.Key.Key_Return)
        assert picker.isVisible() and chosen == [], text
        assert picker.error.text(), text
    assert "「??」はカードではありません" in picker.error.text() and "何も変更していません" in picker.error.text()
    assert picker.entry.text() == "??"         # the text stays, to be fixed
    picker.reject()
    qtbot.wait(300)
    assert tile_texts(w.board.tiles) == board and w.session.table.corrections == 0


def test_removing_a_card_is_its_own_action_asked_again(qtbot):
    from dealer_assist.desk.widgets import CardPicker

    picker = CardPicker("board3", "Th", "ja")
    qtbot.addWidget(picker)
    picker.show()
    chosen = []
    picker.chosen.connect(chosen.append)
    qtbot.keyClick(picker, Qt.Key.Key_Delete)          # Del asks; it removes nothing
    assert picker.remove_ask.isVisible() and chosen == []
    assert picker.remove_text.text() == "ボード3の10♥を削除しますか？ このハンドのカードから外します。"
    qtbot.keyClick(picker.remove_no, Qt.Key.Key_Return)    # Enter presses no button
    assert picker.remove_ask.isVisible() and chosen == []
    qtbot.mouseClick(picker.remove_no, Qt.MouseButton.LeftButton)
    assert not picker.remove_ask.isVisible() and picker.isVisible() and chosen == []
    qtbot.mouseClick(picker.remove_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(picker.remove_yes, Qt.MouseButton.LeftButton)
    assert chosen == [None] and not picker.isVisible()


def test_the_dealer_sets_the_levels_antes_and_the_ruling_names_the_dead_money(qtbot, tmp_path):
    import json

    db = tmp_path / "hands.sqlite"
    w = open_desk(qtbot, db, "--stop-at", "82")
    play_to(qtbot, w, 82)                      # hand 1's showdown: seats 1 and 5 put in 200, seat 3 50
    qtbot.keyClick(w, Qt.Key.Key_A)
    dialog = w.ante_dialog
    assert dialog.isVisible() and dialog.none.isChecked()
    dialog.each.setChecked(True)
    dialog.amount.setValue(10)
    qtbot.mouseClick(dialog.set_button, Qt.MouseButton.LeftButton)
    # every seat's 10 is dead money in the main pot: the payout stays 450 to seat 5, each seat
    # panel shows its ante, the status line the level's, the explanation the dead money
    qtbot.waitUntil(lambda: "アンティ 10" in w.seats[5].status.text(), timeout=10_000)
    assert w.seats[5].status.text() == "ベット 200（アンティ 10）"
    assert w.seats[5].payout.text() == "獲得 450"
    assert "アンティ 各10" in w.status.text()
    assert "デッドマネー" in w.ruling.why.text()
    w.shutdown()
    con = sqlite3.connect(db)
    tables = [json.loads(r[0])["table"] for r in con.execute(
        "SELECT json FROM events WHERE type = 'showdown' ORDER BY id")]
    con.close()
    assert [s.get("ante") for s in tables[-1]["seats"]] == [10] * len(tables[-1]["seats"])


def test_a_refused_correction_is_said_on_the_banner_and_changes_nothing(qtbot, tmp_path):
    db = tmp_path / "hands.sqlite"
    w = open_desk(qtbot, db, "--stop-at", "82")
    play_to(qtbot, w, 82)
    before = w.ruling.pot_texts()
    w.correct("seat1", "Ah", "Kc")             # no Ah in seat 1: the table refuses it
    qtbot.waitUntil(lambda: "correction_refused" in w.banner.codes(), timeout=10_000)
    assert "Ah" in w.banner.text() and w.ruling.pot_texts() == before
    qtbot.keyClick(w, Qt.Key.Key_Escape)      # the dealer acknowledges it
    assert "correction_refused" not in w.banner.codes()
    w.shutdown()
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM corrections").fetchone()[0] == 0
    con.close()


def outlined_red(video, zone: str) -> bool:
    """Whether the camera view shows ``zone``'s outline in the alert's red, at the middle of the
    zone's lower edge (a card in the slot lies within the edge)."""
    pts = video._zones[zone]
    low = sorted(pts, key=lambda q: -q[1])[:2]
    mid = video._poly([((low[0][0] + low[1][0]) / 2, (low[0][1] + low[1][1]) / 2)])[0]
    image = video.grab().toImage()
    colours = [image.pixelColor(int(mid.x()), int(mid.y()) + dy) for dy in (-1, 0, 1)]
    return any(c.red() > 180 and c.green() < 90 and c.blue() < 90 for c in colours)


def test_the_joker_alert_appears_and_clears_after_the_swap(qtbot, tmp_path):
    w = open_desk(qtbot, tmp_path / "hands.sqlite", "--stop-at", "36")
    play_to(qtbot, w, 36)                      # the joker turned as the turn (frame 32)
    assert w.banner.codes()[0] == "joker_on_board"
    text = w.banner.text()
    assert "ボードにJOKER" in text and BURN_SWAP_JA[:12] in text
    assert w.board.tiles[3].code == "JK" and w.board.tiles[3].highlight
    assert w.minimumSizeHint().height() <= 760     # the long instruction still fits 1280x800
    assert "board4" in w.video._alert_zones    # the slot is outlined on the camera view
    assert outlined_red(w.video, "board4") and not outlined_red(w.video, "board3")
    resume_to(qtbot, w, 50)                    # swapped at 42, Kd the turn at 44
    assert "joker_on_board" not in w.banner.codes()
    assert not outlined_red(w.video, "board4")      # the camera view's zones are drawn again
    assert w.board.tiles[3].code == "Kd" and not w.board.tiles[3].highlight
    assert any("JOKERをボード4から交換しました" in line for line in w.snapshot.log)
    w.shutdown()


def test_the_camera_views_zones_follow_the_alerts_and_the_language(qtbot):
    # The zones are drawn once and kept while nothing they show changes; an alert on a zone, its
    # end, or another language draws them again, at the same size.
    import numpy as np

    from dealer_assist.desk.widgets import VideoView

    view = VideoView()
    qtbot.addWidget(view)
    view.resize(640, 360)
    view.set_frame(np.full((720, 1280, 3), 40, np.uint8))
    view.set_zones({"board4": np.array([[600, 300], [700, 300], [700, 440], [600, 440]], float),
                    "board3": np.array([[480, 300], [580, 300], [580, 440], [480, 440]], float)})
    view.show()
    assert not outlined_red(view, "board4")
    view.set_overlay((), {"board4"}, "ja")
    assert outlined_red(view, "board4") and not outlined_red(view, "board3")
    view.set_overlay((), (), "ja")
    assert not outlined_red(view, "board4")
    words = lambda: view.grab().toImage().copy(240, 150, 60, 12)      # where board3's name is  # noqa: E731
    ja = words()
    view.set_overlay((), (), "en")
    assert words() != ja


def test_a_joker_not_read_surely_asks_the_dealer_to_look_before_the_swap(qtbot, tmp_path):
    # the same stop, worded for a reading that is not sure; its longer words still fit 1280x800
    w = open_desk(qtbot, tmp_path / "hands.sqlite", "--stop-at", "36", doubt={"JK": "Kh"})
    play_to(qtbot, w, 36)
    assert w.banner.codes()[0] == "joker_on_board"
    text = w.banner.text()
    assert "ボード4（ターン）はJOKERかもしれません" in text and "違えば、カードを訂正してください" in text
    assert "ボードにJOKER？ カードを確認" in text
    assert w.board.tiles[3].code == "JK"
    assert w.minimumSizeHint().height() <= 760
    qtbot.keyClick(w, Qt.Key.Key_L)
    assert "board 4 (the turn) may be the joker" in w.banner.text()
    assert "JOKER ON THE BOARD? Look at the card" in w.banner.text()
    w.shutdown()


def test_clicking_a_card_on_the_camera_view_opens_the_picker_for_it(qtbot, desk_at_showdown):
    w = desk_at_showdown
    track = next(t for t in w.snapshot.tracks if t["zone"] == "board5" and t["stable"])
    xs = [p[0] for p in track["polygon"]]
    ys = [p[1] for p in track["polygon"]]
    s, ox, oy = w.video._fit()
    pos = (int(ox + sum(xs) / len(xs) * s), int(oy + sum(ys) / len(ys) * s))
    from PySide6.QtCore import QPoint
    qtbot.mouseClick(w.video, Qt.MouseButton.LeftButton, pos=QPoint(*pos))
    assert w.picker is not None and w.picker.isVisible()
    assert (w.picker.zone, w.picker.card) == ("board5", "5h")
    w.picker.reject()


def test_dispute_mode_opens_a_logged_hand_and_steps_through_it(qtbot, tmp_path):
    db = tmp_path / "hands.sqlite"
    w = open_desk(qtbot, db)
    qtbot.waitUntil(lambda: w.ended, timeout=PLAY_TIMEOUT_MS)
    assert w.snapshot.title == "第3ハンド 終了" and w.seats[1].payout.text() == "獲得 100"
    qtbot.keyClick(w, Qt.Key.Key_H)
    d = w.dispute
    assert d is not None and d.isVisible() and len(d.hands) == 3
    hand2 = next(h for h in d.hands if h["hand"] == 2)
    assert d.open_hand(hand2["id"])
    assert d.ruling_text().splitlines()[0].startswith("メインポット 320")
    assert "サイドポット1 400" in d.ruling_text()
    panels = {p.seat: p for p in d.seat_panels}            # the seats dealt in, as the hand ended
    assert sorted(panels) == [2, 3, 4, 6]
    assert panels[2].payout.text() == "獲得 320" and panels[4].payout.text() == "獲得 400"
    assert "JOKER＝A♠" in panels[3].hand.text() and panels[6].status.text() == "フォールド"
    assert d.timeline.count() == len(d.hand["events"]) and d.timeline.count() > 5
    n = len(d.hand["snapshots"])
    assert n >= 3 and d.image.has_frame()
    assert d.hand["snapshots"][d.snap_index]["event_type"] == "showdown"   # the decisive frame first
    d.activateWindow()                       # the dealer's keys go to the window in front
    qtbot.waitUntil(d.isActiveWindow, timeout=5000)
    qtbot.keyClick(d, Qt.Key.Key_Home)
    assert d.snap_index == 0 and "1/" in d.snap_label.text()
    qtbot.keyClick(d, Qt.Key.Key_Right)
    assert d.snap_index == 1
    first_event = d.hand["snapshots"][1]["event_index"]
    assert d.timeline.currentRow() == first_event
    d.set_language("en")
    assert d.ruling_text().startswith("Main pot 320") and "snapshot 2 of" in d.snap_label.text()
    w.shutdown()


def test_a_missing_japanese_font_falls_back_to_english_and_says_so(qtbot, tmp_path):
    args = build_parser().parse_args(["desk", "--fast", "--no-db"])
    args.realtime = False
    parts = LiveParts(args, lambda ev: None, log_thread_free=True)
    w = DeskWindow(LiveSession(parts.pipeline, parts.source), calibration=parts.calibration, lang="ja",
                   font_ok=False, threaded=False)
    qtbot.addWidget(w)
    assert w.lang == "en" and "font_missing" in w.banner.codes()
    assert "fonts-noto-cjk" in w.banner.text() and w.windowTitle().startswith("dealer-assist desk")
    w.show()
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=5000)
    w.dismiss_notices()
    assert w.banner.codes() == []
    qtbot.keyClick(w, Qt.Key.Key_L)            # the language switch stays in English and says why
    assert w.lang == "en" and w.banner.codes() == ["font_missing"]
    assert "stays in English" in w.banner.text() and "no Japanese font" in w.banner.text()
    assert "日本語" not in w.ruling.title.text()
    w.shutdown()


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_screen_fits_both_desk_sizes(qtbot, desk_at_showdown, size, lang):
    w = desk_at_showdown
    w.set_language(lang)
    w.resize(*size)
    qtbot.waitUntil(lambda: w.width() == size[0], timeout=5000)
    assert w.minimumSizeHint().width() <= size[0] and w.minimumSizeHint().height() <= size[1]
    win = w.rect()
    for panel in [w.board, w.ruling, w.banner, w.video, *w.seats.values()]:
        top_left = panel.mapTo(w, panel.rect().topLeft())
        bottom_right = panel.mapTo(w, panel.rect().bottomRight())
        assert win.contains(top_left) and win.contains(bottom_right), type(panel).__name__
        assert panel.width() > 100 and panel.height() > 40, type(panel).__name__
    # the board's five cards and every seat's two cards are drawn at full size (once laid out),
    # and larger on the larger screen
    # (the tiles take their size from a resize the window handles after this one: wait for it)
    tall = 125 if size[0] == 1920 else 96
    # (and the seats' tiles from the seats' layouts, which may settle a few ms after the board's)
    qtbot.waitUntil(lambda: all(t.width() >= t.sizeHint().width() for t in w.board.tiles)
                    and w.board.tiles[0].height() >= tall
                    and all(t.height() >= t.sizeHint().height() for panel in w.seats.values()
                            for t in panel.tiles if t.isVisible()), timeout=5000)
    # read from two metres: every pot on one line, whole, and the deciding line (the joker holder
    # loses the tie) fully shown at both sizes
    qtbot.waitUntil(lambda: all(lab.fits() for lab in w.ruling.pot_labels if lab.isVisible()), timeout=3000)
    assert len(w.ruling.pot_texts()) == 2
    for lab in w.ruling.pot_labels:
        assert lab.height() >= lab.sizeHint().height() and visible_in(w, lab)
    deciding = w.ruling.deciding
    assert ("特別ルール④" if lang == "ja" else "loses ties") in deciding.text()
    assert deciding.height() >= deciding.heightForWidth(deciding.width()) and visible_in(w, deciding)
    if size == (1920, 1080):
        # the whole explanation without scrolling, and each losing seat's reason on one line
        why = w.ruling.why
        qtbot.waitUntil(w.ruling.explanation_fits, timeout=3000)
        assert why.heightForWidth(why.width()) <= w.ruling.scroll.viewport().height()
        assert not w.ruling.scroll.verticalScrollBar().isVisible()
        assert w.ruling.scroll.verticalScrollBar().maximum() == 0
        assert why.text().count("\n") == 7 and ("合計 720" if lang == "ja" else "total 720") in why.text()
        reason = w.seats[3].reason
        assert reason.full_text() == ("シート4と同点、JOKERの負け" if lang == "ja" else "ties seat 4; the joker loses ties")
        assert reason.fits() and visible_in(w, reason) and reason.font().pointSizeF() >= 12
        assert all(w.seats[n].reason.full_text() == "" for n in (2, 4, 6))


def visible_in(window, widget) -> bool:
    """The widget is shown and lies wholly inside each of its parents up to the window (not clipped)."""
    r = widget.rect()
    parent = widget.parentWidget()
    while parent is not None:
        if not (parent.rect().contains(widget.mapTo(parent, r.topLeft()))
                and parent.rect().contains(widget.mapTo(parent, r.bottomRight()))):
            return False
        if parent is window:
            break
        parent = parent.parentWidget()
    return widget.isVisible()


def test_the_desk_opens_at_the_screens_available_size(qtbot, tmp_path):
    args = build_parser().parse_args(["desk", "--fast", "--no-db"])
    args.realtime = False
    parts = LiveParts(args, lambda ev: None, log_thread_free=True)
    w = DeskWindow(LiveSession(parts.pipeline, parts.source), calibration=parts.calibration, threaded=False)
    qtbot.addWidget(w)
    w.open_on_screen()
    area = w.screen().availableGeometry()
    qtbot.waitUntil(lambda: w.width() >= area.width(), timeout=3000)
    assert (w.width(), w.height()) == (max(area.width(), w.minimumSizeHint().width()),
                                       max(area.height(), w.minimumSizeHint().height()))
    assert build_parser().parse_args(["desk"]).size is None      # no --size: the screen's size
    w.shutdown()


def test_desk_screenshot_command_saves_the_window_after_the_clip(tmp_path):
    out = tmp_path / "desk.png"
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)           # the command renders off screen by itself
    env.pop("DISPLAY", None)
    proc = subprocess.run([sys.executable, "-m", "dealer_assist", "desk", "--screenshot", str(out),
                           "--db", str(tmp_path / "h.sqlite"), "--size", "1280x800", "--lang", "en"],
                          capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 800)
    colours = {image.pixel(x, y) for x in range(0, 1280, 37) for y in range(0, 800, 29)}
    assert len(colours) > 50                   # a drawn window, not a blank one
    assert "propagateSizeHints" not in proc.stderr


def test_desk_refuses_to_start_without_a_display_and_says_how(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.run([sys.executable, "-m", "dealer_assist", "desk", "--no-db", "--lang", "en"], capture_output=True,
                          text=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 2
    assert "no display" in proc.stderr and "--screenshot" in proc.stderr and "Traceback" not in proc.stderr


class _NoCards:
    """A detector that sees an empty table (the camera is what this test is about)."""

    def detect(self, image):
        return {"cards": [], "backs": []}


def test_a_camera_that_drops_out_is_on_the_banner_until_it_is_back(qtbot, tmp_path):
    import numpy as np

    from dealer_assist.live.calibration import load_calibration
    from dealer_assist.live.handlog import HandLog
    from dealer_assist.live.pipeline import Pipeline
    from dealer_assist.live.sources import Frame, SourceAlert
    from dealer_assist.live.tracker import LiveTable

    cal = load_calibration(CLIP / "table.yaml")
    img = np.full((720, 1280, 3), 128, np.uint8)     # a picture, neither dark nor washed out
    items = [Frame(i, i / 15, img) for i in range(3)]
    items.append(SourceAlert("camera_lost", "camera 0 stopped sending frames; reconnecting",
                             "カメラ0の映像が止まりました。再接続中", 0.3))
    stop_here = len(items)
    items += [SourceAlert("camera_back", "camera 0 is back", "カメラ0が復帰しました", 2.0)]
    items += [Frame(i, i / 15, img) for i in range(40, 43)]
    db = tmp_path / "hands.sqlite"
    log = HandLog(db, source="fake camera", check_same_thread=False)
    pipe = Pipeline(detector=_NoCards(), calibration=cal, table=LiveTable(seats=cal.seats),
                    sink=lambda ev: None, log=log)
    session = LiveSession(pipe, items)
    w = DeskWindow(session, calibration=cal, lang="ja", db=str(db), threaded=False)
    qtbot.addWidget(w)
    w.start()
    w.toggle_pause()
    for _ in range(stop_here):
        w.step_frame()
    qtbot.waitUntil(lambda: "camera_lost" in w.banner.codes(), timeout=5000)
    assert "カメラ切断" in w.banner.text() and w.banner.alerts[0].severity == "stop"
    w.toggle_pause()
    qtbot.waitUntil(lambda: w.ended, timeout=5000)
    assert "camera_lost" not in w.banner.codes()
    w.shutdown()
    con = sqlite3.connect(db)                  # the loss is in the hand log as it happened
    codes = [r[0] for r in con.execute("SELECT json_extract(json, '$.code') FROM events")]
    con.close()
    # (the test's uniform grey picture is a bare cloth: the camera's place cannot be watched, said once)
    assert codes[0] == "camera_unwatched" and codes[1:3] == ["camera_lost", "camera_back"]


def test_a_frame_the_calibration_does_not_fit_stops_the_table_aloud(qtbot, tmp_path):
    """A camera giving frames of another size: the screen says so and keeps what was recorded."""
    import numpy as np

    from dealer_assist.live.calibration import load_calibration
    from dealer_assist.live.pipeline import Pipeline
    from dealer_assist.live.sources import Frame
    from dealer_assist.live.tracker import LiveTable

    cal = load_calibration(CLIP / "table.yaml")
    frames = [Frame(i, i / 15, np.zeros((480, 640, 3), np.uint8)) for i in range(3)]
    pipe = Pipeline(detector=_NoCards(), calibration=cal, table=LiveTable(seats=cal.seats),
                    sink=lambda ev: None)
    w = DeskWindow(LiveSession(pipe, frames), calibration=cal, lang="en", threaded=False)
    qtbot.addWidget(w)
    w.start()
    qtbot.waitUntil(lambda: w.ended, timeout=5000)
    assert w.banner.codes() == ["pipeline_stopped"] and w.banner.alerts[0].severity == "stop"
    assert "1280x720" in w.banner.text() and "640x480" in w.banner.text()
    assert "calibrate" in w.banner.text()
    w.shutdown()


def test_desk_says_which_system_libraries_its_window_lacks(monkeypatch, capsys):
    """Qt aborts the process when its X11 plugin cannot load; the desk checks first and says so."""
    import dealer_assist.commands.desk as desk_cmd
    from dealer_assist.cli import main

    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr(desk_cmd, "missing_xcb_libraries", lambda: ["libxcb-icccm.so.4"])
    assert main(["desk", "--no-db", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "libxcb-icccm.so.4" in err and "apt-get install libxcb-cursor0" in err and "--screenshot" in err
    assert os.environ["DISPLAY"] == ":99"          # nothing was started


def test_a_doubtful_card_says_what_else_it_may_be_and_one_click_makes_it_that(qtbot, tmp_path):
    """Hand 1's showdown: seat 1's K♠, half under its Q♣, is read not sure, the reader offering
    K♣ as what else it may be (``detect``'s ``"or"``). The card's tile says "K♣?" (and its
    tooltip why), and its picker offers K♣ as one click beside the confirmation."""
    from dealer_assist.desk.widgets import CardPicker

    w = open_desk(qtbot, tmp_path / "hands.sqlite", "--stop-at", "90", doubt={"Ks": "Kc"})
    play_to(qtbot, w, 90)
    tile = next(t for t in w.seats[1].tiles if t.code == "Ks")
    assert tile.doubtful and tile.other == "Kc" and w.snapshot.other("seat1", "Ks") == "Kc"
    assert tile.other_text == "K♣?" and "K♣ かもしれません" in tile.toolTip()
    sure_tile = next(t for t in w.seats[1].tiles if t.code == "Qc")
    assert not sure_tile.doubtful and sure_tile.other is None
    qtbot.mouseClick(tile, Qt.MouseButton.LeftButton)
    assert w.picker.confirm_button.isVisible()
    assert w.picker.other_button.isVisible() and w.picker.other_button.text() == "K♣ です"
    w.picker.reject()
    w.shutdown()
    picker = CardPicker("seat4", "Kc", "en", doubtful=True, other="Ks")
    qtbot.addWidget(picker)
    with qtbot.waitSignal(picker.chosen) as chosen:
        qtbot.mouseClick(picker.other_button, Qt.MouseButton.LeftButton)
    assert chosen.args == ["Ks"] and picker.other_button.text() == "It is K♠"
    sure_card = CardPicker("seat4", "Kc", "en", doubtful=False, other="Ks")
    qtbot.addWidget(sure_card)
    assert not sure_card.other_button.isVisible()


def test_a_dealer_change_on_the_desk_names_the_next_hand(qtbot, tmp_path):
    """Key D asks who takes the table; the name goes to the table, shows in the status line and is
    named in the next hand's start in the hand log. A blank name is refused aloud."""
    import json
    import sqlite3

    db = tmp_path / "hands.sqlite"
    w = open_desk(qtbot, db, "--stop-at", "40")
    play_to(qtbot, w, 40)
    qtbot.keyClick(w, Qt.Key.Key_D)
    dialog = w.dealer_dialog
    assert dialog.isVisible() and dialog.textValue() == ""
    assert "交代で入るディーラー" in dialog.labelText()
    assert {b.text() for b in dialog.findChildren(QPushButton)} == {"決定 (Enter)", "キャンセル (Esc)"}
    dialog.setTextValue("  ")
    dialog.accept()
    qtbot.waitUntil(lambda: "bad_action" in w.banner.codes(), timeout=5000)
    assert "ディーラーの名前" in w.banner.text()
    w.open_dealer().setTextValue("鈴木 一郎")
    w.dealer_dialog.accept()
    qtbot.waitUntil(lambda: "ディーラー 鈴木 一郎" in w.status.text(), timeout=5000)
    assert w.open_dealer().textValue() == "鈴木 一郎"      # the dialog starts from the dealer now
    w.dealer_dialog.reject()
    resume_to(qtbot, w, 120)                              # hand 2 starts at frame 99
    w.shutdown()
    con = sqlite3.connect(db)
    starts = [json.loads(j) for (j,) in con.execute("SELECT json FROM events WHERE type = 'hand_start'")]
    changes = [json.loads(j)["name"] for (j,) in con.execute("SELECT json FROM events WHERE type = 'dealer'")]
    con.close()
    assert [s.get("dealer") for s in starts] == [None, "鈴木 一郎"] and changes == ["鈴木 一郎"]


def test_the_dealer_moves_the_button_from_the_desk_and_the_hand_log_keeps_it(qtbot, tmp_path):
    """Key B asks which seat has the button of the hand under way (a card left in an empty seat
    can make the rotation pick the wrong one): the seats to choose from, the current one chosen.
    The board shows the new button at once, the event log says who moved it from where, and the
    hand log keeps it as the hand's button. Between hands it sets the next hand's, which the board
    line shows until that hand starts with it."""
    import json
    import sqlite3

    db = tmp_path / "hands.sqlite"
    w = open_desk(qtbot, db, "--stop-at", "40")
    play_to(qtbot, w, 40)
    was = w.desk.state["button"]
    qtbot.keyClick(w, Qt.Key.Key_B)
    dialog = w.button_dialog
    assert dialog.isVisible() and "第1ハンドのボタン" in dialog.labelText()
    assert dialog.comboBoxItems() == [f"シート{n}" for n in range(1, w.session.table.seats + 1)]
    assert dialog.textValue() == f"シート{was}"
    assert {b.text() for b in dialog.findChildren(QPushButton)} == {"決定 (Enter)", "キャンセル (Esc)"}
    # Qt's own words too (a text box's right-click menu), in the desk's language
    from PySide6.QtCore import QCoreApplication
    assert QCoreApplication.translate("QLineEdit", "&Copy") == "コピー(&C)"
    w.set_language("en")
    assert QCoreApplication.translate("QLineEdit", "&Copy") == "&Copy"
    w.set_language("ja")
    to = 3 if was != 3 else 4
    dialog.setTextValue(f"シート{to}")
    dialog.accept()
    qtbot.waitUntil(lambda: f"ボタン シート{to}" in w.board.sub.text(), timeout=5000)
    assert any(f"ディーラーがボタンをシート{to}に移動（元はシート{was}）" in line for line in w.log._lines)
    # hand 1 ends at frame 92; the clip's own dealer inputs give hand 2's button to seat 6 at 95
    resume_to(qtbot, w, 96)
    assert "次のハンドのボタン シート6" in w.board.sub.text()
    dialog = w.open_button()
    assert "次のハンドのボタン（持ち回りで決まるシートの代わりに）" in dialog.labelText()
    assert dialog.textValue() == "シート6"
    dialog.setTextValue("シート1")
    dialog.accept()
    qtbot.waitUntil(lambda: "次のハンドのボタン シート1" in w.board.sub.text(), timeout=5000)
    resume_to(qtbot, w, 120)                              # hand 2 starts at frame 99
    w.open_button().setTextValue("シート3")
    assert "第2ハンドのボタン" in w.button_dialog.labelText()
    w.button_dialog.reject()                              # cancelled: nothing sent
    w.shutdown()
    con = sqlite3.connect(db)
    buttons = [b for (b,) in con.execute("SELECT button FROM hands ORDER BY id")]
    moves = [json.loads(j) for (j,) in con.execute("SELECT json FROM events WHERE type = 'button'")]
    con.close()
    assert buttons == [to, 1]
    assert [(m["frame"], m["hand"], m["seat"], m["was"]) for m in moves] == [(40, 1, to, was)]


def test_a_hands_name_on_a_narrow_seat_panel_breaks_between_its_parts_not_inside_a_word(qtbot):
    """Six seats across a 1280 px desk leave a hand's name about 95 px beside the two cards. Qt breaks
    Japanese between any two characters: Half Texas showed 「ツインタ」/「ワー」 and 「8-8-A-」/「K-9(黒2枚・」.
    Now the name, the five's ranks and their colours are a line each, in a type small enough
    that none of them wraps."""
    from dealer_assist.desk.view import SeatView
    from dealer_assist.desk.widgets import SeatPanel

    panel = SeatPanel(4)
    qtbot.addWidget(panel)
    panel.resize(205, 190)
    panel.show()
    twin_towers = "ツインタワー 8-8-9-T-T（黒3枚・赤2枚）"      # Half Texas's description, as the engine words it
    panel.show_seat(SeatView(4, True, False, False, 30, ("Th", "Ts"), hand_name=twin_towers,
                             best_five=("8s", "8h", "9s", "Th", "Ts")), "ja", live=False)
    qtbot.waitUntil(lambda: panel.hand.width() > 30)
    assert panel.hand.text().splitlines() == ["ツインタワー", "8-8-9-T-T", "黒3枚・赤2枚"]
    assert panel.hand.fits()
    panel.show_seat(SeatView(3, True, False, False, 300, ("JK", "Kh"), hand_name="ストレート A-K-Q-J-T",
                             joker_as="As"), "ja", live=False)
    assert panel.hand.text().splitlines() == ["ストレート", "A-K-Q-J-T", "JOKER＝A♠"] and panel.hand.fits()


def test_a_far_camera_s_reading_part_is_framed_on_the_picture(qtbot):
    """A camera mounted higher (cards about 30 px wide in 1280x720) is read in the part of its
    frame that holds the zones, and no card outside it: the desk frames that part on the picture,
    with words saying so, and the banner names its size. A close camera's picture is read whole,
    and nothing is framed."""
    import json

    import numpy as np
    import yaml

    from dealer_assist.live.calibration import calibration_from_dict, load_calibration
    from dealer_assist.live.pipeline import Pipeline
    from dealer_assist.live.sources import Frame
    from dealer_assist.live.tracker import LiveTable
    from dealer_assist.vision.detector import CardDetector
    from dealer_assist.vision.synth.clip import calibration_dict, parse_scenario

    scenario = yaml.safe_load((CLIP / "scenario.yaml").read_text(encoding="utf-8"))
    scenario["camera"]["px_per_mm"] = 0.5
    far = calibration_from_dict(json.loads(json.dumps(calibration_dict(parse_scenario(scenario)))))
    felt = np.full((720, 1280, 3), (40, 110, 30), np.uint8)

    def desk(cal) -> DeskWindow:
        pipe = Pipeline(detector=CardDetector(ROOT / "models"), calibration=cal, table=LiveTable(seats=cal.seats),
                        sink=lambda ev: None)
        w = DeskWindow(LiveSession(pipe, [Frame(i, i / 15, felt) for i in range(3)]), calibration=cal, lang="ja",
                       threaded=False)
        qtbot.addWidget(w)
        w.resize(1280, 800)
        w.show()
        w.start()
        qtbot.waitUntil(lambda: w.ended, timeout=30_000)
        return w

    w = desk(far)
    x, y, pw, ph = part = far.cards_region_px()
    assert w.video._part == part
    assert f"{pw}x{ph}ピクセル" in w.banner.text()
    # the dotted frame along the part's top edge, drawn over the picture
    layer = w.video._zones_drawn()
    top = w.video._poly([(x, y), (x + pw, y)])
    dpr = layer.devicePixelRatio()
    y0 = round(top[0].y() * dpr)
    bright = [layer.pixelColor(round(px * dpr), yy).alpha() for px in np.linspace(top[0].x() + 5, top[1].x() - 5, 60)
              for yy in (y0 - 1, y0, y0 + 1)]
    assert max(bright) > 150
    w.shutdown()

    near = desk(load_calibration(CLIP / "table.yaml"))
    assert near.video._part == ()
    near.shutdown()
