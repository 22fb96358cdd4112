"""Hold'em hi/lo and lowball (seed 004) at the live table, driven by scripted observation streams.
Rulings worked out by hand (noted beside each)."""
from __future__ import annotations

import pytest

from dealer_assist.desk.view import DeskState
from dealer_assist.errors import UserError
from dealer_assist.live.handflow import LiveTable
from test_handflow import play, seg

# Hold'em hi/lo, no low qualifier (seed 004). Board Ah 4d 7s Kc Qd; seats 1, 2, 3 put in 51 each.
#   seat 1 As Kd: high two pair A-A-K-K-Q (the best high); low K-Q-7-4-A
#   seat 2 2h 3c: high A-K-Q-7-4; low 7-4-3-2-A (the best low)
#   seat 3 5c 6c: high A-K-Q-7-6; low 7-6-5-4-A
#   pot 153: high half 77 (the odd chip goes to the high half, TDA 20A), low half 76
HILO = [
    seg(10),
    seg(12, seat1="BACK BACK", seat2="BACK BACK", seat3="BACK BACK"),
    seg(12, "Ah 4d 7s", seat1="BACK BACK", seat2="BACK BACK", seat3="BACK BACK"),
    seg(12, "Ah 4d 7s Kc", seat1="BACK BACK", seat2="BACK BACK", seat3="BACK BACK"),
    seg(12, "Ah 4d 7s Kc Qd", seat1="BACK BACK", seat2="BACK BACK", seat3="BACK BACK"),
    seg(12, "Ah 4d 7s Kc Qd", seat1="As Kd", seat2="2h 3c", seat3="5c 6c"),
    seg(20),
]
HILO_CHIPS = {30: [{"type": "committed", "seat": s, "amount": 51} for s in (1, 2, 3)]}


def test_hilo_pays_both_halves_and_the_desk_shows_both_hands():
    table = LiveTable(seats=6, game="holdem-hilo")
    events, _ = play(HILO, HILO_CHIPS, table=table)
    shows = [e for e in events if e.type == "showdown"]
    assert len(shows) == 1
    r = shows[0].ruling
    assert r.payouts == {1: 77, 2: 76, 3: 0}
    assert [(p.amount, p.winners) for p in r.pots] == [(77, (1,)), (76, (2,))]
    desk = DeskState(seats=6)
    desk.feed(events, None)
    snap = desk.snapshot("en")
    seat2 = snap.seats[1]
    assert seat2.payout == 76 and seat2.hand_name.endswith("\n7-4-3-2-A low")
    assert snap.seats[0].hand_name.endswith("\nK-Q-7-4-A low") and snap.seats[0].payout == 77
    assert "ロー(A-5) 7-4-3-2-A" in desk.snapshot("ja").seats[1].hand_name
    assert len(snap.pots) == 2


# Lowball: seats 1 and 2 get five cards each; seat 1 draws 2, seat 2 stands pat; 30 each.
#   seat 1 5h 4d 3c 2s As; seat 2 8h 6d 4c 3s 2d
#   A-5: seat 1's 5-4-3-2-A (the best low) beats 8-6-4-3-2: seat 1 takes 60
#   2-7: aces are high and 5-4-3-2-A is no straight: A-5-4-3-2 loses to 8-6-4-3-2: seat 2 takes 60
FIVE = "BACK BACK BACK BACK BACK"
LOWBALL = [
    seg(10),
    seg(14, seat1=FIVE, seat2=FIVE),
    seg(8, seat1="BACK BACK BACK", seat2=FIVE),          # seat 1 discards two
    seg(12, seat1=FIVE, seat2=FIVE),                     # and gets two
    seg(12, seat1="5h 4d 3c 2s As", seat2=FIVE),
    seg(12, seat1="5h 4d 3c 2s As", seat2="8h 6d 4c 3s 2d"),
    seg(20),
]
DRAWS = {24: [{"type": "draw", "seat": 1, "cards": 2}, {"type": "draw", "seat": 2, "cards": 0}],
         40: [{"type": "committed", "seat": 1, "amount": 30}, {"type": "committed", "seat": 2, "amount": 30}]}


@pytest.mark.parametrize("game, winner", [("lowball-a5", 1), ("lowball-27", 2)])
def test_lowball_draws_are_dealer_inputs_and_the_final_five_are_ruled(game, winner):
    table = LiveTable(seats=6, game=game)
    events, _ = play(LOWBALL, DRAWS, table=table)
    draws = [(e.seat, e.cards, e.round) for e in events if e.type == "draw"]
    assert draws == [(1, 2, 1), (2, 0, 1)]
    assert [e.seats for e in events if e.type == "hand_start"] == [(1, 2)]
    shows = [e for e in events if e.type == "showdown"]
    assert len(shows) == 1 and shows[0].ruling.payouts[winner] == 60
    assert not [e for e in events if e.type == "alert"]
    assert not [e for e in events if e.type == "hand_start" and e.hand == 2]   # the draw is no new deal


def test_the_desk_shows_each_seat_s_draws():
    table = LiveTable(seats=6, game="lowball-a5")
    events, _ = play(LOWBALL[:4], DRAWS, table=table)
    desk = DeskState(seats=6)
    desk.feed(events, table.state())
    snap = desk.snapshot("ja")
    assert snap.seats[0].draws == (2,) and snap.seats[1].draws == (0,)
    assert snap.street == "draw"


def test_a_wrong_card_count_is_an_alert_and_holds_the_ruling():
    script = LOWBALL[:4] + [seg(12, seat1="5h 4d 3c 2s As Kh", seat2=FIVE),
                            seg(12, seat1="5h 4d 3c 2s As Kh", seat2="8h 6d 4c 3s 2d"),
                            seg(12, seat1="5h 4d 3c 2s As", seat2="8h 6d 4c 3s 2d"), seg(20)]
    events, _ = play(script, DRAWS, table=LiveTable(seats=6, game="lowball-a5"))
    counts = [e for e in events if e.type == "alert" and e.code == "wrong_card_count"]
    assert [a.cleared for a in counts] == [False, True]
    assert counts[0].get("seat") == 1 and "6 cards" in counts[0].message and "6枚" in counts[0].message_ja
    shows = [e for e in events if e.type == "showdown"]
    assert len(shows) == 1 and shows[0].frame > counts[1].frame - 1
    assert shows[0].ruling.payouts[1] == 60


def test_bad_draws_are_refused_with_the_reason():
    table = LiveTable(seats=6, game="lowball-27")
    with pytest.raises(UserError, match="no hand is in progress"):
        table.apply({"type": "draw", "seat": 1, "cards": 1}, 0, 0.0)
    play(LOWBALL[:2], table=table)
    with pytest.raises(UserError, match="0 to 5, got 7"):
        table.apply({"type": "draw", "seat": 1, "cards": 7}, 30, 2.0)
    with pytest.raises(UserError, match="unknown field"):
        table.apply({"type": "draw", "seat": 1, "cards": 1, "discard": ["As"]}, 30, 2.0)
    with pytest.raises(UserError, match="known: button, committed, ante, antes, fold, last_aggressor, "
                                        "correct, confirm, dealer, draw"):
        table.apply({"type": "shuffle"}, 30, 2.0)
    # a hold'em table knows no draw
    with pytest.raises(UserError, match="unknown dealer action 'draw'"):
        LiveTable(game="holdem").apply({"type": "draw", "seat": 1, "cards": 1}, 0, 0.0)
