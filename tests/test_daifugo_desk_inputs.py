"""The Daifugo panel's dealer inputs (dealer_assist/desk/daifugo_view.py): the pass of the seat to
act, each seat's cards left and the joker's declaration are buttons (and keys) that send the live
table's own actions (pass, cards_left, joker); the rules engine rules them and the panel shows the
new state. Off screen (QT_QPA_PLATFORM=offscreen)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from test_daifugo_live import Table  # noqa: E402


@pytest.fixture
def desk(qtbot):
    """A panel wired to a live Daifugo table as the desk wires it: each action the panel sends is
    applied to the table, and the panel is shown the table's state after it."""
    from dealer_assist.desk.daifugo_view import DaifugoPanel

    def make(**start):
        tb = Table(**start)
        panel = DaifugoPanel()
        qtbot.addWidget(panel)
        sent: list[dict] = []

        def apply(action):
            sent.append(action)
            tb.act(action)
            panel.show_state(tb.t.state(), panel.lang)

        panel.acted.connect(apply)
        panel.show_state(tb.t.state(), "ja")
        return tb, panel, sent

    return make


def test_the_pass_button_passes_the_seat_to_act(desk):
    tb, panel, sent = desk(seats=[1, 2, 3], leader=1)
    tb.lay("9c")
    panel.show_state(tb.t.state(), "ja")
    assert panel.pass_button.text() == "パス: シート2 (P)" and panel.pass_button.isEnabled()
    panel.pass_button.click()
    assert sent == [{"type": "pass", "seat": 2}]
    st = tb.t.state()["daifugo"]
    assert st["turn"] == 3 and st["passed"] == [2]
    assert "2: 残り10枚 · パス済み" in panel.text() and "次: シート3" in panel.text()
    assert panel.pass_button.text() == "パス: シート3 (P)"
    panel.send_pass()                            # the P key's slot: seat 3 passes, the field clears
    last = tb.plays(tb.events)[-1]
    assert last.seat == 3 and last.ruling.events == ("pass", "field_cleared")
    assert panel.view.field == () and panel.pass_button.text() == "パス: シート1 (P)"


def test_the_count_buttons_set_a_seats_cards_left(desk):
    tb, panel, sent = desk(seats=[1, 2, 3], leader=1, cards_left={"2": 5})
    assert "2: 残り5枚" in panel.text()
    minus, plus = panel.count_buttons[2]
    minus.click()
    assert sent[-1] == {"type": "cards_left", "seat": 2, "cards": 4}
    assert tb.t.state()["daifugo"]["cards_left"]["2"] == 4 and "2: 残り4枚" in panel.text()
    panel.count_buttons[2][1].click()
    panel.count_buttons[2][1].click()
    assert tb.t.state()["daifugo"]["cards_left"]["2"] == 6 and "2: 残り6枚" in panel.text()
    # ten is the most a seat holds: its + is off; a seat with one card left cannot go to none
    assert not panel.count_buttons[1][1].isEnabled() and panel.count_buttons[1][0].isEnabled()


def test_the_count_a_dealer_sets_is_the_one_the_payout_uses(desk):
    tb, panel, _ = desk(seats=[1, 2, 3], leader=1, cards_left={"1": 1})
    for _i in range(3):
        panel.count_buttons[3][0].click()        # seat 3 holds 7, not 10
    tb.lay("4c")
    panel.show_state(tb.t.state(), "ja")
    end = [e for e in tb.events if e.type == "hand_end"][0]
    assert end.ruling.payouts[3] == -5 - 7 * 5
    assert panel.view.over and not panel.pass_button.isEnabled() and panel.count_buttons == {}
    assert panel.pass_button.isHidden()      # a game over has no one to pass


def test_the_desk_header_names_no_button_in_daifugo(qtbot):
    """Daifugo has no dealer button: the desk's header named the seat that led the game's first play
    「ボタン シート2」 while the game's panel showed another seat leading the round (親). The header
    now names none; a hold'em table's header still names its button."""
    from dealer_assist.desk.view import DeskState
    from dealer_assist.desk.widgets import BoardPanel

    tb = Table(seats=[1, 2, 3], leader=2, cards_left={"1": 3, "2": 3, "3": 3})
    ds = DeskState(seats=3)
    ds.feed(tb.events, tb.t.state())
    header = BoardPanel()
    qtbot.addWidget(header)
    for lang in ("ja", "en"):
        snap = ds.snapshot(lang)
        assert snap.buttonless and snap.button == 2
        header.show_snapshot(snap)
        assert header.sub.text() == ""
    from dealer_assist.live.events import event_from_json

    holdem = DeskState(seats=6)
    start = event_from_json({"t": 0.0, "frame": 0, "type": "hand_start", "hand": 1, "seats": [1, 4], "button": 4})
    holdem.feed([start], {"hand": 1, "street": "preflop", "button": 4, "board": [], "board_slots": [None] * 5,
                     "seats": {}, "burn": [], "muck": 0, "alerts": [], "ruling": None, "tracks": []})
    header.show_snapshot(holdem.snapshot("ja"))
    assert header.sub.text() == "ボタン シート4"


def test_a_joker_waiting_for_its_declaration_shows_its_readings_as_buttons(desk):
    tb, panel, sent = desk(seats=[1, 2, 3], leader=1)
    tb.lay("5h", "5s")
    tb.lay("7h", "JK", keep=False)
    panel.show_state(tb.t.state(), "ja")
    assert tb.t.state()["declaration"]["options"]
    assert "ジョーカー: シート2が♥7 JKを出しました" in panel.text()
    labels = [b.text() for b in panel.reading_buttons]
    assert "♠7" in labels and len(labels) == len(tb.t.state()["declaration"]["options"])
    menu = panel.open_readings()                 # the J key: the same readings as a menu
    assert [a.text() for a in menu.actions()] == labels
    menu.close()
    panel.reading_buttons[labels.index("♠7")].click()
    assert sent[-1] == {"type": "joker", "as": ["7s"]}
    play = tb.plays(tb.events)[-1]
    assert play.legal and play.jokers == ("7s",) and play.lock == ("s", "h")
    assert tb.t.state()["declaration"] is None
    assert panel.reading_buttons == [] and "ジョーカー:" not in panel.text()
    assert "しばり ♠♥" in panel.text()


def test_no_inputs_before_a_game_and_english_labels(desk, qtbot):
    from dealer_assist.desk.daifugo_view import DaifugoPanel
    from dealer_assist.live.handflow import LiveTable

    panel = DaifugoPanel()
    qtbot.addWidget(panel)
    got = []
    panel.acted.connect(got.append)
    panel.show_state(LiveTable(seats=4, game="daifugo").state(), "en")
    assert not panel.pass_button.isEnabled() and panel.pass_button.text() == "Pass (P)"
    panel.send_pass()
    assert got == []
    tb, panel, _ = desk(seats=[1, 2, 3], leader=2)
    panel.show_state(tb.t.state(), "en")
    assert panel.pass_button.text() == "Pass: seat 2 (P)"


def test_on_the_desk_the_pass_button_reaches_the_table_through_the_window(qtbot, tmp_path):
    from test_desk import open_desk, play_to

    window = open_desk(qtbot, tmp_path / "hands.sqlite", "--game", "daifugo", "--stop-at", "26")
    try:
        play_to(qtbot, window, 26)
        panel = window.game_panel
        requested = []
        window.requestAct.connect(requested.append)      # what the window hands its worker
        assert panel.pass_button.text() == "パス: シート3 (P)"
        before = len(window.session.table.plays)
        panel.pass_button.click()
        qtbot.waitUntil(lambda: "3: 残り9枚 · パス済み" in panel.text(), timeout=20_000)
        assert window.session.table.game_state.turn == 4
        new = window.session.table.plays[before:]
        assert [(p["seat"], p["pass"], p["legal"]) for p in new] == [(3, True, True)]      # one pass, not two
        assert panel.pass_button.text() == "パス: シート4 (P)"
        panel.count_buttons[4][0].click()
        qtbot.waitUntil(lambda: "4: 残り2枚" in panel.text(), timeout=20_000)
        # each input went to the table once: the window wired the panel, once
        assert requested == [{"type": "pass", "seat": 3}, {"type": "cards_left", "seat": 4, "cards": 2}]
        assert "illegal_play" not in window.banner.codes()
    finally:
        window.shutdown()


def test_the_keys_p_and_j_pass_and_open_the_readings(desk, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    tb, panel, sent = desk(seats=[1, 2, 3], leader=1)
    panel.show()
    panel.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is panel and QApplication.focusWindow() is not None)
    tb.lay("5h", "5s")
    panel.show_state(tb.t.state(), "ja")
    qtbot.keyClick(panel.windowHandle(), Qt.Key.Key_P)
    assert sent == [{"type": "pass", "seat": 2}] and tb.t.state()["daifugo"]["turn"] == 3
    tb.lay("7h", "JK", keep=False)
    panel.show_state(tb.t.state(), "ja")
    qtbot.keyClick(panel.windowHandle(), Qt.Key.Key_J)
    assert panel.menu is not None and [a.text() for a in panel.menu.actions()][0] == "♠7"
    panel.menu.close()
