"""The Daifugo referee at a live table (dealer_assist/live/daifugo.py): plays laid in the play zone
are ruled at once by the rules engine; passes, joker declarations and counts are the dealer's
inputs; an illegal play is a red banner with its reason in Japanese; the game ends with the
payout. The bundled clip's events are checked in tests/test_game_clips.py."""
from __future__ import annotations

import os

import pytest

from dealer_assist.cli import main
from dealer_assist.desk.daifugo_view import daifugo_view
from dealer_assist.desk.texts import SEVERITY
from dealer_assist.errors import UserError
from dealer_assist.live.daifugo import DaifugoTable
from dealer_assist.live.handflow import LiveTable
from dealer_assist.live.tracker import Observation

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


class Table:
    """A DaifugoTable driven frame by frame: ``lay`` puts cards in the play zone and waits."""

    def __init__(self, table_seats=4, **start):
        self.t = LiveTable(seats=table_seats, game="daifugo")
        self.frame = 0
        self.zone: list[str] = []
        self.events: list = []
        self.act({"type": "start", **start})

    def act(self, action):
        got = self.t.apply(action, self.frame, self.frame / 15)
        self.events += got
        return got

    def frames(self, n=10):
        got = []
        for _ in range(n):
            self.frame += 1
            obs = [Observation(c, "play", (300.0 + 70 * i, 200.0), 1.0, sure=True) for i, c in enumerate(self.zone)]
            got += self.t.step(self.frame, self.frame / 15, obs)
        self.events += got
        return got

    def lay(self, *cards, keep=True):
        self.zone = (self.zone if keep else []) + list(cards)
        return self.frames()

    def plays(self, got):
        return [e for e in got if e.type == "play"]


def test_live_table_of_daifugo_is_the_referee_and_run_lists_it():
    assert isinstance(LiveTable(seats=4, game="daifugo"), DaifugoTable)
    assert type(LiveTable(seats=4, game="stud7")) is LiveTable


def test_each_play_is_ruled_once_with_the_lock_and_the_next_seat():
    tb = Table(seats=[1, 2, 3], leader=1)
    p = tb.plays(tb.lay("3h"))
    assert [(e.seat, e.cards, e.legal, e.turn) for e in p] == [(1, ("3h",), True, 2)]
    assert tb.plays(tb.frames(20)) == []                      # lying there is no second play
    p = tb.plays(tb.lay("5h"))
    assert p[0].ruling.events == ("lock",) and p[0].lock == ("h",)
    st = tb.t.state()["daifugo"]
    assert st["turn"] == 3 and st["lock"] == ["h"] and st["cards_left"] == {"1": 9, "2": 9, "3": 10}


def test_an_illegal_play_is_a_red_banner_in_japanese_until_taken_back_and_changes_nothing():
    tb = Table(seats=[1, 2, 3], leader=1)
    tb.lay("9s")
    got = tb.lay("4d")                                  # weaker than the 9: illegal
    play = tb.plays(got)[0]
    assert play.legal is False and play.turn == 2
    alert = [e for e in got if e.type == "alert"][0]
    assert alert.code == "illegal_play" and SEVERITY["illegal_play"] == "stop"
    assert "反則" in alert.message_ja and play.ruling.reason_ja in alert.message_ja
    assert tb.t.state()["daifugo"]["cards_left"]["2"] == 10
    got = tb.lay(keep=False)                            # taken back (and the 9 covered/swept)
    assert [(e.code, e.cleared) for e in got if e.type == "alert"] == [("illegal_play", True)]
    assert tb.plays(tb.lay("Td"))[0].legal is True


def test_revolution_eight_clear_and_j_reverse_show_in_the_state():
    tb = Table(seats=[1, 2, 3, 4], leader=1)
    p = tb.plays(tb.lay("5s", "5h", "5d", "5c"))[0]
    assert p.ruling.events == ("revolution",) and p.revolution is True
    p = tb.plays(tb.lay("Jc", "Jd", "Jh", "Js", keep=False))[0]
    assert not p.legal                                 # in the revolution a J is weaker than a 5
    p = tb.plays(tb.lay("4s", "4h", "4d", "4c", keep=False))[0]
    assert p.ruling.events == ("lock", "revolution_ends") and p.revolution is False and p.seat == 2
    tb2 = Table(seats=[1, 2, 3], leader=2)
    p = tb2.plays(tb2.lay("8d"))[0]
    assert p.ruling.events == ("eight_clear",) and p.turn == 2 and p.field_cards == ()
    p = tb2.plays(tb2.lay("Jh", keep=False))[0]
    assert p.direction == "counterclockwise" and p.turn == 1


def test_a_joker_whose_reading_matters_waits_for_the_dealers_declaration():
    tb = Table(seats=[1, 2, 3], leader=1)
    tb.lay("5h", "5s")
    got = tb.lay("7h", "JK", keep=False)
    assert tb.plays(got) == []
    alert = [e for e in got if e.type == "alert"][0]
    assert alert.code == "joker_declaration" and "7s" in alert.message and "宣言" in alert.message_ja
    got = tb.act({"type": "joker", "as": ["7s"]})
    play = tb.plays(got)[0]
    assert play.legal and play.jokers == ("7s",) and play.lock == ("s", "h")
    assert ("joker_declaration", True) in [(e.code, e.cleared) for e in got if e.type == "alert"]


def test_passes_and_the_end_of_the_game_with_its_payout():
    tb = Table(seats=[1, 2, 3], leader=1, cards_left={"1": 2, "2": 3, "3": 4})
    tb.lay("9c")
    assert tb.plays(tb.act({"type": "pass"}))[0].seat == 2
    p = tb.plays(tb.act({"type": "pass", "seat": 3}))[0]
    assert p.ruling.events == ("pass", "field_cleared") and p.turn == 1
    got = tb.lay("4c", keep=False)
    end = [e for e in got if e.type == "hand_end"][0]
    assert end.ruling.winner == 1 and end.ruling.payouts == {1: 39, 2: -20, 3: -25}
    view = daifugo_view(tb.t.state(), "ja")
    assert view.over and "シート1があがり" == view.turn_text and any("レーキ" in line for line in view.payout)


def test_a_forbidden_finish_is_illegal():
    tb = Table(seats=[1, 2, 3], leader=1, cards_left={"1": 1})
    p = tb.plays(tb.lay("2s"))[0]
    assert not p.legal and "2" in p.ruling.reason


@pytest.mark.parametrize("action, words", [
    ({"type": "pass"}, "no Daifugo game"),
    ({"type": "start", "seats": [1, 2]}, "3 to 9 players"),
    ({"type": "start", "leader": 7}, "leader"),
    ({"type": "start", "cards_left": {"2": 11}}, "1 to 10 cards"),
    ({"type": "joker", "as": ["9h"]}, "no Daifugo game"),
    ({"type": "shuffle"}, "unknown dealer action"),
])
def test_bad_dealer_input_is_a_clear_error_in_both_languages(action, words):
    t = LiveTable(seats=4, game="daifugo")
    with pytest.raises(UserError) as exc:
        t.apply(action, 0, 0.0)
    assert words in str(exc.value) and exc.value.message_ja != str(exc.value)


def test_a_play_before_any_game_is_a_visible_alert_not_a_ruling():
    tb = Table.__new__(Table)
    tb.t, tb.frame, tb.zone, tb.events = LiveTable(seats=4, game="daifugo"), 0, [], []
    got = tb.lay("5h")
    assert [e.code for e in got if e.type == "alert"] == ["no_game"] and tb.plays(got) == []


def test_run_plays_the_bundled_clip_and_prints_each_ruling_and_the_payout(capsys, tmp_path):
    assert main(["run", "--game", "daifugo", "--headless", "--events", "-", "--no-db"]) == 0
    out = capsys.readouterr().out
    assert out.count('"type": "play"') == 19 and '"legal": false' in out and '"revolution"' in out
    assert '"winner_takes": 37' in out


def test_the_desk_panel_shows_the_revolution_and_the_seats_in_japanese(qtbot):
    from dealer_assist.desk.daifugo_view import DaifugoPanel

    tb = Table(seats=[1, 2, 3, 4], leader=3)
    tb.lay("6s", "6h", "6d", "6c")
    panel = DaifugoPanel()
    qtbot.addWidget(panel)
    panel.show_state(tb.t.state(), "ja")
    text = panel.text()
    assert "革命中" in text and "次: シート4" in text and "3: 残り6枚" in text
    panel.show_state(tb.t.state(), "en")
    assert "REVOLUTION" in panel.text()


def test_the_daifugo_layout_calibrates_a_table_with_a_play_zone_and_a_poker_game_refuses_it(tmp_path, capsys):
    import cv2
    import numpy as np

    from dealer_assist.games import find_game
    from dealer_assist.live.calibration import load_calibration

    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), np.full((720, 1280, 3), 60, np.uint8))
    out = tmp_path / "table.yaml"
    assert main(["calibrate", "--layout", "calibration/layouts/daifugo-6.yaml", "--image", str(frame),
                 "--points", "200,100 1080,100 1200,650 80,650", "--out", str(out), "--lang", "en"]) == 0
    assert "play" in capsys.readouterr().out
    cal = load_calibration(out, board=find_game("daifugo").live_flow().board_slots)
    assert cal.zone_at((640.0, 318.0)) == "play"
    with pytest.raises(UserError, match="missing zones: board1"):
        load_calibration(out, board=find_game("holdem").live_flow().board_slots)


def test_the_desk_on_the_clip_shows_the_illegal_play_red_in_japanese_then_the_revolution(qtbot, tmp_path):
    from test_desk import open_desk, play_to, resume_to

    window = open_desk(qtbot, tmp_path / "hands.sqlite", "--game", "daifugo", "--stop-at", "38")
    try:
        play_to(qtbot, window, 38)
        assert "illegal_play" in window.banner.codes() and "しばり中" in window.banner.text()
        assert window.game_panel.isVisible() and not window.ruling.isVisible()
        assert "反則" in window.game_panel.text() and "しばり ♥" in window.game_panel.text()
        resume_to(qtbot, window, 82)
        assert "illegal_play" not in window.banner.codes()
        assert "革命中" in window.game_panel.text() and "反時計回り" in window.game_panel.text()
    finally:
        window.shutdown()


def test_a_stair_follows_a_stair_and_a_group_on_a_stair_is_illegal():
    tb = Table(seats=[1, 2, 3], leader=1)
    p = tb.plays(tb.lay("4d", "5d", "6d"))[0]
    assert p.legal and p.ruling.play.kind.value == "stair"
    # the play event's line reads back as the same typed event: its ruling and its cards left by seat
    assert type(p).from_json(p.to_json()) == p and p.cards_left == {1: 7, 2: 10, 3: 10}
    assert p.to_json()["ruling"]["play"]["description_ja"].startswith("階段")
    p = tb.plays(tb.lay("9c", "9h", "9s", keep=False))[0]        # three of a kind on a stair
    assert not p.legal and p.turn == 2
    p = tb.plays(tb.lay("5s", "6s", "7s", keep=False))[0]
    assert p.legal and p.seat == 2 and p.turn == 3


def test_an_unreadable_card_in_the_play_zone_holds_the_play_with_an_alert_until_corrected():
    tb = Table(seats=[1, 2, 3], leader=1)
    got = tb.lay("??")
    got += tb.frames(20)
    assert tb.plays(got) == [] and "unreadable_card" in [e.code for e in got if e.type == "alert"]
    got = tb.act({"type": "correct", "zone": "play", "card": "??", "to": "Qs"})
    got += tb.frames(5)
    assert [(e.seat, e.cards, e.legal) for e in tb.plays(got)] == [(1, ("Qs",), True)]
    assert ("unreadable_card", True) in [(e.code, e.cleared) for e in got if e.type == "alert"]


def test_a_cards_left_input_is_an_event_in_the_events_file_the_hand_log_and_review(tmp_path, capsys):
    """The bundled clip with one more dealer input: seat 1 holds 5 cards, not 2 (entered at frame
    90). The count is an event of its own, written to the events file and the hand log, told by
    review in both languages, and the payout counts it (5G per card left: seat 1 pays 5 + 25)."""
    import json
    import sqlite3
    from pathlib import Path

    from dealer_assist.live.events import CardsLeft, event_from_json

    clip = Path(__file__).resolve().parent.parent / "sample_frames" / "clips" / "daifugo"
    actions = tmp_path / "dealer.jsonl"
    lines = (clip / "dealer.jsonl").read_text(encoding="utf-8").splitlines()
    lines.append(json.dumps({"frame": 90, "type": "cards_left", "seat": 1, "cards": 5}))
    actions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    events, db = tmp_path / "events.jsonl", tmp_path / "hands.sqlite"
    assert main(["run", "--game", "daifugo", "--headless", "--events", str(events), "--db", str(db),
                 "--actions", str(actions)]) == 0
    got = [json.loads(x) for x in events.read_text(encoding="utf-8").splitlines() if x.strip()]
    counts = [e for e in got if e["type"] == "cards_left"]
    assert [(e["frame"], e["hand"], e["seat"], e["cards"], e["was"]) for e in counts] == [(90, 1, 1, 5, 2)]
    assert event_from_json(counts[0]) == CardsLeft(counts[0]["t"], 90, 1, seat=1, cards=5, was=2)
    start = next(e for e in got if e["type"] == "hand_start")
    assert start["cards_left"] == {"1": 3, "2": 5, "3": 9, "4": 3}        # the counts given at the start
    later = [e for e in got if e["type"] == "play" and e["frame"] > 90]
    assert later[0]["cards_left"]["1"] == 5
    end = [e for e in got if e["type"] == "hand_end"][-1]
    assert end["ruling"]["payouts"]["1"] == -5 - 5 * 5
    # the hand log keeps the same line, in its place among the hand's events
    con = sqlite3.connect(db)
    try:
        logged = [json.loads(j) for (j,) in con.execute("SELECT json FROM events ORDER BY seq")]
    finally:
        con.close()
    assert [e for e in logged if e["type"] == "cards_left"] == counts
    kinds = [e["type"] for e in logged if e.get("hand") == 1]
    assert kinds.index("cards_left") < kinds.index("hand_end")
    capsys.readouterr()
    assert main(["review", "--db", str(db), "1:1", "--lang", "en"]) == 0
    told = capsys.readouterr().out
    assert "the dealer set seat 1's cards left to 5 (was 2)" in told
    assert "cards left as entered: seat 1 3 cards, seat 2 5 cards, seat 3 9 cards, seat 4 3 cards" in told
    # a Daifugo table has no button: the seat given at the start leads (its header and its start line)
    assert start["leader"] == start["button"] == 1
    assert told.count("dealt to seats 1, 2, 3 and 4 (leads: seat 1)") == 2 and "button" not in told
    assert main(["review", "--db", str(db), "1:1"]) == 0                  # Japanese by default
    told = capsys.readouterr().out
    assert "シート1の残り枚数を5枚" in told
    assert told.count("シート1・シート2・シート3・シート4に配札（親: シート1）") == 2
    assert "ボタン" not in told


def test_the_desk_commentary_tells_a_count_and_a_seat_leaving_in_both_languages():
    from dealer_assist.live.events import CardsLeft, Leaving
    from dealer_assist.live.words import line

    tb = Table(seats=[1, 2, 3], leader=1)
    got = tb.act({"type": "cards_left", "seat": 2, "cards": 7})
    assert got == [CardsLeft(0.0, 0, 1, seat=2, cards=7, was=10)]
    assert tb.t.state()["daifugo"]["cards_left"]["2"] == 7
    assert line(got[0], "en").endswith("the dealer set seat 2's cards left to 7 (was 10)")
    assert "シート2の残り枚数を7枚" in line(got[0], "ja")
    got = tb.act({"type": "leaving", "seat": 3})
    assert got == [Leaving(0.0, 0, 1, seat=3)]
    assert line(got[0], "en").endswith("seat 3 leaves the table after this game")
    assert line(got[0], "ja") != line(got[0], "en")
