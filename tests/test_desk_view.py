"""What the desk display shows, from the live table's events and state (no Qt): the ruling per pot,
the seats, the alerts that need the dealer, a finished hand kept on screen, both languages."""
from __future__ import annotations

from dealer_assist.desk.view import DeskState
from dealer_assist.live.events import event_from_json
from dealer_assist.live.handflow import LiveTable
from dealer_assist.live.ruling import TableRuling
from dealer_assist.live.tracker import Observation
from dealer_assist.rules.settle import settle


def evs(lines):
    """The table's events written as their event lines (the desk is fed the objects)."""
    return [event_from_json({"t": 0.0, "frame": 0, **line}) for line in lines]


def seats_state(n=6, **per_seat):
    out = {}
    for s in range(1, n + 1):
        out[str(s)] = {"cards": [], "folded": False, "dealt": False, "committed": None}
    for key, val in per_seat.items():
        out[key[1:]].update(val)
    return out


def state(hand, street="preflop", board=(), seats=None, alerts=(), ruling=None, button=2, burn=()):
    slots = (list(board) + [None] * 5)[:5]
    return {"hand": hand, "street": street, "button": button, "board": list(board), "board_slots": slots,
            "seats": seats or seats_state(), "burn": list(burn), "muck": 0, "alerts": list(alerts),
            "ruling": None if ruling is None else TableRuling.from_json(ruling), "tracks": []}


SIDE_POT = {"game": "joker-holdem", "board": ["Qd", "Jc", "Th", "5s", "5h"], "button": 6,
            "seats": [{"seat": 2, "hole": ["Qs", "Qh"], "committed": 100},
                      {"seat": 3, "hole": ["Kh", "JK"], "committed": 300},
                      {"seat": 4, "hole": ["Ac", "Kc"], "committed": 300},
                      {"seat": 6, "hole": None, "committed": 20, "folded": True}],
            "last_aggressor": 4}


def played_side_pot() -> DeskState:
    ruling = settle(SIDE_POT)
    ruling["chips_entered"] = True
    ds = DeskState(seats=6)
    dealt = {f"s{s}": {"dealt": True, "cards": ["BACK", "BACK"], "committed": c}
             for s, c in ((2, 100), (3, 300), (4, 300))}
    dealt["s6"] = {"dealt": True, "folded": True, "committed": 20}
    ds.feed(evs([{"type": "hand_start", "hand": 2, "seats": [2, 3, 4, 6], "button": 6}]),
            state(2, seats=seats_state(**dealt), button=6))
    ds.feed(evs([{"type": "board", "hand": 2, "street": "river", "cards": SIDE_POT["board"]}]),
            state(2, "river", SIDE_POT["board"], seats_state(**dealt), button=6, burn=["BACK"] * 3))
    shown = {f"s{s['seat']}": {"dealt": True, "cards": s["hole"], "committed": s["committed"]}
             for s in SIDE_POT["seats"] if s["hole"]}
    shown["s6"] = dealt["s6"]
    events = [{"type": "hole", "hand": 2, "seat": s["seat"], "cards": s["hole"]} for s in SIDE_POT["seats"] if s["hole"]]
    events.append({"type": "showdown", "hand": 2, "ruling": ruling, "table": SIDE_POT})
    ds.feed(evs(events), state(2, "showdown", SIDE_POT["board"], seats_state(**shown), ruling=ruling, button=6))
    return ds


def test_showdown_shows_each_pot_with_who_takes_it_in_both_languages():
    ds = played_side_pot()
    ja, en = ds.snapshot("ja"), ds.snapshot("en")
    assert ja.live and ja.title == "第2ハンド ショーダウン"
    assert [p.amount for p in ja.pots] == [320, 400]
    assert ja.pots[0].text.startswith("メインポット 320") and "シート2 320" in ja.pots[0].text
    assert ja.pots[1].text.startswith("サイドポット1 400") and "シート4 400" in ja.pots[1].text
    assert en.pots[1].text.startswith("Side pot 1 400") and "Seat 4 400" in en.pots[1].text
    assert ja.payouts == {2: 320, 3: 0, 4: 400, 6: 0}
    assert any("JOKER" in line or "ジョーカー" in line for line in ja.explanation)
    assert any("joker" in line for line in en.explanation)


def test_seat_panels_show_hand_best_five_the_jokers_stand_in_and_winnings():
    snap = played_side_pot().snapshot("ja")
    s2, s3, s4, s6 = (snap.seat(n) for n in (2, 3, 4, 6))
    assert s2.winner and s2.payout == 320 and s2.hand_name.startswith("フルハウス")
    assert s4.winner and s4.payout == 400
    assert not s3.winner and s3.payout == 0
    assert "JK" in s3.best_five and s3.joker_as == "As"       # the joker plays as the ace
    assert s3.cards == ("Kh", "JK")
    assert s6.folded and not s6.winner and s6.committed == 20
    assert snap.seat(4).shows == 1                              # the last aggressor shows first
    assert not snap.seat(1).dealt
    assert snap.button == 6 and snap.seat(6).button


def test_a_finished_hand_stays_on_screen_until_the_next_deal():
    ds = played_side_pot()
    ruling = ds.state["ruling"]
    # the table is cleared: hand_end, and the table state is empty again
    ds.feed(evs([{"type": "hand_end", "hand": 2, "ruling": ruling.to_json(), "board": SIDE_POT["board"],
                  "won_without_showdown": None, "corrections": 0}]),
            {**state(None, "waiting"), "hand": None})
    snap = ds.snapshot("ja")
    assert not snap.live and snap.hand == 2 and snap.title == "第2ハンド 終了"
    assert snap.board == tuple(SIDE_POT["board"])
    assert snap.seat(3).cards == ("Kh", "JK") and snap.seat(2).payout == 320
    assert [p.amount for p in snap.pots] == [320, 400]
    ds.feed(evs([{"type": "hand_start", "hand": 3, "seats": [1, 2], "button": 1}]),
            state(3, seats=seats_state(s1={"dealt": True, "cards": ["BACK", "BACK"]},
                                       s2={"dealt": True, "cards": ["BACK", "BACK"]}), button=1))
    snap = ds.snapshot("ja")
    assert snap.live and snap.hand == 3 and snap.pots == () and snap.board == (None,) * 5


def test_alerts_loudest_first_and_camera_loss_until_it_is_back():
    ds = DeskState(seats=6)
    chips = {"code": "chips_missing", "message": "no chips", "message_ja": "未入力", "seat": 2}
    joker = {"code": "joker_on_board", "message": "the joker is in board4", "message_ja": "board4にJOKER",
             "zone": "board4", "card": "JK"}
    ds.feed(evs([{"type": "alert", "code": "camera_lost", "message": "camera 0 lost", "message_ja": "カメラ切断",
                  "cleared": False}]), state(1, alerts=[chips, joker]))
    snap = ds.snapshot("ja")
    assert [a.code for a in snap.alerts] == ["camera_lost", "joker_on_board", "chips_missing"]
    assert snap.alerts[1].zone == "board4" and snap.alerts[1].severity == "stop"
    assert snap.alerts[1].title == "ボードにJOKER: バーン交換" and snap.alerts[1].message == "board4にJOKER"
    ds.feed(evs([{"type": "alert", "code": "camera_back", "message": "back", "message_ja": "復帰", "cleared": False}]),
            state(1, alerts=[chips]))
    assert [a.code for a in ds.snapshot("en").alerts] == ["chips_missing"]


def test_an_alert_the_table_does_not_keep_waits_for_the_dealer():
    ds = DeskState(seats=6)
    refused = {"type": "alert", "code": "bad_action", "message": "dealer action ignored: fold: no hand",
               "message_ja": "ディーラー入力を無視しました", "cleared": False}
    ds.feed(evs([refused]), state(None, "waiting"))
    ds.feed([], state(None, "waiting"))          # later frames do not clear it
    alerts = ds.snapshot("en").alerts
    assert [(a.code, a.dismissable) for a in alerts] == [("bad_action", True)]
    assert "fold: no hand" in alerts[0].message
    assert ds.dismiss() and ds.snapshot("en").alerts == ()
    assert not ds.dismiss()


def test_the_live_table_state_feeds_the_screen_end_to_end():
    """LiveTable -> DeskState with no camera: backs, a flop, a joker on the turn, its swap."""
    table = LiveTable(seats=6)
    ds = DeskState(seats=6)
    f = 0

    def run(obs, n=3):
        nonlocal f
        for _ in range(n):
            ds.feed(table.step(f, f / 15, obs), table.state())
            f += 1

    backs = [Observation("BACK", f"seat{s}", (s * 200.0 + dx, 0.0), 1.0) for s in (1, 3) for dx in (0, 60)]
    flop = [Observation(c, f"board{i}", (i * 100.0, 500.0), 0.9) for i, c in enumerate(["9s", "6h", "2c"], 1)]
    run(backs)
    run(backs + flop)
    run(backs + flop + [Observation("JK", "board4", (400.0, 500.0), 0.9)])
    snap = ds.snapshot("ja")
    assert snap.board[:4] == ("9s", "6h", "2c", "JK")
    assert [a.code for a in snap.alerts] == ["joker_on_board"]
    assert [s.zone for s in snap.board_spots] == ["board1", "board2", "board3", "board4"]
    assert all(s.live for s in snap.board_spots)
    run(backs + flop + [Observation("Kd", "board4", (400.0, 500.0), 0.9)], n=10)
    snap = ds.snapshot("ja")
    assert snap.board[:4] == ("9s", "6h", "2c", "Kd") and snap.alerts == ()
    assert any("JOKERを" in line for line in snap.log)       # the swap is told in the commentary


def test_a_losing_seat_says_why_in_one_line_and_the_deciding_line_is_picked_out():
    ja, en = played_side_pot().snapshot("ja"), played_side_pot().snapshot("en")
    # seat 3 (the joker) ties seat 4's straight for the side pot and loses the tie (Joker NLH rule 4)
    assert ja.seat(3).reason == "シート4と同点、JOKERの負け"
    assert en.seat(3).reason == "ties seat 4; the joker loses ties"
    assert [ja.seat(n).reason for n in (1, 2, 4, 6)] == ["", "", "", ""]   # winners, folded, not dealt
    assert len(ja.deciding) == 1 and "特別ルール④" in ja.deciding[0] and not ja.deciding[0].startswith(" ")
    assert "loses ties" in en.deciding[0]
    # a plain win: the deciding line is the main pot's award, the loser names the better hand
    table = {"game": "holdem", "board": ["9s", "9d", "4c", "7h", "2s"], "button": 1,
             "seats": [{"seat": 1, "hole": ["Qc", "Ks"], "committed": 200},
                       {"seat": 5, "hole": ["9h", "Jd"], "committed": 200}]}
    ruling = settle(table)
    ds = DeskState(seats=6)
    dealt = {"s1": {"dealt": True, "cards": ["Qc", "Ks"]}, "s5": {"dealt": True, "cards": ["9h", "Jd"]}}
    ds.feed(evs([{"type": "hand_start", "hand": 1, "seats": [1, 5], "button": 1}]),
            state(1, "showdown", table["board"], seats_state(**dealt), ruling=ruling, button=1))
    ja, en = ds.snapshot("ja"), ds.snapshot("en")
    assert ja.seat(1).reason == "シート5のスリーカードに負け"
    assert en.seat(1).reason == "loses to seat 5's three of a kind"
    assert en.deciding[0].startswith("Main pot 400") and "seat 5 wins" in en.deciding[0]


def test_a_correction_stands_on_the_banner_and_marks_its_card_until_the_hand_ends():
    ds = played_side_pot()
    st = dict(ds.state)
    st["corrections"] = [{"zone": "seat2", "card": "Qd", "to": "Qh"},
                         {"zone": "board3", "card": "Tc", "to": "Th"},
                         {"zone": "burn", "card": "??", "to": None}]
    ds.feed([], st)
    ja, en = ds.snapshot("ja"), ds.snapshot("en")
    assert [a.code for a in ja.alerts] == ["correction_stands"]       # not "all clear"
    assert ja.alerts[0].title == "ディーラー訂正あり" and ja.alerts[0].severity == "info"
    assert "シート2 Q♦ → Q♥" in ja.alerts[0].message and "バーン ? → 削除" in ja.alerts[0].message
    assert "seat 2 Q♦ → Q♥" in en.alerts[0].message and "until the hand ends" in en.alerts[0].message
    assert ja.corrected("board3", "Th") == "Tc" and ja.corrected("board1", "Qd") is None
    assert ja.seat(2).corrected == (("Qh", "Qd"),) and ja.seat(4).corrected == ()
    # the hand ends: the banner no longer says it; the finished hand keeps its marks until the next deal
    ds.feed(evs([{"type": "hand_end", "hand": 2, "ruling": st["ruling"].to_json(), "board": SIDE_POT["board"],
                  "won_without_showdown": None, "corrections": 3}]),
            {**state(None, "waiting"), "hand": None, "corrections": []})
    snap = ds.snapshot("ja")
    assert snap.alerts == () and snap.corrected("board3", "Th") == "Tc"
    ds.feed(evs([{"type": "hand_start", "hand": 3, "seats": [1, 2], "button": 1}]),
            {**state(3, seats=seats_state(s1={"dealt": True, "cards": ["BACK", "BACK"]},
                                          s2={"dealt": True, "cards": ["BACK", "BACK"]}), button=1),
             "corrections": []})
    assert ds.snapshot("ja").corrections == ()
