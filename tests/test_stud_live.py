"""Seven-card stud at the live table (seed 003), driven by scripted observation streams.

Each seat's zone holds its cards as the camera sees them (``BACK`` for a face-down card); the
deals, owners, showdown order and payouts below are worked out by hand from seed 003 and
RULINGS.md (noted beside each).
"""
from __future__ import annotations

import pytest

from dealer_assist.errors import UserError
from dealer_assist.games import find_game, game_names
from dealer_assist.live.handflow import LiveTable
from test_handflow import play, seg

B2 = "BACK BACK"


def stud_table() -> LiveTable:
    return LiveTable(seats=4, game="stud7")


# Hand A. Seats 1, 2, 4; everyone puts in 40.
#   deal 1 up: 1 Kh 7d 3c (no pair K-7-3), 2 9s 9c 2h (one pair 9-9-2), 4 Ad Qs 5c (no pair A-Q-5)
#     -> seat 2 acts first (the only pair)
#   deal 2 up: 1 +Kd (one pair K-K-7-3), 2 +4d (one pair 9-9-4-2), 4 +As (one pair A-A-Q-5)
#     -> seat 4 acts first (aces) and shows first
#   showdown from seat 4 clockwise: 4, 1, 2. Seat 4 Ah 6h 8c: three aces, shown. Seat 1 Ks 7s 2d:
#     full house K-K-K-7-7 beats it, shown. Seat 2 9d 3s Jh: three nines, weaker than seat 1's
#     full house: not opened (mucked). Seat 1 takes the 120.
HAND_A = [
    seg(10),
    seg(12, seat1=B2, seat2=B2, seat4=B2),
    seg(12, seat1=f"{B2} Kh 7d 3c", seat2=f"{B2} 9s 9c 2h", seat4=f"{B2} Ad Qs 5c"),
    seg(12, seat1=f"{B2} Kh 7d 3c Kd BACK", seat2=f"{B2} 9s 9c 2h 4d BACK", seat4=f"{B2} Ad Qs 5c As BACK"),
    seg(12, seat1=f"{B2} Kh 7d 3c Kd BACK", seat2=f"{B2} 9s 9c 2h 4d BACK", seat4="Ah 6h Ad Qs 5c As 8c"),
    seg(12, seat1="Ks 7s Kh 7d 3c Kd 2d", seat2=f"{B2} 9s 9c 2h 4d BACK", seat4="Ah 6h Ad Qs 5c As 8c"),
    seg(12, seat1="Ks 7s Kh 7d 3c Kd 2d", seat2="9d 3s 9s 9c 2h 4d Jh", seat4="Ah 6h Ad Qs 5c As 8c"),
    seg(20),
]
CHIPS_A = {40: [{"type": "committed", "seat": s, "amount": 40} for s in (1, 2, 4)]}


def test_stud_is_one_game_of_the_registry():
    assert "stud7" in game_names(live=True)
    assert find_game("stud7").clip is not None
    with pytest.raises(UserError, match="unknown game 'bridge'; the games are .*stud7"):
        LiveTable(game="bridge")        # not in the registry: the error names the games there are


def test_up_cards_by_deal_and_who_acts_first():
    events, table = play(HAND_A, CHIPS_A, table=stud_table())
    ups = [e for e in events if e.type == "up"]
    assert [(e.street, e.acts_first) for e in ups] == [("deal1", 2), ("deal2", 4)]
    assert ups[0].seats == {1: ("Kh", "7d", "3c"), 2: ("9s", "9c", "2h"), 4: ("Ad", "Qs", "5c")}
    assert ups[1].seats[4] == ("Ad", "Qs", "5c", "As")
    assert ups[1].message == "seat 4 acts first: its open cards Ad Qs 5c As are one pair A-A-Q-5"
    assert "シート4" in ups[1].message_ja
    assert [e.type for e in events][:1] == ["hand_start"]


def test_showdown_from_the_owner_and_the_weaker_hand_mucked():
    events, _ = play(HAND_A, CHIPS_A, table=stud_table())
    shows = [e for e in events if e.type == "showdown"]
    assert len(shows) == 1
    r = shows[0].ruling
    assert r.showdown_order == (4, 1, 2)
    assert r.payouts == {1: 120, 2: 0, 4: 0}
    assert r.hands[1].category == "full_house"
    assert [r.hands[s].shown for s in (4, 1, 2)] == [True, True, False]
    # the rules got each seat's down and up cards apart
    seat4 = next(s for s in shows[0].table["seats"] if s["seat"] == 4)
    assert seat4["up"] == ["Ad", "Qs", "5c", "As"] and sorted(seat4["down"]) == ["6h", "8c", "Ah"]
    end = [e for e in events if e.type == "hand_end"]
    assert len(end) == 1 and end[0].ruling.payouts[1] == 120


def test_the_desk_state_shows_up_cards_by_deal_and_who_acts():
    table = stud_table()
    play(HAND_A[:4], CHIPS_A, table=table)
    st = table.state()
    assert st["street"] == "deal2" and st["acts_first"] == 4
    assert st["seats"]["1"]["up"] == [["Kh", "7d", "3c"], ["Kd"]]
    assert st["seats"]["4"]["acts"] and not st["seats"]["1"]["acts"]
    # the desk: no board slots for stud; each seat's up cards by deal and who acts
    from dealer_assist.desk.view import DeskState

    events, _ = play(HAND_A[:4], CHIPS_A, table=stud_table())
    desk = DeskState(seats=4)
    desk.feed(events, st)
    snap = desk.snapshot("ja")
    assert snap.board == () and snap.seats[3].up == (("Ad", "Qs", "5c"), ("As",)) and snap.seats[3].acts


# Hand B: a tie and the stud odd chip. Seats 1, 2, 3. Seat 2 puts in 11 and folds after deal 1
# (its cards go to the muck); seats 1 and 3 put in 30 each: pot 71.
#   deal 1 up: 1 5h 6d 7c, 2 Jd Jc 4s (one pair), 3 5c 6s 7h -> seat 2 acts first
#   deal 2 up: 1 +8s, 3 +8d: both 8-7-6-5 no pair, the highest open card 8s beats 8d -> seat 1
#   showdown: seat 1 9h 2c 2d and seat 3 9c Kd 3h both make the straight 9-8-7-6-5: a split, 35
#   each and the odd chip to the winner with the highest card by suit (TDA 20A, stud): seat 3's
#   Kd beats seat 1's 9h -> seat 3 36, seat 1 35.
HAND_B = [
    seg(10),
    seg(12, seat1=B2, seat2=B2, seat3=B2),
    seg(12, seat1=f"{B2} 5h 6d 7c", seat2=f"{B2} Jd Jc 4s", seat3=f"{B2} 5c 6s 7h"),
    seg(12, seat1=f"{B2} 5h 6d 7c", seat3=f"{B2} 5c 6s 7h", muck="BACK BACK Jd Jc 4s"),
    seg(12, seat1=f"{B2} 5h 6d 7c 8s BACK", seat3=f"{B2} 5c 6s 7h 8d BACK", muck="BACK BACK Jd Jc 4s"),
    seg(12, seat1="9h 2c 5h 6d 7c 8s 2d", seat3="9c Kd 5c 6s 7h 8d 3h", muck="BACK BACK Jd Jc 4s"),
    seg(20),
]
CHIPS_B = {40: [{"type": "committed", "seat": 1, "amount": 30}, {"type": "committed", "seat": 2, "amount": 11},
                {"type": "committed", "seat": 3, "amount": 30}]}


def test_a_split_gives_the_odd_chip_by_suit():
    events, _ = play(HAND_B, CHIPS_B, table=stud_table())
    ups = [e for e in events if e.type == "up"]
    assert [(e.street, e.acts_first) for e in ups] == [("deal1", 2), ("deal2", 1)]
    assert set(ups[1].seats) == {1, 3}          # the folded seat is dealt no more
    r = next(e for e in events if e.type == "showdown").ruling
    assert r.showdown_order == (1, 3)
    assert r.payouts == {1: 35, 2: 0, 3: 36}
    assert r.pots[0].odd_chips == (3,)


def test_a_wrong_card_count_at_the_showdown_is_an_alert_not_a_ruling():
    # seat 4's up card As is read as 4s at the showdown: its seven cards no longer hold the four
    # up cards dealt -> no ruling, an alert that says why
    script = HAND_A[:6] + [seg(12, seat1="Ks 7s Kh 7d 3c Kd 2d", seat2="9d 3s 9s 9c 2h 4d Jh",
                               seat4="Ah 6h Ad Qs 5c 4s 8c")]
    script[4] = seg(12, seat1=f"{B2} Kh 7d 3c Kd BACK", seat2=f"{B2} 9s 9c 2h 4d BACK",
                    seat4="Ah 6h Ad Qs 5c 4s 8c")
    script[5] = seg(12, seat1="Ks 7s Kh 7d 3c Kd 2d", seat2=f"{B2} 9s 9c 2h 4d BACK",
                    seat4="Ah 6h Ad Qs 5c 4s 8c")
    events, table = play(script, CHIPS_A, table=stud_table())
    assert not [e for e in events if e.type == "showdown"]
    alerts = [e for e in events if e.type == "alert" and e.code == "ruling_error"]
    assert alerts and "expected 3 face-down cards" in alerts[0].message
    # the dealer corrects the misread card: the ruling comes
    caused = table.apply({"type": "correct", "zone": "seat4", "card": "4s", "to": "As"}, 999, 99.0)
    caused += table.step(1000, 99.1, [])
    assert any(e.type == "showdown" and e.ruling.payouts[1] == 120 for e in caused)


def test_a_joker_read_among_the_up_cards_holds_the_deal_and_is_called_out():
    script = HAND_A[:2] + [seg(12, seat1=f"{B2} Kh JK 3c", seat2=f"{B2} 9s 9c 2h", seat4=f"{B2} Ad Qs 5c")]
    table = stud_table()
    events, _ = play(script, table=table)
    assert not [e for e in events if e.type == "up"]
    alerts = [e for e in events if e.type == "alert"]
    assert [a.code for a in alerts] == ["duplicate_card"] and "no joker" in alerts[0].message
    # the dealer corrects the misread card: the deal is announced
    caused = table.apply({"type": "correct", "zone": "seat1", "card": "JK", "to": "7d"}, 999, 99.0)
    caused += table.step(1000, 99.1, [])
    assert [(e.street, e.acts_first) for e in caused if e.type == "up"] == [("deal1", 2)]
