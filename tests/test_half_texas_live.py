"""Half Texas hold'em at the live table (seed 001, docs/half-texas.md): the 26-card deck checked,
colour points ruled at the showdown, raises and changes as dealer inputs, dropouts, and the
session's ledger of BP and RP that the state, the events and the hand log keep.

Every point below is worked out by hand from the seed: a sole winner gains the colours of its
best five, each other seat still in loses the colours of the two cards of the winner's seven
that the five left out, all times (raises + 1); points stop at 0 and 0 of either is a dropout.
"""
from __future__ import annotations

import json
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")   # the desk test needs no screen

import pytest

from dealer_assist.cli import main
from dealer_assist.errors import UserError
from dealer_assist.live.handflow import LiveTable
from dealer_assist.live.tracker import Observation

BASE = {f"board{i}": (400.0 + 70 * (i - 1), 300.0) for i in range(1, 6)}
BASE.update({f"seat{s}": (100.0 + 180 * (s - 1), 650.0) for s in range(1, 7)})
BASE.update({"burn": (250.0, 300.0), "muck": (1000.0, 300.0)})
B2 = "BACK BACK"
B5 = "BACK BACK BACK BACK BACK"


def seg(n, board="", **zones):
    table = {f"board{i}": c for i, c in enumerate(board.split(), 1)}
    table.update({z: v for z, v in zones.items() if v})
    return (n, {z: v.split() for z, v in table.items()})


def play(script, actions=None, table=None, start=0):
    """Run a script (segments of frames) through a Half Texas table; ``actions``: frame -> the
    dealer's inputs, applied before that frame's observations."""
    table = table or LiveTable(seats=6, game="half-texas")
    events = []
    f = start
    for n, zones in script:
        for _ in range(n):
            for a in (actions or {}).get(f, []):
                events += table.apply(a, f, f / 15)
            seen = [Observation(card, zone, (BASE[zone][0] + 70 * k, BASE[zone][1]), 1.0 if card == "BACK" else 0.95,
                                sure=card != "BACK")
                    for zone, cards in zones.items() for k, card in enumerate(cards)]
            events += table.step(f, f / 15, seen)
            f += 1
    return events, table


def of(events, kind):
    return [e for e in events if e.type == kind]


def game(board, seats, folded=(), n=12):
    """A game from the deal to the cleared table: every seat in ``seats`` dealt two cards face
    down (the board face down too), folded seats opened first, then the board, then the rest."""
    backs = {f"seat{s}": B2 for s in seats}
    opened = dict(backs)
    for s in folded:
        opened[f"seat{s}"] = seats[s]
    shown = {f"seat{s}": cards for s, cards in seats.items()}
    return [seg(n, board=B5, **backs), seg(n, board=B5, **opened), seg(n, board=board, **opened),
            seg(n, board=board, **shown), seg(n)]


# game 1: players 1, 2, 3 (seat 4 is empty but dealt); seat 3 folds; seat 1 raises (x2).
# board 9s Ts Js 2h 5h; seat 1 Qs Ks: straight flush 9-K (5 black): +10 BP; it left out 2h 5h:
# seat 2 (7h 8h, a straight) loses 2 RP x2 = 4 RP. Seat 3 folded (4s 6h): no change.
G1 = game("9s Ts Js 2h 5h", {1: "Qs Ks", 2: "7h 8h", 3: "4s 6h", 4: B2}, folded=(3,))
G1_ACTIONS = {0: [{"type": "players", "seats": [1, 2, 3]}], 12: [{"type": "fold", "seat": 3}],
              13: [{"type": "raise", "seat": 1}]}


def test_a_game_rules_the_colour_points_and_keeps_the_ledger():
    events, table = play(G1, G1_ACTIONS)
    start = of(events, "hand_start")[0]
    assert start.seats == (1, 2, 3, 4)          # the empty seat's cards are dealt too
    assert [(e.seat, e.raises, e.multiplier) for e in of(events, "raise")] == [(1, 1, 2)]
    boards = of(events, "board")
    assert [b.street for b in boards] == ["flop", "turn", "river"]    # never a face-down board
    sd = of(events, "showdown")[-1]
    r = sd.ruling
    assert r.note("multiplier") == 2 and r.note("winners") == [1] and r.payouts == {} and r.pots == ()
    assert r.note("points") == {"1": {"bp": 10, "rp": 0}, "2": {"bp": 0, "rp": -4}, "3": {"bp": 0, "rp": 0}}
    assert r.hands[1].category == "straight_flush"
    # the engine's own ruling, typed: what the ledger is kept from
    assert r.result.multiplier == 2 and r.result.points[2] == (0, -4) and r.result.standings[2].rp == 6
    assert [s["seat"] for s in sd.table["seats"]] == [1, 2, 3]      # seat 4 plays no part
    assert not [e for e in events if e.type == "alert" and e.code == "chips_missing"]
    ledger = of(events, "ledger")
    assert len(ledger) == 1 and ledger[0].games == 1
    assert ledger[0].seats == {1: {"bp": 20, "rp": 10, "final": 200, "dropped": False},
                               2: {"bp": 10, "rp": 6, "final": 60, "dropped": False},
                               3: {"bp": 10, "rp": 10, "final": 100, "dropped": False}}
    assert ledger[0].button == 2 and ledger[0].over is False
    st = table.state()
    assert st["ledger"]["seats"]["2"] == {"bp": 10, "rp": 6, "final": 60, "dropped": False}
    assert st["seats"]["1"]["bp"] == 20
    json.dumps(st)


def test_a_card_outside_the_26_card_deck_is_an_alert_until_it_is_gone():
    script = [seg(12, board=B5, seat1=B2, seat2=B2), seg(12, board=B5, seat1=B2, seat2=B2, burn="7d"),
              seg(12, board=B5, seat1=B2, seat2=B2)]
    events, _ = play(script)
    alerts = [e for e in events if e.type == "alert" and e.code == "not_in_deck"]
    assert [(a.get("card"), a.get("zone"), a.cleared) for a in alerts] == [("7d", "burn", False), ("7d", "burn", True)]
    assert "26" in alerts[0].message_ja and "デッキ" in alerts[0].message_ja
    # the deck's own cards raise nothing
    events, _ = play([seg(12, board=B5, seat1=B2, seat2=B2, burn="7s 7h")])
    assert not [e for e in events if e.type == "alert"]


def test_a_dropout_gets_a_swap_hand_the_button_skips_it_and_a_change_takes_it():
    table = LiveTable(seats=6, game="half-texas")
    # a session carried over: seat 3 has 1 RP left
    acts = {0: [{"type": "players", "seats": [1, 2, 3]}, {"type": "points", "seat": 3, "bp": 10, "rp": 1}]}
    # seat 1 Qs Ks wins (straight flush), leaving out 2h 5h: seats 2 and 3 lose 2 RP; seat 3 stops at 0
    g1 = game("9s Ts Js 2h 5h", {1: "Qs Ks", 2: "7h 8h", 3: "4s 6h"})
    events, table = play(g1, acts, table)
    ledger = of(events, "ledger")[-1]
    assert ledger.dropouts == (3,) and ledger.seats[3]["dropped"] is True
    assert ledger.seats[3]["rp"] == 0
    assert ledger.button == 2
    with pytest.raises(UserError, match="change"):
        table.apply({"type": "change", "seat": 1}, 60, 4.0)        # no hand in progress
    # game 2: button 2; seat 3's cards are the swap hand; seat 1 changes with it, then seat 2 cannot
    g2 = game("8s 8h 9s Ah Kh", {1: "2s 3h", 2: "Ts Th", 3: "4s 5h"})
    acts2 = {70: [{"type": "change", "seat": 1}]}
    events, table = play(g2, acts2, table, start=60)
    assert of(events, "hand_start")[0].button == 2
    assert [(e.seat, e.with_seat) for e in of(events, "change")] == [(1, 3)]
    sd = of(events, "showdown")[-1]
    assert [s["seat"] for s in sd.table["seats"]] == [1, 2]      # the swap hand is no player
    assert sd.ruling.winners_of_pots() == (2,)                           # twin tower 8-8-9-T-T
    # a second change in one game, and a change with no dropped seat, are refused
    t2 = LiveTable(seats=6, game="half-texas")
    play([seg(12, board=B5, seat1=B2, seat2=B2)], {0: [{"type": "players", "seats": [1, 2]}]}, t2)
    with pytest.raises(UserError) as exc:
        t2.apply({"type": "change", "seat": 1}, 12, 1.0)
    assert "swap" in str(exc.value) and exc.value.message_ja != str(exc.value)


def test_the_session_ends_when_three_players_have_dropped_out():
    table = LiveTable(seats=6, game="half-texas")
    acts = {0: [{"type": "players", "seats": [1, 2, 3, 4]}] + [
        {"type": "points", "seat": s, "bp": 10, "rp": 1} for s in (2, 3, 4)]}
    g = game("9s Ts Js 2h 5h", {1: "Qs Ks", 2: "7h 8h", 3: "4s 6h", 4: "3s 3h"})
    events, table = play(g, acts, table)
    ledger = of(events, "ledger")[-1]
    assert ledger.dropouts == (2, 3, 4) and ledger.over is True and ledger.button is None
    assert "3" in ledger.reason and ledger.reason_ja


@pytest.mark.parametrize("action, words", [
    ({"type": "raise", "seat": 1}, "no hand"),
    ({"type": "players", "seats": [1]}, "two or more"),
    ({"type": "players", "seats": [1, 9]}, "two or more"),
    ({"type": "points", "seat": 1, "bp": 5, "rp": 5}, "no session"),
])
def test_bad_dealer_inputs_between_hands_are_refused_with_a_reason(action, words):
    with pytest.raises(UserError) as exc:
        LiveTable(seats=6, game="half-texas").apply(action, 0, 0.0)
    assert words in str(exc.value)
    assert exc.value.message_ja and exc.value.message_ja != str(exc.value)


def test_bad_dealer_inputs_during_a_game_are_refused_with_a_reason():
    table = LiveTable(seats=6, game="half-texas")
    play([seg(12, board=B5, seat1=B2, seat2=B2, seat3=B2)], {0: [{"type": "players", "seats": [1, 2]}]}, table)
    table.apply({"type": "raise", "seat": 1}, 12, 1.0)
    for action, words in [({"type": "raise", "seat": 1}, "raised already"),
                          ({"type": "raise", "seat": 3}, "not a player"),
                          ({"type": "players", "seats": [1, 2]}, "between hands"),
                          ({"type": "points", "seat": 1, "bp": 1, "rp": 1}, "between hands"),
                          ({"type": "raise", "seat": 1, "amount": 3}, "unknown field")]:
        with pytest.raises(UserError) as exc:
            table.apply(action, 13, 1.0)
        assert words in str(exc.value), (action, str(exc.value))


def test_a_game_won_by_folds_waits_for_the_cards_its_points_need():
    # seats 2 and 3 fold; seat 1 is the last one in: it gains the colours of its best five, so the
    # board and its two cards must be open before there is a ruling
    script = [seg(12, board=B5, seat1=B2, seat2=B2, seat3=B2),
              seg(12, board=B5, seat1=B2, seat2="7h 8h", seat3="4s 6h"),
              seg(12, board="9s Ts Js 2h 5h", seat1="Qs Ks", seat2="7h 8h", seat3="4s 6h"),
              seg(12)]
    acts = {12: [{"type": "fold", "seat": 2}, {"type": "fold", "seat": 3}]}
    events, _ = play(script, acts)
    errors = [e for e in events if e.type == "alert" and e.code == "ruling_error"]
    assert errors and not errors[0].cleared and "board" in errors[0].message
    assert errors[-1].cleared
    end = of(events, "hand_end")[0]
    assert end.won_without_showdown == 1
    assert end.ruling.note("points")["1"] == {"bp": 5, "rp": 0}       # x1, five black; nobody loses
    assert of(events, "ledger")[0].seats[1]["bp"] == 15


def test_review_reads_the_clip_s_ledger(tmp_path, capsys):
    db = tmp_path / "hands.sqlite"
    assert main(["run", "--game", "half-texas", "--headless", "--events", str(tmp_path / "ev.jsonl"),
                 "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["review", "--db", str(db), "1:2", "--lang", "en"]) == 0
    told = capsys.readouterr().out
    assert "twin tower 8-8-9-T-T" in told
    assert "ledger after game 2: seat 1 30 BP 2 RP = 60" in told and "dropped out: seat 3" in told
    assert main(["review", "--db", str(db), "1:2"]) == 0      # Japanese by default
    told = capsys.readouterr().out
    assert "ツインタワー" in told


def test_ledger_view_orders_by_final_score_and_says_who_is_out_in_both_languages():
    from dealer_assist.desk.half_texas_view import ledger_view

    st = {"hand": None, "ledger": {"games": 2, "over": True, "reason": "3 players have dropped out",
                                   "reason_ja": "3名脱落",
                                   "seats": {"1": {"bp": 30, "rp": 2, "final": 60, "dropped": False},
                                             "3": {"bp": 10, "rp": 0, "final": 0, "dropped": True},
                                             "4": {"bp": 22, "rp": 18, "final": 396, "dropped": False}},
                                   "changes": {"4": {"bp": 12, "rp": 8}}}}
    ja, en = ledger_view(st, "ja"), ledger_view(st, "en")
    assert [r.seat for r in ja.rows] == [4, 1, 3] and ja.rows[0].leader and ja.rows[2].dropped
    assert ja.rows[2].cells[-1] == "脱落（交換用ハンド）" and en.rows[2].cells[-1] == "out: swap hand"
    assert ja.rows[0].cells[4] == "+12 / +8" and ja.rows[1].cells[4] == ""
    assert "3名脱落" in ja.note and "casino war" in en.note and ja.game == ""
    assert ledger_view({"hand": 1, "seats": {}}, "ja") is None        # another game: no ledger


def test_the_desk_shows_the_ledger_in_place_of_the_pots(qtbot, tmp_path):
    from PySide6.QtWidgets import QApplication, QLabel

    from dealer_assist.cli import build_parser
    from dealer_assist.commands.desk import pick_font
    from dealer_assist.commands.run import LiveParts
    from dealer_assist.desk.half_texas_view import ledger_panel
    from dealer_assist.desk.session import LiveSession
    from dealer_assist.desk.window import DeskWindow

    assert ledger_panel(LiveTable(seats=6, game="holdem")) is None
    pick_font(QApplication.instance())
    args = build_parser().parse_args(["desk", "--game", "half-texas", "--fast", "--stop-at", "188",
                                      "--db", str(tmp_path / "h.sqlite")])
    args.realtime = False
    parts = LiveParts(args, lambda ev: None, log_thread_free=True)
    w = DeskWindow(LiveSession(parts.pipeline, parts.source, stop_at=args.stop_at),
                   calibration=parts.calibration, lang="ja", db=str(tmp_path / "h.sqlite"))
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    w.start()
    qtbot.waitUntil(lambda: w.is_paused and w._last_frame_index is not None and w._last_frame_index >= 180,
                    timeout=120_000)
    panel = w.ledger_panel
    assert panel is not None and panel.isVisible() and w.ruling.isHidden()
    assert panel.title.text() == "持ち点（2ゲーム終了）"
    texts = [c.text() for c in panel.findChildren(QLabel)]
    assert "脱落（交換用ハンド）" in texts and "396" in texts
    assert "シート4の勝ち" in panel.why.text() and "強制脱落" in panel.why.text()
    # the seat panels give each player's points in place of chips; an empty seat says so
    assert w.seats[1].status.text() == "30BP 2RP" and w.seats[2].status.text() == "10BP 2RP・フォールド"
    assert w.seats[3].status.text() == "脱落（交換用ハンド）" and w.seats[5].status.text() == "空席"
    w.close()


def test_the_half_texas_layout_lays_the_nine_burn_cards_in_a_row_a_camera_can_read():
    import numpy as np

    from dealer_assist.live.calibration import load_layout

    from pathlib import Path

    d = load_layout(Path(__file__).resolve().parent.parent / "calibration" / "layouts" / "half-texas-6.yaml")
    assert d["seats"] == 6 and {f"board{i}" for i in range(1, 6)} <= set(d["zones"])
    burn = np.array(d["zones"]["burn"], dtype=float)
    width = burn[:, 0].max() - burn[:, 0].min()
    assert width >= 9 * 63           # nine cards side by side, each opened where it lies is readable
    board_bottom = max(y for z in range(1, 6) for _, y in d["zones"][f"board{z}"])
    assert burn[:, 1].min() > board_bottom     # under the board, not over it
